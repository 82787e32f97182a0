// Challenges: the form that challenges a player by name to a game of the
// room form's configuration (the server makes a private room, which this
// session then waits in), and the challenges this session receives, each
// with Accept (joining its room) and Decline.

import { h } from '../dom.js';
import { t, configName } from '../i18n.js';

/**
 * @typedef {import('../app.js').App} App
 * @typedef {import('tengen-protocol').GameConfigInput} GameConfigInput
 * @typedef {import('tengen-protocol').ServerMsgOf<'challenged'>} Challenged
 * @typedef {{config: () => GameConfigInput, chat: () => boolean}} RoomChoices
 */

/**
 * @param {App} app @param {RoomChoices} form the room form's configuration and chat
 * @param {(room: string) => void} waiting the room made for a challenge sent
 */
export function challenges(app, form, waiting) {
  const received = h('div.challenges');
  const name = /** @type {HTMLInputElement} */ (h('input', { name: 'player', maxlength: 32, required: true }));
  const send = h('form.inline', { onsubmit: async (/** @type {Event} */ e) => {
    e.preventDefault();
    try {
      const r = await app.conn.request({ type: 'challenge', player: name.value.trim(), config: form.config(), chat: form.chat() }, 'room_created');
      waiting(r.room);
    } catch (err) { app.fail(err); }
  } }, h('label', null, t('form.player'), ' ', name), h('button', { type: 'submit' }, t('lobby.challenge.send')));
  return {
    /** The challenges received. */
    received,
    /** The form that sends one. */
    send,
    /** A challenge arrived. @param {Challenged} m */
    challenged(m) {
      const item = h('div.challenge', null, t('lobby.challenged', { name: m.from.name, config: configName(m.config) }), ' ',
        h('button', { type: 'button', onclick: () => { item.remove(); app.go(`/play/${m.room}`); } }, t('lobby.accept')),
        h('button', { type: 'button', onclick: async () => {
          item.remove();
          try { await app.conn.request({ type: 'decline_challenge', room: m.room }, 'room_cancelled'); } catch (e) { app.fail(e); }
        } }, t('lobby.decline')));
      received.appendChild(item);
    },
  };
}
