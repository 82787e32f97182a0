// One table as the page sees it, built only from what the server sent: a
// `table_snapshot`, then `table_event`s in `seq` order (as the Rust
// client's TableView). It never decides a rule: whose turn it is, what may
// be done and which points are forbidden all come from the server.

/**
 * @typedef {import('tengen-protocol').Seat} Seat
 * @typedef {import('tengen-protocol').Color} Color
 * @typedef {import('tengen-protocol').Move} Move
 * @typedef {import('tengen-protocol').SeatClock} SeatClock
 * @typedef {import('tengen-protocol').ServerMsgOf<'table_snapshot'>} SnapshotMsg
 * @typedef {import('tengen-protocol').TableEvent} TableEvent
 * @typedef {import('tengen-protocol').Event} Event
 * @typedef {import('./../board.js').Stone} Stone
 * @typedef {import('tengen-protocol').AfterGrace} AfterGrace
 */
/**
 * A player away from the table: what happens when the grace is over, and
 * when it is (performance.now() time; null: nothing is counted).
 * @typedef {{after: AfterGrace|null, until: number|null}} Absence
 */
/** The names the server gives the canonical opening formed (`opening_formed`). @typedef {Extract<Event, {type: 'opening_formed'}>} Canonical */

/** Missed events: the caller asks for a fresh snapshot. */
export class Gap extends Error {}

/** @param {Seat} seat @returns {Seat} */
export function other(seat) { return seat === 'first' ? 'second' : 'first'; }

export class TableState {
  /** The table as a `table_snapshot` shows it. @param {SnapshotMsg} msg */
  constructor(msg) {
    const s = msg.snapshot;
    this.table = msg.table;
    this.room = msg.room;
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
    /** The stones on each board. @type {Map<string, Stone>[]} */
    this.stonesOn = Array.from({ length: this.boards }, () => new Map());
    /** The stones on the (first) board. */
    this.stones = this.stonesOn[0];
    for (const m of s.moves) this.addMove(m);
    this.opening = s.opening ?? {};
    const offers = this.opening.fifth_offers ?? null;
    /** Black's fifth-move offers, until one stands as move 5. @type {string[]|null} */
    this.pendingFifths = offers && offers.every((p) => !this.stones.has(p)) ? offers : null;
    this.prompt = s.prompt;
    this.clocks = s.clocks;
    this.clocksAt = performance.now();
    this.paused = msg.paused ?? null;
    this.drawOffer = s.draw_offer;
    /** The seat whose takeback request awaits an answer. @type {Seat|null} */
    this.takeback = s.takeback ?? null;
    this.offers = s.offers;
    this.violations = s.violations;
    this.result = s.result;
    /** Black stones that were forbidden when played (claim rooms, at the end). */
    this.forbidden = s.forbidden ?? [];
    /** Forbidden points the server reveals now (block and lose rooms). */
    this.revealed = msg.forbidden ?? [];
    /** Points white claimed falsely (violations that name their point). @type {string[]} */
    this.falseClaims = [];
    /** Who is away now, by seat (player_status keeps it). @type {Map<Seat, Absence>} */
    this.away = new Map();
    for (const a of msg.away ?? []) this.setAway(a.seat, false, a.after_grace ?? null, a.grace_ms ?? null);
    /** Once over: the seats that offered a rematch. @type {Set<Seat>} */
    this.rematch = new Set(msg.rematch ?? []);
    /** The tournament game this table plays, if it is one. */
    this.tournament = msg.tournament ?? null;
    /** @type {Event|null} */
    this.lastEvent = null;
    /** @type {Canonical|null} */
    this.canonical = null;
  }

  /**
   * A player's connection came back (`connected`) or is away, with what
   * happens after its grace and the grace left.
   * @param {Seat} seat @param {boolean} connected @param {AfterGrace|null} after @param {number|null} graceMs
   */
  setAway(seat, connected, after, graceMs) {
    if (connected) this.away.delete(seat);
    else this.away.set(seat, { after, until: graceMs == null ? null : performance.now() + graceMs });
  }

