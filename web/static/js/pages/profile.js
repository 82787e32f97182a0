// `/@/NAME`: a player's ratings, each with its history as a line, and
// their finished games, a page at a time, each with its date, opponent,
// the player's colour, the rule set, the result and the opening (each
// opens in the viewer).

import { h, fill, botMark } from '../dom.js';
import { t, openingName } from '../i18n.js';
import { errorMessage } from '../app.js';

/**
 * @typedef {import('../app.js').App} App
 * @typedef {import('tengen-protocol').FamilyRating} FamilyRating
 * @typedef {import('tengen-protocol').RatingPoint} RatingPoint
 * @typedef {import('tengen-protocol').GameSummary} GameSummary
 */

const COLUMNS = ['profile.col.date', 'profile.col.opponent', 'profile.col.color', 'profile.col.rule', 'profile.col.result', 'profile.col.opening'];

/** @param {App} app @param {HTMLElement} root @param {string} name */
export function mountProfile(app, root, name) {
  const games = h('tbody');
  const head = h('div.profile-head');
  fill(root, h('section.profile', null, h('h2', null, name), head, h('h3', null, t('profile.history')),
    h('table.history', null, h('thead', null, h('tr', null, ...COLUMNS.map((k) => h('th', null, t(k))))), games)));
  (async () => {
    try {
      const p = await app.conn.request({ type: 'profile', player: name }, 'profile');
      const ratings = p.ratings ?? [];
      fill(head, h('p.small', null, t('profile.since', { d: new Date(p.created_ms).toLocaleDateString() }), ' ', botMark(p.player, t('player.bot'))),
        ratings.length ? ratings.map(rating) : h('p', null, t('profile.none')));
    } catch (e) { fill(head, h('p.error', null, errorMessage(e))); }
    /** The page of games finished before `before` (none: the newest). @param {number|undefined} before */
    const more = async (before) => {
      try {
        const r = await app.conn.request({ type: 'history', player: name, ...(before ? { before } : {}) }, 'history');
        games.querySelector('.more')?.remove();
        for (const g of r.games) games.appendChild(gameRow(name, g));
        if (r.more && r.games.length) {
          const last = r.games[r.games.length - 1].finished_ms;
          games.appendChild(h('tr.more', null, h('td', { colspan: 6 }, h('button', { type: 'button', onclick: () => more(last) }, t('profile.more')))));
        }
      } catch (e) { games.appendChild(h('tr.error', null, h('td', { colspan: 6 }, errorMessage(e)))); }
    };
    more(undefined);
  })();
  return () => {};
}

/**
 * One game of `name`'s: when, against whom, with which colour, the rule
 * set and opening rule, the result from `name`'s side, the opening formed.
 * @param {string} name @param {GameSummary} g
 */
function gameRow(name, g) {
  const seat = g.players[0] === name ? 'first' : 'second';
  const opp = g.players[seat === 'first' ? 1 : 0] ?? '';
  const color = g.black ? (g.black === seat ? 'black' : 'white') : null;
  const o = g.result?.outcome;
  const res = !o ? '' : o.kind === 'win' ? (o.seat === seat ? 'win' : 'loss') : o.kind === 'draw' ? 'draw' : 'aborted';
  const c = g.config;
  return h('tr', { 'data-game': g.game, 'data-result': res || null },
    h('td', null, h('a', { href: `/game/${g.game}`, 'data-link': true }, new Date(g.finished_ms).toLocaleDateString()),
      g.reverses ? h('span.small', null, ` · ${t('profile.reset', { game: g.reverses })}`) : null),
    h('td', null, opp ? h('a', { href: `/@/${opp}`, 'data-link': true }, opp) : ''),
    h('td', { 'data-color': color }, color ? h(`span.stone-icon.${color}`, { title: t(`color.${color}`) }) : null, color ? h('span.word', null, ` ${t(`color.${color}`)}`) : ''),
    h('td', null, c ? `${t(`rule.${c.rule_set}`)} · ${openingName(c.opening)}` : ''),
    h('td', null, res ? t(`res.${res}`) : '', g.result ? h('span.small', null, ` · ${t(`reason.${g.result.reason.kind}`)}`) : null),
    h('td', null, g.opening ? `${g.opening[0]} ${g.opening[1]}` : ''));
}

/** One family's rating, its record and its history. @param {FamilyRating} r */
function rating(r) {
  return h('div.rating', { 'data-family': r.family },
    h('h3', null, `${t(`rule.${r.family}`)}: `, h('span.value', null, String(Math.round(r.rating))), ` ±${Math.round(r.deviation)}`,
      r.provisional ? ' ?' : ''),
    h('p.small', null, `${r.games} · ${r.wins}/${r.draws}/${r.losses}`),
    chart(r.history || []));
}

/** A rating history as an SVG line. @param {RatingPoint[]} hist */
function chart(hist) {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 300 80');
  svg.setAttribute('class', 'chart');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', hist.map((x) => Math.round(x.rating)).join(', '));
  if (hist.length < 1) return svg;
  const rs = hist.map((x) => x.rating);
  const lo = Math.min(...rs) - 10;
  const hi = Math.max(...rs) + 10;
  const pts = rs.map((r, i) => `${hist.length === 1 ? 150 : (i * 290) / (hist.length - 1) + 5},${75 - ((r - lo) * 70) / (hi - lo)}`);
  const line = document.createElementNS(NS, 'polyline');
  line.setAttribute('points', pts.join(' '));
  svg.appendChild(line);
  return svg;
}
