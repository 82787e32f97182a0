// The parts of a tournament's page, drawn from the server's view of the
// event (TournamentView) as it is: its settings, its players, each
// round's boards (with the organiser's buttons that record a game's
// result) and its standings. Nothing here pairs or scores.

import { h } from '../dom.js';
import { t, configName } from '../i18n.js';
import { when } from './list.js';

/**
 * @typedef {import('tengen-protocol').TournamentView} TournamentView
 * @typedef {import('tengen-protocol').RoundView} RoundView
 * @typedef {import('tengen-protocol').BoardView} BoardView
 * @typedef {import('tengen-protocol').ReportedResult} ReportedResult
 * @typedef {import('tengen-protocol').CrossCell} CrossCell
 * A game's result recorded by the organiser: round, board, the game's
 * number on the board (a knockout match has several) and who won.
 * @typedef {(round: number, board: number, game: number, result: ReportedResult) => void} Record
 */

/** The settings as a definition list. @param {TournamentView} v */
export function settings(v) {
  const sp = v.spec;
  const e = sp.entry;
  /** @type {[string, string|Node][]} */
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
    ['tour.tie_breaks', (sp.tie_breaks ? sp.tie_breaks.map((k) => t(`tb.${k}`)).join(', ') : t('tour.tb_default'))],
  ];
  return h('dl.tournament-settings', null, rows.flatMap(([k, val]) => [h('dt', null, t(k)), h('dd', { 'data-setting': k.slice(5) }, val)]));
}

/** The players, those withdrawn struck through. @param {TournamentView} v */
export function players(v) {
  return h('div.players', null,
    h('h3', null, t('tour.players_n', { n: v.players.filter((p) => !p.withdrawn).length })),
    v.players.length ? h('ul.entrants', null, v.players.map((p) => h('li', { 'data-player': p.name, 'data-withdrawn': p.withdrawn ? '' : null },
      h('a', { href: `/@/${p.name}`, 'data-link': true }, p.name), h('span.small', null, ` ${p.rating}`),
      p.withdrawn ? h('span.small', null, ` · ${t('tour.withdrawn')}`) : null)))
      : h('p.small', null, t('tour.no_players')));
}

/**
 * One round's boards; `record`, the organiser's, adds the buttons that
 * record results.
 * @param {RoundView} r @param {Record|null} record
 */
export function round(r, record) {
  return h('table.pairings', { 'data-round': r.round },
    h('caption', null, t('tour.round_n', { n: r.round })),
    h('tbody', null, r.boards.map((b) => h('tr', { 'data-board': b.board, 'data-over': b.over ? '' : null },
      h('td', null, String(b.board)),
      h('td', null, b.first),
      h('td', null, b.second ?? h('em', null, t('tour.bye'))),
      h('td.results', null, (b.games || []).join(' ')),
      h('td', null,
        b.table ? h('a.button', { href: `/watch/${b.table}`, 'data-link': true, 'data-watch': b.table }, t('lobby.watch')) : null,
        record && b.second && !b.over ? resultButtons(r.round, b, b.second, record) : null)))));
}

/**
 * Buttons for the organiser to record the board's next game: the seats
 * of game k alternate, as the protocol documents (`tournament_result`:
 * the board's first player holds the first seat of the even games).
 * @param {number} roundNo @param {BoardView} b @param {string} opponent the board's second player @param {Record} record
 */
function resultButtons(roundNo, b, opponent, record) {
  const game = (b.games || []).length;
  const [first, second] = game % 2 === 0 ? [b.first, opponent] : [opponent, b.first];
  /** @param {ReportedResult} result */
  const send = (result) => record(roundNo, b.board, game, result);
  return h('span.record', null,
    h('button', { type: 'button', 'data-result': 'first', onclick: () => send('first') }, t('tour.wins', { name: first })),
    h('button', { type: 'button', 'data-result': 'draw', onclick: () => send('draw') }, t('result.draw')),
    h('button', { type: 'button', 'data-result': 'second', onclick: () => send('second') }, t('tour.wins', { name: second })));
}

/** The standings, the event's tie-breaks as columns in its order. @param {TournamentView} v */
export function standings(v) {
  const names = (v.standings[0]?.tie_breaks || []).map((x) => x.name);
  return [h('h3', null, t('tour.standings')), h('table.standings', null,
    h('thead', null, h('tr', null, h('th', null, '#'), h('th', null, t('lb.player')), h('th', null, t('tour.points')),
      ...names.map((n) => h('th', { 'data-tb': n }, t(`tbl.${n}`))))),
    h('tbody', null, v.standings.map((s) => h('tr', { 'data-player': s.name, 'data-rank': s.rank },
      h('td', null, String(s.rank)), h('td', null, s.name), h('td.points', null, s.points),
      ...s.tie_breaks.map((x) => h('td', null, x.value))))))];
}

/**
 * The crosstable, from the server's rows (`cross`): rank, name, rating, a
 * cell per round (`4b1`: beat the 4th line with black; the title says it
 * in words), points, tie-breaks; the header in the page's language.
 * @param {TournamentView} v
 */
export function crosstable(v) {
  const rows = v.cross ?? [];
  const rounds = Math.max(0, ...rows.map((r) => r.rounds.length));
  const tbs = (rows[0]?.tie_breaks ?? []).map((x) => x.name);
  const head = h('tr', null,
    h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, t('lb.player')), h('th', { scope: 'col' }, t('lb.rating')),
    ...Array.from({ length: rounds }, (_, i) => h('th', { scope: 'col', 'data-round': i + 1 }, t('tour.round_n', { n: i + 1 }))),
    h('th', { scope: 'col' }, t('tour.points')),
    ...tbs.map((n) => h('th', { scope: 'col', 'data-tb': n }, t(`tbl.${n}`))));
  /** @param {CrossCell} c */
  const cell = (c) => {
    const colour = c.seat === 'first' ? 'b' : c.seat === 'second' ? 'w' : '';
    const text = c.opponent ? `${c.opponent}${colour}${c.result}` : c.result;
    const title = c.opponent ? t(`xt.${c.result || 'pending'}`, { n: c.opponent, colour: colour ? t(`xt.${colour}`) : '' }) : t(`xt.${c.result || 'pending'}`, { n: '', colour: '' });
    return h('td', { 'data-result': c.result, title: title.trim() }, text);
  };
  return h('table.crosstable', null,
    h('thead', null, head),
    h('tbody', null, ...rows.map((r, i) => h('tr', { 'data-player': r.name, 'data-rank': r.rank },
      h('td', null, i > 0 && rows[i - 1].rank === r.rank ? '' : String(r.rank)),
      h('td', null, r.name, r.withdrawn ? h('small', null, ` (${t('tour.withdrawn')})`) : null),
      h('td', null, String(r.rating)),
      ...Array.from({ length: rounds }, (_, k) => (r.rounds[k] ? cell(r.rounds[k]) : h('td'))),
      h('td.points', null, r.points),
      ...r.tie_breaks.map((x) => h('td', null, x.value))))));
}
