// `/tournaments`: the server's events in three lists (upcoming, running,
// finished), each a link to its page, and the form that creates one (an
// account organises). The server has no push for the list, so it is asked
// again every few seconds while the page is open; an event's own page is
// live (tournament.js).

import { h, fill } from '../dom.js';
import { t } from '../i18n.js';
import { errorMessage } from '../app.js';
import { gameFields, formValues, field, select, num } from '../gameform.js';

/**
 * @typedef {import('../app.js').App} App
 * @typedef {import('../conn.js').Incoming} Incoming
 * @typedef {import('tengen-protocol').TournamentSummary} TournamentSummary
 * @typedef {import('tengen-protocol').TournamentState} TournamentState
 * @typedef {import('tengen-protocol').TournamentSystem} TournamentSystem
 * @typedef {import('tengen-protocol').TournamentSpecInput} TournamentSpecInput
 * @typedef {import('tengen-protocol').TieBreakName} TieBreakName
 */

/** @type {TournamentSystem[]} */
export const SYSTEMS = ['swiss', 'round_robin', 'double_round_robin', 'knockout', 'arena'];
/** @type {TieBreakName[]} */
export const TIE_BREAKS = ['buchholz', 'median_buchholz', 'sonneborn_berger', 'direct_encounter', 'wins', 'first_seat_games'];
/** How many tie-break choices the form offers (the protocol takes up to six). */
const TIE_BREAK_SLOTS = 3;
const REFRESH_MS = 5000;

/** A start time as the page's locale shows it. @param {number} ms */
export const when = (ms) => new Date(ms).toLocaleString();

/** @param {App} app @param {HTMLElement} root */
export function mountTournaments(app, root) {
  let stopped = false;
  let timer = 0;
  const lists = h('div.tournament-lists');
  const formBox = h('div.tournament-create');

  const draw = (/** @type {TournamentSummary[]} */ all) => {
    const part = (/** @type {TournamentState} */ state) => {
      const mine = all.filter((e) => e.state === state);
      return h('section', { 'data-list': state },
        h('h2', null, t(`tour.list.${state}`)),
        mine.length ? h('table.tournaments', null,
          h('thead', null, h('tr', null, ...['tour.name', 'tour.system', 'tour.players', 'tour.round', 'tour.organiser', 'tour.start'].map((k) => h('th', null, t(k))))),
          h('tbody', null, mine.map(row)))
          : h('p.small', null, t('tour.none')));
    };
    fill(lists, part('open'), part('running'), part('finished'));
  };
  /** @param {TournamentSummary} e */
  const row = (e) => h('tr', { 'data-tournament': e.id },
    h('td', null, h('a', { href: `/tournament/${e.id}`, 'data-link': true }, e.name), e.rated ? h('span.small', null, ` · ${t('lobby.rated')}`) : null),
    h('td', null, t(`tour.sys.${e.system}`)),
    h('td', null, String(e.players)),
    h('td', null, e.rounds ? `${e.round}/${e.rounds}` : '—'),
    h('td', null, h('a', { href: `/@/${e.organiser}`, 'data-link': true }, e.organiser)),
    h('td', null, e.start_ms ? when(e.start_ms) : t('tour.by_organiser')));

  const refresh = async () => {
    clearTimeout(timer);
    try {
      const r = await app.conn.request({ type: 'tournaments' }, 'tournament_list');
      if (stopped) return;
      draw(r.tournaments);
    } catch (e) { if (!stopped) fill(lists, h('p.error', null, errorMessage(e))); }
    if (!stopped) timer = setTimeout(refresh, REFRESH_MS);
  };

  const drawForm = () => {
    fill(formBox, h('h2', null, t('tour.create')),
      app.loggedIn ? createForm(app) : h('p.small', null, t('tour.login')));
  };
  const off = app.conn.listen((/** @type {Incoming} */ m) => {
    if (['logged_in', 'registered', 'logged_out', '_welcome'].includes(m.type)) drawForm();
  });
  fill(root, h('section.tournaments-page', null, h('div', null, lists), formBox));
  drawForm();
  refresh();
  return () => { stopped = true; clearTimeout(timer); off(); };
}

