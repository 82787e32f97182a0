// The lobby: the live room list (a `rooms` snapshot then `lobby_update`s),
// creating a room with every option the protocol offers, challenges, the
// rated queue and the invite link of a private room; "your games" above
// (mygames.js).

import { h, fill, botMark } from './dom.js';
import { t, configName, openingName } from './i18n.js';
import { myGames } from './mygames.js';
import { gameFields, formValue, field } from './gameform.js';

/** @param {any} app @param {HTMLElement} root */
export function mountLobby(app, root) {
  /** @type {Map<string, any>} */
  const rooms = new Map();
  const list = h('tbody');
  const waitBox = h('div.waitroom');
  const challenges = h('div.challenges');
  const queueBox = h('div.queue');
  /** @type {number|null} */
  let queuedAt = null;
  const form = createForm(app, (room, isPublic) => {
    app.waiting = room;
    showWaiting(room, isPublic);
  });

  const draw = () => {
    const sorted = [...rooms.values()].sort((a, b) => order(a) - order(b));
    fill(list, sorted.length ? sorted.map(row) : h('tr', null, h('td', { colspan: 7, class: 'empty' }, t('lobby.none'))));
  };
  /** @param {any} r */
  const order = (r) => ({ waiting: 0, playing: 1, finished: 2 })[/** @type {'waiting'} */ (r.status)] ?? 3;
  /** @param {any} r */
  const row = (r) => {
    const p = r.players;
    const names = [p.first, p.second].filter(Boolean)
      .flatMap((/** @type {any} */ x, /** @type {number} */ i) => [i ? ' – ' : null, x.name, botMark(x, t('player.bot'))]);
    const mine = app.waiting === r.room;
    // A game of this session that still runs: back to it, not watching it.
    const seated = r.status === 'playing' && r.table && app.seated.get(r.room) === r.table;
    return h('tr', { 'data-room': r.room },
      h('td', null, r.name || '', r.name ? h('br') : null, h('span.small', null, `${t(`rule.${r.config.rule_set}`)} ${r.config.board_size}`)),
      h('td', null, openingName(r.config.opening), r.config.forbidden && r.config.forbidden !== 'claim' ? h('span.small', null, ` · ${t(`forbidden.${r.config.forbidden}`)}`) : null),
      h('td', null, configName(r.config).split(' · ')[2]),
      h('td', null, r.rated ? t('lobby.rated') : t('lobby.casual'), r.chat === false ? h('span.small', null, ` · ${t('lobby.chat_off')}`) : null),
      h('td', null, names),
      h('td', null, t(`lobby.${r.status}`), h('br'), h('span.small', null, t('game.spectators', { n: r.spectators }))),
      h('td', null,
        r.status === 'waiting' && !mine ? h('button', { type: 'button', onclick: () => app.go(`/play/${r.room}`) }, t('lobby.join')) : null,
        seated ? h('a.button.primary', { href: `/play/${r.room}`, 'data-link': true }, t('lobby.return'))
          : r.table ? h('a.button', { href: `/watch/${r.table}`, 'data-link': true }, t('lobby.watch')) : null));
  };

  /** @param {string} room @param {boolean} isPublic */
  const showWaiting = (room, isPublic) => {
    const link = `${location.origin}/play/${room}`;
    fill(waitBox,
      h('p', null, t('lobby.waitroom')),
      isPublic ? null : h('p', null, t('lobby.invite'), ': ', h('input.invite', { readonly: true, value: link, size: 40, onfocus: (/** @type {Event} */ e) => /** @type {HTMLInputElement} */ (e.target).select() })),
      h('button', { type: 'button', onclick: async () => {
        try { await app.conn.request({ type: 'cancel_room', room }); } catch (e) { app.fail(e); }
        app.waiting = null;
        fill(waitBox);
      } }, t('lobby.cancel')));
  };

  const drawQueue = () => {
    const me = app.me;
    if (!me || me.guest) { fill(queueBox, h('p.small', null, t('lobby.queue.login'))); return; }
    if (queuedAt == null) {
      fill(queueBox, h('button', { type: 'button', onclick: async () => {
        try {
          await app.conn.request({ type: 'queue', config: form.config() });
          queuedAt = Date.now();
          drawQueue();
        } catch (e) { app.fail(e); }
      } }, t('lobby.queue.join')), h('span.small', null, ' ', configName(form.config())));
    } else {
      fill(queueBox, h('span.queue-wait', null, t('lobby.queue.waiting', { s: Math.floor((Date.now() - queuedAt) / 1000) })), ' ',
        h('button', { type: 'button', onclick: async () => {
          queuedAt = null;
          drawQueue();
          try { await app.conn.request({ type: 'unqueue' }); } catch (e) { app.fail(e); }
        } }, t('lobby.queue.leave')));
    }
  };
  const tick = setInterval(() => { if (queuedAt != null) drawQueue(); }, 1000);

  const challengeName = h('input', { name: 'player', maxlength: 32, required: true });
  const challengeForm = h('form.inline', { onsubmit: async (/** @type {Event} */ e) => {
    e.preventDefault();
    try {
      const r = await app.conn.request({ type: 'challenge', player: /** @type {HTMLInputElement} */ (challengeName).value.trim(), config: form.config(), chat: form.chat() });
      app.waiting = r.room;
      showWaiting(r.room, true);
    } catch (err) { app.fail(err); }
  } }, h('label', null, t('form.player'), ' ', challengeName), h('button', { type: 'submit' }, t('lobby.challenge.send')));

  const off = app.conn.listen((/** @type {any} */ m) => {
    if (m.type === 'rooms') {
      rooms.clear();
      for (const r of m.rooms) rooms.set(r.room, r);
      draw();
      if (!performance.getEntriesByName('lobby-usable').length) performance.mark('lobby-usable');
    } else if (m.type === 'lobby_update') {
      for (const id of m.removed || []) rooms.delete(id);
      for (const r of m.changed || []) rooms.set(r.room, r);
      for (const r of m.added || []) rooms.set(r.room, r);
      draw();
    } else if (m.type === 'challenged') {
      const item = h('div.challenge', null, t('lobby.challenged', { name: m.from.name, config: configName(m.config) }), ' ',
        h('button', { type: 'button', onclick: () => { item.remove(); app.go(`/play/${m.room}`); } }, t('lobby.accept')),
        h('button', { type: 'button', onclick: async () => {
          item.remove();
          try { await app.conn.request({ type: 'decline_challenge', room: m.room }); } catch (e) { app.fail(e); }
        } }, t('lobby.decline')));
      challenges.appendChild(item);
    } else if (m.type === 'room_cancelled' && m.room === app.waiting) {
      app.waiting = null;
      fill(waitBox, h('p', null, m.reason));
    } else if (m.type === 'room_closed' && m.room === app.waiting) {
      app.waiting = null;
      fill(waitBox, h('p.notice', { role: 'status' }, t('game.room_closed', { reason: m.reason })));
    } else if (m.type === 'unqueued' && m.id == null) {
      queuedAt = null;
      drawQueue();
    } else if (['logged_in', 'registered', 'logged_out', '_welcome'].includes(m.type)) {
      setTimeout(drawQueue);
    } else if (m.type === 'matched') {
      queuedAt = null;
    }
  });

  const games = myGames(app, draw);
  fill(root, h('section.lobby', null,
    h('div.rooms', null,
      games.el,
      h('h2', null, t('lobby.rooms')),
      challenges, waitBox,
      h('table.roomlist', null,
        h('thead', null, h('tr', null, ...['lobby.rule', 'lobby.opening', 'lobby.time', 'lobby.kind', 'lobby.players', 'lobby.status', ''].map((k) => h('th', null, k ? t(k) : '')))),
        list)),
    h('div.create', null,
      h('h2', null, t('lobby.create')), form.el,
      h('h3', null, t('lobby.queue')), queueBox,
      h('h3', null, t('lobby.challenge')), challengeForm)));
  draw();
  drawQueue();
  if (app.waiting) showWaiting(app.waiting, true);
  app.conn.lobby = true;
  app.conn.request({ type: 'lobby_subscribe' }).catch(app.fail);
  return () => {
    off();
    games.stop();
    clearInterval(tick);
    app.conn.lobby = false;
    app.conn.send({ type: 'lobby_unsubscribe' }).catch(() => {});
  };
}

