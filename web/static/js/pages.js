// Tengen TV, the leaderboards and the profiles.

import { h, fill, botMark } from './dom.js';
import { t, configName } from './i18n.js';
import { mountGame } from './game.js';

const FAMILIES = ['renju', 'gomoku', 'freestyle', 'twin'];
/** @param {any} c */
const family = (c) => (c.rule_set === 'freestyle' ? 'freestyle' : c.rule_set);

/** `/tv`: the live game with the highest rated players, then the next one. @param {any} app @param {HTMLElement} root */
export function mountTv(app, root) {
  let stopped = false;
  /** @type {(() => void)|null} */
  let inner = null;
  /** @type {Map<string, number>} */
  const ratings = new Map();
  /** @type {Set<string>} tables already shown */
  const seen = new Set();
  const box = h('div.tv-game');
  const title = h('h2', null, t('tv.title'));
  fill(root, h('section.tv', null, title, box));
  /** @param {any} player @param {string} fam */
  const rating = async (player, fam) => {
    if (!player || player.guest) return 0;
    const key = `${player.name}/${fam}`;
    if (!ratings.has(key)) {
      try {
        const p = await app.conn.request({ type: 'profile', player: player.name });
        ratings.set(key, (p.ratings || []).find((/** @type {any} */ r) => r.family === fam)?.rating ?? 1500);
      } catch { ratings.set(key, 0); }
    }
    return /** @type {number} */ (ratings.get(key));
  };
  const next = async () => {
    if (stopped) return;
    inner?.();
    inner = null;
    let best = null;
    let bestScore = -1;
    try {
      const { rooms } = await app.conn.request({ type: 'list_rooms' });
      for (const r of rooms) {
        if (r.status !== 'playing' || !r.table || seen.has(r.table)) continue;
        const fam = family(r.config);
        const score = Math.max(await rating(r.players.first, fam), await rating(r.players.second, fam));
        if (score > bestScore) { best = r; bestScore = score; }
      }
    } catch (e) { app.fail(e); }
    if (stopped) return;
    if (!best) {
      seen.clear();
      fill(box, h('p', null, t('tv.none')));
      setTimeout(next, 3000);
      return;
    }
    seen.add(best.table);
    title.textContent = `${t('tv.title')} · ${configName(best.config)}`;
    inner = mountGame(app, box, best.table, null, { compact: true, onOver: () => setTimeout(next, 4000) });
  };
  next();
  return () => { stopped = true; inner?.(); };
}

/** `/leaderboard`. @param {any} app @param {HTMLElement} root */
export function mountLeaderboard(app, root) {
  const body = h('div');
  let fam = 'renju';
  // People by default; the switch lists bot accounts instead.
  let bots = false;
  const tabs = h('div.tabs', { role: 'tablist' });
  const show = async () => {
    fill(tabs, FAMILIES.map((f) => h('button', { type: 'button', role: 'tab', 'aria-selected': String(f === fam), onclick: () => { fam = f; show(); } }, t(`rule.${f}`))),
      h('label.small', null, h('input', { type: 'checkbox', name: 'bots', checked: bots, onchange: (/** @type {Event} */ e) => { bots = /** @type {HTMLInputElement} */ (e.target).checked; show(); } }), ' ', t('lb.bots')));
    try {
      const lb = await app.conn.request({ type: 'leaderboard', family: fam, bots });
      /** @param {any[]} rows */
      const table = (rows) => h('table.lb', null,
        h('thead', null, h('tr', null, ...['lb.rank', 'lb.player', 'lb.rating', 'lb.games', 'lb.wdl'].map((k) => h('th', null, t(k))))),
        h('tbody', null, rows.map((r) => h('tr', null, h('td', null, r.rank), h('td', null, h('a', { href: `/@/${r.player}`, 'data-link': true }, r.player)),
          h('td', null, `${Math.round(r.rating)} ±${Math.round(r.deviation)}`), h('td', null, r.games), h('td', null, `${r.wins}/${r.draws}/${r.losses}`)))));
      fill(body, lb.players.length ? table(lb.players) : h('p', null, t('lb.empty')),
        lb.inactive?.length ? [h('h3', null, t('lb.inactive')), table(lb.inactive)] : null);
    } catch (e) { fill(body, h('p.error', null, e instanceof Error ? e.message : String(e))); }
  };
  fill(root, h('section.leaderboard', null, h('h2', null, t('lb.title')), tabs, body));
  show();
  return () => {};
}

/** `/@/NAME`: ratings with their history, and the games. @param {any} app @param {HTMLElement} root @param {string} name */
export function mountProfile(app, root, name) {
  const games = h('ul.history');
  const head = h('div.profile-head');
  fill(root, h('section.profile', null, h('h2', null, name), head, h('h3', null, t('profile.history')), games));
  (async () => {
    try {
      const p = await app.conn.request({ type: 'profile', player: name });
      fill(head, h('p.small', null, t('profile.since', { d: new Date(p.created_ms).toLocaleDateString() }), ' ', botMark(p.player, t('player.bot'))),
        (p.ratings || []).length ? p.ratings.map((/** @type {any} */ r) => h('div.rating', { 'data-family': r.family },
          h('h3', null, `${t(`rule.${r.family}`)}: `, h('span.value', null, String(Math.round(r.rating))), ` ±${Math.round(r.deviation)}`,
            r.provisional ? ' ?' : ''),
          h('p.small', null, `${r.games} · ${r.wins}/${r.draws}/${r.losses}`),
          chart(r.history || []))) : h('p', null, t('profile.none')));
    } catch (e) { fill(head, h('p.error', null, e instanceof Error ? e.message : String(e))); }
    /** @param {number|undefined} before */
    const more = async (before) => {
      try {
        const r = await app.conn.request({ type: 'history', player: name, ...(before ? { before } : {}) });
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
      } catch (e) { games.appendChild(h('li.error', null, e instanceof Error ? e.message : String(e))); }
    };
    more(undefined);
  })();
  return () => {};
}

/** A rating history as an SVG line. @param {any[]} hist */
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
