// `/tv`, Tengen TV: the live game with the highest rated players, shown
// until it ends, then the next one (no game twice until none is left).

import { h, fill } from '../dom.js';
import { t, configName } from '../i18n.js';
import { mountGame } from '../game/game.js';

/**
 * @typedef {import('../app.js').App} App
 * @typedef {import('tengen-protocol').Player} Player
 * @typedef {import('tengen-protocol').RoomInfo} RoomInfo
 * @typedef {import('tengen-protocol').RatingFamily} RatingFamily
 * @typedef {import('tengen-protocol').GameConfig} GameConfig
 */

/** A configuration's rating family (each rule set is its own). @param {GameConfig} c @returns {RatingFamily} */
const family = (c) => c.rule_set;

/** @param {App} app @param {HTMLElement} root */
export function mountTv(app, root) {
  let stopped = false;
  /** @type {(() => void)|null} */
  let inner = null;
  /** Ratings asked for, by `name/family` (0: a guest or unknown). @type {Map<string, number>} */
  const ratings = new Map();
  /** Tables already shown. @type {Set<string>} */
  const seen = new Set();
  const box = h('div.tv-game');
  const title = h('h2', null, t('tv.title'));
  fill(root, h('section.tv', null, title, box));
  /** @param {Player|null} player @param {RatingFamily} fam */
  const rating = async (player, fam) => {
    if (!player || player.guest) return 0;
    const key = `${player.name}/${fam}`;
    let r = ratings.get(key);
    if (r == null) {
      try {
        const p = await app.conn.request({ type: 'profile', player: player.name }, 'profile');
        r = (p.ratings || []).find((x) => x.family === fam)?.rating ?? 1500;
      } catch { r = 0; }
      ratings.set(key, r);
    }
    return r;
  };
  const next = async () => {
    if (stopped) return;
    inner?.();
    inner = null;
    /** @type {RoomInfo|null} */
    let best = null;
    let bestScore = -1;
    try {
      const { rooms } = await app.conn.request({ type: 'list_rooms' }, 'rooms');
      for (const r of rooms) {
        if (r.status !== 'playing' || !r.table || seen.has(r.table)) continue;
        const fam = family(r.config);
        const score = Math.max(await rating(r.players.first, fam), await rating(r.players.second, fam));
        if (score > bestScore) { best = r; bestScore = score; }
      }
    } catch (e) { app.fail(e); }
    if (stopped) return;
    if (!best || !best.table) {
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
