// `/puzzle` (or `/puzzle/ID`): puzzles made from the wins players missed
// in this server's games. The player plays the winning side; each move is
// judged by the server, which plays the defender's forced reply, until the
// win (solved) or a move that lets it go (failed: the winning line is
// shown). An account's first try of a puzzle moves its puzzle rating.

import { h, fill } from '../dom.js';
import { t } from '../i18n.js';
import { errorMessage } from '../app.js';
import { Board } from '../board.js';
import { stonesOf } from './position.js';

/**
 * @typedef {import('../app.js').App} App
 * @typedef {import('tengen-protocol').ServerMsgOf<'puzzle'>} PuzzleMsg
 * @typedef {import('tengen-protocol').ServerMsgOf<'puzzle_step'>} StepMsg
 * @typedef {import('../board.js').Stone} Stone
 * @typedef {import('tengen-protocol').PuzzleTheme} Theme
 */

/** The themes a next puzzle may be asked of. @type {Theme[]} */
const THEMES = ['vcf', 'vct', 'black', 'white', 'forbidden'];

/** @param {App} app @param {HTMLElement} root @param {string} id */
export function mountPuzzles(app, root, id) {
  /** @type {PuzzleMsg|null} */
  let puzzle = null;
  /** The stones played in this try, in order (attacker first). @type {string[]} */
  let played = [];
  let busy = false;
  let over = false;
  const board = new Board(15, (p) => move(p));
  const wrap = h('div.board-wrap', null, board.svg);
  const info = h('p.pz-info');
  const status = h('p.pz-status', { role: 'status', 'aria-live': 'polite' });
  const actions = h('p.actions');

  /** @returns {Map<string, Stone>} */
  const stones = () => {
    const pz = puzzle;
    if (!pz) return new Map();
    const m = stonesOf(pz.black, pz.white);
    const other = pz.to_move === 'black' ? 'white' : 'black';
    played.forEach((p, i) => m.set(p, { color: i % 2 ? other : pz.to_move, number: i + 1 }));
    return m;
  };
  /** @param {string[]} [line] the winning line, shown after a failure */
  const draw = (line = []) => {
    const pz = /** @type {PuzzleMsg} */ (puzzle);
    const other = pz.to_move === 'black' ? 'white' : 'black';
    board.previewColor = over ? null : pz.to_move;
    board.interactive = !over;
    board.draw({
      stones: stones(), last: played[played.length - 1] ?? null,
      marks: line.map((p, i) => ({ point: p.toUpperCase(), label: String(i + 1), cls: `pz-line ${i % 2 ? other : pz.to_move}` })),
    });
  };

  /** @param {import('tengen-protocol').ClientMsg} ask */
  async function start(ask) {
    try {
      puzzle = await app.conn.request(ask, 'puzzle');
    } catch (e) {
      fill(status, h('span.error', null, errorMessage(e)));
      return;
    }
    played = [];
    over = false;
    const pz = puzzle;
    if (board.size !== pz.board_size) return;
    if (location.pathname !== `/puzzle/${pz.puzzle}`) history.replaceState(null, '', `/puzzle/${pz.puzzle}`);
    fill(info, t('pz.rating', { r: pz.rating, n: pz.plays }), ' · ', pz.themes.map((th) => t(`pz.theme.${th}`)).join(', '),
      pz.daily ? ` · ${t('pz.daily_of', { d: pz.daily })}` : '', ' · ',
      h('a', { href: `/game/${pz.game}`, 'data-link': true }, t('pz.from_game', { n: pz.move_number })));
    fill(status, t('pz.to_play', { who: t(`color.${pz.to_move}`) }));
    status.dataset.state = 'playing';
    draw();
  }

  /** @param {string} p */
  async function move(p) {
    if (!puzzle || busy || over || stones().has(p)) return;
    busy = true;
    played.push(p);
    draw();
    /** @type {StepMsg} */
    let step;
    try {
      step = await app.conn.request({ type: 'puzzle_move', attempt: puzzle.attempt, point: p }, 'puzzle_step');
    } catch (e) {
      played.pop();
      draw();
      fill(status, h('span.error', null, errorMessage(e)));
      busy = false;
      return;
    }
    busy = false;
    const rating = step.rating ? ` ${t('pz.rating_change', { a: step.rating.before, b: step.rating.after })}` : '';
    if (step.outcome === 'continue' && step.reply) {
      played.push(step.reply.toUpperCase());
      fill(status, t('pz.keep_going', { p: step.reply.toUpperCase() }));
      draw();
    } else if (step.outcome === 'solved') {
      over = true;
      status.dataset.state = 'solved';
      fill(status, h('strong.pz-solved', null, t('pz.solved')), rating);
      draw();
    } else {
      over = true;
      status.dataset.state = 'failed';
      fill(status, h('strong.pz-failed', null, t(step.reason === 'forbidden' ? 'pz.failed.forbidden' : 'pz.failed', { p })), rating,
        step.solution?.length ? ` ${t('pz.solution', { line: step.solution.map((q) => q.toUpperCase()).join(' ') })}` : '');
      draw(step.solution ?? []);
    }
  }

  const themeSel = /** @type {HTMLSelectElement} */ (h('select', { name: 'theme', 'aria-label': t('pz.theme') },
    h('option', { value: '' }, t('pz.any_theme')), ...THEMES.map((th) => h('option', { value: th }, t(`pz.theme.${th}`)))));
  const next = () => start(themeSel.value ? { type: 'next_puzzle', theme: /** @type {Theme} */ (themeSel.value) } : { type: 'next_puzzle' });
  fill(actions, themeSel, ' ',
    h('button', { type: 'button', 'data-act': 'next', onclick: next }, t('pz.next')), ' ',
    h('button', { type: 'button', 'data-act': 'daily', onclick: () => start({ type: 'daily_puzzle' }) }, t('pz.daily')), ' ',
    h('button', { type: 'button', 'data-act': 'retry', onclick: () => puzzle && start({ type: 'puzzle', puzzle: puzzle.puzzle }) }, t('pz.retry')));
  fill(root, h('section.game.puzzles', null, wrap,
    h('aside.side', null, h('h2', null, t('title.puzzles')), info, status, actions)));
  start(id ? { type: 'puzzle', puzzle: id } : { type: 'next_puzzle' });
  return () => { over = true; };
}
