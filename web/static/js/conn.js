// The one WebSocket to the server: hello, requests matched to replies by
// id, pushes to listeners, and reconnection with the resume token and
// `since` so that no table event is lost or doubled (protocol/README.md,
// "Reconnecting"). Nothing here knows a game rule.

import { errorText } from './i18n.js';
import { claim, forget, release, setTabToken } from './keep.js';

/**
 * @typedef {import('tengen-protocol').ClientMsg} ClientMsg
 * @typedef {import('tengen-protocol').ServerMsg} ServerMsg
 * @typedef {import('tengen-protocol').ServerFrame} ServerFrame
 * @typedef {import('tengen-protocol').Welcome} Welcome
 * @typedef {import('tengen-protocol').ErrorBody} ErrorBody
 */
/**
 * @template {ServerMsg['type']} T
 * @typedef {import('tengen-protocol').ServerMsgOf<T>} ServerMsgOf
 */
/**
 * What listeners hear: every frame the server sends (replies too), and
 * `_welcome`, made here (never sent), each time a connection has opened a
 * session, new or resumed.
 * @typedef {ServerFrame | {type: '_welcome', welcome: Welcome, id?: undefined}} Incoming
 */
/** @typedef {'connecting'|'open'|'reconnecting'|'closed'} ConnState */

/**
 * A refusal from the server (an `error` reply, its `body`), or a lost
 * connection (`code` `disconnected`, `offline`, `closed`; no body).
 */
export class ProtoError extends Error {
  /** @param {string} code @param {string} message @param {ErrorBody|null} [body] */
  constructor(code, message, body = null) {
    super(message);
    this.code = code;
    this.body = body;
  }
}

const CLIENT = 'tengen-web/0.1.0';
const TOKEN_KEY = 'tengen.token';
/** Close codes after which reconnecting is pointless. */
const FINAL = new Set([1002, 1003, 1009, 4003, 4005]);

/** Reads a key of a Storage, ignoring a browser that refuses storage. */
function load(/** @type {Storage} */ store, /** @type {string} */ key) {
  try { return store.getItem(key); } catch { return null; }
}
function save(/** @type {Storage} */ store, /** @type {string} */ key, /** @type {string|null} */ value) {
  try { if (value == null) store.removeItem(key); else store.setItem(key, value); } catch { /* private mode */ }
}

export class Conn {
  /** @param {string} url */
  constructor(url) {
    this.url = url;
    /** @type {WebSocket|null} */
    this.ws = null;
    /** @type {ConnState} */
    this.state = 'connecting';
    /** @type {Welcome|null} */
    this.welcome = null;
    this.nextId = 1;
    /** @type {Map<number, {resolve: (m: ServerFrame) => void, reject: (e: Error) => void}>} */
    this.pending = new Map();
    /** @type {Set<(m: Incoming) => void>} */
    this.listeners = new Set();
    /** @type {Set<(s: ConnState) => void>} */
    this.statusListeners = new Set();
    /** Tables followed, with the last `seq` held: re-watched on reconnect. @type {Map<string, () => number>} */
    this.tables = new Map();
    this.lobby = false;
    this.attempt = 0;
    /** @type {Promise<Welcome>|null} */
    this.ready = null;
    /** The session to resume (see keep.js, which picks it at boot). @type {string|null} */
    this.resumeToken = null;
    /** A token this tab asked to resume that the server no longer had. @type {string|null} */
    this.staleToken = null;
    /** The socket is being closed to take another session up. */
    this.switching = false;
    this.arrived = 0;
  }

  /** The login token kept in the browser (never in a URL). */
  get token() { return load(localStorage, TOKEN_KEY); }
  set token(/** @type {string|null} */ t) { save(localStorage, TOKEN_KEY, t); }

  /** Opens the connection (and reopens it after a drop). @returns {Promise<Welcome>} the welcome */
  start() {
    this.ready = new Promise((resolve, reject) => this.open(resolve, reject));
    return this.ready;
  }

