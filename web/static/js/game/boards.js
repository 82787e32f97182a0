// A game page's board (two side by side in twin rooms): the stones of the
// move shown, the last move and the winning line, the marks of points
// being picked, the forbidden points the server reveals, and what a click
// on a point asks of the server for the task the prompt names.

import { h, fill } from '../dom.js';
import { t } from '../i18n.js';
import { Board } from '../board.js';
import { askToNotify } from './notify.js';

/**
 * @typedef {import('./page.js').GamePage} GamePage
 * @typedef {import('./table.js').TableState} TableState
 * @typedef {import('../board.js').Mark} Mark
 */

/** @param {GamePage} g */
export function boardsPiece(g) {
  const el = h('div.board-wrap');
  // Click-twice mode (phones): the first tap arms a point; say how to play it.
  const hint = h('p.arm-hint', { role: 'status', 'data-arm-hint': '', hidden: true });
  /** @param {string|null} p */
  const armed = (p) => { hint.textContent = p ? t('game.tap_again', { point: p }) : ''; hint.hidden = !p; };
  /** One board, or two in twin rooms. @type {Board[]} */
  let boards = [];

  /** A point picked on board `b` (0, or 1 in twin rooms). @param {string} p @param {number} b */
  const pick = (p, b) => {
    if (g.ui.claimPick) {
      // Naming the stone of a forbidden-move claim (an overline played earlier).
      g.ui.claimPick = false;
      g.act({ type: 'claim_forbidden', point: p });
      g.render();
      return;
    }
    if (g.canPremove()) {
      // Premove: queued (or, clicked again, dropped) until this player's turn.
      g.premove = g.premove === p || g.st?.stones.has(p) ? null : p;
      g.render();
      return;
    }
    const pr = g.st?.prompt;
    if (!pr || !g.myTurn()) return;
    askToNotify();
    switch (pr.task) {
      case 'place':
        g.act({ type: 'place', point: p, ...(b ? { board: b } : {}), ...(g.ui.drawWithMove ? { offer_draw: true } : {}) });
        g.ui.drawWithMove = false;
        break;
      case 'offer_fifths':
        g.offers = g.offers.includes(p) ? g.offers.filter((x) => x !== p) : g.offers.length < pr.count ? [...g.offers, p] : g.offers;
        g.render();
        break;
      case 'keep_fifth': if (pr.offers.includes(p)) g.act({ type: 'keep_fifth', point: p }); break;
      case 'swap2_choice':
      case 'super_sakata_choice':
        if (g.two) {
          g.two = g.two.includes(p) ? g.two.filter((x) => x !== p) : [...g.two, p];
          if (g.two.length === 2) { const [white, black] = g.two; g.two = null; g.act({ type: 'place_two', white, black }); }
          g.render();
        } else if (pr.task === 'swap2_choice') g.act({ type: 'place', point: p });
        break;
      default: break;
    }
  };

  /** Draws board `b` (0, or 1 in twin rooms). @param {TableState} st @param {Board} board @param {number} b */
  const drawOne = (st, board, b) => {
    board.confirm = g.ui.confirm;
    const live = g.view == null;
    const all = g.view == null ? st.moves : st.moves.slice(0, g.view);
    const moves = all.filter((m) => (m.board ?? 0) === b);
    const stones = live ? st.stonesOn[b]
      : new Map(moves.flatMap((m) => (m.point ? [[m.point, { color: m.color, number: m.number }]] : [])));
    const lastMove = all.length ? all[all.length - 1] : null;
    const last = lastMove && (lastMove.board ?? 0) === b ? lastMove.point : null;
    const reason = st.result?.reason;
    const line = !live ? [] : reason?.kind === 'five' ? reason.line : reason?.kind === 'twin_fives' ? reason.lines[b]
      : reason?.kind === 'one_board_five' && reason.board === b ? reason.line : [];
    /** @type {Mark[]} */
    const marks = [];
    if (live && st.pendingFifths) for (const p of st.pendingFifths) marks.push({ point: p, label: '5', cls: 'offer' });
    if (live) for (const p of g.offers) marks.push({ point: p, label: '5', cls: 'mine' });
    if (live && g.two) g.two.forEach((p, i) => marks.push({ point: p, label: String(st.moves.length + 1 + i), cls: i ? 'mine' : 'mine white' }));
    const pr = st.prompt;
    if (live && g.premove) marks.push({ point: g.premove, label: '·', cls: 'premove' });
    board.interactive = g.ui.claimPick || g.canPremove() || (!!pr && g.myTurn() && (['place', 'offer_fifths', 'keep_fifth', 'swap2_choice'].includes(pr.task)
      || (pr.task === 'super_sakata_choice' && !!g.two)));
    board.previewColor = !pr || !board.interactive ? null
      : pr.task === 'place' ? pr.color : pr.task === 'offer_fifths' ? 'black'
        : pr.task === 'swap2_choice' || pr.task === 'super_sakata_choice' ? (g.two && g.two.length ? 'black' : 'white') : null;
    board.svg.classList.toggle('my-turn', board.interactive);
    board.draw({
      stones, last, numbers: g.ui.numbers, marks,
      line, claimed: claimedStones(st),
      forbidden: live && !st.over ? st.revealed : [],
    });
  };

  const render = () => {
    const st = g.st;
    if (!st) return;
    if (boards.length !== st.boards || boards[0].size !== st.size) {
      // Twin rooms: two boards side by side, each picking for itself.
      const twin = st.boards > 1;
      boards = Array.from({ length: st.boards }, (_, b) => new Board(st.size, (p) => pick(p, b), twin ? t('game.board_n', { n: b + 1 }) : 'board'));
      for (const board of boards) board.onArm = armed;
      el.classList.toggle('twin', twin);
      fill(el, ...boards.map((board, b) => (twin
        ? h('figure.twin-board', null, h('figcaption', null, t('game.board_n', { n: b + 1 })), board.svg)
        : board.svg)), hint);
    }
    boards.forEach((board, b) => drawOne(st, board, b));
  };

  return { el, render };
}

/**
 * The forbidden stones to name on the board: the one a claim named (or that
 * lost in a `lose` room) and, once a claim game is over, every stone that
 * was forbidden when played.
 * @param {TableState} st @returns {import('tengen-protocol').ForbiddenPoint[]}
 */
export function claimedStones(st) {
  const r = st.result?.reason;
  const named = r && (r.kind === 'forbidden_claimed' || r.kind === 'forbidden_played') ? [{ point: r.point, kind: r.forbidden }] : [];
  return [...named, ...st.forbidden.filter((f) => !named.some((n) => n.point === f.point)).map((f) => ({ point: f.point, kind: f.kind }))];
}
