// `/tournament/ID`: one event, live. The page watches it
// (`watch_tournament`: its view, then a `tournament_update` at every
// change, asked again after a reconnect) and draws what the server sends:
// settings, players, each round's boards with their results and a link to
// the game being played, standings with the event's tie-breaks in its
// order, and the crosstable. Joining and withdrawing are a logged-in
// account's; starting and recording results the organiser's. Pairing and
// scoring are the server's: nothing here works out a pairing or a score.

import { h, fill, download } from './dom.js';
import { t, configName, getLang } from './i18n.js';
import { when } from './tournaments.js';

/** @param {any} app @param {HTMLElement} root @param {string} id */
export function mountTournament(app, root, id) {
  let stopped = false;
  /** @type {any} the last TournamentView */
  let view = null;
  const box = h('section.tournament', { 'data-tournament': id }, h('p.loading', null, '…'));
  fill(root, box);

  const watch = async () => {
    try {
      const r = await app.conn.request({ type: 'watch_tournament', tournament: id });
      if (!stopped) show(r.tournament);
    } catch (e) { if (!stopped) fill(box, h('p.error', null, e instanceof Error ? e.message : String(e))); }
  };
  /** @param {any} v */
  const show = (v) => {
    view = v;
    draw();
  };
  const off = app.conn.listen((/** @type {any} */ m) => {
    if (m.type === 'tournament_update' && m.tournament.summary.id === id) show(m.tournament);
    // A new connection has no watch: ask again (the view comes with it).
    else if (m.type === '_welcome') watch();
    else if (['logged_in', 'registered', 'logged_out'].includes(m.type) && view) draw();
  });

  /** Sends a request about this event; the update push redraws. @param {any} msg */
  const act = async (msg) => {
    try {
      await app.conn.request({ ...msg, tournament: id });
    } catch (e) { app.fail(e); }
  };

  const draw = () => {
    const v = view;
    const s = v.summary;
    const me = app.me && !app.me.guest ? app.me.name : null;
    const entered = me && v.players.find((/** @type {any} */ p) => p.name === me);
    const organiser = me && me === s.organiser;
    const actions = h('div.tournament-actions', null,
      s.state === 'open' && me && !entered ? h('button.primary', { type: 'button', 'data-act': 'join', onclick: () => act({ type: 'join_tournament' }) }, t('tour.join')) : null,
      s.state !== 'finished' && entered && !entered.withdrawn ? h('button', { type: 'button', 'data-act': 'withdraw', onclick: () => act({ type: 'withdraw_tournament' }) }, t('tour.withdraw')) : null,
      s.state === 'open' && organiser ? h('button.primary', { type: 'button', 'data-act': 'start', onclick: () => act({ type: 'start_tournament' }) }, t('tour.start_now')) : null,
      s.state === 'open' && !me ? h('span.small', null, t('tour.login_join')) : null,
      v.rounds.length ? h('button', { type: 'button', 'data-act': 'export', onclick: exportTrf }, t('tour.export')) : null);
    fill(box,
      h('h2', null, s.name),
      h('p.tournament-state', { 'data-state': s.state }, t(`tour.state.${s.state}`),
        s.rounds ? ` · ${t('tour.round_of', { r: s.round, n: s.rounds })}` : ''),
      settings(v),
      actions,
      players(v),
      v.rounds.length ? h('div.rounds', null, h('h3', null, t('tour.pairings')), [...v.rounds].reverse().map((r) => round(r, organiser))) : null,
      v.standings.length ? standings(v) : null,
      v.crosstable ? [h('h3', null, t('tour.crosstable')), h('pre.crosstable', null, v.crosstable)] : null);
  };

  /** Settings as a definition list. @param {any} v */
  const settings = (v) => {
    const sp = v.spec;
    const e = sp.entry || {};
    /** @type {[string, any][]} */
    const rows = [
      ['tour.system', t(`tour.sys.${sp.system}`) + (sp.rounds ? ` · ${t('tour.n_rounds', { n: sp.rounds })}` : '') + (sp.games ? ` · ${t('tour.best_of', { n: sp.games })}` : '') + (sp.duration_secs ? ` · ${t('tour.n_minutes', { n: Math.round(sp.duration_secs / 60) })}` : '')],
      ['tour.game', configName(sp.config)],
      ['tour.kind', sp.rated ? t('lobby.rated') : t('lobby.casual')],
      ['tour.organiser', h('a', { href: `/@/${v.summary.organiser}`, 'data-link': true }, v.summary.organiser)],
      ['tour.start', sp.start_ms ? when(sp.start_ms) : t('tour.by_organiser')],
      ['tour.entry', [
        e.min_rating != null ? `≥ ${e.min_rating}` : null, e.max_rating != null ? `≤ ${e.max_rating}` : null,
        e.max_players ? t('tour.max_n', { n: e.max_players }) : null,
        e.accounts_only || sp.rated ? t('tour.accounts_only') : null, e.bots ? t('tour.bots') : null,
      ].filter(Boolean).join(' · ') || t('tour.open_to_all')],
      ['tour.tie_breaks', (sp.tie_breaks ? sp.tie_breaks.map((/** @type {string} */ k) => t(`tb.${k}`)).join(', ') : t('tour.tb_default'))],
    ];
    return h('dl.tournament-settings', null, rows.flatMap(([k, val]) => [h('dt', null, t(k)), h('dd', { 'data-setting': k.slice(5) }, val)]));
  };

  /** @param {any} v */
  const players = (v) => h('div.players', null,
    h('h3', null, t('tour.players_n', { n: v.players.filter((/** @type {any} */ p) => !p.withdrawn).length })),
    v.players.length ? h('ul.entrants', null, v.players.map((/** @type {any} */ p) => h('li', { 'data-player': p.name, 'data-withdrawn': p.withdrawn ? '' : null },
      h('a', { href: `/@/${p.name}`, 'data-link': true }, p.name), h('span.small', null, ` ${p.rating}`),
      p.withdrawn ? h('span.small', null, ` · ${t('tour.withdrawn')}`) : null)))
      : h('p.small', null, t('tour.no_players')));

  /** One round's boards; the organiser records results here. @param {any} r @param {boolean} organiser */
  const round = (r, organiser) => h('table.pairings', { 'data-round': r.round },
    h('caption', null, t('tour.round_n', { n: r.round })),
    h('tbody', null, r.boards.map((/** @type {any} */ b) => h('tr', { 'data-board': b.board, 'data-over': b.over ? '' : null },
      h('td', null, String(b.board)),
      h('td', null, b.first),
      h('td', null, b.second ?? h('em', null, t('tour.bye'))),
      h('td.results', null, (b.games || []).join(' ')),
      h('td', null,
        b.table ? h('a.button', { href: `/watch/${b.table}`, 'data-link': true, 'data-watch': b.table }, t('lobby.watch')) : null,
        organiser && b.second && !b.over ? resultButtons(r.round, b) : null)))));

  /**
   * Buttons for the organiser to record the board's next game: the seats
   * of game k alternate, as the protocol documents (`tournament_result`:
   * the board's first player holds the first seat of the even games).
   * @param {number} roundNo @param {any} b
   */
  const resultButtons = (roundNo, b) => {
    const game = (b.games || []).length;
    const [first, second] = game % 2 === 0 ? [b.first, b.second] : [b.second, b.first];
    const send = (/** @type {string} */ result) => act({ type: 'tournament_result', round: roundNo, board: b.board, game, result });
    return h('span.record', null,
      h('button', { type: 'button', 'data-result': 'first', onclick: () => send('first') }, t('tour.wins', { name: first })),
      h('button', { type: 'button', 'data-result': 'draw', onclick: () => send('draw') }, t('result.draw')),
      h('button', { type: 'button', 'data-result': 'second', onclick: () => send('second') }, t('tour.wins', { name: second })));
  };

  /** @param {any} v */
  const standings = (v) => {
    const names = (v.standings[0]?.tie_breaks || []).map((/** @type {any} */ x) => x.name);
    return [h('h3', null, t('tour.standings')), h('table.standings', null,
      h('thead', null, h('tr', null, h('th', null, '#'), h('th', null, t('lb.player')), h('th', null, t('tour.points')),
        ...names.map((/** @type {string} */ n) => h('th', { 'data-tb': n, title: t(`tbl.${n}`) }, getLang() === 'zh' ? t(`tbl.${n}`) : n)))),
      h('tbody', null, v.standings.map((/** @type {any} */ s) => h('tr', { 'data-player': s.name, 'data-rank': s.rank },
        h('td', null, String(s.rank)), h('td', null, s.name), h('td.points', null, s.points),
        ...s.tie_breaks.map((/** @type {any} */ x) => h('td', null, x.value))))))];
  };

  const exportTrf = async () => {
    try {
      const r = await app.conn.request({ type: 'tournament_export', tournament: id });
      download(`tengen-${id}.trf`, r.trf);
    } catch (e) { app.fail(e); }
  };

  if (app.conn.welcome) watch();
  return () => {
    stopped = true;
    off();
    app.conn.send({ type: 'unwatch_tournament', tournament: id }).catch(() => {});
  };
}