/**
 * The form of `create_tournament`: name, system (rounds, games, an
 * arena's minutes), the game's configuration, rated, start time, entry
 * limits, tie-break order (not for an arena, which ranks by its own).
 * @param {App} app
 */
function createForm(app) {
  const f = /** @type {HTMLFormElement} */ (h('form.create-room.create-tournament', { onsubmit: async (/** @type {Event} */ e) => {
    e.preventDefault();
    try {
      const r = await app.conn.request({ type: 'create_tournament', tournament: spec() }, 'tournament_created');
      app.go(`/tournament/${r.tournament.id}`);
    } catch (err) { app.fail(err); }
  } }));
  const { text: val, checked } = formValues(f);
  const game = gameFields(f);
  /** @returns {TournamentSpecInput} */
  const spec = () => {
    const system = /** @type {TournamentSystem} */ (val('system'));
    /** @type {import('tengen-protocol').EntryLimits} */
    const entry = {};
    /** @type {TournamentSpecInput} */
    const s = { name: val('tname').trim(), system, config: game.config(), entry };
    if (system === 'swiss') s.rounds = Number(val('rounds'));
    if (system === 'knockout') s.games = Number(val('games'));
    if (system === 'arena') s.duration_secs = Number(val('minutes')) * 60;
    if (checked('trated')) s.rated = true;
    const start = val('start');
    if (start) s.start_ms = new Date(start).getTime();
    for (const name of /** @type {const} */ (['min_rating', 'max_rating', 'max_players'])) {
      if (val(name) !== '') entry[name] = Number(val(name));
    }
    if (checked('accounts_only')) entry.accounts_only = true;
    if (checked('bots')) entry.bots = true;
    /** @type {TieBreakName[]} */
    const order = [];
    for (let i = 1; i <= TIE_BREAK_SLOTS; i++) {
      const v = val(`tb${i}`);
      if (v) order.push(/** @type {TieBreakName} */ (v));
    }
    if (order.length && system !== 'arena') s.tie_breaks = order;
    return s;
  };
  const sync = () => {
    const system = val('system');
    /** @type {HTMLElement} */ (f.querySelector('[data-field="rounds"]')).hidden = system !== 'swiss';
    /** @type {HTMLElement} */ (f.querySelector('[data-field="games"]')).hidden = system !== 'knockout';
    /** @type {HTMLElement} */ (f.querySelector('[data-field="minutes"]')).hidden = system !== 'arena';
  };
  const tbOptions = /** @type {[string, string][]} */ ([['', '—'], ...TIE_BREAKS.map((k) => [k, t(`tb.${k}`)])]);
  f.append(
    field('tour.name', h('input', { name: 'tname', maxlength: 64, required: true })),
    field('tour.system', select('system', SYSTEMS.map((k) => [k, t(`tour.sys.${k}`)]), 'swiss')),
    field('tour.rounds', num('rounds', 5, 1, 30)),
    field('tour.games', select('games', ['1', '3', '5', '7', '9'].map((g) => [g, t('tour.best_of', { n: g })]), '3')),
    field('tour.minutes', num('minutes', 30, 1, 720)),
    ...game.fields,
    h('label.check', null, h('input', { type: 'checkbox', name: 'trated' }), t('form.rated')),
    field('tour.start', h('input', { name: 'start', type: 'datetime-local' })),
    field('tour.min_rating', h('input', { name: 'min_rating', type: 'number', placeholder: '—' })),
    field('tour.max_rating', h('input', { name: 'max_rating', type: 'number', placeholder: '—' })),
    field('tour.max_players', h('input', { name: 'max_players', type: 'number', min: 2, max: 256, placeholder: '256' })),
    h('label.check', null, h('input', { type: 'checkbox', name: 'accounts_only' }), t('tour.accounts_only')),
    h('label.check', null, h('input', { type: 'checkbox', name: 'bots' }), t('tour.bots')),
    h('p.small', null, t('tour.tb_hint')),
    ...Array.from({ length: TIE_BREAK_SLOTS }, (_, i) => h('label', { 'data-field': `tb${i + 1}` },
      h('span', null, t('tour.tb_n', { n: i + 1 })), select(`tb${i + 1}`, tbOptions, ''))),
    h('button.primary', { type: 'submit' }, t('tour.create')));
  f.addEventListener('change', sync);
  game.sync();
  sync();
  return f;
}
