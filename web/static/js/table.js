// One table as the page sees it, built only from what the server sent: a
// `table_snapshot`, then `table_event`s in `seq` order (as the Rust
// client's TableView). It never decides a rule: whose turn it is, what may
// be done and which points are forbidden all come from the server.

/** @typedef {{number: number, seat: string, color: string, point: string|null, board?: number}} Move */

export const COLS = 'ABCDEFGHIJKLMNOPQRS';

/** "H8" -> [x, y] from 0 (column A, row 1). @param {string} p @returns {[number, number]} */
export function xy(p) {
  return [p.toUpperCase().charCodeAt(0) - 65, Number(p.slice(1)) - 1];
}
/** @param {number} x @param {number} y */
export function pointAt(x, y) { return `${COLS[x]}${y + 1}`; }

/** Missed events: the caller asks for a fresh snapshot. */
export class Gap extends Error {}

export class TableState {
  /** @param {any} msg a `table_snapshot` */
  constructor(msg) { this.reset(msg); }

  /** Replaces the whole state with a `table_snapshot`. @param {any} msg */
  reset(msg) {
    const s = msg.snapshot;
    // The times the moves took as this page saw them (for the live record),
    // kept across a fresh snapshot of the same table.
    /** @type {(number|null)[]} */
    const seen = msg.table === this.table && this.moveMs ? this.moveMs : [];
    this.table = msg.table;
    this.room = msg.room;
    /** @type {string|null} */
    this.seat = msg.seat ?? null;
    this.players = msg.players;
    this.spectators = msg.spectators;
    this.seq = msg.seq;
    this.config = s.config;
    this.size = s.config.board_size;
    this.opener = s.opener;
    this.black = s.black;
    this.swapped = s.swapped;
    /** @type {Move[]} */
    this.moves = [];
    /** How many boards: 2 in twin rooms (their moves name the board), else 1. */
    this.boards = s.config.rule_set === 'twin' ? 2 : 1;
    /** @type {Map<string, {color: string, number: number}>[]} the stones on each board */
    this.stonesOn = Array.from({ length: this.boards }, () => new Map());
    /** The stones on the (first) board. */
    this.stones = this.stonesOn[0];
    for (const m of s.moves) this.addMove(m);
    /** @type {(number|null)[]} the time each move took, seen from here (null: unknown) */
    this.moveMs = this.moves.map((_, i) => seen[i] ?? null);
    /** @type {number|null} when the last stone (or, with none yet, the game) was seen */
    this.lastMoveAt = this.moves.length === 0 ? performance.now() : (seen.length === this.moves.length ? this.lastMoveAt ?? null : null);
    this.opening = s.opening || {};
    const offers = this.opening.fifth_offers || null;
    /** Black's fifth-move offers, until one stands as move 5. */
    this.pendingFifths = offers && offers.every((/** @type {string} */ p) => !this.stones.has(p)) ? offers : null;
    this.prompt = s.prompt;
    this.clocks = s.clocks;
    this.clocksAt = performance.now();
    this.paused = msg.paused ?? null;
    this.drawOffer = s.draw_offer;
    this.offers = s.offers;
    this.violations = s.violations;
    this.result = s.result;
    /** Black stones that were forbidden when played (claim rooms, at the end). */
    this.forbidden = s.forbidden || [];
    /** Forbidden points the server reveals now (block and lose rooms). */
    this.revealed = msg.forbidden || [];
    /** @type {any} */
    this.lastEvent = null;
    /** @type {any} */
    this.canonical = null;
  }

  /** @param {Move} m */
  addMove(m) {
    if (m.point) this.stonesOn[m.board ?? 0]?.set(m.point.toUpperCase(), { color: m.color, number: m.number });
    this.moves.push(m);
  }

