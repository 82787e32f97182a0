// "Your games" in the lobby: the games in progress of this tab's session
// (after a restart, the session keep.js took up), marked where it is the
// player's move, each opening the game in its seat. A logged-in account
// also asks the server for its other sessions' tables (`my_tables`): when
// this tab plays nothing, it takes such a session up (if no other tab
// holds it), so a game started in a browser closed since, or on another
// device, is found; one that another tab holds is pointed to.

import { h, fill } from '../dom.js';
import { t, configName } from '../i18n.js';
import { claim } from '../keep.js';

/**
 * @typedef {import('../app.js').App} App
 * @typedef {import('../conn.js').Incoming} Incoming
 * @typedef {import('tengen-protocol').Seat} Seat
 * @typedef {import('tengen-protocol').SeatedTable} SeatedTable
 * @typedef {import('tengen-protocol').ServerMsgOf<'table_snapshot'>} SnapshotMsg
 * @typedef {{table: string, room: string, seat: Seat, snap: SnapshotMsg}} Row
 */

/**
 * @param {App} app @param {() => void} changed called when the list (and
 *   `app.seated`) changed, for the room list's "your game" buttons
 * @returns {{el: HTMLElement, stop: () => void}}
 */
export function myGames(app, changed) {
  const el = h('div.my-games', { hidden: true });
  let stopped = false;
  let round = 0;
  /** The tables shown (their events redraw the list). @type {Set<string>} */
  let shown = new Set();

  /** This session's games, each with its snapshot (a closed table is left out). @returns {Promise<Row[]>} */
  const ownGames = async () => {
    const tables = new Set([...(app.conn.welcome?.tables || []), ...app.seated.values()]);
    /** @type {Row[]} */
    const rows = [];
    for (const table of tables) {
      try {
        const s = await app.conn.request({ type: 'watch', table }, 'table_snapshot');
        if (!s.seat) { app.conn.send({ type: 'unwatch', table }).catch(() => {}); continue; }
        app.seated.set(s.room, table);
        rows.push({ table, room: s.room, seat: s.seat, snap: s });
      } catch { /* closed: its game is over */ }
    }
    return rows;
  };

  /** The account's tables held by its other sessions. @returns {Promise<SeatedTable[]>} */
  const otherSessions = async () => {
    if (!app.loggedIn) return [];
    try {
      const r = await app.conn.request({ type: 'my_tables' }, 'my_tables');
      return r.tables.filter((e) => e.resume_token !== app.conn.resumeToken);
    } catch { return []; }
  };

  const refresh = async () => {
    const mine = ++round;
    const rows = await ownGames();
    const others = await otherSessions();
    if (stopped || mine !== round) return;
    const playing = rows.some((r) => !r.snap.snapshot.result);
    if (!playing && !app.waiting) {
      // Nothing to lose here: take up the account's session that sits at a game.
      for (const e of others) {
        if (!e.online && await claim(e.resume_token)) {
          if (!stopped) app.conn.switchTo(e.resume_token);
          return;
        }
      }
    }
    shown = new Set(rows.map((r) => r.table));
    draw(rows, others.length);
    changed();
  };

  /** @param {Row[]} rows @param {number} elsewhere */
  const draw = (rows, elsewhere) => {
    el.hidden = !rows.length && !elsewhere;
    rows.sort((a, b) => rank(a) - rank(b));
    fill(el, h('h2', null, t('games.title')),
      h('ul', null, rows.map(row)),
      elsewhere ? h('p.small', null, t('games.elsewhere'), ' ', h('a', { href: '/', target: '_blank' }, t('games.new_tab'))) : null);
  };

  /** Your move first, then theirs, then finished. @param {Row} r */
  const rank = (r) => (r.snap.snapshot.result ? 2 : r.snap.snapshot.prompt?.seat === r.seat ? 0 : 1);

  /** @param {Row} r */
  const row = (r) => {
    const s = r.snap;
    const opponent = s.players[r.seat === 'first' ? 'second' : 'first']?.name || '?';
    const state = rank(r);
    const label = [t('games.your_move'), t('games.their_move', { name: opponent }), t('games.over')][state];
    return h('li', { 'data-table': r.table, 'data-state': ['yours', 'theirs', 'over'][state], class: state === 0 ? 'yours' : '' },
      h('a', { href: `/play/${r.room}`, 'data-link': true }, t('games.against', { name: opponent })),
      h('span.small', null, ` · ${configName(s.snapshot.config)} · `),
      h('strong', null, label));
  };

  let timer = 0;
  const soon = () => { clearTimeout(timer); timer = setTimeout(refresh, 100); };
  const off = app.conn.listen((/** @type {Incoming} */ m) => {
    if (m.type === '_welcome' || m.type === 'logged_in' || m.type === 'registered') soon();
    else if (m.type === 'table_event' && shown.has(m.table)) soon();
  });
  if (app.conn.welcome) refresh();
  return { el, stop: () => { stopped = true; off(); clearTimeout(timer); } };
}
