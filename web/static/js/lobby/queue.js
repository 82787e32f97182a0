// The rated queue: an account waits for an opponent for the room form's
// configuration (the matchmaker pairs it; the game's start brings the
// page to the game), seeing how long it has waited; a guest is asked to
// log in.

import { h, fill } from '../dom.js';
import { t, configName } from '../i18n.js';

/**
 * @typedef {import('../app.js').App} App
 * @typedef {import('./challenges.js').RoomChoices} RoomChoices
 */

/** @param {App} app @param {RoomChoices} form */
export function ratedQueue(app, form) {
  const el = h('div.queue');
  /** When this page joined the queue; null: not queued. @type {number|null} */
  let queuedAt = null;
  const draw = () => {
    if (!app.loggedIn) { fill(el, h('p.small', null, t('lobby.queue.login'))); return; }
    if (queuedAt == null) {
      fill(el, h('button', { type: 'button', onclick: async () => {
        try {
          await app.conn.request({ type: 'queue', config: form.config() }, 'queued');
          queuedAt = Date.now();
          draw();
        } catch (e) { app.fail(e); }
      } }, t('lobby.queue.join')), h('span.small', null, ' ', configName(form.config())));
    } else {
      fill(el, h('span.queue-wait', null, t('lobby.queue.waiting', { s: Math.floor((Date.now() - queuedAt) / 1000) })), ' ',
        h('button', { type: 'button', onclick: async () => {
          queuedAt = null;
          draw();
          try { await app.conn.request({ type: 'unqueue' }, 'unqueued'); } catch (e) { app.fail(e); }
        } }, t('lobby.queue.leave')));
    }
  };
  const tick = setInterval(() => { if (queuedAt != null) draw(); }, 1000);
  return {
    el,
    draw,
    /** Out of the queue: paired (`matched`), or taken out by the server (`unqueued` push). */
    left() { queuedAt = null; },
    stop() { clearInterval(tick); },
  };
}
