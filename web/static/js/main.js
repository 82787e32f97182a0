// The page: one connection, a router over the client routes, the account
// dialog and the header. Each route mounts a view that returns its cleanup.

import { Conn, ProtoError } from './conn.js';
import { h, fill } from './dom.js';
import { t, setLang, getLang, translate } from './i18n.js';
import { isMuted, setMuted } from './sound.js';
import { mountLobby } from './lobby.js';
import { pick, keep, forget } from './keep.js';

/** @typedef {import('./conn.js').Msg} Msg */

const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;

export const app = {
  conn: new Conn(wsUrl),
  /** @type {{name: string, guest: boolean}|null} */
  me: null,
  /** Rooms where this session sits, by room id: the table of its game. @type {Map<string, string>} */
  seated: new Map(),
  /** The room this session created and waits in. @type {string|null} */
  waiting: null,
  /** @type {(() => void)|null} */
  cleanup: null,
  /** Navigates to a client route. @param {string} path @param {any} [state] */
  go(path, state) {
    if (location.pathname !== path) history.pushState(null, '', path);
    route(state);
  },
  /** Shows a message in the notice bar. @param {string} text */
  notice(text) {
    const n = /** @type {HTMLElement} */ (document.getElementById('notice'));
    n.textContent = text;
    n.hidden = !text;
    clearTimeout(noticeTimer);
    if (text) noticeTimer = setTimeout(() => { n.hidden = true; }, 6000);
  },
  /** @param {unknown} e */
  fail(e) { app.notice(e instanceof Error ? e.message : String(e)); },
  /** The table shown now (for the tests and the console). @type {any} */
  current: null,
  /** Times of moves drawn: [frame arrival → drawn, → next frame] in ms (for the budget test). @type {number[][]} */
  drawTimes: [],
};
let noticeTimer = 0;
/** @type {any} */ (window).__tengen = app;

const root = /** @type {HTMLElement} */ (document.getElementById('app'));

async function route(/** @type {any} */ state) {
  app.cleanup?.();
  app.cleanup = null;
  const path = decodeURIComponent(location.pathname);
  const parts = path.split('/').filter(Boolean);
  fill(root);
  document.title = parts.length ? `${t(`title.${parts[0] === '@' ? 'profile' : parts[0]}`)}${parts[1] ? ` ${parts[1]}` : ''} · Tengen` : 'Tengen 天元';
  try {
    if (parts.length === 0) app.cleanup = mountLobby(app, root);
    else if (parts[0] === 'play' && parts[1]) app.cleanup = (await import('./play.js')).mountPlay(app, root, parts[1], state);
    else if (parts[0] === 'watch' && parts[1]) app.cleanup = (await import('./game.js')).mountGame(app, root, parts[1], null);
    else if (parts[0] === 'tv') app.cleanup = (await import('./pages.js')).mountTv(app, root);
    else if (parts[0] === 'tournaments') app.cleanup = (await import('./tournaments.js')).mountTournaments(app, root);
    else if (parts[0] === 'tournament' && parts[1]) app.cleanup = (await import('./tournament.js')).mountTournament(app, root, parts[1]);
    else if (parts[0] === 'leaderboard') app.cleanup = (await import('./pages.js')).mountLeaderboard(app, root);
    else if (parts[0] === '@' && parts[1]) app.cleanup = (await import('./pages.js')).mountProfile(app, root, parts[1]);
    else if (parts[0] === 'game' && parts[1]) app.cleanup = (await import('./viewer.js')).mountViewer(app, root, parts[1]);
    else fill(root, h('p', null, t('err.not_found')));
  } catch (e) {
    app.fail(e);
  }
}

/** Pushes that move the page: a game of ours starts. @param {Msg} m */
function onMessage(m) {
  // A session that sits at a game is kept for the next visit (keep.js).
  if (m.type === 'table_snapshot' && m.seat && app.conn.resumeToken) keep(app.conn.resumeToken);
  if (m.type === 'table_snapshot' && m.seat && m.id == null) {
    app.seated.set(m.room, m.table);
    if (app.waiting === m.room) app.waiting = null;
    const here = location.pathname === `/play/${m.room}`;
    if (!here || m.seq === 0) app.go(`/play/${m.room}`, { snapshot: m });
  } else if (m.type === 'matched') {
    app.seated.set(m.room, m.table);
  } else if (m.type === 'logged_in' || m.type === 'registered' || m.type === 'logged_out') {
    setMe(m.player);
  } else if (m.type === '_welcome') {
    setMe(m.welcome.player);
  }
}

