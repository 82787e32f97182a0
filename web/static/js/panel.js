// What a game page says and offers: the prompt in words, the result, and
// the buttons for the actions the server's prompt allows (or that the
// other seat may always try: resign, a draw answer, a claim).

import { h, clock } from './dom.js';
import { t } from './i18n.js';
import { other } from './table.js';

/** @typedef {import('./table.js').TableState} TableState */

/** The prompt's task in words. @param {any} p */
export function taskText(p) {
  switch (p.task) {
    case 'place': return t('task.place', { color: t(`color.${p.color}`), n: p.move_number }) + (p.within ? t('task.within', { w: p.within }) : '')
      // Twin rooms: which stone of the turn (black's one-stone first turn says nothing).
      + (p.stones_left && p.move_number > 1 ? t('task.stones_left', { k: 3 - p.stones_left }) : '');
    case 'decide_swap': return t('task.decide_swap', { color: t(`color.${p.color}`) });
    case 'declare_offers': return t('task.declare_offers', { max: p.max });
    case 'offer_fifths': return t('task.offer_fifths', { count: p.count });
    case 'keep_fifth': return t('task.keep_fifth');
    case 'choose_option': return t('task.choose_option', { offers: p.offers });
    case 'swap2_choice': return t('task.swap2_choice');
    case 'super_sakata_choice': return t('task.super_sakata_choice', { color: t(`color.${p.color}`) });
    default: return p.task;
  }
}

/** @param {TableState} st @param {string|null} mine */
export function promptText(st, mine) {
  const p = st.prompt;
  if (!p) return '';
  if (p.seat === mine) return t('game.your_turn', { task: taskText(p) });
  return t('game.turn', { who: st.players[p.seat]?.name ?? p.seat, task: taskText(p) });
}

/** @param {TableState} st */
export function resultText(st) {
  const r = st.result;
  if (!r) return '';
  const reason = t(`reason.${r.reason.kind}`);
  if (r.outcome.kind === 'win') {
    return `${t('result.win', { who: st.players[r.outcome.seat]?.name ?? r.outcome.seat, color: t(`color.${r.outcome.color}`) })} · ${reason}`;
  }
  return `${t(r.outcome.kind === 'draw' ? 'result.draw' : 'result.aborted')} · ${reason}`;
}

/**
 * @param {TableState} st
 * @param {{mine: string|null, live: boolean, ui: any, offers: string[], two: string[]|null, act: (a: any) => void,
 *   rerender: () => void, setOffers: (o: string[]) => void, setTwo: (x: string[]|null) => void, rematch: () => void, leave: () => void}} c
 */
export function actionButtons(st, c) {
  const { mine, ui, act } = c;
  /** @param {string} key @param {() => void} f @param {string} [cls] @param {Record<string, any>} [vars] */
  const btn = (key, f, cls, vars) => h('button', { type: 'button', class: cls || null, 'data-act': key, onclick: f }, t(key, vars));
  if (!mine) return [];
  if (st.over) return [btn('act.rematch', c.rematch, 'primary'), btn('act.leave', c.leave)];
  const out = [];
  const p = st.prompt;
  const mineNow = p && p.seat === mine && c.live;
  if (mineNow) {
    switch (p.task) {
      case 'decide_swap': out.push(btn('act.swap', () => act({ type: 'swap' }), 'primary'), btn('act.keep', () => act({ type: 'keep' }), 'primary')); break;
      case 'declare_offers': {
        const n = /** @type {HTMLInputElement} */ (h('input', { type: 'number', min: 1, max: p.max, value: Math.min(2, p.max), name: 'declare', 'aria-label': t('act.declare') }));
        out.push(n, btn('act.declare', () => act({ type: 'declare_offers', count: Number(n.value) }), 'primary'));
        break;
      }
      case 'offer_fifths':
        out.push(h('span.small', null, `${c.offers.length} / ${p.count} `),
          btn('act.send_offers', () => act({ type: 'offer_fifths', points: c.offers }), 'primary'),
          btn('act.clear', () => c.setOffers([])));
        break;
      case 'choose_option':
        out.push(btn('act.single', () => act({ type: 'choose_option', option: 'single' }), 'primary'),
          btn('act.offers', () => act({ type: 'choose_option', option: 'offers' }), 'primary', { n: p.offers }));
        break;
      case 'swap2_choice':
      case 'super_sakata_choice': {
        const twoKey = p.task === 'swap2_choice' ? 'act.place_two' : 'act.place_two_more';
        out.push(btn('act.swap', () => act({ type: 'swap' })), btn('act.keep', () => act({ type: 'keep' })),
          c.two ? btn('act.clear', () => c.setTwo(null)) : btn(twoKey, () => c.setTwo([])));
        break;
      }
      case 'place':
        if (st.moves.length) {
          out.push(h('label.check', null, h('input', { type: 'checkbox', checked: ui.drawWithMove, onchange: (/** @type {Event} */ e) => { ui.drawWithMove = /** @type {HTMLInputElement} */ (e.target).checked; } }), t('act.offer_draw')));
        }
        break;
      default: break;
    }
    if (p.may.includes('pass')) out.push(btn('act.pass', () => act({ type: 'pass' })));
    if (p.may.includes('abort')) out.push(btn('act.abort', () => act({ type: 'abort' })));
  }
  if (st.drawOffer && st.drawOffer !== mine) {
    out.push(h('span.badge', null, t('game.draw_offered', { who: st.players[st.drawOffer]?.name ?? '' })),
      btn('act.accept_draw', () => act({ type: 'accept_draw' }), 'primary'), btn('act.decline_draw', () => act({ type: 'decline_draw' })));
  }
  const lastMine = st.moves.length && st.moves[st.moves.length - 1].seat === mine;
  if (!st.drawOffer && p && p.seat === other(mine) && lastMine) out.push(btn('act.offer_draw', () => act({ type: 'offer_draw' })));
  const claimRoom = st.config.rule_set === 'renju' && (st.config.forbidden ?? 'claim') === 'claim';
  const lastBlack = st.moves.length && st.moves[st.moves.length - 1].color === 'black';
  if (claimRoom && st.colorOf(mine) === 'white' && lastBlack) out.push(btn('act.claim', () => act({ type: 'claim_forbidden' })));
  if (ui.resignAsk) {
    out.push(h('span.confirm', null, t('act.resign.sure'), ' ',
      btn('act.yes', () => { ui.resignAsk = false; act({ type: 'resign' }); }, 'danger'),
      btn('act.no', () => { ui.resignAsk = false; c.rerender(); })));
  } else {
    out.push(btn('act.resign', () => { ui.resignAsk = true; c.rerender(); }, 'danger'));
  }
  return out;
}
