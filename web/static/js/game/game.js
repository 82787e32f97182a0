// A game, played or watched: the board, both players and their clocks, the
// prompt the server sent and the actions it allows, the move list (with
// stepping back and forth), chat and downloads. Built only from server
// messages (TableState); every action is a request the referee judges.
// The pieces (one module each) share a GamePage; this module lays them
// out and hands each server message to the pieces it concerns.

import { h, fill } from '../dom.js';
import { t } from '../i18n.js';
import { errorMessage } from '../app.js';
import { sounds } from '../sound.js';
import { GamePage } from './page.js';
import { TableState, Gap } from './table.js';
import { boardsPiece } from './boards.js';
import { seatsPiece } from './seats.js';
import { panelPiece } from './panel.js';
import { movesPiece } from './moves.js';
import { chatPiece } from './chat.js';
import { toolsPiece } from './tools.js';
import { notifyMove } from './notify.js';
import { promptText } from './panel.js';

/**
 * @typedef {import('../app.js').App} App
 * @typedef {import('../conn.js').Incoming} Incoming
 * @typedef {import('tengen-protocol').ServerMsgOf<'table_snapshot'>} SnapshotMsg
 * @typedef {import('tengen-protocol').ServerMsgOf<'table_event'>} EventMsg
 */

/** `/watch/TABLE`. @param {App} app @param {HTMLElement} root @param {string} table */
export function mountWatch(app, root, table) {
  return mountGame(app, root, table, null);
}

/**
 * @param {App} app @param {HTMLElement} root @param {string} table
 * @param {SnapshotMsg|null} snapshot a `table_snapshot` already received, or null to `watch`
 * @param {{onOver?: () => void, compact?: boolean}} [opts] `compact`: no chat (Tengen TV)
 * @returns {() => void} the cleanup
 */
export function mountGame(app, root, table, snapshot, opts = {}) {
  const g = new GamePage(app, table);
  const boards = boardsPiece(g);
  const seats = seatsPiece(g);
  const panel = panelPiece(g);
  const moves = movesPiece(g);
  const chat = chatPiece(g);
  const tools = toolsPiece(g);
  g.render = () => { boards.render(); seats.render(); panel.render(); moves.render(); tools.render(); };

  fill(root, h('section.game', null,
    boards.el,
    h('aside.side', null, panel.info, seats.els.first, seats.els.second, panel.status, panel.actions, g.msg,
      moves.el, opts.compact ? null : chat.el, tools.el)));

  /** A table's whole state: the first, or a fresh one after a gap. @param {SnapshotMsg} m */
  const snapshotIn = (m) => {
    g.st = new TableState(m);
    app.current = g.st;
    g.clearPicks();
    if (g.st.seat) app.seated.set(g.st.room, table);
    g.render();
  };

  /** The next event of the table. @param {EventMsg} m */
  const eventIn = (m) => {
    const st = g.st;
    if (!st) return;
    const wasMine = g.turnIsMine();
    let r;
    try { r = st.apply(m); } catch (e) {
      if (e instanceof Gap) app.conn.request({ type: 'snapshot', table }).catch(() => {});
      return;
    }
    if (r === 'dup') return;
    const e = m.event;
    if (e.type === 'moved' || e.type === 'fifths_offered') g.clearPicks();
    if (e.type === 'game_over') g.ui.resignAsk = false;
    g.render();
    const queued = g.premove;
    if (queued && (st.over || st.stones.has(queued) || !g.canPremove())) g.premove = null;
    if (queued && g.myTurn() && st.prompt?.task === 'place' && !st.stones.has(queued)) {
      // The premove is played the moment the turn comes.
      g.premove = null;
      g.act({ type: 'place', point: queued });
    } else if (!wasMine && g.turnIsMine()) notifyMove(table, promptText(st, g.mine()));
    // The offerer hears that its draw offer was declined (by a move too).
    if (e.type === 'draw_declined' && g.mine() && e.seat !== g.mine()) chat.notice(t('game.draw_declined', { who: st.players[e.seat]?.name ?? '' }));
    if (e.type === 'moved') {
      const arrived = app.conn.arrived;
      const dt = performance.now() - arrived;
      requestAnimationFrame(() => app.drawTimes.push([dt, performance.now() - arrived]));
      sounds.move();
    }
    if (e.type === 'game_over') { sounds.end(); opts.onOver?.(); }
  };

  const off = app.conn.listen((/** @type {Incoming} */ m) => {
    if (m.type === 'error') {
      if (m.id == null && m.code === 'no_rematch') g.showMsg(m.message);
      return;
    }
    // A moderator closed the room (it names the room, not the table).
    if (m.type === 'room_closed') {
      if (g.st && m.room === g.st.room) chat.notice(t('game.room_closed', { reason: m.reason }));
      return;
    }
    if (!('table' in m) || m.table !== table) return;
    switch (m.type) {
      case 'table_snapshot': snapshotIn(m); break;
      case 'table_event': eventIn(m); break;
      case 'spectators': if (g.st) { g.st.spectators = m.count; panel.drawInfo(); } break;
      case 'table_paused':
        if (g.st) { g.st.paused = m.paused ?? null; g.st.clocks = m.clocks; g.st.clocksAt = performance.now(); seats.tick(); }
        break;
      case 'player_status':
        g.ui.waitAbsent = false;
        if (g.st) { g.st.setAway(m.seat, m.connected, m.after_grace ?? null, m.grace_ms ?? null); seats.render(); panel.render(); }
        break;
      case 'chat': chat.said(m); break;
      case 'rematch_offered': if (g.st) { g.st.rematch.add(m.seat); seats.render(); panel.render(); } break;
      case 'rematch_cancelled':
        if (g.st) { g.st.rematch.clear(); seats.render(); panel.render(); chat.notice(t('rematch.cancelled')); }
        break;
      case 'rematch_started': if (!g.st?.seat) app.go(`/watch/${m.rematch}`); break;
      case 'game_aborted': chat.notice(t('game.aborted_by', { reason: m.reason })); break;
      default: break;
    }
  });

  const timer = setInterval(seats.tick, 100);
  app.conn.follow(table, () => (g.st ? g.st.seq : -1));
  if (snapshot) {
    snapshotIn(snapshot);
    // The snapshot was pushed before this view listened (the page was
    // changing views): events sent meanwhile come again, in order.
    app.conn.request({ type: 'watch', table, since: snapshot.seq }).catch(() => {});
  } else {
    app.conn.request({ type: 'watch', table }).catch((e) => {
      fill(boards.el, h('p.error', { role: 'alert' }, errorMessage(e)));
    });
  }
  return () => {
    off();
    clearInterval(timer);
    app.conn.unfollow(table);
    if (g.st && !g.st.seat) app.conn.send({ type: 'unwatch', table }).catch(() => {});
  };
}