/** @param {{name: string, guest: boolean}} p */
function setMe(p) {
  app.me = p;
  const name = /** @type {HTMLElement} */ (document.getElementById('me-name'));
  name.textContent = p.guest ? `${p.name} (${t('acct.guest')})` : p.name;
}

function accountDialog() {
  const dlg = /** @type {HTMLDialogElement} */ (document.getElementById('account-dlg'));
  const err = h('p.error', { role: 'alert' });
  const name = h('input', { name: 'name', autocomplete: 'username', required: true, minlength: 3, maxlength: 20 });
  const pass = h('input', { name: 'password', type: 'password', autocomplete: 'current-password', required: true, minlength: 8 });
  const submit = async (/** @type {string} */ type) => {
    try {
      const r = await app.conn.request({ type, name: /** @type {HTMLInputElement} */ (name).value, password: /** @type {HTMLInputElement} */ (pass).value });
      app.conn.token = r.token;
      dlg.close();
    } catch (e) {
      err.textContent = e instanceof Error ? e.message : String(e);
    }
  };
  const me = app.me;
  fill(dlg, h('form', { method: 'dialog', class: 'account', onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); submit('login'); } },
    me && !me.guest
      ? [h('p', null, h('a', { href: `/@/${me.name}`, 'data-link': true }, t('acct.profile'))),
        h('button', { type: 'button', onclick: async () => {
          try { await app.conn.request({ type: 'logout' }); } catch (e) { app.fail(e); }
          app.conn.token = null;
          dlg.close();
        } }, t('acct.logout'))]
      : [h('label', null, t('acct.name'), name), h('label', null, t('acct.password'), pass),
        h('div.row', null,
          h('button', { type: 'submit' }, t('acct.login')),
          h('button', { type: 'button', onclick: () => submit('register') }, t('acct.register')))],
    err,
    h('button', { type: 'button', class: 'close', onclick: () => dlg.close() }, t('acct.close'))));
  dlg.showModal();
}

function header() {
  const lang = /** @type {HTMLButtonElement} */ (document.getElementById('lang-btn'));
  const sound = /** @type {HTMLButtonElement} */ (document.getElementById('sound-btn'));
  const paint = () => {
    lang.textContent = getLang() === 'zh' ? 'English' : '中文';
    sound.setAttribute('aria-pressed', String(!isMuted()));
    sound.textContent = isMuted() ? '♪ ✕' : '♪';
    translate(document);
    if (app.me) setMe(app.me);
  };
  lang.onclick = () => { setLang(getLang() === 'zh' ? 'en' : 'zh'); paint(); route(); };
  sound.onclick = () => { setMuted(!isMuted()); paint(); };
  /** @type {HTMLElement} */ (document.getElementById('account-btn')).onclick = accountDialog;
  document.addEventListener('click', (ev) => {
    const a = /** @type {Element} */ (ev.target).closest('a[data-link]');
    if (a && !(/** @type {MouseEvent} */ (ev).ctrlKey || /** @type {MouseEvent} */ (ev).metaKey)) {
      ev.preventDefault();
      document.querySelector('dialog[open]')?.closest('dialog')?.close();
      app.go(/** @type {string} */ (a.getAttribute('href')));
    }
  });
  window.addEventListener('popstate', () => route());
  paint();
}

function netStatus() {
  const bar = /** @type {HTMLElement} */ (document.getElementById('net'));
  app.conn.statusListeners.add((s) => {
    bar.hidden = s === 'open';
    bar.dataset.state = s;
    bar.textContent = s === 'reconnecting' ? t('net.reconnecting') : s === 'closed' ? t('net.closed') : t('net.connecting');
  });
}

async function boot() {
  setLang(getLang());
  header();
  netStatus();
  app.conn.listen(onMessage);
  // The session to take up: this tab's (a reload) or one kept from an
  // earlier visit that no other tab holds (keep.js).
  const picked = await pick();
  app.conn.resumeToken = picked.token;
  try {
    const welcome = await app.conn.start();
    if (picked.fromKept && app.conn.staleToken === picked.token) app.notice(t('games.stale'));
    // A session kept that sits nowhere now has nothing to come back to.
    else if (welcome.resumed && !(welcome.tables || []).length) forget(welcome.resume_token);
  } catch (e) {
    if (e instanceof ProtoError) app.fail(e);
  }
  route();
}

boot();