/**
 * The room form: every option of `create_room`.
 * @param {any} app @param {(room: string, isPublic: boolean) => void} created
 */
function createForm(app, created) {
  const f = /** @type {HTMLFormElement} */ (h('form.create-room', { onsubmit: async (/** @type {Event} */ e) => {
    e.preventDefault();
    const isPublic = Boolean(val('public', true));
    try {
      /** @type {any} */
      const msg = { type: 'create_room', config: game.config(), public: isPublic, chat: val('chat', true) };
      if (val('rated', true)) msg.rated = true;
      const name = String(val('name')).trim();
      if (name) msg.name = name;
      const r = await app.conn.request(msg);
      created(r.room, isPublic);
    } catch (err) { app.fail(err); }
  } }));
  const val = formValue(f);
  const game = gameFields(f);
  f.append(...game.fields,
    field('form.name', h('input', { name: 'name', maxlength: 64 })),
    h('label.check', null, h('input', { type: 'checkbox', name: 'public', checked: true }), t('form.public')),
    h('label.check', null, h('input', { type: 'checkbox', name: 'chat', checked: true }), t('form.chat')),
    h('label.check', null, h('input', { type: 'checkbox', name: 'rated' }), t('form.rated')),
    h('button.primary', { type: 'submit' }, t('lobby.create')));
  game.sync();
  return { el: f, config: game.config, chat: () => Boolean(val('chat', true)) };
}