  /**
   * Applies the next `table_event`: 'new', or 'dup' for a repeat.
   * @param {any} te @returns {'new'|'dup'}
   */
  apply(te) {
    if (te.seq <= this.seq) return 'dup';
    if (te.seq !== this.seq + 1) throw new Gap(`have seq ${this.seq}, got ${te.seq}`);
    const e = te.event;
    if ('clocks' in e) { this.clocks = e.clocks; this.clocksAt = performance.now(); }
    switch (e.type) {
      case 'moved':
        if (e.number !== this.moves.length + 1) throw new Gap(`move ${e.number} after ${this.moves.length}`);
        if ((e.board ?? 0) >= this.boards) throw new Gap(`move ${e.number} on board ${e.board}`);
        this.addMove({ number: e.number, seat: e.seat, color: e.color, point: e.point, ...(e.board ? { board: e.board } : {}) });
        this.seenMove();
        if (this.pendingFifths && e.point && this.pendingFifths.includes(e.point)) this.pendingFifths = null;
        break;
      case 'swap_decided': this.swapped = e.swapped; this.black = e.black; break;
      case 'opening_formed': this.opening = { ...this.opening, canonical: e.code }; this.canonical = e; break;
      case 'offers_declared': this.opening = { ...this.opening, declared_offers: e.count }; break;
      case 'fifths_offered':
        this.opening = { ...this.opening, fifth_offers: e.points };
        this.pendingFifths = e.points;
        break;
      case 'fifth_kept': this.pendingFifths = null; break;
      case 'option_chosen': this.opening = { ...this.opening, option: e.option }; break;
      case 'draw_offered': this.drawOffer = e.seat; this.offers = this.withSeat(this.offers, e.seat, e.offers); break;
      case 'draw_declined': case 'draw_offer_lapsed': case 'draw_accepted': this.drawOffer = null; break;
      case 'violation': this.violations = this.withSeat(this.violations, e.seat, e.count); break;
      case 'game_over':
        this.result = e.result;
        this.forbidden = e.forbidden || [];
        this.drawOffer = null;
        break;
      default: break;
    }
    this.prompt = te.prompt;
    this.revealed = te.forbidden || [];
    this.seq = te.seq;
    this.lastEvent = e;
    return 'new';
  }

  /** Notes the time the move just added took, as seen from this page. */
  seenMove() {
    const now = performance.now();
    this.moveMs.push(this.lastMoveAt == null ? null : Math.round(now - this.lastMoveAt));
    this.lastMoveAt = now;
  }

  /** @param {number[]} pair @param {string} seat @param {number} v */
  withSeat(pair, seat, v) {
    const out = [...pair];
    out[seat === 'first' ? 0 : 1] = v;
    return out;
  }

  /** The seat holding `color` now. @param {string} color */
  seatOf(color) { return color === 'black' ? this.black : other(this.black); }
  /** The colour `seat` holds now. @param {string} seat */
  colorOf(seat) { return seat === this.black ? 'black' : 'white'; }
  /** Whether the game is over. */
  get over() { return this.result != null; }

  /** The clock of `seat` now, counted down locally from the server's last figures. @param {string} seat */
  clockNow(seat) {
    if (!this.clocks) return null;
    const c = { ...this.clocks[seat] };
    const kind = this.config.time.kind;
    const runner = this.clocks.running;
    if (runner !== seat || this.paused || this.over) {
      // The eight-stone overtime is both sides' at once: the waiting side's
      // main time lapses when the running side's runs out.
      if (kind === 'eight_stone' && runner && runner !== seat && !this.paused && !this.over && !this.clockNow(runner)?.main_ms) c.main_ms = 0;
      return c;
    }
    let left = performance.now() - this.clocksAt;
    const main = c.main_ms || 0;
    if (left <= main) { c.main_ms = main - left; return c; }
    left -= main;
    c.main_ms = 0;
    if (c.periods) {
      // Byo-yomi: the current period runs down; one that runs out is used
      // up and the next starts full (the server's figures replace these
      // with its next event; the flag is only ever the server's).
      const full = this.config.time?.period_ms || 0;
      let period = c.period_ms || 0;
      while (left >= period && c.periods > 1 && full > 0) {
        left -= period;
        period = full;
        c.periods -= 1;
        c.period_moves = this.config.time?.moves_per_period ?? 1;
      }
      c.period_ms = Math.max(0, period - left);
    } else if (kind === 'eight_stone') {
      c.period_ms = Math.max(0, (c.period_ms || 0) - left);
    } else if (kind === 'correspondence') {
      c.vacation_ms = Math.max(0, (c.vacation_ms || 0) - left);
    }
    return c;
  }
}

/** @param {string} seat */
export function other(seat) { return seat === 'first' ? 'second' : 'first'; }
