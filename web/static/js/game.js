// A game, played or watched: the board, both players and their clocks, the
// prompt the server sent and the actions it allows, the move list (with
// stepping back and forth), chat and downloads. Built only from server
// messages (TableState); every action is a request the referee judges.

import { h, fill, download, botMark } from './dom.js';
import { clockFace } from './clockface.js';
import { liveRecord } from './record.js';
import { ProtoError } from './conn.js';
import { t, getLang } from './i18n.js';
import { Board } from './board.js';
import { TableState, Gap, other } from './table.js';
import { sounds } from './sound.js';
import { promptText, resultText, actionButtons } from './panel.js';

/**
 * @param {any} app @param {HTMLElement} root @param {string} table
 * @param {any} snapshot a `table_snapshot` already received, or null to `watch`
 * @param {{onOver?: () => void, compact?: boolean}} [opts]
 */
export function mountGame(app, root, table, snapshot, opts = {}) {
  /** @type {TableState|null} */
  let st = null;
  /** @type {Board[]} one board, or two in twin rooms */
  let boards = [];
  /** @type {number|null} the number of moves shown when stepping back; null: live */
  let view = null;
  /** @type {string[]} fifth-move offers being placed */
  let offers = [];
  /** @type {string[]|null} two stones being placed, white then black (Swap2, Super Sakata) */
  let two = null;
  /** @type {{seat: string, until: number}|null} */
  let away = null;
  /** @type {Set<string>} */
  const rematch = new Set();
  let warned = false;
  const ui = {
    numbers: localStorage.getItem('tengen.numbers') === '1',
    confirm: localStorage.getItem('tengen.confirm') === '1' || (localStorage.getItem('tengen.confirm') == null && matchMedia('(pointer: coarse)').matches),
    drawWithMove: false,
    resignAsk: false,
  };

  const boardWrap = h('div.board-wrap');
  const seats = { first: h('div.seat', { 'data-seat': 'first' }), second: h('div.seat', { 'data-seat': 'second' }) };
  const status = h('p.prompt#prompt', { role: 'status', 'aria-live': 'polite' });
  const actions = h('div.actions');
  const msg = h('p.game-msg#game-msg', { role: 'alert' });
  const moveList = h('ol.moves', { 'aria-label': t('game.moves') });
  const nav = h('div.nav');
  const chatLog = h('ul.chat-log', { 'aria-live': 'polite' });
  const chatInput = /** @type {HTMLInputElement} */ (h('input', { name: 'chat', maxlength: 280, autocomplete: 'off', 'aria-label': t('game.chat') }));
  const tools = h('div.tools');
  const info = h('p.info');

  fill(root, h('section.game', null,
    boardWrap,
    h('aside.side', null, info, seats.first, seats.second, status, actions, msg,
      h('div.movebox', null, h('h3', null, t('game.moves')), moveList, nav),
      opts.compact ? null : h('div.chat', null, h('h3', null, t('game.chat')), chatLog,
        h('form.inline', { onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); say(); } }, chatInput, h('button', { type: 'submit' }, t('game.say')))),
      tools)));

  const say = async () => {
    const text = chatInput.value;
    if (!text.trim()) return;
    try {
      await app.conn.request({ type: 'chat', table, text });
      chatInput.value = '';
    } catch (e) { showMsg(e); }
  };

  /** @param {unknown} e */
  const showMsg = (e) => { msg.textContent = e ? (e instanceof Error ? e.message : String(e)) : ''; };

  /** @param {any} action */
  const act = async (action) => {
    showMsg(null);
    try {
      await app.conn.request({ type: 'act', table, action });
    } catch (e) { showMsg(e); }
  };

  const mine = () => st?.seat ?? null;
  const myTurn = () => !!st && !st.over && !!st.prompt && st.prompt.seat === mine() && view == null;

  /** A point picked on board `b` (0, or 1 in twin rooms). @param {string} p @param {number} [b] */
  const pick = (p, b = 0) => {
    if (!st || !myTurn()) return;
    const pr = st.prompt;
    switch (pr.task) {
      case 'place':
        act({ type: 'place', point: p, ...(b ? { board: b } : {}), ...(ui.drawWithMove ? { offer_draw: true } : {}) });
        ui.drawWithMove = false;
        break;
      case 'offer_fifths':
        offers = offers.includes(p) ? offers.filter((x) => x !== p) : offers.length < pr.count ? [...offers, p] : offers;
        render();
        break;
      case 'keep_fifth': if ((pr.offers || []).includes(p)) act({ type: 'keep_fifth', point: p }); break;
      case 'swap2_choice':
      case 'super_sakata_choice':
        if (two) {
          two = two.includes(p) ? two.filter((x) => x !== p) : [...two, p];
          if (two.length === 2) { const [white, black] = two; two = null; act({ type: 'place_two', white, black }); }
          render();
        } else if (pr.task === 'swap2_choice') act({ type: 'place', point: p });
        break;
      default: break;
    }
  };

  const drawBoard = () => {
    if (!st) return;
    if (boards.length !== st.boards || boards[0].size !== st.size) {
      // Twin rooms: two boards side by side, each picking for itself.
      const twin = st.boards > 1;
      boards = Array.from({ length: st.boards }, (_, b) => new Board(st?.size ?? 15, (p) => pick(p, b), twin ? t('game.board_n', { n: b + 1 }) : 'board'));
      boardWrap.classList.toggle('twin', twin);
      fill(boardWrap, ...boards.map((board, b) => (twin
        ? h('figure.twin-board', null, h('figcaption', null, t('game.board_n', { n: b + 1 })), board.svg)
        : board.svg)));
    }
    boards.forEach((board, b) => drawOne(board, b));
  };

  /** Draws board `b` (0, or 1 in twin rooms). @param {Board} board @param {number} b */
  const drawOne = (board, b) => {
    if (!st) return;
    board.confirm = ui.confirm;
    const live = view == null;
    const all = live ? st.moves : st.moves.slice(0, view);
    const moves = all.filter((m) => (m.board ?? 0) === b);
    const stones = live ? st.stonesOn[b] : new Map(moves.filter((m) => m.point).map((m) => [/** @type {string} */ (m.point), { color: m.color, number: m.number }]));
    const lastMove = all.length ? all[all.length - 1] : null;
    const last = lastMove && (lastMove.board ?? 0) === b ? lastMove.point : null;
    const reason = st.result?.reason;
    const line = !live ? [] : reason?.kind === 'five' ? reason.line : reason?.kind === 'twin_fives' ? reason.lines[b]
      : reason?.kind === 'one_board_five' && reason.board === b ? reason.line : [];
    /** @type {{point: string, label: string, cls: string}[]} */
    const marks = [];
    if (live && st.pendingFifths) for (const p of st.pendingFifths) marks.push({ point: p, label: '5', cls: 'offer' });
    if (live) for (const p of offers) marks.push({ point: p, label: '5', cls: 'mine' });
    if (live && two) two.forEach((p, i) => marks.push({ point: p, label: String(st.moves.length + 1 + i), cls: i ? 'mine' : 'mine white' }));
    const pr = st.prompt;
    board.interactive = myTurn() && (['place', 'offer_fifths', 'keep_fifth', 'swap2_choice'].includes(pr.task)
      || (pr.task === 'super_sakata_choice' && !!two));
    board.previewColor = !board.interactive ? null
      : pr.task === 'place' ? pr.color : pr.task === 'offer_fifths' ? 'black'
        : ['swap2_choice', 'super_sakata_choice'].includes(pr.task) ? (two && two.length ? 'black' : 'white') : null;
    board.svg.classList.toggle('my-turn', board.interactive);
    board.draw({
      stones, last, numbers: ui.numbers, marks,
      line,
      forbidden: live && !st.over ? st.revealed : [],
    });
  };

  const renderSeats = () => {
    if (!st) return;
    for (const seat of ['first', 'second']) {
      const p = st.players[seat];
      const color = st.colorOf(seat);
      const turn = !st.over && st.prompt?.seat === seat;
      const el = seats[/** @type {'first'} */ (seat)];
      el.classList.toggle('turn', turn);
      fill(el,
        h(`span.stone-icon.${color}`, { title: t(`color.${color}`) }),
        h('a.name', { href: p && !p.guest ? `/@/${p.name}` : null, 'data-link': p && !p.guest ? true : null }, p ? p.name : '—'),
        botMark(p, t('player.bot')),
        seat === mine() ? h('span.you', null, ` (${t('game.you')})`) : null,
        h('span.clock', { 'data-clock': seat }),
        h('span.away', { 'data-away': seat }),
        st.drawOffer === seat ? h('span.badge', null, t('game.draw_offered', { who: '' }).trim()) : null,
        rematch.has(seat) ? h('span.badge', null, t('act.rematch')) : null);
    }
    tickClocks();
  };

  const tickClocks = () => {
    if (!st) return;
    for (const seat of ['first', 'second']) {
      const a = root.querySelector(`[data-away="${seat}"]`);
      if (a) a.textContent = away && away.seat === seat && !st.over ? t('game.away', { who: '', s: Math.max(0, Math.ceil((away.until - performance.now()) / 1000)) }).trim() : '';
      const c = st.clockNow(seat);
      const el = root.querySelector(`[data-clock="${seat}"]`);
      if (!el) continue;
      if (!c) { el.textContent = ''; continue; }
      const face = clockFace(c, st.config.time);
      const running = st.clocks?.running === seat && !st.over && !st.paused;
      const low = face.low && !st.over;
      if (el.textContent !== face.text) el.textContent = face.text;
      el.setAttribute('data-phase', face.phase);
      if (face.periods) el.setAttribute('data-periods', String(face.periods)); else el.removeAttribute('data-periods');
      el.classList.toggle('low', low);
      el.toggleAttribute('data-low', low);
      el.classList.toggle('running', running);
      // One warning per spell of low time on one's own running clock.
      if (seat === mine() && running && low && !warned) { warned = true; sounds.low(); }
      if (seat === mine() && !low) warned = false;
    }
  };
  const timer = setInterval(tickClocks, 100);

  const renderPanel = () => {
    if (!st) return;
    const c = st.config;
    // The canonical opening: its names come with the event (the snapshot has its code).
    const cn = st.canonical;
    const opening = cn ? (getLang() === 'zh' ? `${cn.code} ${cn.chinese}（${cn.name}）` : `${cn.code} ${cn.name} (${cn.chinese})`) : st.opening?.canonical ?? '';
    fill(info, `${t(`rule.${c.rule_set}`)} · `, h('span.spectators', null, t('game.spectators', { n: st.spectators })),
      opening ? ` · ${opening}` : '');
    status.textContent = st.over ? resultText(st) : promptText(st, mine());
    // For assistive technology and test drivers: what this page is asked.
    if (st.prompt) status.setAttribute('data-task', st.prompt.task); else status.removeAttribute('data-task');
    if (myTurn()) status.setAttribute('data-mine-task', st.prompt.task); else status.removeAttribute('data-mine-task');
    status.toggleAttribute('data-over', st.over);
    fill(actions, actionButtons(st, {
      mine: mine(), live: view == null, ui, offers, two, act,
      rerender: render,
      setOffers: (/** @type {string[]} */ o) => { offers = o; render(); },
      setTwo: (/** @type {string[]|null} */ x) => { two = x; render(); },
      rematch: async () => { try { await app.conn.request({ type: 'rematch', table }); } catch (e) { showMsg(e); } },
      leave: async () => {
        try { await app.conn.request({ type: 'leave_room', room: st?.room }); } catch { /* already gone */ }
        app.go('/');
      },
    }));
    // The move list, in renju notation; a move opens the position after it.
    // Live, a new move only appends its item (the list may be long).
    const items = moveList.children;
    const same = view == null && listedView == null && items.length <= st.moves.length
      && (items.length === 0 || items[items.length - 1].getAttribute('data-n') === String(items.length));
    if (!same) fill(moveList);
    for (let i = same ? items.length : 0; i < st.moves.length; i++) moveList.appendChild(moveItem(st.moves[i]));
    listedView = view;
    const n = st.moves.length;
    const step = (/** @type {number|null} */ v) => () => { view = v == null || v >= n ? null : Math.max(0, v); render(); };
    const at = view ?? n;
    fill(nav,
      h('button', { type: 'button', 'aria-label': 'first', onclick: step(0) }, '|◀'),
      h('button', { type: 'button', 'aria-label': 'back', onclick: step(at - 1) }, '◀'),
      h('button', { type: 'button', 'aria-label': 'forward', onclick: step(at + 1) }, '▶'),
      h('button', { type: 'button', 'aria-label': 'last', onclick: step(null) }, '▶|'),
      h('span.small', null, view == null ? t('game.live') : `${view} / ${n}`));
    if (toolsDrawn) return;
    toolsDrawn = true;
    fill(tools,
      h('label.check', null, h('input', { type: 'checkbox', checked: ui.numbers, onchange: (/** @type {Event} */ e) => {
        ui.numbers = /** @type {HTMLInputElement} */ (e.target).checked;
        localStorage.setItem('tengen.numbers', ui.numbers ? '1' : '0');
        render();
      } }), t('game.numbers')),
      h('label.check', null, h('input', { type: 'checkbox', checked: ui.confirm, onchange: (/** @type {Event} */ e) => {
        ui.confirm = /** @type {HTMLInputElement} */ (e.target).checked;
        localStorage.setItem('tengen.confirm', ui.confirm ? '1' : '0');
        render();
      } }), t('game.confirm')),
      h('span.downloads', null, `${t('game.download')}: `,
        ...['json', 'renju', 'psq'].map((f) => h('button', { type: 'button', 'data-format': f, onclick: () => save(f) }, f.toUpperCase()))));
  };
  /** @type {number|null} the view the move list was last drawn for */
  let listedView = null;
  let toolsDrawn = false;
  /** @param {import('./table.js').Move} m */
  const moveItem = (m) => h('li', {
    'data-n': m.number, class: `${m.color}${view === m.number ? ' at' : ''}`,
    onclick: () => { view = m.number === st?.moves.length ? null : m.number; render(); },
  }, !m.point ? 'pass' : st && st.boards > 1 ? `${(m.board ?? 0) + 1}:${m.point.toLowerCase()}` : m.point.toLowerCase());

  /**
   * Downloads the record in `format`: the server's once the game is over
   * (every action with its exact time), else the game so far as this page
   * holds it (record.js); also while the server is still storing a game
   * that just ended.
   * @param {string} format
   */
  const save = async (format) => {
    if (!st) return;
    showMsg(null);
    if (st.over) {
      try {
        const r = await app.conn.request({ type: 'game_record', game: table, format });
        if (format === 'json') download(`tengen-${table}.json`, JSON.stringify(r.record, null, 2), 'application/json');
        else download(`tengen-${table}.${format === 'psq' ? 'psq' : 'txt'}`, r.text);
        return;
      } catch (e) {
        if (!(e instanceof ProtoError && e.code === 'not_found')) { showMsg(e); return; }
      }
    }
    try {
      const r = liveRecord(st, format);
      download(`tengen-${table}${st.over ? '' : '-live'}.${r.ext}`, r.text, r.type);
    } catch (e) { showMsg(e); }
  };

  const render = () => { drawBoard(); renderSeats(); renderPanel(); };

  const off = app.conn.listen((/** @type {any} */ m) => {
    if (m.table !== table) {
      if (m.type === 'error' && m.id == null && m.code === 'no_rematch') showMsg(m.message);
      return;
    }
    switch (m.type) {
      case 'table_snapshot':
        if (st) st.reset(m); else st = new TableState(m);
        app.current = st;
        offers = []; two = null;
        if (st.seat) app.seated.set(st.room, table);
        render();
        break;
      case 'table_event': {
        if (!st) return;
        let r;
        try { r = st.apply(m); } catch (e) {
          if (e instanceof Gap) app.conn.request({ type: 'snapshot', table }).catch(() => {});
          return;
        }
        if (r === 'dup') return;
        const e = m.event;
        if (e.type === 'moved' || e.type === 'fifths_offered') { offers = []; two = null; }
        if (e.type === 'game_over') { away = null; ui.resignAsk = false; }
        render();
        if (e.type === 'moved') {
          const dt = performance.now() - app.conn.arrived;
          const arrived = app.conn.arrived;
          requestAnimationFrame(() => app.drawTimes.push([dt, performance.now() - arrived]));
          sounds.move();
        }
        if (e.type === 'game_over') { sounds.end(); opts.onOver?.(); }
        break;
      }
      case 'spectators': if (st) { st.spectators = m.count; renderPanel(); } break;
      case 'table_paused': if (st) { st.paused = m.paused ?? null; st.clocks = m.clocks; st.clocksAt = performance.now(); tickClocks(); } break;
      case 'player_status':
        // No `grace_ms`: a correspondence game, where absence is normal and nothing counts down.
        away = m.connected || m.grace_ms == null ? null : { seat: m.seat, until: performance.now() + m.grace_ms };
        tickClocks();
        break;
      case 'chat':
        chatLog.appendChild(h('li', { class: m.channel }, h('span.chan', null, `[${t(`game.chat.${m.channel}`)}] `), h('b', null, m.from.name), ': ', m.text));
        chatLog.scrollTop = chatLog.scrollHeight;
        break;
      case 'rematch_offered': rematch.add(m.seat); renderSeats(); break;
      case 'rematch_started': if (!st?.seat) app.go(`/watch/${m.rematch}`); break;
      case 'game_aborted':
      case 'room_closed':
        // A moderator's word, with its reason, where the table's talk is.
        chatLog.appendChild(h('li.notice', { role: 'status' }, t(m.type === 'room_closed' ? 'game.room_closed' : 'game.aborted_by', { reason: m.reason })));
        chatLog.scrollTop = chatLog.scrollHeight;
        break;
      default: break;
    }
  });

  app.conn.follow(table, () => (st ? st.seq : -1));
  if (snapshot) {
    st = new TableState(snapshot);
    app.current = st;
    render();
  } else {
    app.conn.request({ type: 'watch', table }).catch((/** @type {unknown} */ e) => {
      fill(boardWrap, h('p.error', { role: 'alert' }, e instanceof Error ? e.message : String(e)));
    });
  }
  return () => {
    off();
    clearInterval(timer);
    app.conn.unfollow(table);
    if (st && !st.seat) app.conn.send({ type: 'unwatch', table }).catch(() => {});
  };
}

export { other };
