// The sessions this browser keeps across restarts, and which tab holds
// which. A session that sits at a game is kept in localStorage (its resume
// token), so that the site opened again days later takes the game up
// (a correspondence game above all). Each tab holds a Web Lock named after
// the token of the session it uses, for as long as the tab lives: a tab
// only takes up a kept session whose lock is free, so two tabs never use
// one session (resuming it from the second would close the first with
// 4005). The tab's own token is also in sessionStorage, so a reload comes
// back to the same session.

const KEPT_KEY = 'tengen.kept';
const TAB_KEY = 'tengen.resume';
/** The most sessions kept (a browser rarely has more tabs at games). */
const MAX_KEPT = 8;
const TOKEN = /^[0-9a-f]{32}$/;

/** Releases of the locks this tab holds, by token. @type {Map<string, () => void>} */
const held = new Map();

/** The kept tokens, newest first (anything else in the key is ignored). @returns {string[]} */
export function kept() {
  try {
    const v = JSON.parse(localStorage.getItem(KEPT_KEY) || '[]');
    return Array.isArray(v) ? v.filter((t) => typeof t === 'string' && TOKEN.test(t)) : [];
  } catch { return []; }
}

/** @param {string[]} tokens */
function store(tokens) {
  try { localStorage.setItem(KEPT_KEY, JSON.stringify(tokens.slice(0, MAX_KEPT))); } catch { /* private mode */ }
}

/** Keeps `token` (a session that sits at a game) across restarts. @param {string} token */
export function keep(token) {
  if (!TOKEN.test(token)) return;
  store([token, ...kept().filter((t) => t !== token)]);
}

/** Forgets `token` (its session has ended, or sits nowhere). @param {string} token */
export function forget(token) {
  const all = kept();
  if (all.includes(token)) store(all.filter((t) => t !== token));
}

/**
 * Takes the lock of `token` for this tab if no other tab holds it (or
 * lets it go within `waitMs`).
 * @param {string} token @param {number} [waitMs] @returns {Promise<boolean>} whether this tab holds it now
 */
export function claim(token, waitMs = 0) {
  if (held.has(token)) return Promise.resolve(true);
  const locks = navigator.locks;
  // Without Web Locks (an old browser) tabs cannot tell: share at own risk.
  if (!locks) return Promise.resolve(true);
  // Waiting a moment lets a reloaded page's lock go with the old page.
  const opts = waitMs > 0 ? { signal: AbortSignal.timeout(waitMs) } : { ifAvailable: true };
  return new Promise((resolve) => {
    locks.request(`tengen.session.${token}`, opts, (lock) => {
      if (!lock) { resolve(false); return null; }
      resolve(true);
      return new Promise((release) => { held.set(token, () => release(undefined)); });
    }).catch(() => resolve(false));
  });
}

/** Lets another tab take `token` up. @param {string} token */
export function release(token) {
  held.get(token)?.();
  held.delete(token);
}

/** The tab's own token (a reload), kept in sessionStorage. @returns {string|null} */
export function tabToken() {
  try { return sessionStorage.getItem(TAB_KEY); } catch { return null; }
}

/** @param {string} token */
export function setTabToken(token) {
  try { sessionStorage.setItem(TAB_KEY, token); } catch { /* private mode */ }
}

/**
 * The session this tab starts with: its own (a reload), else the newest
 * kept one no other tab holds, else none (a new session). Its lock is
 * held from now on.
 * @returns {Promise<{token: string|null, fromKept: boolean}>}
 */
export async function pick() {
  const own = tabToken();
  if (own && await claim(own, 1500)) return { token: own, fromKept: kept().includes(own) };
  for (const t of kept()) {
    if (t !== own && await claim(t)) return { token: t, fromKept: true };
  }
  return { token: null, fromKept: false };
}
