// `/play/ROOM`: the game of a room this session sits in, or joining it (an
// invite link, a challenge, a room picked in the lobby).

import { h, fill } from '../dom.js';
import { t } from '../i18n.js';
import { errorMessage } from '../app.js';
import { mountGame } from './game.js';

/**
 * @typedef {import('../app.js').App} App
 * @typedef {import('../app.js').RouteState} RouteState
 */

/** @param {App} app @param {HTMLElement} root @param {string} room @param {RouteState} [state] */
export function mountPlay(app, root, room, state) {
  if (state?.snapshot) return mountGame(app, root, state.snapshot.table, state.snapshot);
  const table = app.seated.get(room);
  if (table) return mountGame(app, root, table, null);
  /** @type {(() => void)|null} */
  let inner = null;
  let stopped = false;
  (async () => {
    // A reloaded page resumes its session: its tables are in the welcome.
    for (const tb of app.conn.welcome?.tables || []) {
      try {
        const s = await app.conn.request({ type: 'watch', table: tb }, 'table_snapshot');
        if (stopped) return;
        if (s.room === room && s.seat) {
          app.seated.set(room, tb);
          inner = mountGame(app, root, tb, s);
          return;
        }
      } catch { /* a closed table */ }
    }
    if (app.waiting === room) { app.go('/'); return; }
    fill(root, h('p', null, '…'));
    try {
      await app.conn.request({ type: 'join_room', room }, 'joined');
      // The game-start snapshot follows and brings the game here.
    } catch (e) {
      if (stopped) return;
      let entry = null;
      try { entry = (await app.conn.request({ type: 'list_rooms' }, 'rooms')).rooms.find((r) => r.room === room); } catch { /* offline */ }
      fill(root, h('section.message', null,
        h('p.error', { role: 'alert' }, errorMessage(e)),
        entry?.table ? h('p', null, h('a.button', { href: `/watch/${entry.table}`, 'data-link': true }, t('lobby.watch'))) : null,
        h('p', null, h('a', { href: '/', 'data-link': true }, t('act.leave')))));
    }
  })();
  return () => { stopped = true; inner?.(); };
}
