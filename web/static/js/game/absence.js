// The absent opponent, as on lichess: once the grace for coming back is
// over (the server says so with `player_status`, `grace_ms: 0`,
// `after_grace: claim`), the player may claim the win, call the game a
// draw, or wait on while the absent player's clock runs. The server never
// decides for them (it does where nobody can claim, and says so).

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
 * The opponent is away past the grace and this seat may claim (lichess's
 * way): the win, a draw, or waiting on while their clock runs.
 * @param {GamePage} g @param {TableState} st @param {Seat} mine @param {Btn} btn @returns {Node[]}
 */
export function absence(g, st, mine, btn) {
  const opp = other(mine);
  const a = st.away.get(opp);
  if (!a || a.after !== 'claim' || a.until == null || a.until > performance.now() + 50) return [];
  const who = st.players[opp]?.name ?? '';
  /** @param {boolean} draw */
  const claim = async (draw) => {
    g.showMsg(null);
    try { await g.app.conn.request({ type: 'claim_absence', table: g.table, ...(draw ? { draw } : {}) }, 'acted'); } catch (e) { g.showMsg(e); }
  };
  // Waiting keeps the claim at hand, quietly.
  const waiting = g.ui.waitAbsent;
  return [h('div.absence', { 'data-absence': waiting ? 'waiting' : 'claim', role: 'group' },
    h('p', null, t(waiting ? 'absence.waiting' : 'absence.claim', { who })),
    btn('act.claim_win', () => claim(false), waiting ? undefined : 'primary'), btn('act.call_draw', () => claim(true)),
    waiting ? null : btn('act.wait', () => { g.ui.waitAbsent = true; g.render(); }))];
}
