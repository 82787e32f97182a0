// The page's start: one connection, the session it takes up (keep.js),
// the header, the router (routes.js), and the server's pushes that move
// the page whatever view is shown: a game of ours starts, the player
// logs in or out, a rematch is offered to us (kept for the lobby).

import { Conn, ProtoError } from './conn.js';
import { App } from './app.js';
import { Router } from './routes.js';
import { header, netStatus, showMe, applyTheme } from './header.js';
import { t, setLang, getLang } from './i18n.js';
import { pick, keep, forget } from './keep.js';

/** @typedef {import('./conn.js').Incoming} Incoming */

const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
const router = new Router(/** @type {HTMLElement} */ (document.getElementById('app')));
const app = new App(new Conn(wsUrl), (state) => router.show(app, state));
/** For the tests and the console. */
Object.assign(window, { __tengen: app });

/** Pushes that move the page: a game of ours starts; who we are changes. @param {Incoming} m */
function onMessage(m) {
  if (m.type === 'table_snapshot' && m.seat) {
    // A session that sits at a game is kept for the next visit (keep.js).
    if (app.conn.resumeToken) keep(app.conn.resumeToken);
    if (m.id != null) return;
    app.seated.set(m.room, m.table);
    if (app.waiting === m.room) app.waiting = null;
    const here = location.pathname === `/play/${m.room}`;
    if (!here || m.seq === 0) app.go(`/play/${m.room}`, { snapshot: m });
  } else if (m.type === 'rematch_offered' && m.id == null && m.from) {
    app.rematches.set(m.table, m);
  } else if (m.type === 'rematch_cancelled' || m.type === 'rematch_started') {
    app.rematches.delete(m.table);
  } else if (m.type === 'matched') {
    app.seated.set(m.room, m.table);
  } else if (m.type === 'logged_in' || m.type === 'registered' || m.type === 'logged_out') {
    app.me = m.player;
    showMe(app);
  } else if (m.type === '_welcome') {
    app.me = m.welcome.player;
    showMe(app);
  }
}

async function boot() {
  setLang(getLang());
  try { applyTheme(localStorage.getItem('tengen.theme') ?? 'auto'); } catch { /* private mode */ }
  header(app);
  netStatus(app);
  app.conn.listen(onMessage);
  // The session to take up: this tab's (a reload) or one kept from an
  // earlier visit that no other tab holds (keep.js).
  const picked = await pick();
  app.conn.resumeToken = picked.token;
  try {
    const welcome = await app.conn.start();
    if (picked.fromKept && app.conn.staleToken === picked.token) app.notice(t('games.stale'));
    // A session kept that sits nowhere now has nothing to come back to.
    else if (welcome.resumed && !(welcome.tables || []).length && welcome.resume_token) forget(welcome.resume_token);
  } catch (e) {
    if (e instanceof ProtoError) app.fail(e);
  }
  app.route();
}

boot();
