// The requests a seat may make besides its move, as the server's prompt
// lists them (`may` for the seat to move, `other_may` for the other):
// a forbidden-move claim, a takeback (casual rooms) and the answer to the
// opponent's, and in twin rooms the end of a one-stone turn.

import { h } from '../dom.js';
import { t } from '../i18n.js';

/**
 * @typedef {import('./table.js').TableState} TableState
 * @typedef {import('./page.js').GamePage} GamePage
 * @typedef {import('tengen-protocol').Seat} Seat
 * @typedef {import('tengen-protocol').ActionKind} ActionKind
 */
/**
 * A button maker (panel.js): its i18n key, action, class and the key's variables.
 * @typedef {(key: string, f: () => void, cls?: string, vars?: Record<string, string|number>) => HTMLElement} Btn
 */

/**
 * @param {GamePage} g @param {TableState} st @param {Seat} mine @param {ActionKind[]} may what this seat may do now
 * @param {Btn} btn @returns {Node[]}
 */
export function requests(g, st, mine, may, btn) {
  const out = [];
  // A claim is offered only when the prompt opens one for this seat; it
  // names black's last stone (the point the rules have white name).
  const lastBlack = [...st.moves].reverse().find((m) => m.color === 'black' && m.point);
  if (may.includes('claim_forbidden') && lastBlack?.point) {
    const point = lastBlack.point;
    out.push(btn('act.claim_at', () => g.act({ type: 'claim_forbidden', point }), undefined, { point }));
    // An overline may be claimed later: the player then names its stone on the board.
    out.push(g.ui.claimPick
      ? btn('act.claim_cancel', () => { g.ui.claimPick = false; g.render(); })
      : btn('act.claim_pick', () => { g.ui.claimPick = true; g.render(); }));
  }
  if (may.includes('end_turn') && g.view == null) out.push(btn('act.end_turn', () => g.act({ type: 'end_turn' })));
  if (st.takeback && st.takeback !== mine) {
    out.push(h('span.badge', { 'data-takeback': st.takeback }, t('game.takeback_asked', { who: st.players[st.takeback]?.name ?? '' })),
      btn('act.accept_takeback', () => g.act({ type: 'accept_takeback' }), 'primary'),
      btn('act.decline_takeback', () => g.act({ type: 'decline_takeback' })));
  } else if (st.takeback === mine) {
    out.push(h('span.small', { 'data-takeback': mine }, t('game.takeback_sent')));
  } else if (may.includes('request_takeback')) {
    out.push(btn('act.request_takeback', () => g.act({ type: 'request_takeback' })));
  }
  return out;
}
