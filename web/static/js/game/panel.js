// What a game page says and offers: the rule set and opening, the prompt
// in words or the result, and the buttons for the actions the server's
// prompt allows (`may`, and `other_may` for the seat not to move: a
// claim, a draw offer), the absent opponent's claim, and after the game
// the rematch or the way back to the tournament. The prompt's task is also in `data-task` (and, when
// it is this page's, `data-mine-task`) for assistive technology and tests.

import { h, fill } from '../dom.js';
import { t, getLang, kindName, timeName } from '../i18n.js';
import { other } from './table.js';
import { absence } from './absence.js';
import { afterGame } from './rematch.js';
import { requests } from './requests.js';

/**
 * @typedef {import('./table.js').TableState} TableState
 * @typedef {import('./page.js').GamePage} GamePage
 * @typedef {import('tengen-protocol').Prompt} Prompt
 * @typedef {import('tengen-protocol').Seat} Seat
 */

/** The prompt's task in words. @param {Prompt} p @returns {string} */
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
    default: return /** @type {{task: string}} */ (p).task;
  }
}

/** @param {TableState} st @param {Seat|null} mine */
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
  const rr = r.reason;
  // A forbidden move's point and kind, as the claim (or the referee) named it.
  // An abort says by whom (a player, or the server: both away before move 2).
  const reason = rr.kind === 'aborted' ? (rr.seat ? t('reason.aborted_by', { who: st.players[rr.seat]?.name ?? rr.seat }) : t('reason.aborted_server'))
    : t(`reason.${rr.kind}`) + (rr.kind === 'forbidden_claimed' || rr.kind === 'forbidden_played'
      ? `: ${t('claim.kind', { point: rr.point, kind: kindName(rr.forbidden) })}` : '');
  if (r.outcome.kind === 'win') {
    return `${t('result.win', { who: st.players[r.outcome.seat]?.name ?? r.outcome.seat, color: t(`color.${r.outcome.color}`) })} · ${reason}`;
  }
  return `${t(r.outcome.kind === 'draw' ? 'result.draw' : 'result.aborted')} · ${reason}`;
}

/** The rule set, the time control, the spectators and the opening formed; the prompt; the buttons. @param {GamePage} g */
export function panelPiece(g) {
  const info = h('p.info');
  const status = h('p.prompt#prompt', { role: 'status', 'aria-live': 'polite' });
  const actions = h('div.actions');
  /** The line above the seats (also redrawn when the spectators change). */
  const drawInfo = () => {
    const st = g.st;
    if (!st) return;
    // The canonical opening: its names come with the event, or with the
    // snapshot of a page (re)loaded after it formed.
    const o = st.opening;
    const cn = st.canonical ?? (o.canonical && o.canonical_name && o.canonical_chinese
      ? { code: o.canonical, name: o.canonical_name, chinese: o.canonical_chinese } : null);
    const opening = cn ? (getLang() === 'zh' ? `${cn.code} ${cn.chinese}（${cn.name}）` : `${cn.code} ${cn.name} (${cn.chinese})`) : st.opening.canonical ?? '';
    fill(info, `${t(`rule.${st.config.rule_set}`)} · `, h('span', { 'data-time': '' }, timeName(st.config.time)), ' · ', h('span.spectators', null, t('game.spectators', { n: st.spectators })),
      opening ? ` · ${opening}` : '');
  };
  const render = () => {
    const st = g.st;
    if (!st) return;
    drawInfo();
    status.textContent = st.over ? resultText(st) : g.ui.claimPick ? t('game.claim_pick') : promptText(st, g.mine());
    if (st.prompt) status.setAttribute('data-task', st.prompt.task); else status.removeAttribute('data-task');
    if (st.prompt && g.myTurn()) status.setAttribute('data-mine-task', st.prompt.task); else status.removeAttribute('data-mine-task');
    status.toggleAttribute('data-over', st.over);
    // The tab's title says when it is this player's move (another tab may be in front).
    const title = document.title.replace(/^● /, '');
    document.title = g.myTurn() ? `● ${title}` : title;
    fill(actions, actionButtons(g, st));
  };
  return { info, status, actions, render, drawInfo };
}

/** @param {GamePage} g @param {TableState} st @returns {Node[]} */
function actionButtons(g, st) {
  const mine = g.mine();
  const { ui } = g;
  /** @param {import('tengen-protocol').Action} a */
  const act = (a) => g.act(a);
  /** @param {string} key @param {() => void} f @param {string} [cls] @param {Record<string, string|number>} [vars] */
  const btn = (key, f, cls, vars) => h('button', { type: 'button', class: cls || null, 'data-act': key, onclick: f }, t(key, vars));
  if (!mine) return [];
  if (st.over) return afterGame(g, st, mine, btn);
  const out = absence(g, st, mine, btn);
  const p = st.prompt;
  if (p && p.seat === mine && g.view == null) {
    switch (p.task) {
      case 'decide_swap': out.push(btn('act.swap', () => act({ type: 'swap' }), 'primary'), btn('act.keep', () => act({ type: 'keep' }), 'primary')); break;
      case 'declare_offers': {
        const n = /** @type {HTMLInputElement} */ (h('input', { type: 'number', min: 1, max: p.max, value: Math.min(2, p.max), name: 'declare', 'aria-label': t('act.declare') }));
        out.push(n, btn('act.declare', () => act({ type: 'declare_offers', count: Number(n.value) }), 'primary'));
        break;
      }
      case 'offer_fifths':
        out.push(h('span.small', null, `${g.offers.length} / ${p.count} `),
          btn('act.send_offers', () => act({ type: 'offer_fifths', points: g.offers }), 'primary'),
          btn('act.clear', () => { g.offers = []; g.render(); }));
        break;
      case 'choose_option':
        out.push(btn('act.single', () => act({ type: 'choose_option', option: 'single' }), 'primary'),
          btn('act.offers', () => act({ type: 'choose_option', option: 'offers' }), 'primary', { n: p.offers }));
        break;
      case 'swap2_choice':
      case 'super_sakata_choice': {
        const twoKey = p.task === 'swap2_choice' ? 'act.place_two' : 'act.place_two_more';
        out.push(btn('act.swap', () => act({ type: 'swap' })), btn('act.keep', () => act({ type: 'keep' })),
          g.two ? btn('act.clear', () => { g.two = null; g.render(); }) : btn(twoKey, () => { g.two = []; g.render(); }));
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
    // On a line of its own: away from Pass, which it must not be mistaken for.
    out.push(h('div.draw-answer', null, h('span.badge', null, t('game.draw_offered', { who: st.players[st.drawOffer]?.name ?? '' })),
      btn('act.accept_draw', () => act({ type: 'accept_draw' }), 'primary'), btn('act.decline_draw', () => act({ type: 'decline_draw' }))));
  }
  const last = st.moves.length ? st.moves[st.moves.length - 1] : null;
  if (!st.drawOffer && p && p.seat === other(mine) && last?.seat === mine) out.push(btn('act.offer_draw', () => act({ type: 'offer_draw' })));
  const mayNow = p ? (p.seat === mine ? p.may : p.other_may ?? []) : [];
  out.push(...requests(g, st, mine, mayNow, btn));
  if (ui.resignAsk) {
    out.push(h('span.confirm', null, t('act.resign.sure'), ' ',
      btn('act.yes', () => { ui.resignAsk = false; act({ type: 'resign' }); }, 'danger'),
      btn('act.no', () => { ui.resignAsk = false; g.render(); })));
  } else {
    out.push(btn('act.resign', () => { ui.resignAsk = true; g.render(); }, 'danger'));
  }
  return out;
}
