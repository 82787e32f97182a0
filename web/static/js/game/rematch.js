// After the game: a tournament game leads back to its tournament; any
// other offers a rematch, which the opponent gets wherever it is (the
// lobby too, main.js), stands while the finished table does and can be
// declined or withdrawn.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { other } from './table.js';

/**
 * @typedef {import('./table.js').TableState} TableState
 * @typedef {import('./page.js').GamePage} GamePage
 * @typedef {import('tengen-protocol').Seat} Seat
 */
/**
 * A button maker (panel.js): its i18n key, action, class and the key's variables.
 * @typedef {(key: string, f: () => void, cls?: string, vars?: Record<string, string|number>) => HTMLElement} Btn
 */

/**
 * After the game: a tournament game's way back to its tournament; else the
 * rematch (offered, accepted or declined here) and the way to the lobby.
 * @param {GamePage} g @param {TableState} st @param {Seat} mine @param {Btn} btn @returns {Node[]}
 */
export function afterGame(g, st, mine, btn) {
  if (st.tournament) {
    return [h('a.button.primary', { href: `/tournament/${st.tournament.tournament}`, 'data-link': true, 'data-act': 'act.to_tournament' }, t('act.to_tournament'))];
  }
  const opp = other(mine);
  const who = st.players[opp]?.name ?? '';
  const decline = async () => {
    try { await g.app.conn.request({ type: 'decline_rematch', table: g.table }, 'rematch_cancelled'); } catch (e) { g.showMsg(e); }
  };
  if (st.rematch.has(mine)) {
    return [h('span.small', { 'data-rematch-waiting': '' }, t('rematch.waiting', { who })), btn('act.decline_rematch', decline), btn('act.leave', () => leave(g, st))];
  }
  return [st.rematch.has(opp) ? h('span.badge', null, t('game.rematch_offered', { who })) : null,
    btn('act.rematch', () => rematch(g), 'primary'),
    st.rematch.has(opp) ? btn('act.decline_rematch', decline) : null,
    btn('act.leave', () => leave(g, st))].flatMap((x) => (x ? [x] : []));
}

/** Offers (or accepts) a rematch. @param {GamePage} g */
async function rematch(g) {
  try { await g.app.conn.request({ type: 'rematch', table: g.table }, 'rematch_offered'); } catch (e) { g.showMsg(e); }
}

/** Leaves the room of a finished game, for the lobby. @param {GamePage} g @param {TableState} st */
async function leave(g, st) {
  try { await g.app.conn.request({ type: 'leave_room', room: st.room }, 'left'); } catch { /* already gone */ }
  g.app.go('/');
}
