// How one seat's clock reads: the main time, and in byo-yomi the periods
// still to come (`4:59 + 3 × 0:30`), then once the main time is used up
// the time left in the current period and how many periods are left
// (`0:27 (3 periods)`, `0:08 (last period)`); and whether the clock is in
// low time. The figures are the server's (TableState.clockNow counts the
// running one down between its events); nothing here decides a flag.

import { clock } from '../dom.js';
import { t, DAY_MS } from '../i18n.js';

/** Low time: under this much left (of the main time, or of a byo-yomi period). */
export const LOW_MS = 10000;

/**
 * @typedef {import('tengen-protocol').SeatClock} SeatClock
 * @typedef {import('tengen-protocol').TimeControl} TimeControl
 */

/**
 * @param {SeatClock} c a seat's clock now
 * @param {TimeControl} tc the room's time control
 * @returns {{text: string, phase: 'main'|'periods'|'overtime', periods: number, low: boolean}}
 */
export function clockFace(c, tc) {
  const main = c.main_ms || 0;
  const periods = c.periods || 0;
  const special = clockText(c, tc);
  if (special !== null) {
    // The eight-stone overtime: low on the move's own time; correspondence:
    // low only when the move's time and the vacation are nearly spent.
    const left = tc.kind === 'eight_stone' && !main ? c.period_ms || 0 : main + (c.vacation_ms || 0);
    return { text: special, phase: main ? 'main' : 'overtime', periods: 0, low: left < LOW_MS };
  }
  if (tc.kind === 'byo_yomi' && periods && !main) {
    const left = c.period_ms || 0;
    const which = periods === 1 ? t('clock.last_period') : t('clock.periods', { n: periods });
    return { text: `${clock(left)} (${which})`, phase: 'periods', periods, low: left < LOW_MS };
  }
  if (tc.kind === 'byo_yomi' && periods) {
    return { text: `${clock(main)} + ${periods} × ${clock(tc.period_ms)}`, phase: 'main', periods, low: false };
  }
  return { text: clock(main), phase: 'main', periods: 0, low: main < LOW_MS };
}

/**
 * A seat's clock as text for the kinds that show more than one time: the
 * eight-stone overtime once it has begun ("0:25 · 5 left": the move's time
 * and the overtime stones left) and correspondence ("2d 23h · vacation 5d 0h",
 * "vacation 4d 3h" once the move's own time is gone); `null` for the others.
 * @param {SeatClock} c a seat's clock @param {TimeControl} tc the room's time control
 */
export function clockText(c, tc) {
  if (tc.kind === 'eight_stone' && !c.main_ms) return `${clock(c.period_ms || 0)} · ${t('clock.stones', { n: c.period_moves || 0 })}`;
  if (tc.kind !== 'correspondence') return null;
  const days = (/** @type {number} */ ms) => (ms >= DAY_MS
    ? t('clock.days', { d: Math.floor(ms / DAY_MS), h: Math.floor((ms % DAY_MS) / 3600000) })
    : clock(ms));
  const vacation = t('clock.vacation', { t: days(c.vacation_ms || 0) });
  if (!c.main_ms) return vacation;
  return c.vacation_ms ? `${days(c.main_ms)} · ${vacation}` : days(c.main_ms);
}
