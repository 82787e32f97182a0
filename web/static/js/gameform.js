// The game's configuration as a form's fields: rule set, opening rule,
// board, forbidden moves, time control and draw offers, shown or hidden as
// the choices need them, and the `GameConfig` they describe. Shared by the
// lobby's room form and the tournament form (every game of an event uses
// one configuration). Nothing here judges a configuration: the server does.

import { h, fill } from './dom.js';
import { t, DAY_MS } from './i18n.js';

/**
 * @typedef {import('tengen-protocol').GameConfigInput} GameConfigInput
 * @typedef {import('tengen-protocol').TimeControlInput} TimeControlInput
 * @typedef {import('tengen-protocol').OpeningInput} OpeningInput
 * @typedef {import('tengen-protocol').RuleSet} RuleSet
 * @typedef {import('tengen-protocol').ForbiddenHandling} ForbiddenHandling
 */

/** The opening rules each rule set offers. @type {Record<RuleSet, string[]>} */
const OPENINGS = ({
  renju: ['free', 'rif', 'yamaguchi', 'yamaguchi_52', 'yamaguchi_variant', 'soosorv', 'jonsson', 'taraguchi', 'tarannikov', 'sakata', 'super_sakata'],
  gomoku: ['free', 'swap_after_three', 'swap2'],
  freestyle: ['free', 'swap_after_three', 'swap2'],
  twin: ['free'],
});

/**
 * A form's fields by name: `text` their value, `checked` whether a box is
 * ticked.
 * @param {HTMLFormElement} f
 */
export function formValues(f) {
  /** @param {string} name */
  const input = (name) => /** @type {HTMLInputElement} */ (f.elements.namedItem(name));
  return {
    /** @param {string} name */
    text: (name) => input(name).value,
    /** @param {string} name */
    checked: (name) => input(name).checked,
  };
}

/** A labelled field (`data-field` names it, to show or hide it). @param {string} key @param {Node} input @param {string} [name] */
export function field(key, input, name) {
  return h('label', { 'data-field': name || /** @type {HTMLInputElement} */ (input).name }, h('span', null, t(key)), input);
}

/** @param {string} name @param {[string, string][]} opts @param {string} [value] */
export const select = (name, opts, value) => h('select', { name }, opts.map(([v, label]) => h('option', { value: v, selected: v === value }, label)));
/** @param {string} name @param {number} value @param {number} min @param {number} [max] */
export const num = (name, value, min, max) => h('input', { name, type: 'number', value, min, max, step: 'any' });

/**
 * The game fields for form `f` (append `fields`, then call `sync` once).
 * @param {HTMLFormElement} f
 * @returns {{fields: Node[], config: () => GameConfigInput, sync: () => void}}
 */
