// `/game/ID`: a finished game from its record, stepped through and
// downloadable, and analysed on request (`analysis.js`). The stones come
// from the record's moves in renju notation, numbered in order (black's
// odd): no rule is applied. A twin game (two boards) is listed, not drawn:
// which stone is whose there is the turn structure, a rule.

import { h, fill, download } from '../dom.js';
import { t, configName, kindName } from '../i18n.js';
import { errorMessage } from '../app.js';
import { Board } from '../board.js';
import { analysisPanel, lineMarks, linePoints, missed, moveIndex } from './analysis.js';
import { readNotation } from './notation.js';

/**
 * @typedef {import('../app.js').App} App
 * @typedef {import('../board.js').Stone} Stone
 * @typedef {import('./analysis.js').Analysis} Analysis
 * @typedef {import('./analysis.js').Verdict} Verdict
 * @typedef {import('tengen-protocol').GameRecord} GameRecord
 * @typedef {import('tengen-protocol').RecordFormat} RecordFormat
 * @typedef {import('tengen-protocol').ServerMsgOf<'game_record'>} RecordMsg
 */

/** The renju record's tags shown, with their names' i18n keys. */
const TAGS = { Black: 'color.black', White: 'color.white', Date: 'profile.col.date', Event: 'rec.event', Opening: 'rec.opening',
  Alt: 'rec.alt', Result: 'rec.result', Termination: 'rec.termination' };

/** @type {RecordFormat[]} */
const FORMATS = ['json', 'renju', 'psq'];

/** @param {App} app @param {HTMLElement} root @param {string} id */
export function mountViewer(app, root, id) {
  const boardWrap = h('div.board-wrap');
  const side = h('aside.side');
  fill(root, h('section.game.viewer', null, boardWrap, side));
  (async () => {
    try {
      const [json, renju] = await Promise.all([
        app.conn.request({ type: 'game_record', game: id, format: 'json' }, 'game_record'),
        app.conn.request({ type: 'game_record', game: id, format: 'renju' }, 'game_record'),
      ]);
      if (!json.record) throw new Error(t('err.not_found'));
      replay(app, id, json, json.record, readNotation(renju.text ?? ''), boardWrap, side);
    } catch (e) {
      fill(side, h('p.error', { role: 'alert' }, errorMessage(e)));
    }
  })();
  return () => {};
}

/**
 * Draws the game `rec` (its moves, tags and notes in renju notation) and its side panel.
 * @param {App} app @param {string} id @param {RecordMsg} json the JSON export (downloaded as it is)
 * @param {GameRecord} rec @param {import('./notation.js').Notation} notation
 * @param {HTMLElement} boardWrap @param {HTMLElement} side
 */
