// How one seat's clock reads: the main time, and in byo-yomi the periods
// still to come (`4:59 + 3 × 0:30`), then once the main time is used up
// the time left in the current period and how many periods are left
// (`0:27 (3 periods)`, `0:08 (last period)`); and whether the clock is in
// low time. The figures are the server's (TableState.clockNow counts the
// running one down between its events); nothing here decides a flag.

import { clock } from './dom.js';
import { t } from './i18n.js';

/** Low time: under this much left (of the main time, or of a byo-yomi period). */
export const LOW_MS = 10000;

/**
 * @param {{main_ms?: number, periods?: number, period_ms?: number}} c a seat's clock now
 * @param {any} tc the room's time control
 * @returns {{text: string, phase: 'main'|'periods', periods: number, low: boolean}}
 */
export function clockFace(c, tc) {
  const main = c.main_ms || 0;
  const periods = c.periods || 0;
  if (tc?.kind === 'byo_yomi' && periods && !main) {
    const left = c.period_ms || 0;
    const which = periods === 1 ? t('clock.last_period') : t('clock.periods', { n: periods });
    return { text: `${clock(left)} (${which})`, phase: 'periods', periods, low: left < LOW_MS };
  }
  if (tc?.kind === 'byo_yomi' && periods) {
    return { text: `${clock(main)} + ${periods} × ${clock(tc.period_ms)}`, phase: 'main', periods, low: false };
  }
  return { text: clock(main), phase: 'main', periods: 0, low: main < LOW_MS };
}
