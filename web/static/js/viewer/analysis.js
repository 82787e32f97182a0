// A finished game's analysis in the viewer: asks the server (`analyze_game`)
// and turns its answer into marks for the move list and the board. The
// search is the server's (the referee crate's VCF/VCT solver): this page
// only shows where the side to move had a forced win and did not keep it,
// and the winning line, as numbered ghost stones.

import { h, fill } from '../dom.js';
import { t } from '../i18n.js';
import { ProtoError } from '../conn.js';
import { errorMessage } from '../app.js';

/**
 * @typedef {import('tengen-protocol').MoveVerdict} Verdict
 * @typedef {import('tengen-protocol').GameAnalysis} Analysis
 * @typedef {import('../board.js').Mark} Mark
 * @typedef {import('../app.js').App} App
 */

/** The winning line of a verdict, as upper-case points. @param {Verdict} v */
export function linePoints(v) {
  return (v.vcf ?? v.vct ?? '').split(/\s+/).filter(Boolean).map((p) => p.toUpperCase());
}

/** The moves that missed a forced win. @param {Analysis|null} a */
export function missed(a) {
  return a ? a.moves.filter((v) => v.kept === false) : [];
}

/**
 * The line as numbered ghost stones: the attacker's moves (1, 3, ...) in
 * the mover's colour, the defender's in the other.
 * @param {Verdict} v @returns {Mark[]}
 */
export function lineMarks(v) {
  const other = v.color === 'black' ? 'white' : 'black';
  return linePoints(v).map((point, i) => ({ point, label: String(i + 1), cls: `line ${i % 2 ? other : v.color}` }));
}

/**
 * The index in the viewer's move list (renju notation, from 0) of a
 * verdict's move: its number when the list agrees, else where its point was
 * played. @param {string[]} moves @param {Verdict} v
 */
export function moveIndex(moves, v) {
  if (moves[v.number - 1] === v.played) return v.number - 1;
  return moves.lastIndexOf(v.played);
}

/**
 * The analysis panel: the Analyze button, the VCT choice, and once
 * analysed the missed wins, each a button that shows its line.
 * @param {App} app @param {string} id
 * @param {(a: Analysis) => void} onDone the analysis arrived
 * @param {(v: Verdict) => void} onShow a missed win was picked
 */
export function analysisPanel(app, id, onDone, onShow) {
  const vct = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', id: 'analyze-vct' }));
  const status = h('p#analysis.small', { 'aria-live': 'polite' });
  const list = h('ul.missed-wins');
  const button = /** @type {HTMLButtonElement} */ (h('button#analyze', { type: 'button' }, t('an.analyze')));
  button.onclick = async () => {
    button.disabled = true;
    status.setAttribute('data-state', 'running');
    fill(status, t('an.running'));
    try {
      const a = await app.conn.request({ type: 'analyze_game', game: id, vct: vct.checked }, 'game_analysis');
      const gone = missed(a);
      status.setAttribute('data-state', 'done');
      status.setAttribute('data-missed', String(gone.length));
      const undecided = a.undecided?.length ? ` ${t('an.undecided', { list: a.undecided.join(', ') })}` : '';
      fill(status, (gone.length ? t('an.missed', { n: gone.length }) : t('an.none')) + undecided);
      fill(list, gone.map((v) => h('li', null, h('button', { type: 'button', 'data-move': v.number, onclick: () => onShow(v) },
        t('an.item', { n: v.number, move: v.played, kind: v.vcf ? 'VCF' : 'VCT', line: v.vcf ?? v.vct ?? '' })))));
      onDone(a);
    } catch (e) {
      status.setAttribute('data-state', 'error');
      const wait = e instanceof ProtoError && e.code === 'unavailable' ? e.body?.retry_after_ms : undefined;
      fill(status, wait ? t('an.busy', { s: Math.ceil(wait / 1000) }) : errorMessage(e));
    } finally {
      button.disabled = false;
    }
  };
  return h('div.analysis', null, h('h3', null, t('an.title')),
    h('p', null, button, ' ', h('label', null, vct, ' ', t('an.vct'))), status, list);
}
