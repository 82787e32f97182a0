// The lobby's room list, live: the server's `rooms` snapshot, then its
// `lobby_update`s (rooms added, changed, removed). Waiting rooms first,
// then games being played, then finished ones; a room this session
// waits in has no Join, a game it plays has "Your game" instead of Watch.

import { h, fill, botMark } from '../dom.js';
import { t, configName, openingName } from '../i18n.js';

/**
 * @typedef {import('../app.js').App} App
 * @typedef {import('tengen-protocol').RoomInfo} RoomInfo
 * @typedef {import('tengen-protocol').LobbyUpdate} LobbyUpdate
 */

const COLUMNS = ['lobby.rule', 'lobby.opening', 'lobby.time', 'lobby.kind', 'lobby.players', 'lobby.status', ''];
const ORDER = { waiting: 0, playing: 1, finished: 2 };

/** @param {App} app */
export function roomList(app) {
  /** @type {Map<string, RoomInfo>} */
  const rooms = new Map();
  const body = h('tbody');
  const el = h('table.roomlist', null,
    h('thead', null, h('tr', null, ...COLUMNS.map((k) => h('th', null, k ? t(k) : '')))),
    body);

  /** @param {RoomInfo} r */
  const row = (r) => {
    const p = r.players;
    const names = [p.first, p.second].flatMap((x) => (x ? [x] : []))
      .flatMap((x, i) => [i ? ' – ' : null, x.name, botMark(x, t('player.bot'))]);
    const mine = app.waiting === r.room;
    // A game of this session that still runs: back to it, not watching it.
    const seated = r.status === 'playing' && r.table && app.seated.get(r.room) === r.table;
    const c = r.config;
    return h('tr', { 'data-room': r.room },
      h('td', null, r.name || '', r.name ? h('br') : null, h('span.small', null, `${t(`rule.${c.rule_set}`)} ${c.board_size}`),
        // The phone hides the time column: the time control goes here.
        h('span.small.phone-only', { 'data-time': '' }, ` · ${configName(c).split(' · ')[2]}`)),
      // Renju: how the room handles forbidden moves (claim is the default).
      h('td', null, openingName(c.opening), c.rule_set === 'renju' ? h('span.small', { 'data-forbidden-rule': c.forbidden ?? 'claim' }, ` · ${t(`forbidden.${c.forbidden ?? 'claim'}`)}`) : null),
      h('td', null, configName(c).split(' · ')[2]),
      h('td', null, r.rated ? t('lobby.rated') : t('lobby.casual'), r.chat === false ? h('span.small', null, ` · ${t('lobby.chat_off')}`) : null),
      h('td', null, names),
      h('td', null, t(`lobby.${r.status}`), h('br'), h('span.small', null, t('game.spectators', { n: r.spectators }))),
      h('td', null,
        r.status === 'waiting' && !mine ? h('button', { type: 'button', onclick: () => app.go(`/play/${r.room}`) }, t('lobby.join')) : null,
        seated ? h('a.button.primary', { href: `/play/${r.room}`, 'data-link': true }, t('lobby.return'))
          : r.table ? h('a.button', { href: `/watch/${r.table}`, 'data-link': true }, t('lobby.watch')) : null));
  };

  const draw = () => {
    const sorted = [...rooms.values()].sort((a, b) => (ORDER[a.status] ?? 3) - (ORDER[b.status] ?? 3));
    fill(body, sorted.length ? sorted.map(row) : h('tr', null, h('td', { colspan: 7, class: 'empty' }, t('lobby.none'))));
  };

  return {
    el,
    draw,
    /** The whole list (`rooms`). @param {RoomInfo[]} all */
    all(all) {
      rooms.clear();
      for (const r of all) rooms.set(r.room, r);
      draw();
    },
    /** What changed (`lobby_update`). @param {LobbyUpdate} u */
    update(u) {
      for (const id of u.removed || []) rooms.delete(id);
      for (const r of u.changed || []) rooms.set(r.room, r);
      for (const r of u.added || []) rooms.set(r.room, r);
      draw();
    },
  };
}