  /** @param {Move} m */
  addMove(m) {
    if (m.point) this.stonesOn[m.board ?? 0]?.set(m.point.toUpperCase(), { color: m.color, number: m.number });
    this.moves.push(m);
  }

  /**
   * Applies the next `table_event`: 'new', or 'dup' for a repeat.
   * @param {TableEvent} te @returns {'new'|'dup'}
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
      case 'draw_offered': this.drawOffer = e.seat; this.offers = withSeat(this.offers, e.seat, e.offers); break;
      case 'draw_declined': case 'draw_offer_lapsed': case 'draw_accepted': this.drawOffer = null; break;
      case 'violation':
        this.violations = withSeat(this.violations, e.seat, e.count);
        if (e.point) this.falseClaims.push(e.point);
        break;
      case 'takeback_requested': this.takeback = e.seat; break;
      case 'takeback_declined': this.takeback = null; break;
      case 'taken_back':
        this.takeback = null;
        for (const m of e.undone) {
          const gone = this.moves.pop();
          if (!gone || gone.number !== m.number) throw new Gap(`takeback of move ${m.number}`);
          if (gone.point) this.stonesOn[gone.board ?? 0]?.delete(gone.point.toUpperCase());
        }
        break;
      case 'game_over':
        this.result = e.result;
        this.forbidden = e.forbidden ?? [];
        this.drawOffer = null;
        this.away.clear();
        break;
      default: break;
    }
    this.prompt = te.prompt;
    this.revealed = te.forbidden ?? [];
    this.seq = te.seq;
    this.lastEvent = e;
    return 'new';
  }

  /** The seat holding `color` now. @param {Color} color */
  seatOf(color) { return color === 'black' ? this.black : other(this.black); }
  /** The colour `seat` holds now. @param {Seat} seat @returns {Color} */
  colorOf(seat) { return seat === this.black ? 'black' : 'white'; }
  /** Whether the game is over. */
  get over() { return this.result != null; }

  /**
   * The clock of `seat` now, counted down locally from the server's last figures.
   * @param {Seat} seat @returns {SeatClock|null}
   */
  clockNow(seat) {
    if (!this.clocks) return null;
    const c = { ...this.clocks[seat] };
    const tc = this.config.time;
    const runner = this.clocks.running;
    if (runner !== seat || this.paused || this.over) {
      // The eight-stone overtime is both sides' at once: the waiting side's
      // main time lapses when the running side's runs out. With one main
      // time for the game (`shared_main`), it is the running side's.
      if (tc.kind === 'eight_stone' && runner && runner !== seat && !this.paused && !this.over) {
        const running = this.clockNow(runner)?.main_ms ?? 0;
        if (tc.shared_main || !running) c.main_ms = running;
      }
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
      const full = tc.kind === 'byo_yomi' ? tc.period_ms : 0;
      let period = c.period_ms || 0;
      while (left >= period && c.periods > 1 && full > 0) {
        left -= period;
        period = full;
        c.periods -= 1;
        c.period_moves = tc.kind === 'byo_yomi' ? tc.moves_per_period : 1;
      }
      c.period_ms = Math.max(0, period - left);
    } else if (tc.kind === 'eight_stone') {
      c.period_ms = Math.max(0, (c.period_ms || 0) - left);
    } else if (tc.kind === 'correspondence') {
      c.vacation_ms = Math.max(0, (c.vacation_ms || 0) - left);
    }
    return c;
  }
}

/** A pair of per-seat counts with `seat`'s replaced. @param {[number, number]} pair @param {Seat} seat @param {number} v @returns {[number, number]} */
function withSeat(pair, seat, v) {
  return seat === 'first' ? [v, pair[1]] : [pair[0], v];
}
