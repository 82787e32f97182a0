// A game in renju notation as the server writes it (the record renju
// players keep): tag lines (`[Black "alice"]`), then the numbered moves
// with the opening's decisions in braces after the move they follow
// (`3. j10 {swap}`). The viewer replays the moves and shows the tags and
// notes; it reads no rule from them.

/**
 * The tags by name, the moves (lower case, `pass`), and the notes by the
 * index of the move they follow.
 * @typedef {{tags: Map<string, string>, moves: string[], notes: Map<number, string[]>}} Notation
 */

/** @param {string} text @returns {Notation} */
export function readNotation(text) {
  /** @type {Map<string, string>} */
  const tags = new Map();
  const body = [];
  for (const line of text.split('\n')) {
    const tag = /^\s*\[(\w+)\s+"(.*)"\]\s*$/.exec(line);
    if (tag) tags.set(tag[1], tag[2]);
    else body.push(line);
  }
  /** @type {string[]} */
  const moves = [];
  /** @type {Map<number, string[]>} */
  const notes = new Map();
  // Braces hold notes; outside them, move numbers are skipped.
  for (const part of body.join(' ').split(/(\{[^}]*\})/)) {
    if (part.startsWith('{')) {
      const i = moves.length - 1;
      notes.set(i, [...(notes.get(i) ?? []), part.slice(1, -1).trim()]);
      continue;
    }
    for (const tok of part.split(/[\s,]+/)) if (tok && !/^\d+\.$/.test(tok)) moves.push(tok);
  }
  return { tags, moves, notes };
}
