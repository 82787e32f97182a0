// The client routes: the first part of a path names its view, loaded when
// first needed (the lobby comes with the page). A view draws itself in
// the page's main element and returns its cleanup, which runs when the
// page moves to another route. The server answers every route with the
// same page (server/src/web.rs); this table is where the client reads it.

import { h, fill } from './dom.js';
import { t } from './i18n.js';
import { mountLobby } from './lobby/lobby.js';

/**
 * @typedef {import('./app.js').App} App
 * @typedef {import('./app.js').RouteState} RouteState
 */
/**
 * A view: draws itself in `root`, returns its cleanup. `arg` is the
 * path's second part (a room, table, player, game or tournament id).
 * @typedef {(app: App, root: HTMLElement, arg: string, state?: RouteState) => () => void} View
 */
/**
 * @typedef {object} Route
 * @property {string|null} title the title's i18n key (null: the site's name alone)
 * @property {boolean} [arg] the path needs its second part
 * @property {() => Promise<View>} view
 */

/** Every route, by the path's first part (`''`: the lobby at `/`). @type {Record<string, Route>} */
const ROUTES = {
  '': { title: null, view: async () => mountLobby },
  play: { title: 'title.play', arg: true, view: async () => (await import('./game/play.js')).mountPlay },
  watch: { title: 'title.watch', arg: true, view: async () => (await import('./game/game.js')).mountWatch },
  tv: { title: 'title.tv', view: async () => (await import('./pages/tv.js')).mountTv },
  leaderboard: { title: 'title.leaderboard', view: async () => (await import('./pages/leaderboard.js')).mountLeaderboard },
  '@': { title: 'title.profile', arg: true, view: async () => (await import('./pages/profile.js')).mountProfile },
  game: { title: 'title.game', arg: true, view: async () => (await import('./viewer/viewer.js')).mountViewer },
  tournaments: { title: 'title.tournaments', view: async () => (await import('./tournament/list.js')).mountTournaments },
  tournament: { title: 'title.tournament', arg: true, view: async () => (await import('./tournament/event.js')).mountTournament },
  lag: { title: 'title.lag', view: async () => (await import('./pages/lag.js')).mountLag },
  explorer: { title: 'title.explorer', view: async () => (await import('./pages/explorer.js')).mountExplorer },
  puzzle: { title: 'title.puzzles', view: async () => (await import('./pages/puzzles.js')).mountPuzzles },
  trainer: { title: 'title.trainer', view: async () => (await import('./pages/trainer.js')).mountTrainer },
};

/** Draws the view of the address shown, after the last view's cleanup. */
export class Router {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    /** @type {(() => void)|null} */
    this.cleanup = null;
  }

  /** @param {App} app @param {RouteState} [state] */
  async show(app, state) {
    this.cleanup?.();
    this.cleanup = null;
    const [first = '', arg = ''] = decodeURIComponent(location.pathname).split('/').filter(Boolean);
    const route = Object.hasOwn(ROUTES, first) ? ROUTES[first] : null;
    fill(this.root);
    const title = route ? route.title : 'err.not_found';
    document.title = title ? `${t(title)}${arg ? ` ${arg}` : ''} · Tengen` : 'Tengen 天元';
    if (!route || (route.arg && !arg)) {
      fill(this.root, h('p', null, t('err.not_found')));
      return;
    }
    try {
      const view = await route.view();
      this.cleanup = view(app, this.root, arg, state);
    } catch (e) {
      app.fail(e);
    }
  }
}
