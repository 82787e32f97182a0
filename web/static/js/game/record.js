// A game's record while it runs, in the three formats the server exports
// once it is over (JSON, renju notation, Piskvork PSQ), built only from
// what the page holds: the server's snapshot and the events after it
// (TableState). Nothing here judges a rule: the moves are the server's
// `moved` events as they came. A finished game's record comes from the
// server (`game_record`), which has every action with its exact time.
//
// The times in PSQ are the times between two stones' arrival at this page
// (the first from the game's start when the page saw it); a move the page
// only knows from a snapshot (it joined or reloaded later) has 0.

import { t } from '../i18n.js';
import { other } from './table.js';

/**
 * @typedef {import('./table.js').TableState} TableState
 * @typedef {import('tengen-protocol').Seat} Seat
 * @typedef {import('tengen-protocol').RecordFormat} RecordFormat
 */

/**
 * The moves in renju notation: `h8 i9 pass j10`, as the server writes it
 * (twin rooms: each stone with its board's number, `1:k10 2:k10`).
 * @param {TableState} st
 */
export function renjuText(st) {
  const twin = st.boards > 1;
  return st.moves.map((m) => (!m.point ? 'pass' : twin ? `${(m.board ?? 0) + 1}:${m.point.toLowerCase()}` : m.point.toLowerCase())).join(' ');
}

/** A seat's name for a record (the server tags records with the same). @param {TableState} st @param {Seat} seat */
function nameOf(st, seat) {
  return st.players[seat]?.name ?? `${seat} seat`;
}

/** A pass cannot be written as PSQ (the server refuses it the same way). */
export class PassInPsq extends Error {
  /** @param {number} n the pass's move number */
  constructor(n) { super(t('record.pass_in_psq', { n })); this.move = n; }
}

/**
 * The stones as Piskvork PSQ: `Piskvorky 15x15, 11:11, 0`, then `x,y,ms`
 * per stone (1-based, `x` from the left, `y` from the top), then the
 * opener's name, the other's and `-1`.
 * @param {TableState} st
 */
export function psqText(st) {
  if (st.boards > 1) throw new Error(t('record.twin_psq'));
  const size = st.size;
  const lines = [`Piskvorky ${size}x${size}, 11:11, 0`];
  st.moves.forEach((m, i) => {
    if (!m.point) throw new PassInPsq(m.number);
    const col = m.point.toUpperCase().charCodeAt(0) - 65;
    const row = Number(m.point.slice(1));
    lines.push(`${col + 1},${size + 1 - row},${st.moveMs[i] ?? 0}`);
  });
  const opener = st.opener;
  lines.push(nameOf(st, opener), nameOf(st, other(opener)), '-1');
  return `${lines.join('\n')}\n`;
}

/**
 * The game so far as JSON: the server's snapshot fields as the page holds
 * them, each move with the `ms` it took as seen here (`null` if unknown),
 * and `live: true` (it is not the server's record: that one, with every
 * action and its exact time, is exported once the game is over).
 * @param {TableState} st
 */
export function jsonRecord(st) {
  return {
    live: true,
    table: st.table,
    room: st.room,
    seq: st.seq,
    tags: { first: nameOf(st, 'first'), second: nameOf(st, 'second') },
    players: st.players,
    config: st.config,
    opener: st.opener,
    black: st.black,
    swapped: st.swapped,
    opening: st.opening,
    moves: st.moves.map((m, i) => ({ ...m, ms: st.moveMs[i] ?? null })),
    prompt: st.prompt,
    clocks: st.clocks,
    draw_offer: st.drawOffer,
    offers: st.offers,
    violations: st.violations,
    forbidden: st.forbidden,
    result: st.result,
  };
}

/**
 * A record in `format` (`json`, `renju` or `psq`): the file name's
 * extension, its MIME type and its text.
 * @param {TableState} st @param {RecordFormat} format
 * @returns {{ext: string, type: string, text: string}}
 */
export function liveRecord(st, format) {
  switch (format) {
    case 'json': return { ext: 'json', type: 'application/json', text: `${JSON.stringify(jsonRecord(st), null, 2)}\n` };
    case 'psq': return { ext: 'psq', type: 'text/plain', text: psqText(st) };
    default: return { ext: 'txt', type: 'text/plain', text: `${renjuText(st)}\n` };
  }
}
