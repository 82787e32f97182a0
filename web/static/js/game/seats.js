// The two seats of a game page: each player's colour, name and clock,
// whether they are away (and how long they have to come back; their clock
// runs meanwhile), a draw or rematch they offer. The clocks count down from the server's last
// figures (TableState.clockNow) ten times a second and never decide
// anything; low time on one's own running clock is warned once a spell.

import { h, fill, botMark } from '../dom.js';
import { t } from '../i18n.js';
import { clockFace } from './clockface.js';
import { sounds } from '../sound.js';

/**
 * @typedef {import('./page.js').GamePage} GamePage
 * @typedef {import('tengen-protocol').Seat} Seat
 * @typedef {import('tengen-protocol').AfterGrace} AfterGrace
 */

/** @type {Seat[]} */
const SEATS = ['first', 'second'];

/**
 * What an away seat's line says: the seconds left to come back and what
 * follows them, as the server said (`after_grace`): the win for the player
 * reading it where nobody could claim it, or, both players away, the
 * abort, the draw or the clocks (said once, on the first seat's line).
 * @param {GamePage} g @param {Seat} seat @param {AfterGrace|null} after @param {number|null} left
 */
function awayText(g, seat, after, left) {
  if (after === 'abort' || after === 'draw' || after === 'clock') {
    const both = g.st?.away.get('first')?.after;
    if (seat === 'second' && (both === 'abort' || both === 'draw' || both === 'clock')) return '';
    return t(`absence.both_${after}`, { s: left ?? 0 });
  }
  if (!left) return t('game.gone');
  if (after === 'win' && g.mine() && seat !== g.mine()) return t('absence.win_soon', { who: '', s: left }).trim();
  return t('game.away', { who: '', s: left }).trim();
}

/** @param {GamePage} g */
export function seatsPiece(g) {
  const els = { first: h('div.seat', { 'data-seat': 'first' }), second: h('div.seat', { 'data-seat': 'second' }) };
  // Each seat's clock and away notice, kept across redraws (tick updates them).
  const clocks = { first: h('span.clock', { 'data-clock': 'first' }), second: h('span.clock', { 'data-clock': 'second' }) };
  const aways = { first: h('span.away', { 'data-away': 'first' }), second: h('span.away', { 'data-away': 'second' }) };
  let warned = false;

  const tick = () => {
    const st = g.st;
    if (!st) return;
    for (const seat of SEATS) {
      // Correspondence games count nothing: being away is normal there.
      const found = st.over ? null : st.away.get(seat);
      const a = found && found.until != null ? found : null;
      const left = a?.until == null ? null : Math.max(0, Math.ceil((a.until - performance.now()) / 1000));
      aways[seat].textContent = !a ? '' : awayText(g, seat, a.after, left);
      aways[seat].toggleAttribute('data-gone', !!a && !left);
      const c = st.clockNow(seat);
      const el = clocks[seat];
      if (!c) { el.textContent = ''; continue; }
      const face = clockFace(c, st.config.time);
      const running = st.clocks?.running === seat && !st.over && !st.paused;
      const low = face.low && !st.over;
      if (el.textContent !== face.text) el.textContent = face.text;
      el.setAttribute('data-phase', face.phase);
      if (face.periods) el.setAttribute('data-periods', String(face.periods)); else el.removeAttribute('data-periods');
      el.classList.toggle('low', low);
      el.toggleAttribute('data-low', low);
      el.classList.toggle('running', running);
      // One warning per spell of low time on one's own running clock.
      if (seat === g.mine() && running && low && !warned) { warned = true; sounds.low(); }
      if (seat === g.mine() && !low) warned = false;
    }
  };

  const render = () => {
    const st = g.st;
    if (!st) return;
    for (const seat of SEATS) {
      const p = st.players[seat];
      const color = st.colorOf(seat);
      const el = els[seat];
      el.classList.toggle('turn', !st.over && st.prompt?.seat === seat);
      const profile = p && !p.guest;
      fill(el,
        h(`span.stone-icon.${color}`, { title: t(`color.${color}`) }),
        h('a.name', { href: profile ? `/@/${p.name}` : null, 'data-link': profile ? true : null }, p ? p.name : '—'),
        botMark(p, t('player.bot')),
        seat === g.mine() ? h('span.you', null, ` (${t('game.you')})`) : null,
        clocks[seat],
        aways[seat],
        st.drawOffer === seat ? h('span.badge', null, t('game.draw_offered', { who: '' }).trim()) : null,
        st.over && st.rematch.has(seat) ? h('span.badge', { 'data-rematch': seat }, t('act.rematch')) : null);
    }
    tick();
  };

  return {
    els,
    render,
    tick,
  };
}
