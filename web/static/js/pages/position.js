// A position the study pages draw (the explorer's, a puzzle's, a trainer
// exercise's): stones from lists of points, numbered in play order where
// there is one.

/** @typedef {import('../board.js').Stone} Stone */

/**
 * The stones of a move list (black first, alternating), numbered.
 * @param {string[]} moves @returns {Map<string, Stone>}
 */
export function stonesOfMoves(moves) {
  return new Map(moves.map((p, i) => [p.toUpperCase(), { color: i % 2 ? 'white' : 'black', number: i + 1 }]));
}

/**
 * The stones of a position given as two lists (no order known: unnumbered).
 * @param {string[]} black @param {string[]} white @returns {Map<string, Stone>}
 */
export function stonesOf(black, white) {
  /** @type {Map<string, Stone>} */
  const m = new Map();
  for (const p of black) m.set(p.toUpperCase(), { color: 'black', number: 0 });
  for (const p of white) m.set(p.toUpperCase(), { color: 'white', number: 0 });
  return m;
}

/** A share as a whole percentage. @param {number} n @param {number} of */
export const pct = (n, of) => of ? Math.round((100 * n) / of) : 0;
