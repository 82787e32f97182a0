// What the pieces of a game page share (game.js puts them together): the
// table as the server last described it (TableState, replaced at each
// snapshot) and this page's own state, which no one else sees: the move
// shown when stepping back, the points picked for an action of several
// stones, the viewing options, and the line where refusals are shown.
// Every action goes to the server as a request; its events redraw.

import { h } from '../dom.js';
import { errorMessage } from '../app.js';

/**
 * @typedef {import('../app.js').App} App
 * @typedef {import('./table.js').TableState} TableState
 * @typedef {import('tengen-protocol').Action} Action
 * @typedef {import('tengen-protocol').Seat} Seat
 */

/** A stored yes/no of this browser's (a viewing option). @param {string} key */
function stored(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

export class GamePage {
  /** @param {App} app @param {string} table */
  constructor(app, table) {
    this.app = app;
    this.table = table;
    /** The table as the server last described it; null until its snapshot. @type {TableState|null} */
    this.st = null;
    /** How many moves are shown when stepping back; null: the game as it stands. @type {number|null} */
    this.view = null;
    /** Fifth-move offers being placed. @type {string[]} */
    this.offers = [];
    /** Two stones being placed, white then black (Swap2, Super Sakata); null: not placing two. @type {string[]|null} */
    this.two = null;
    /** A stone queued during the opponent's turn, played when this player's turn comes (premove). @type {string|null} */
    this.premove = null;
    /** The table's `seq` when this page's last action was sent; null once refused. @type {number|null} */
    this.sentAt = null;
    const confirm = stored('tengen.confirm');
    this.ui = {
      /** Stones show their move numbers. */
      numbers: stored('tengen.numbers') === '1',
      /** A stone is played by a second click on its point (the default on touch screens). */
      confirm: confirm === '1' || (confirm == null && matchMedia('(pointer: coarse)').matches),
      /** The next stone goes with a draw offer. */
      drawWithMove: false,
      /** "Really resign?" is asked. */
      resignAsk: false,
      /** The next click on the board names the stone a claim is about. */
      claimPick: false,
      /** The player chose to wait for the absent opponent (until its next status). */
      waitAbsent: false,
    };
    /** The line that shows a refusal. */
    this.msg = h('p.game-msg#game-msg', { role: 'alert' });
    /** Draws every piece again (game.js sets it). */
    this.render = () => {};
  }

  /** This page's seat, or null for a spectator. @returns {Seat|null} */
  mine() { return this.st?.seat ?? null; }

  /** Whether the server waits for this page's player, and the game is shown as it stands. */
  turnIsMine() {
    const st = this.st;
    return !!st && !st.over && !!st.prompt && st.prompt.seat === this.mine() && this.view == null;
  }

  /**
   * Whether this page may act now: its turn, and no action of its own on the
   * way to the server (until the next event or a refusal, the prompt shown is
   * the one already answered).
   */
  myTurn() { return this.turnIsMine() && !(this.sentAt != null && this.sentAt === this.st?.seq); }

  /** Shows a refusal (or clears the line). @param {unknown} e */
  showMsg(e) { this.msg.textContent = e ? errorMessage(e) : ''; }

  /**
   * Whether a stone may be queued now: this player waits while the
   * opponent places a stone in plain play (not an opening step, one board).
   */
  canPremove() {
    const st = this.st;
    const p = st?.prompt;
    return !!st && !!p && !st.over && this.view == null && st.boards === 1 && !!this.mine() && p.seat !== this.mine()
      && p.task === 'place' && !p.within && !st.pendingFifths && st.moves.length >= 5;
  }

  /** Forgets the points picked for an action of several stones. */
  clearPicks() { this.offers = []; this.two = null; }

  /** Asks the referee to apply `action` for this page's seat. @param {Action} action */
  async act(action) {
    this.showMsg(null);
    this.sentAt = this.st?.seq ?? null;
    this.render();
    try {
      await this.app.conn.request({ type: 'act', table: this.table, action }, 'acted');
    } catch (e) {
      this.sentAt = null;
      this.showMsg(e);
      this.render();
    }
  }
}
