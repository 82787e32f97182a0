// `/explorer`: the opening explorer over the server's finished games. The
// board shows the position reached; every move played from it is marked
// with its number of games, and listed with its results (black, draw,
// white) and the players' average rating. A click on a mark or a row goes
// one move deeper; the move list goes back. Moves are sent as played here
// and the server answers in this orientation, whichever of the eight
// symmetric ways the games were played. A player's own explorer: the
// player box (their games only, optionally one colour).

import { h, fill } from '../dom.js';
import { t, openingName } from '../i18n.js';
import { errorMessage } from '../app.js';
import { Board } from '../board.js';
import { stonesOfMoves, pct } from './position.js';

/**
 * @typedef {import('../app.js').App} App
 * @typedef {import('tengen-protocol').ServerMsgOf<'explorer'>} ExplorerMsg
 * @typedef {import('tengen-protocol').RuleSet} RuleSet
 * @typedef {import('tengen-protocol').NodeStats} NodeStats
 * @typedef {import('tengen-protocol').Opening} Opening
 */

/** The opening rules offered, by rule set (those without a number). @type {Record<string, string[]>} */
const OPENINGS = {
  renju: ['free', 'rif', 'yamaguchi', 'swap_after_three', 'tarannikov', 'jonsson', 'sakata', 'super_sakata'],
  gomoku: ['free', 'swap_after_three', 'swap2'],
  freestyle: ['free', 'swap_after_three', 'swap2'],
};

/** A results bar: black, draws, white, as shares of the games. @param {NodeStats} s */
function resultBar(s) {
  const part = (/** @type {string} */ cls, /** @type {number} */ n) => {
    const w = pct(n, s.games);
    return h(`span.${cls}`, { style: `width:${w}%`, title: `${w}%` }, w >= 12 ? `${w}%` : '');
  };
  return h('div.result-bar', { 'data-black': s.black, 'data-draws': s.draws, 'data-white': s.white },
    part('b', s.black), part('d', s.draws), part('w', s.white));
}

/**
 * What is being looked at, kept while the page is open: a language switch
 * draws the view again at the same position.
 * @type {{moves: string[], ruleSet: RuleSet, opening: Opening, player: string, color: string, speed: string, band: string, since: string, until: string}}
 */
const kept = { moves: [], ruleSet: 'renju', opening: 'free', player: '', color: '', speed: '', band: '', since: '', until: '' };

/** @type {import('tengen-protocol').Speed[]} */
const SPEEDS = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence', 'unlimited'];
/** @type {import('tengen-protocol').RatingBand[]} */
const BANDS = ['unrated', '<1300', '1300-1499', '1500-1699', '1700-1899', '1900-2099', '2100+'];

