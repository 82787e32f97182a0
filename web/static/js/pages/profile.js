// `/@/NAME`: a player's ratings, each with its history as a line, and
// their finished games, a page at a time (each opens in the viewer).

import { h, fill, botMark } from '../dom.js';
import { t } from '../i18n.js';
import { errorMessage } from '../app.js';

/**
 * @typedef {import('../app.js').App} App
 * @typedef {import('tengen-protocol').FamilyRating} FamilyRating
 * @typedef {import('tengen-protocol').RatingPoint} RatingPoint
 */

/** @param {App} app @param {HTMLElement} root @param {string} name */
export function mountProfile(app, root, name) {
  const games = h('ul.history');
  const head = h('div.profile-head');
  fill(root, h('section.profile', null, h('h2', null, name), head, h('h3', null, t('profile.history')), games));
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
        for (const g of r.games) {
          games.appendChild(h('li', null, h('a', { href: `/game/${g.game}`, 'data-link': true }, `${g.players.join(' – ')}`), ' ',
            h('span.small', null, new Date(g.finished_ms).toLocaleString()),
            g.reverses ? h('span.small', null, ` · ${t('profile.reset', { game: g.reverses })}`) : null));
        }
        if (r.more && r.games.length) {
          const last = r.games[r.games.length - 1].finished_ms;
          games.appendChild(h('li.more', null, h('button', { type: 'button', onclick: () => more(last) }, t('profile.more'))));
        }
      } catch (e) { games.appendChild(h('li.error', null, errorMessage(e))); }
    };
    more(undefined);
  })();
  return () => {};
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