  /** @param {(m: Welcome) => void} resolve @param {(e: Error) => void} reject */
  open(resolve, reject) {
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = async () => {
      try {
        const welcome = await this.hello();
        this.attempt = 0;
        this.setState('open');
        resolve(welcome);
        this.resubscribe(welcome);
      } catch (e) {
        // A server that cannot take the session now (`unavailable`, e.g.
        // while another node takes a game over) is asked again later: the
        // close below schedules the retry. Other refusals are final.
        if (e instanceof ProtoError && (e.code === 'unavailable' || e.code === 'disconnected')) {
          ws.close(4000, 'retry');
          return;
        }
        reject(/** @type {Error} */ (e));
      }
    };
    ws.onmessage = (ev) => this.receive(ev.data);
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      for (const p of this.pending.values()) p.reject(new ProtoError('disconnected', 'connection lost'));
      this.pending.clear();
      if (FINAL.has(ev.code) || this.state === 'closed') {
        this.setState('closed');
        reject(new ProtoError('closed', `connection closed (${ev.code})`));
        return;
      }
      // Taking another session up (switchTo) is no lost connection.
      this.setState(this.switching ? 'connecting' : 'reconnecting');
      this.switching = false;
      const delay = Math.min(5000, 200 * 2 ** this.attempt++) * (0.75 + Math.random() / 2);
      const wait = this.attempt === 1 ? 50 : delay;
      /** @type {Promise<Welcome>} */
      const next = new Promise((res, rej) => setTimeout(() => this.open(res, rej), wait));
      this.ready = next;
      // A first connection that never got its welcome is settled by the retry.
      next.then(resolve, reject);
    };
  }

  /** Sends `hello` (resuming if it can), retrying as a guest if the login token is refused. */
  async hello() {
    /** @type {import('tengen-protocol').ClientMsgOf<'hello'>} */
    const hello = { type: 'hello', version: 1, client: CLIENT };
    const name = load(localStorage, 'tengen.name');
    if (name) hello.name = name;
    if (this.resumeToken) hello.resume = this.resumeToken;
    const token = this.token;
    if (token) hello.token = token;
    let welcome;
    try {
      welcome = await this.send(hello, 'welcome');
    } catch (e) {
      if (!(e instanceof ProtoError) || !['token_expired', 'bad_credentials'].includes(e.code)) throw e;
      this.token = null;
      delete hello.token;
      welcome = await this.send(hello, 'welcome');
    }
    this.welcome = welcome;
    const asked = this.resumeToken;
    if (asked && !welcome.resumed) {
      // Its session has ended: nothing to come back to with it.
      this.staleToken = asked;
      forget(asked);
      release(asked);
    }
    if (welcome.resume_token) {
      this.resumeToken = welcome.resume_token;
      setTabToken(welcome.resume_token);
      await claim(welcome.resume_token);
    }
    return welcome;
  }

  /**
   * Takes up the session of `token` (this tab holds its lock) on a new
   * connection; the session used so far is let go (another tab may take
   * it up).
   * @param {string} token
   */
  switchTo(token) {
    const old = this.resumeToken;
    this.resumeToken = token;
    setTabToken(token);
    if (old && old !== token) release(old);
    this.tables.clear();
    this.switching = true;
    this.ws?.close(4000, 'switching session');
  }

  /** After a reconnect: every table again from its last `seq`, and the lobby. @param {Welcome} welcome */
  resubscribe(welcome) {
    const tables = new Set([...(welcome.tables || []), ...this.tables.keys()]);
    for (const table of tables) {
      const since = this.tables.get(table)?.();
      /** @type {import('tengen-protocol').ClientMsgOf<'watch'>} */
      const msg = { type: 'watch', table };
      if (since != null && since >= 0) msg.since = since;
      this.send(msg).catch(() => {});
    }
    if (this.lobby) this.send({ type: 'lobby_subscribe' }).catch(() => {});
    for (const f of this.listeners) f({ type: '_welcome', welcome });
  }

  /** @param {ConnState} s */
  setState(s) {
    this.state = s;
    for (const f of this.statusListeners) f(s);
  }

  /** @param {string|ArrayBuffer|Blob} data */
  receive(data) {
    if (typeof data !== 'string') return;
    /** When the frame being handled arrived (for the draw-time budget). */
    this.arrived = performance.now();
    /** @type {ServerFrame} the server's word (protocol/schema/tengen.d.ts) */
    let msg;
    try { msg = JSON.parse(data); } catch { return; }
    const p = msg.id != null ? this.pending.get(msg.id) : undefined;
    if (p && msg.id != null) {
      this.pending.delete(msg.id);
      if (msg.type === 'error') p.reject(new ProtoError(msg.code, errorText(msg), msg));
      else p.resolve(msg);
    }
    // Replies are shown to listeners too: a `table_snapshot` or `chat`
    // reply is table state like its pushes.
    for (const f of this.listeners) f(msg);
  }

  /**
   * Sends a request and waits for its reply: of type `want` when given (a
   * reply of another type is refused as `unexpected`), else of any type.
   * An `error` reply rejects with a ProtoError.
   * @template {ServerMsg['type']} [T=ServerMsg['type']]
   * @param {ClientMsg} msg @param {T} [want]
   * @returns {Promise<ServerMsgOf<T>>}
   */
  send(msg, want) {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      return Promise.reject(new ProtoError('offline', 'not connected: reconnecting'));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, {
        resolve: (m) => {
          if (want == null || m.type === want) resolve(/** @type {ServerMsgOf<T>} */ (m));
          else reject(new ProtoError('unexpected', `${msg.type} answered by ${m.type}`));
        },
        reject,
      });
      ws.send(JSON.stringify({ ...msg, id }));
    });
  }

  /**
   * As `send`, once the connection is up (waits through a reconnect).
   * @template {ServerMsg['type']} [T=ServerMsg['type']]
   * @param {ClientMsg} msg @param {T} [want]
   * @returns {Promise<ServerMsgOf<T>>}
   */
  async request(msg, want) {
    if (this.state !== 'open') await this.ready;
    return this.send(msg, want);
  }

  /** @param {(m: Incoming) => void} f @returns {() => void} */
  listen(f) {
    this.listeners.add(f);
    return () => this.listeners.delete(f);
  }

  /** Follows a table across reconnections. @param {string} table @param {() => number} seq */
  follow(table, seq) { this.tables.set(table, seq); }
  /** @param {string} table */
  unfollow(table) { this.tables.delete(table); }
}
