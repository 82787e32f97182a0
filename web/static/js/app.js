// The page's shared state, handed to every view: the connection, who this
// session is, the rooms where it sits or waits, the notice bar and
// navigation. Nothing here draws a view: routes.js picks the view of a
// path, main.js keeps this state in step with the server's pushes.

/**
 * @typedef {import('./conn.js').Conn} Conn
 * @typedef {import('tengen-protocol').Player} Player
 * @typedef {import('tengen-protocol').ServerMsgOf<'table_snapshot'>} SnapshotMsg
 * @typedef {import('./game/table.js').TableState} TableState
 * @typedef {import('tengen-protocol').ServerMsgOf<'rematch_offered'>} RematchOffered
 */
/**
 * What a navigation hands the next view: the snapshot of a game that has
 * just started, already received (`/play/ROOM` draws it at once).
 * @typedef {{snapshot?: SnapshotMsg}} RouteState
 */

export class App {
  /**
   * @param {Conn} conn
   * @param {(state?: RouteState) => void} route draws the view of the address now shown
   */
  constructor(conn, route) {
    this.conn = conn;
    this.route = route;
    /** This session's player (a guest, or the account logged in). @type {Player|null} */
    this.me = null;
    /** Rooms where this session sits, by room id: the table of its game. @type {Map<string, string>} */
    this.seated = new Map();
    /** The room this session created and waits in. @type {string|null} */
    this.waiting = null;
    /** Rematches the opponent offers that stand, by finished table (the lobby shows them). @type {Map<string, RematchOffered>} */
    this.rematches = new Map();
    /** The table shown now (for the tests and the console). @type {TableState|null} */
    this.current = null;
    /** Times of moves drawn: [frame arrival → drawn, → next frame] in ms (for the budget test). @type {number[][]} */
    this.drawTimes = [];
    this.noticeTimer = 0;
    /** Shows what went wrong (a refusal's text) in the notice bar; a callback as it is. @param {unknown} e */
    this.fail = (e) => this.notice(errorMessage(e));
  }

  /** Navigates to a client route. @param {string} path @param {RouteState} [state] */
  go(path, state) {
    if (location.pathname !== path) history.pushState(null, '', path);
    this.route(state);
  }

  /** Shows a message in the notice bar for a few seconds. @param {string} text */
  notice(text) {
    const n = /** @type {HTMLElement} */ (document.getElementById('notice'));
    n.textContent = text;
    n.hidden = !text;
    clearTimeout(this.noticeTimer);
    if (text) this.noticeTimer = setTimeout(() => { n.hidden = true; }, 6000);
  }

  /** Whether this session is an account's (not a guest's). */
  get loggedIn() { return !!this.me && !this.me.guest; }
}

/** The text of something thrown (a ProtoError's is the refusal in the page's language). @param {unknown} e */
export function errorMessage(e) {
  return e instanceof Error ? e.message : String(e);
}
