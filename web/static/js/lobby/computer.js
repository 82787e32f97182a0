// Play the computer: the server's own bot at a level of its ladder, with
// the colour asked for (or by lot), for a game of the room form's rule set
// and time (`play_computer`: the server opens a private room and the
// computer joins it; the game's start brings the page to the game, as for
// any room).

import { h } from '../dom.js';
import { t } from '../i18n.js';

/**
 * @typedef {import('../app.js').App} App
 * @typedef {import('./challenges.js').RoomChoices} RoomChoices
 * @typedef {import('tengen-protocol').Color} Color
 */

/** The ladder's levels. */
const LEVELS = [1, 2, 3, 4, 5];

/**
 * @param {App} app @param {RoomChoices} form the room form's configuration
 * @param {(room: string) => void} waiting the room made for the game
 */
export function computer(app, form, waiting) {
  const level = /** @type {HTMLSelectElement} */ (h('select', { name: 'level' },
    LEVELS.map((n) => h('option', { value: n, selected: n === 2 }, t(`lobby.computer.${n}`)))));
  const colour = /** @type {HTMLSelectElement} */ (h('select', { name: 'colour' },
    ['lot', 'black', 'white'].map((c) => h('option', { value: c }, t(`lobby.computer.${c}`)))));
  return h('form.inline.computer', { onsubmit: async (/** @type {Event} */ e) => {
    e.preventDefault();
    /** @type {Color | undefined} */
    const asked = colour.value === 'black' || colour.value === 'white' ? colour.value : undefined;
    try {
      const r = await app.conn.request({ type: 'play_computer', config: form.config(), level: Number(level.value), colour: asked }, 'room_created');
      waiting(r.room);
    } catch (err) { app.fail(err); }
  } },
  h('p.small', null, t('lobby.computer.hint')),
  h('label', null, t('lobby.computer.level'), ' ', level), ' ',
  h('label', null, t('lobby.computer.colour'), ' ', colour), ' ',
  h('button', { type: 'submit' }, t('lobby.computer.play')));
}
