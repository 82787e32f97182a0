// The room this session created and waits in (app.waiting): its invite
// link when it is private, Cancel, and why it went away when the server
// cancelled or a moderator closed it. The game's start is main.js's (its
// snapshot brings the page to the game).

import { h, fill } from '../dom.js';
import { t } from '../i18n.js';

/**
 * @typedef {import('../app.js').App} App
 * @typedef {import('tengen-protocol').ServerMsgOf<'room_cancelled'>} Cancelled
 */

/** @param {App} app */
export function waitRoom(app) {
  const el = h('div.waitroom');
  return {
    el,
    /** Shows the room `room` as waited in. @param {string} room @param {boolean} isPublic */
    show(room, isPublic) {
      app.waiting = room;
      const link = `${location.origin}/play/${room}`;
      fill(el,
        h('p', null, t('lobby.waitroom')),
        isPublic ? null : h('p', null, t('lobby.invite'), ': ', h('input.invite', { readonly: true, value: link, size: 40, onfocus: (/** @type {Event} */ e) => /** @type {HTMLInputElement} */ (e.target).select() })),
        h('button', { type: 'button', onclick: async () => {
          try { await app.conn.request({ type: 'cancel_room', room }, 'room_cancelled'); } catch (e) { app.fail(e); }
          app.waiting = null;
          fill(el);
        } }, t('lobby.cancel')));
    },
    /** The server cancelled a room (this one, or another). @param {Cancelled} m */
    cancelled(m) {
      if (m.room !== app.waiting) return;
      app.waiting = null;
      fill(el, h('p', null, m.reason));
    },
    /** A moderator closed a room (this one, or another). @param {string} room @param {string} reason */
    closed(room, reason) {
      if (room !== app.waiting) return;
      app.waiting = null;
      fill(el, h('p.notice', { role: 'status' }, t('game.room_closed', { reason })));
    },
  };
}
