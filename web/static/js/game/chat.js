// A game page's talk: the chat of its channel (players talk to players,
// spectators to spectators; the server routes it), and a moderator's word
// when a game is aborted or its room closed, with the reason.

import { h } from '../dom.js';
import { t } from '../i18n.js';

/**
 * @typedef {import('./page.js').GamePage} GamePage
 * @typedef {import('tengen-protocol').ServerMsgOf<'chat'>} ChatMsg
 */

/** @param {GamePage} g */
export function chatPiece(g) {
  const log = h('ul.chat-log', { 'aria-live': 'polite' });
  const input = /** @type {HTMLInputElement} */ (h('input', { name: 'chat', maxlength: 280, autocomplete: 'off', 'aria-label': t('game.chat') }));
  const say = async () => {
    const text = input.value;
    if (!text.trim()) return;
    try {
      await g.app.conn.request({ type: 'chat', table: g.table, text }, 'chat');
      input.value = '';
    } catch (e) { g.showMsg(e); }
  };
  /** @param {HTMLElement} item */
  const add = (item) => {
    log.appendChild(item);
    log.scrollTop = log.scrollHeight;
  };
  const el = h('div.chat', null, h('h3', null, t('game.chat')), log,
    h('form.inline', { onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); say(); } }, input, h('button', { type: 'submit' }, t('game.say'))));
  return {
    el,
    /** @param {ChatMsg} m */
    said(m) { add(h('li', { class: m.channel }, h('span.chan', null, `[${t(`game.chat.${m.channel}`)}] `), h('b', null, m.from.name), ': ', m.text)); },
    /** A moderator's word (already in words). @param {string} text */
    notice(text) { add(h('li.notice', { role: 'status' }, text)); },
  };
}