/** @param {App} app @param {HTMLElement} root */
export function mountExplorer(app, root) {
  let { moves, ruleSet, opening, player, color } = kept;
  const keep = () => Object.assign(kept, { moves, ruleSet, opening, player, color });
  let gen = 0;
  const board = new Board(15, (p) => { if (marks.has(p)) go([...moves, p]); });
  board.interactive = true;
  /** The next moves shown, by point. @type {Set<string>} */
  let marks = new Set();

  const ruleSel = /** @type {HTMLSelectElement} */ (h('select', { name: 'rule_set', 'aria-label': t('form.rule_set'), onchange: () => { ruleSet = /** @type {RuleSet} */ (ruleSel.value); fillOpenings(); go([]); } },
    ...Object.keys(OPENINGS).map((r) => h('option', { value: r }, t(`rule.${r}`)))));
  const openSel = /** @type {HTMLSelectElement} */ (h('select', { name: 'opening', 'aria-label': t('form.opening'), onchange: () => { opening = /** @type {Opening} */ (openSel.value); go([]); } }));
  const fillOpenings = (first = true) => {
    fill(openSel, ...OPENINGS[ruleSet].map((o) => h('option', { value: o }, openingName(/** @type {Opening} */ (o)))));
    if (first) opening = /** @type {Opening} */ (OPENINGS[ruleSet][0]);
    openSel.value = String(opening);
  };
  ruleSel.value = ruleSet;
  fillOpenings(false);
  const playerIn = h('input', { name: 'player', value: player, placeholder: t('ex.player'), 'aria-label': t('ex.player') });
  const colorSel = h('select', { name: 'color', 'aria-label': t('ex.color') },
    ...[['', 'ex.any_color'], ['black', 'color.black'], ['white', 'color.white']].map(([v, k]) => h('option', { value: v, selected: v === color }, t(k))));
  const speedSel = /** @type {HTMLSelectElement} */ (h('select', { name: 'speed', 'aria-label': t('ex.speed') },
    h('option', { value: '' }, t('ex.any_speed')), ...SPEEDS.map((s) => h('option', { value: s, selected: kept.speed === s }, t(`ex.speed.${s}`)))));
  const bandSel = /** @type {HTMLSelectElement} */ (h('select', { name: 'band', 'aria-label': t('ex.band') },
    h('option', { value: '' }, t('ex.any_band')), ...BANDS.map((b) => h('option', { value: b, selected: kept.band === b }, b === 'unrated' ? t('ex.unrated') : b))));
  const month = (/** @type {string} */ name, /** @type {string} */ v) => h('input', { name, type: 'month', value: v, 'aria-label': t(`ex.${name}`), title: t(`ex.${name}`) });
  const sinceIn = /** @type {HTMLInputElement} */ (month('since', kept.since));
  const untilIn = /** @type {HTMLInputElement} */ (month('until', kept.until));
  const filterForm = h('form.ex-filter', { onsubmit: (/** @type {Event} */ ev) => {
    ev.preventDefault();
    player = /** @type {HTMLInputElement} */ (playerIn).value.trim();
    color = /** @type {HTMLSelectElement} */ (colorSel).value;
    Object.assign(kept, { speed: speedSel.value, band: bandSel.value, since: sinceIn.value, until: untilIn.value });
    go(moves);
  } }, ruleSel, openSel, playerIn, colorSel, speedSel, bandSel, sinceIn, untilIn, h('button', { type: 'submit' }, t('ex.apply')));

  const path = h('ol.ex-path', { 'aria-label': t('ex.path') });
  const head = h('p.ex-head');
  const rows = h('tbody');
  const games = h('ul.ex-games');
  const offers = h('div.ex-offers');
  const error = h('p.error', { role: 'alert', hidden: true });
  const table = h('table.lb.ex-moves', null,
    h('thead', null, h('tr', null, ...['ex.move', 'ex.games', 'ex.results', 'ex.rating'].map((k) => h('th', null, t(k))))), rows);

  /** Asks for the position after `next` and draws it. @param {string[]} next */
  async function go(next) {
    const mine = ++gen;
    /** @type {import('tengen-protocol').ExplorerFilter} */
    const filter = {
      ...(player ? { player, ...(color ? { color: /** @type {import('tengen-protocol').Color} */ (color) } : {}) } : {}),
      ...(kept.speed ? { speeds: [/** @type {import('tengen-protocol').Speed} */ (kept.speed)] } : {}),
      ...(kept.band ? { bands: [/** @type {import('tengen-protocol').RatingBand} */ (kept.band)] } : {}),
      ...(kept.since ? { since: kept.since } : {}),
      ...(kept.until ? { until: kept.until } : {}),
    };
    try {
      const v = await app.conn.request({ type: 'explore', rule_set: ruleSet, opening, moves: next, filter }, 'explorer');
      if (mine !== gen) return;
      moves = next;
      keep();
      error.hidden = true;
      draw(v);
    } catch (e) {
      if (mine !== gen) return;
      error.hidden = false;
      error.textContent = errorMessage(e);
    }
  }

  /** @param {ExplorerMsg} v */
  function draw(v) {
    marks = new Set(v.next.map((m) => m.point.toUpperCase()));
    board.draw({
      stones: stonesOfMoves(moves), last: moves.length ? moves[moves.length - 1].toUpperCase() : null, numbers: true,
      marks: v.next.map((m) => ({ point: m.point.toUpperCase(), label: String(m.stats.games), cls: `ex-next ${v.to_move}` })),
    });
    fill(path, h('li', null, h('button.link', { type: 'button', onclick: () => go([]) }, t('ex.start'))),
      ...moves.map((p, i) => h('li', null, h('button.link', { type: 'button', 'data-ply': i + 1, onclick: () => go(moves.slice(0, i + 1)) }, `${i + 1}. ${p}`))));
    const name = v.opening_name ? ` · ${v.opening_name.code} ${v.opening_name.name} ${v.opening_name.chinese}` : '';
    fill(head, t('ex.position', { n: v.stats.games, who: t(`color.${v.to_move}`) }), name, ' ', resultBar(v.stats));
    fill(rows, v.next.length ? v.next.map((m) => h('tr', { 'data-move': m.point.toUpperCase() },
      h('td', null, h('button.link', { type: 'button', onclick: () => go([...moves, m.point.toUpperCase()]) }, m.point.toUpperCase())),
      h('td', null, String(m.stats.games)), h('td', null, resultBar(m.stats)), h('td', null, m.stats.rating == null ? '—' : String(m.stats.rating))))
      : h('tr', null, h('td.small', { colspan: 4 }, moves.length >= v.depth ? t('ex.deep', { n: v.depth }) : t('ex.none'))));
    // Fifth-move offers made here: how often each was offered and kept.
    fill(offers, v.offers?.length ? [h('h3', null, t('ex.offers')), h('table.lb', null,
      h('thead', null, h('tr', null, ...['ex.offer', 'ex.offered', 'ex.kept'].map((k) => h('th', null, t(k))))),
      h('tbody', null, ...v.offers.map((o) => h('tr', { 'data-offer': o.point.toUpperCase() },
        h('td', null, o.point.toUpperCase()), h('td', null, String(o.offered)), h('td', null, String(o.kept))))))] : []);
    fill(games, ...v.games.map((g) => h('li', null,
      h('a', { href: `/game/${g.game}`, 'data-link': true }, `${g.black} – ${g.white}`), ` · ${t(`ex.result.${g.result}`)} · ${new Date(g.finished_ms).toISOString().slice(0, 10)}`)));
  }

  fill(root, h('section.game.explorer', null,
    h('div.board-wrap', null, board.svg),
    h('aside.side', null, h('h2', null, t('title.explorer')), filterForm, head, path, error, table, offers,
      h('h3', null, t('ex.latest')), games)));
  go(moves);
  return () => { gen++; };
}
