// `/tournament/ID`: one event, live. The page watches it
// (`watch_tournament`: its view, then a `tournament_update` at every
// change, asked again after a reconnect) and draws what the server sends
// (parts.js): settings, players, each round's boards with their results
// and a link to the game being played, standings with the event's
// tie-breaks in its order, and the crosstable. Joining and withdrawing
// are a logged-in account's; starting, recording results, and pairing by
// hand or ending a round no legal pairing exists for the organiser's.
// Pairing and scoring are the server's.

import { h, fill, download } from '../dom.js';
import { t } from '../i18n.js';
import { errorMessage } from '../app.js';
import { settings, players, round, standings, crosstable } from './parts.js';

/**
 * @typedef {import('../app.js').App} App
 * @typedef {import('../conn.js').Incoming} Incoming
 * @typedef {import('tengen-protocol').TournamentView} TournamentView
 * @typedef {import('tengen-protocol').ClientMsg} ClientMsg
 */

/** @param {App} app @param {HTMLElement} root @param {string} id */
export function mountTournament(app, root, id) {
  let stopped = false;
  const box = h('section.tournament', { 'data-tournament': id }, h('p.loading', null, '…'));
  fill(root, box);
  /** The event as the server last showed it. @type {TournamentView|null} */
  let view = null;

  const watch = async () => {
    try {
      const r = await app.conn.request({ type: 'watch_tournament', tournament: id }, 'tournament_info');
      if (!stopped) show(r.tournament);
    } catch (e) { if (!stopped) fill(box, h('p.error', null, errorMessage(e))); }
  };
  /** @param {TournamentView} v */
  const show = (v) => {
    view = v;
    draw(v);
  };
  const off = app.conn.listen((/** @type {Incoming} */ m) => {
    if (m.type === 'tournament_update' && m.tournament.summary.id === id) show(m.tournament);
    // A new connection has no watch: ask again (the view comes with it).
    else if (m.type === '_welcome') watch();
    else if ((m.type === 'logged_in' || m.type === 'registered' || m.type === 'logged_out') && view) draw(view);
  });

  /** Sends a request about this event; the update push redraws. @param {ClientMsg} msg */
  const act = async (msg) => {
    try {
      await app.conn.request(msg);
    } catch (e) { app.fail(e); }
  };

  const exportTrf = async () => {
    try {
      const r = await app.conn.request({ type: 'tournament_export', tournament: id }, 'tournament_exported');
      download(`tengen-${id}.trf`, r.trf);
    } catch (e) { app.fail(e); }
  };

  /** The organiser's answers to a stalled round. @param {number} next */
  const stalledActions = (next) => {
    const text = /** @type {HTMLTextAreaElement} */ (h('textarea', { rows: 4, 'data-pairing': '', placeholder: t('tour.pair_help') }));
    const pair = () => {
      /** @type {[string, string][]} */
      const boards = [];
      /** @type {string|undefined} */
      let bye;
      for (const line of text.value.split('\n').map((l) => l.trim()).filter(Boolean)) {
        const b = line.match(/^bye\s*:\s*(.+)$/i);
        if (b) { bye = b[1].trim(); continue; }
        const [first, second] = line.split(',').map((x) => x.trim());
        if (first && second) boards.push([first, second]);
      }
      act({ type: 'pair_tournament', tournament: id, round: next, boards, ...(bye ? { bye } : {}) });
    };
    return h('div.tournament-actions', null, text,
      h('button.primary', { type: 'button', 'data-act': 'pair', onclick: pair }, t('tour.pair_hand')),
      h('button', { type: 'button', 'data-act': 'end', onclick: () => act({ type: 'end_tournament', tournament: id }) }, t('tour.end')));
  };

  /** @param {TournamentView} v */
  const draw = (v) => {
    const s = v.summary;
    const me = app.loggedIn && app.me ? app.me.name : null;
    const entered = me ? v.players.find((p) => p.name === me) : undefined;
    const organiser = !!me && me === s.organiser;
    const tournament = id;
    const actions = h('div.tournament-actions', null,
      s.state === 'open' && me && !entered ? h('button.primary', { type: 'button', 'data-act': 'join', onclick: () => act({ type: 'join_tournament', tournament }) }, t('tour.join')) : null,
      s.state !== 'finished' && entered && !entered.withdrawn ? h('button', { type: 'button', 'data-act': 'withdraw', onclick: () => act({ type: 'withdraw_tournament', tournament }) }, t('tour.withdraw')) : null,
      s.state === 'open' && organiser ? h('button.primary', { type: 'button', 'data-act': 'start', onclick: () => act({ type: 'start_tournament', tournament }) }, t('tour.start_now')) : null,
      s.state === 'open' && !me ? h('span.small', null, t('tour.login_join')) : null,
      v.rounds.length ? h('button', { type: 'button', 'data-act': 'export', onclick: exportTrf }, t('tour.export')) : null);
    // A round no legal pairing exists for waits for the organiser: pair
    // it by hand (a board a line, "first, second"; "bye: name") or end
    // the event.
    const stalled = v.stalled ? h('div.tournament-stalled', { 'data-stalled': '' },
      h('p.error', null, `${t('tour.stalled')}: ${v.stalled}`),
      organiser ? stalledActions(s.round + 1) : null) : null;
    /** @type {import('./parts.js').Record|null} */
    const record = organiser ? (r, board, game, result) => act({ type: 'tournament_result', tournament, round: r, board, game, result }) : null;
    fill(box,
      h('h2', null, s.name),
      h('p.tournament-state', { 'data-state': s.state }, t(`tour.state.${s.state}`),
        s.rounds ? ` · ${t('tour.round_of', { r: s.round, n: s.rounds })}` : ''),
      settings(v),
      v.warning ? h('p.tournament-warning', { 'data-warning': '' }, v.warning) : null,
      stalled,
      actions,
      players(v),
      v.rounds.length ? h('div.rounds', null, h('h3', null, t('tour.pairings')), [...v.rounds].reverse().map((r) => round(r, record))) : null,
      v.standings.length ? standings(v) : null,
      v.cross?.length ? [h('h3', null, t('tour.crosstable')), crosstable(v)] : null);
  };

  if (app.conn.welcome) watch();
  return () => {
    stopped = true;
    off();
    app.conn.send({ type: 'unwatch_tournament', tournament: id }).catch(() => {});
  };
}
