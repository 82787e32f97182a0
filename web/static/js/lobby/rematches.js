// Rematches offered to this session that stand (main.js keeps them in
// `app.rematches` wherever the page is): a player who left the finished
// game for the lobby still sees the offer, with Accept (the game then
// starts like any of ours) and Decline.

import { h, fill } from '../dom.js';
import { t, configName } from '../i18n.js';

/** @typedef {import('../app.js').App} App */

/** @param {App} app */
export function rematchOffers(app) {
  const el = h('div.rematches');
  const draw = () => {
    fill(el, ...[...app.rematches.values()].map((m) => {
      /** @param {'rematch'|'decline_rematch'} type */
      const answer = async (type) => {
        try {
          if (type === 'rematch') await app.conn.request({ type, table: m.table }, 'rematch_offered');
          else await app.conn.request({ type, table: m.table }, 'rematch_cancelled');
        } catch (e) { app.fail(e); }
        if (type === 'decline_rematch') { app.rematches.delete(m.table); draw(); }
      };
      return h('div.challenge', { 'data-rematch-offer': m.table },
        t('rematch.offer', { who: m.from?.name ?? '', config: m.config ? configName(m.config) : '' }), ' ',
        h('button.primary', { type: 'button', onclick: () => answer('rematch') }, t('lobby.accept')),
        h('button', { type: 'button', onclick: () => answer('decline_rematch') }, t('lobby.decline')));
    }));
  };
  return { el, draw };
}
