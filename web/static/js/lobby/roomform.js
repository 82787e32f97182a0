// The lobby's room form: every option of `create_room` (the game's
// configuration from gameform.js, the room's name, listed or private,
// chat, rated). The rated queue and the challenge form use its
// configuration too.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { gameFields, formValues, field } from '../gameform.js';

/**
 * @typedef {import('../app.js').App} App
 * @typedef {import('tengen-protocol').ClientMsgOf<'create_room'>} CreateRoom
 */

/**
 * @param {App} app @param {(room: string, isPublic: boolean) => void} created
 */
export function roomForm(app, created) {
  const f = /** @type {HTMLFormElement} */ (h('form.create-room', { onsubmit: async (/** @type {Event} */ e) => {
    e.preventDefault();
    const isPublic = checked('public');
    try {
      /** @type {CreateRoom} */
      const msg = { type: 'create_room', config: game.config(), public: isPublic, chat: checked('chat') };
      if (checked('rated')) msg.rated = true;
      const name = text('name').trim();
      if (name) msg.name = name;
      const r = await app.conn.request(msg, 'room_created');
      created(r.room, isPublic);
    } catch (err) { app.fail(err); }
  } }));
  const { text, checked } = formValues(f);
  const game = gameFields(f);
  f.append(...game.fields,
    field('form.name', h('input', { name: 'name', maxlength: 64 })),
    h('label.check', null, h('input', { type: 'checkbox', name: 'public', checked: true }), t('form.public')),
    h('label.check', null, h('input', { type: 'checkbox', name: 'chat', checked: true }), t('form.chat')),
    h('label.check', null, h('input', { type: 'checkbox', name: 'rated' }), t('form.rated')),
    h('button.primary', { type: 'submit' }, t('lobby.create')));
  game.sync();
  return { el: f, config: game.config, chat: () => checked('chat') };
}
