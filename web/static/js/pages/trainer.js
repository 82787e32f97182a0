// `/trainer`: forbidden points, as a renju player must see them. A
// position from a real game where a forbidden point mattered; black to
// move. The player marks every point forbidden for black with its kind
// (the kind chosen below the board); the referee judges the answer:
// right, missed, wrong, or of another kind.

import { h, fill } from '../dom.js';
import { t, kindName } from '../i18n.js';
import { errorMessage } from '../app.js';
import { Board } from '../board.js';
import { stonesOf } from './position.js';

/**
 * @typedef {import('../app.js').App} App
 * @typedef {import('tengen-protocol').Forbidden} Forbidden
 * @typedef {import('tengen-protocol').ServerMsgOf<'trainer_position'>} PositionMsg
 * @typedef {import('tengen-protocol').ServerMsgOf<'trainer_verdict'>} VerdictMsg
 */

/** @type {Forbidden[]} */
const KINDS = ['double-three', 'double-four', 'overline'];
const SHORT = { 'double-three': '33', 'double-four': '44', overline: '6+' };

/** @param {App} app @param {HTMLElement} root */
export function mountTrainer(app, root) {
  /** @type {PositionMsg|null} */
  let pos = null;
  /** The marks, by point. @type {Map<string, Forbidden>} */
  const marks = new Map();
  /** @type {VerdictMsg|null} */
  let verdict = null;
  /** @type {Forbidden} */
  let kind = 'double-three';
  const board = new Board(15, (p) => {
    if (!pos || verdict || stonesOf(pos.black, pos.white).has(p)) return;
    if (marks.get(p) === kind) marks.delete(p); else marks.set(p, kind);
    draw();
  });
  const status = h('p.tr-status', { role: 'status', 'aria-live': 'polite' });
  const info = h('p.tr-info');
  const kinds = h('fieldset.tr-kinds', null, h('legend', null, t('tr.kind')), ...KINDS.map((k) => h('label', null,
    h('input', { type: 'radio', name: 'kind', value: k, checked: k === kind, onchange: () => { kind = k; } }), ` ${kindName(k)}`)));

  const draw = () => {
    if (!pos) return;
    board.interactive = !verdict;
    const v = verdict;
    const cls = (/** @type {string} */ p) => !v ? 'tr-mark' : v.right.includes(p) ? 'tr-right' : v.wrong.includes(p) ? 'tr-wrong' : v.wrong_kind.includes(p) ? 'tr-wrong-kind' : 'tr-mark';
    const shown = [...marks].map(([p, k]) => ({ point: p, label: SHORT[k], cls: cls(p) }));
    if (v) for (const p of v.missed) shown.push({ point: p.toUpperCase(), label: SHORT[v.forbidden.find((f) => f.point.toUpperCase() === p.toUpperCase())?.kind ?? 'double-three'], cls: 'tr-missed' });
    board.draw({ stones: stonesOf(pos.black, pos.white), marks: shown });
  };

  async function next() {
    try {
      pos = await app.conn.request({ type: 'trainer_next' }, 'trainer_position');
    } catch (e) {
      fill(status, h('span.error', null, errorMessage(e)));
      return;
    }
    marks.clear();
    verdict = null;
    fill(info, t('tr.from', { n: pos.move_number }), ' ', h('a', { href: `/game/${pos.game}`, 'data-link': true }, t('tr.game')));
    fill(status, t('tr.ask'));
    status.dataset.state = 'asking';
    draw();
  }

  async function answer() {
    if (!pos || verdict) return;
    try {
      verdict = await app.conn.request({ type: 'trainer_answer', position: pos.position, marks: [...marks].map(([point, k]) => ({ point, kind: k })) }, 'trainer_verdict');
    } catch (e) {
      fill(status, h('span.error', null, errorMessage(e)));
      return;
    }
    const v = verdict;
    status.dataset.state = v.correct ? 'correct' : 'wrong';
    const list = (/** @type {string} */ key, /** @type {string[]} */ ps) => ps.length ? h('li', { 'data-list': key }, t(`tr.${key}`, { p: ps.map((p) => p.toUpperCase()).join(' ') })) : null;
    fill(status, h('strong', null, t(v.correct ? 'tr.correct' : 'tr.incorrect')),
      h('ul.tr-lists', null, list('right', v.right), list('missed', v.missed), list('wrong', v.wrong), list('wrong_kind', v.wrong_kind)),
      v.forbidden.length ? t('tr.all', { p: v.forbidden.map((f) => `${f.point.toUpperCase()} (${kindName(f.kind)})`).join(', ') }) : t('tr.none'));
    draw();
  }

  fill(root, h('section.game.trainer', null, h('div.board-wrap', null, board.svg),
    h('aside.side', null, h('h2', null, t('title.trainer')), info, kinds, status,
      h('p.actions', null, h('button.primary', { type: 'button', 'data-act': 'answer', onclick: answer }, t('tr.submit')), ' ',
        h('button', { type: 'button', 'data-act': 'next', onclick: next }, t('tr.next'))))));
  board.interactive = true;
  next();
  return () => {};
}
