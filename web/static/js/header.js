// The page's frame around the views (index.html): the header with this
// session's name, the account dialog, the sound, theme and language switches,
// the connection's status bar, and links that navigate inside the page.

import { h, fill } from './dom.js';
import { t, setLang, getLang, translate } from './i18n.js';
import { isMuted, setMuted } from './sound.js';
import { errorMessage } from './app.js';

/** @typedef {import('./app.js').App} App */

/** @param {string} id */
const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** Shows this session's name (and whether it is a guest) in the header. @param {App} app */
export function showMe(app) {
  const p = app.me;
  if (p) byId('me-name').textContent = p.guest ? `${p.name} (${t('acct.guest')})` : p.name;
}

/**
 * Wires the header's buttons, in-page links and the back button.
 * @param {App} app
 */
export function header(app) {
  const lang = /** @type {HTMLButtonElement} */ (byId('lang-btn'));
  const sound = /** @type {HTMLButtonElement} */ (byId('sound-btn'));
  const paint = () => {
    lang.textContent = getLang() === 'zh' ? 'English' : '中文';
    sound.setAttribute('aria-pressed', String(!isMuted()));
    sound.textContent = isMuted() ? '♪ ✕' : '♪';
    translate(document);
    showMe(app);
  };
  lang.onclick = () => { setLang(getLang() === 'zh' ? 'en' : 'zh'); paint(); app.route(); };
  // The theme: the system's (auto), then dark, then light; kept in localStorage.
  const theme = /** @type {HTMLButtonElement} */ (byId('theme-btn'));
  const THEMES = ['auto', 'dark', 'light'];
  const showTheme = () => {
    const now = document.documentElement.dataset.theme ?? 'auto';
    theme.setAttribute('data-theme-now', now);
    theme.title = t(`theme.${now}`);
    theme.setAttribute('aria-label', t(`theme.${now}`));
  };
  theme.onclick = () => {
    const next = THEMES[(THEMES.indexOf(document.documentElement.dataset.theme ?? 'auto') + 1) % THEMES.length];
    applyTheme(next);
    try { localStorage.setItem('tengen.theme', next); } catch { /* private mode */ }
    showTheme();
  };
  showTheme();
  sound.onclick = () => { setMuted(!isMuted()); paint(); };
  byId('account-btn').onclick = () => accountDialog(app);
  document.addEventListener('click', (ev) => {
    const a = ev.target instanceof Element ? ev.target.closest('a[data-link]') : null;
    if (a && !(ev.ctrlKey || ev.metaKey)) {
      ev.preventDefault();
      document.querySelector('dialog[open]')?.closest('dialog')?.close();
      app.go(a.getAttribute('href') ?? '/');
    }
  });
  window.addEventListener('popstate', () => app.route());
  paint();
}

/** Sets the page's theme: `dark`, `light` or `auto` (the system's). @param {string} name */
export function applyTheme(name) {
  if (name === 'dark' || name === 'light') document.documentElement.dataset.theme = name;
  else delete document.documentElement.dataset.theme;
}

/** The bar that says the connection is down or coming back. @param {App} app */
export function netStatus(app) {
  const bar = byId('net');
  app.conn.statusListeners.add((s) => {
    bar.hidden = s === 'open';
    bar.dataset.state = s;
    bar.textContent = s === 'reconnecting' ? t('net.reconnecting') : s === 'closed' ? t('net.closed') : t('net.connecting');
  });
}

/** Log in or register (a guest), or the profile and log out (an account). @param {App} app */
function accountDialog(app) {
  const dlg = /** @type {HTMLDialogElement} */ (byId('account-dlg'));
  const err = h('p.error', { role: 'alert' });
  const name = /** @type {HTMLInputElement} */ (h('input', { name: 'name', autocomplete: 'username', required: true, minlength: 3, maxlength: 20 }));
  const pass = /** @type {HTMLInputElement} */ (h('input', { name: 'password', type: 'password', autocomplete: 'current-password', required: true, minlength: 8 }));
  /** @param {'login'|'register'} type */
  const submit = async (type) => {
    try {
      const r = await app.conn.request({ type, name: name.value, password: pass.value }, type === 'login' ? 'logged_in' : 'registered');
      app.conn.token = r.token;
      dlg.close();
    } catch (e) {
      err.textContent = errorMessage(e);
    }
  };
  /** Here, or on every device (every login token of the account revoked). @param {'logout'|'logout_everywhere'} type */
  const logout = async (type) => {
    try { await app.conn.request({ type }, 'logged_out'); } catch (e) { app.fail(e); }
    app.conn.token = null;
    dlg.close();
  };
  const me = app.me;
  fill(dlg, h('form', { method: 'dialog', class: 'account', onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); submit('login'); } },
    me && !me.guest
      ? [h('p', null, h('a', { href: `/@/${me.name}`, 'data-link': true }, t('acct.profile'))),
        h('button', { type: 'button', onclick: () => logout('logout') }, t('acct.logout')),
        h('button', { type: 'button', onclick: () => logout('logout_everywhere') }, t('acct.logoutEverywhere'))]
      : [h('label', null, t('acct.name'), name), h('label', null, t('acct.password'), pass),
        h('div.row', null,
          h('button', { type: 'submit' }, t('acct.login')),
          h('button', { type: 'button', onclick: () => submit('register') }, t('acct.register')))],
    err,
    h('button', { type: 'button', class: 'close', onclick: () => dlg.close() }, t('acct.close'))));
  dlg.showModal();
}
