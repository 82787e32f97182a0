// `/leaderboard`: each rating family's established players (and those
// inactive a while), people by default; the "Bots" switch lists bot
// accounts instead.

import { h, fill } from '../dom.js';
import { t } from '../i18n.js';
import { errorMessage } from '../app.js';

/**
 * @typedef {import('../app.js').App} App
 * @typedef {import('tengen-protocol').RatingFamily} RatingFamily
 * @typedef {import('tengen-protocol').Standing} Standing
 */

/** @type {RatingFamily[]} */
const FAMILIES = ['renju', 'gomoku', 'freestyle', 'twin'];

/** @param {Standing[]} rows */
const table = (rows) => h('table.lb', null,
  h('thead', null, h('tr', null, ...['lb.rank', 'lb.player', 'lb.rating', 'lb.games', 'lb.wdl'].map((k) => h('th', null, t(k))))),
  h('tbody', null, rows.map((r) => h('tr', null, h('td', null, r.rank), h('td', null, h('a', { href: `/@/${r.player}`, 'data-link': true }, r.player)),
    h('td', null, `${Math.round(r.rating)} ±${Math.round(r.deviation)}`), h('td', null, r.games), h('td', null, `${r.wins}/${r.draws}/${r.losses}`)))));

/** @param {App} app @param {HTMLElement} root */
export function mountLeaderboard(app, root) {
  const body = h('div');
  /** @type {RatingFamily} */
  let fam = 'renju';
  // People by default; the switch lists bot accounts instead.
  let bots = false;
  const tabs = h('div.tabs', { role: 'tablist' });
  const show = async () => {
    fill(tabs, FAMILIES.map((f) => h('button', { type: 'button', role: 'tab', 'aria-selected': String(f === fam), onclick: () => { fam = f; show(); } }, t(`rule.${f}`))),
      h('label.small', null, h('input', { type: 'checkbox', name: 'bots', checked: bots, onchange: (/** @type {Event} */ e) => { bots = /** @type {HTMLInputElement} */ (e.target).checked; show(); } }), ' ', t('lb.bots')));
    try {
      const lb = await app.conn.request({ type: 'leaderboard', family: fam, bots }, 'leaderboard');
      fill(body, lb.players.length ? table(lb.players) : h('p', null, t('lb.empty')),
        lb.inactive?.length ? [h('h3', null, t('lb.inactive')), table(lb.inactive)] : null);
    } catch (e) { fill(body, h('p.error', null, errorMessage(e))); }
  };
  fill(root, h('section.leaderboard', null, h('h2', null, t('lb.title')), tabs, body));
  show();
  return () => {};
}
