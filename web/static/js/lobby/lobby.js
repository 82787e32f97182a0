// The lobby: "your games" (mygames.js) and the live room list (rooms.js)
// on the left; creating a room (roomform.js), the rated queue (queue.js),
// challenges (challenges.js) and the computer (computer.js) on the right,
// rematches offered to us (rematches.js), with the room this session
// waits in (waiting.js). This module lays them out, subscribes to the
// lobby, and hands each server message to the piece it concerns.

import { h, fill } from '../dom.js';
import { t } from '../i18n.js';
import { myGames } from './mygames.js';
import { roomList } from './rooms.js';
import { roomForm } from './roomform.js';
import { waitRoom } from './waiting.js';
import { ratedQueue } from './queue.js';
import { challenges } from './challenges.js';
import { computer } from './computer.js';
import { rematchOffers } from './rematches.js';

/**
 * @typedef {import('../app.js').App} App
 * @typedef {import('../conn.js').Incoming} Incoming
 */

/** `/`. @param {App} app @param {HTMLElement} root */
export function mountLobby(app, root) {
  const rooms = roomList(app);
  const waiting = waitRoom(app);
  const form = roomForm(app, (room, isPublic) => waiting.show(room, isPublic));
  const queue = ratedQueue(app, form);
  const challenge = challenges(app, form, (room) => waiting.show(room, true));
  const versus = computer(app, form, (room) => waiting.show(room, true));
  const games = myGames(app, rooms.draw);
  const rematches = rematchOffers(app);

  const off = app.conn.listen((/** @type {Incoming} */ m) => {
    switch (m.type) {
      case 'rooms':
        rooms.all(m.rooms);
        if (!performance.getEntriesByName('lobby-usable').length) performance.mark('lobby-usable');
        break;
      case 'lobby_update': rooms.update(m); break;
      case 'challenged': challenge.challenged(m); break;
      case 'rematch_offered': case 'rematch_cancelled': case 'rematch_started': rematches.draw(); break;
      case 'room_cancelled': waiting.cancelled(m); break;
      case 'room_closed': waiting.closed(m.room, m.reason); break;
      case 'unqueued': if (m.id == null) { queue.left(); queue.draw(); } break;
      case 'matched': queue.left(); break;
      // Who this session is changed: the queue is an account's.
      case 'logged_in': case 'registered': case 'logged_out': case '_welcome': setTimeout(queue.draw); break;
      default: break;
    }
  });

  fill(root, h('section.lobby', null,
    h('div.rooms', null,
      games.el,
      h('h2', null, t('lobby.rooms')),
      rematches.el, challenge.received, waiting.el,
      rooms.el),
    h('div.create', null,
      h('h2', null, t('lobby.create')), form.el,
      h('h3', null, t('lobby.computer')), versus,
      h('h3', null, t('lobby.queue')), queue.el,
      h('h3', null, t('lobby.challenge')), challenge.send)));
  rooms.draw();
  rematches.draw();
  queue.draw();
  if (app.waiting) waiting.show(app.waiting, true);
  app.conn.lobby = true;
  app.conn.request({ type: 'lobby_subscribe' }, 'rooms').catch(app.fail);
  return () => {
    off();
    games.stop();
    queue.stop();
    app.conn.lobby = false;
    app.conn.send({ type: 'lobby_unsubscribe' }).catch(() => {});
  };
}