export function gameFields(f) {
  const { text: val } = formValues(f);
  const ruleSet = select('rule_set', ['renju', 'gomoku', 'freestyle', 'twin'].map((r) => [r, t(`rule.${r}`)]), 'renju');
  const opening = h('select', { name: 'opening' });
  const n = num('n', 8, 1, 10);
  const board = select('board_size', [['15', '15×15'], ['19', '19×19']], '15');
  const time = select('time', ['fischer', 'sudden_death', 'byo_yomi', 'eight_stone', 'correspondence', 'unlimited'].map((k) => [k, t(`time.${k}`)]), 'fischer');
  const forbidden = select('forbidden', ['claim', 'block', 'lose'].map((k) => [k, t(`forbidden.${k}`)]), 'claim');
  const sync = () => {
    const rs = /** @type {RuleSet} */ (/** @type {HTMLSelectElement} */ (ruleSet).value);
    const current = /** @type {HTMLSelectElement} */ (opening).value;
    fill(opening, OPENINGS[rs].map((o) => h('option', { value: o, selected: o === current }, t(`open.${o}`))));
    const op = /** @type {HTMLSelectElement} */ (opening).value;
    for (const [name, show] of /** @type {[string, boolean][]} */ ([
      ['n', op === 'soosorv' || op === 'taraguchi'], ['board_size', rs === 'freestyle'], ['forbidden', rs === 'renju'],
      ['main', val('time') !== 'unlimited' && val('time') !== 'correspondence'], ['increment', val('time') === 'fischer'],
      ['periods', val('time') === 'byo_yomi'], ['period', val('time') === 'byo_yomi'], ['moves', val('time') === 'byo_yomi'],
      ['move', val('time') === 'eight_stone'], ['stones', val('time') === 'eight_stone'],
      ['move_limit_in_main', val('time') === 'eight_stone'], ['shared_main', val('time') === 'eight_stone'],
      ['days', val('time') === 'correspondence'], ['vacation', val('time') === 'correspondence']])) {
      const label = f.querySelector(`[data-field="${name}"]`);
      if (label) /** @type {HTMLElement} */ (label).hidden = !show;
    }
  };
  /** The time control the form describes. @returns {TimeControlInput} */
  const timeControl = () => {
    const main = Math.round(Number(val('main')) * 60000);
    const secs = (/** @type {string} */ name) => Math.round(Number(val(name)) * 1000);
    const days = (/** @type {string} */ name) => Math.round(Number(val(name)) * DAY_MS);
    switch (val('time')) {
      case 'sudden_death': return { kind: 'sudden_death', main_ms: main };
      case 'fischer': return { kind: 'fischer', main_ms: main, increment_ms: secs('increment') };
      case 'byo_yomi':
        return { kind: 'byo_yomi', main_ms: main, periods: Number(val('periods')), period_ms: secs('period'), moves_per_period: Number(val('moves')) };
      case 'eight_stone': {
        // The source's two readings that are options (the guide's eight-stone section).
        const box = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (f.elements.namedItem(name)).checked;
        return { kind: 'eight_stone', main_ms: main, move_ms: secs('move'), stones: Number(val('stones')),
          ...(box('move_limit_in_main') ? { move_limit_in_main: true } : {}), ...(box('shared_main') ? { shared_main: true } : {}) };
      }
      case 'correspondence': return { kind: 'correspondence', move_ms: days('days'), vacation_ms: days('vacation') };
      default: return { kind: 'unlimited' };
    }
  };
  /** The configuration the form describes. @returns {GameConfigInput} */
  const config = () => {
    const rs = /** @type {RuleSet} */ (val('rule_set'));
    const op = val('opening');
    /** @type {import('tengen-protocol').DrawPolicy} */
    const draw = {};
    if (val('draw_max') !== '') draw.max_offers = Number(val('draw_max'));
    if (val('draw_answer') !== '') draw.answer_ms = Math.round(Number(val('draw_answer')) * 1000);
    const c = {
      rule_set: rs,
      opening: op === 'soosorv' ? { soosorv: { n: Number(val('n')) } }
        : op === 'taraguchi' ? { taraguchi: { n: Number(val('n')) } } : /** @type {OpeningInput} */ (op),
      // Twin rooms are two 19×19 boards; free-style chooses; the rest are 15×15.
      board_size: rs === 'freestyle' ? Number(val('board_size')) : rs === 'twin' ? 19 : 15,
      time: timeControl(), draw, lag_credit_cap_ms: 1000,
    };
    return rs === 'renju' ? { ...c, forbidden: /** @type {ForbiddenHandling} */ (val('forbidden')) } : c;
  };
  const fields = [
    field('form.rule_set', ruleSet), field('form.opening', opening), field('form.n', n), field('form.board', board),
    field('form.forbidden', forbidden), field('form.time', time),
    field('form.main', num('main', 5, 0.1)), field('form.increment', num('increment', 5, 0)),
    field('form.periods', num('periods', 3, 1)), field('form.period', num('period', 30, 1)), field('form.moves', num('moves', 1, 1)),
    field('form.move', num('move', 30, 1)), field('form.stones', num('stones', 8, 1, 100)),
    field('form.move_limit_in_main', h('input', { name: 'move_limit_in_main', type: 'checkbox' })),
    field('form.shared_main', h('input', { name: 'shared_main', type: 'checkbox' })),
    field('form.days', num('days', 3, 1, 14)), field('form.vacation', num('vacation', 7, 0, 60)),
    field('form.draw_max', h('input', { name: 'draw_max', type: 'number', min: 0, placeholder: '∞' })),
    field('form.draw_answer', h('input', { name: 'draw_answer', type: 'number', min: 1, placeholder: '—' }))];
  f.addEventListener('change', sync);
  return { fields, config, sync };
}
