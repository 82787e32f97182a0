// A game page's move list, in renju notation, and the buttons that step
// through the game: a move (or a step back) shows the position after it
// (GamePage.view), the last step comes back to the game as it stands.
// Live, a new move only appends its item (the list may be long).

import { h, fill } from '../dom.js';
import { t } from '../i18n.js';

/**
 * @typedef {import('./page.js').GamePage} GamePage
 * @typedef {import('tengen-protocol').Move} Move
 */

/** @param {GamePage} g */
export function movesPiece(g) {
  const list = h('ol.moves', { 'aria-label': t('game.moves') });
  const nav = h('div.nav');
  const el = h('div.movebox', null, h('h3', null, t('game.moves')), list, nav);
  /** The view the list was last drawn for. @type {number|null} */
  let listedView = null;

  /** Shows the position after `n` moves (null, or the last: the game as it stands). @param {number|null} n */
  const show = (n) => {
    const count = g.st?.moves.length ?? 0;
    g.view = n == null || n >= count ? null : Math.max(0, n);
    g.render();
  };

  /** @param {Move} m @param {boolean} twin */
  const item = (m, twin) => h('li', {
    'data-n': m.number, class: `${m.color}${g.view === m.number ? ' at' : ''}`,
    onclick: () => show(m.number),
  }, !m.point ? 'pass' : twin ? `${(m.board ?? 0) + 1}:${m.point.toLowerCase()}` : m.point.toLowerCase());

  const render = () => {
    const st = g.st;
    if (!st) return;
    const items = list.children;
    const same = g.view == null && listedView == null && items.length <= st.moves.length
      && (items.length === 0 || items[items.length - 1].getAttribute('data-n') === String(items.length));
    if (!same) fill(list);
    for (let i = same ? items.length : 0; i < st.moves.length; i++) list.appendChild(item(st.moves[i], st.boards > 1));
    listedView = g.view;
    const n = st.moves.length;
    const at = g.view ?? n;
    fill(nav,
      h('button', { type: 'button', 'aria-label': 'first', onclick: () => show(0) }, '|◀'),
      h('button', { type: 'button', 'aria-label': 'back', onclick: () => show(at - 1) }, '◀'),
      h('button', { type: 'button', 'aria-label': 'forward', onclick: () => show(at + 1) }, '▶'),
      h('button', { type: 'button', 'aria-label': 'last', onclick: () => show(null) }, '▶|'),
      h('span.small', null, g.view == null ? t('game.live') : `${g.view} / ${n}`));
  };

  return { el, render };
}