function replay(app, id, json, rec, notation, boardWrap, side) {
  const { moves, tags, notes } = notation;
  const twin = rec.config.rule_set === 'twin';
  const board = new Board(rec.config.board_size, () => {});
  fill(boardWrap, twin ? h('p.small', null, t('viewer.twin')) : board.svg);
  /** How many moves are shown. */
  let at = moves.length;
  const reason = rec.result?.reason;
  const line = reason?.kind === 'five' ? reason.line : [];
  // The forbidden stone a claim named (or that lost), with its kind.
  const claimed = reason && (reason.kind === 'forbidden_claimed' || reason.kind === 'forbidden_played') ? [{ point: reason.point, kind: reason.forbidden }] : [];
  const list = h('ol.moves');
  /** @type {Analysis|null} */
  let analysis = null;
  /** The missed win whose line is shown (before its move). @type {Verdict|null} */
  let shown = null;

  const draw = () => {
    /** @type {Map<string, Stone>} */
    const stones = new Map();
    moves.slice(0, at).forEach((m, i) => { if (m !== 'pass') stones.set(m.toUpperCase(), { color: i % 2 ? 'white' : 'black', number: i + 1 }); });
    const last = at ? moves[at - 1].toUpperCase() : null;
    const gone = new Map(missed(analysis).map((v) => [moveIndex(moves, v), v]));
    const marked = [...gone.keys()].filter((i) => i >= 0 && i < at && moves[i] !== 'pass').map((i) => moves[i].toUpperCase());
    const marks = shown ? lineMarks(shown) : [];
    if (shown && shown.played !== 'pass' && !linePoints(shown).includes(shown.played.toUpperCase())) {
      marks.push({ point: shown.played.toUpperCase(), label: '×', cls: 'played' });
    }
    if (!twin) board.draw({ stones, last: last === 'PASS' ? null : last, line: at === moves.length ? line : [], missed: marked, marks, claimed: at === moves.length ? claimed : [] });
    fill(list, moves.map((m, i) => {
      const v = gone.get(i);
      const cls = `${twin ? '' : i % 2 ? 'white' : 'black'}${i + 1 === at ? ' at' : ''}${v ? ' missed' : ''}${v && v === shown ? ' shown' : ''}`;
      const title = v ? t('an.item', { n: v.number, move: v.played, kind: v.vcf ? 'VCF' : 'VCT', line: v.vcf ?? v.vct ?? '' }) : null;
      // A missed win's move: the first click shows the line before it, the next the move.
      const pick = () => { if (v && shown !== v) { shown = v; at = i; } else { shown = null; at = i + 1; } draw(); };
      return h('li', { class: cls, 'data-missed': v ? (v.vcf ? 'vcf' : 'vct') : null, 'data-note': notes.has(i) ? '' : null, title, onclick: pick }, m);
    }));
  };
  /** @param {number} n */
  const step = (n) => { shown = null; at = Math.max(0, Math.min(moves.length, n)); draw(); };
  /** @param {Verdict} v */
  const show = (v) => {
    const i = moveIndex(moves, v);
    if (i < 0) return;
    shown = v;
    at = i;
    draw();
  };
  /** @param {RecordFormat} f */
  const save = async (f) => {
    try {
      const r = f === 'json' ? json : await app.conn.request({ type: 'game_record', game: id, format: f }, 'game_record');
      if (f === 'json') download(`tengen-${id}.json`, JSON.stringify(r.record, null, 2), 'application/json');
      else download(`tengen-${id}.${f === 'psq' ? 'psq' : 'txt'}`, r.text ?? '');
    } catch (e) { app.fail(e); }
  };
  fill(side,
    h('h2', null, `${rec.tags?.first ?? '?'} – ${rec.tags?.second ?? '?'}`),
    h('p.small', null, configName(rec.config)),
    h('dl.record-tags', null, ...Object.entries(TAGS)
      .flatMap(([k, key]) => (tags.has(k) ? [h('dt', null, t(key)), h('dd', { 'data-tag': k }, tags.get(k) ?? '')] : []))),
    h('p.prompt', null, resultLine(rec)),
    h('div.movebox', null, list, h('div.nav', null,
      h('button', { type: 'button', onclick: () => step(0) }, '|◀'), h('button', { type: 'button', onclick: () => step(at - 1) }, '◀'),
      h('button', { type: 'button', onclick: () => step(at + 1) }, '▶'), h('button', { type: 'button', onclick: () => step(moves.length) }, '▶|'))),
    // The opening's decisions, after the move they follow (the swap, the offers).
    notes.size ? h('ul.record-notes', null, ...[...notes].map(([i, n]) => h('li', { 'data-after': i + 1 }, `${i + 1}. ${moves[i] ?? ''}: ${n.join('; ')}`))) : null,
    h('p', null, `${t('game.download')}: `, ...FORMATS.map((f) => h('button', { type: 'button', onclick: () => save(f) }, f.toUpperCase()))),
    analysisPanel(app, id, (a) => { analysis = a; shown = null; draw(); }, show),
    puzzleLinks(app, id));
  draw();
}

/** The puzzles made from the game's missed wins (none: nothing shown). @param {App} app @param {string} id */
function puzzleLinks(app, id) {
  const box = h('p.game-puzzles');
  app.conn.request({ type: 'game_puzzles', game: id }, 'game_puzzles').then((r) => {
    if (r.puzzles.length) {
      fill(box, `${t('pz.of_game')}: `, ...r.puzzles.flatMap((p, i) => [i ? ', ' : '',
        h('a', { href: `/puzzle/${p.puzzle}`, 'data-link': true, 'data-puzzle': p.puzzle }, t('pz.at_move', { n: p.move_number }))]));
    }
  }).catch(() => { /* a server without puzzles: no links */ });
  return box;
}

/** The result in words, the winner named by the record's tags. @param {GameRecord} rec */
function resultLine(rec) {
  const r = rec.result;
  if (!r) return '';
  const o = r.outcome;
  const who = o.kind === 'win'
    ? t('result.win', { who: rec.tags?.[o.seat] ?? o.seat, color: t(`color.${o.color}`) })
    : t(o.kind === 'draw' ? 'result.draw' : 'result.aborted');
  const rr = r.reason;
  const named = rr.kind === 'forbidden_claimed' || rr.kind === 'forbidden_played' ? `: ${t('claim.kind', { point: rr.point, kind: kindName(rr.forbidden) })}` : '';
  return `${who} · ${t(`reason.${rr.kind}`)}${named}`;
}
