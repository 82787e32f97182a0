// A game page's options (move numbers, click twice to play; kept in this
// browser) and its downloads: the server's record, the game so far while
// it runs (its table answers) and the stored one once it is over.

import { h, fill, download } from '../dom.js';
import { t } from '../i18n.js';

/**
 * @typedef {import('./page.js').GamePage} GamePage
 * @typedef {import('tengen-protocol').RecordFormat} RecordFormat
 */

/** @type {RecordFormat[]} */
const FORMATS = ['json', 'renju', 'psq'];

/** Drawn once the table's snapshot is in. @param {GamePage} g */
export function toolsPiece(g) {
  const el = h('div.tools');
  /** A viewing option's box, kept in localStorage (`tengen.numbers`, `tengen.confirm`). @param {'numbers'|'confirm'} option @param {string} label */
  const check = (option, label) => h('label.check', null, h('input', {
    type: 'checkbox', checked: g.ui[option], onchange: (/** @type {Event} */ e) => {
      g.ui[option] = /** @type {HTMLInputElement} */ (e.target).checked;
      try { localStorage.setItem(`tengen.${option}`, g.ui[option] ? '1' : '0'); } catch { /* private mode */ }
      g.render();
    },
  }), label);
  const render = () => {
    if (el.firstChild || !g.st) return;
    fill(el,
      check('numbers', t('game.numbers')),
      check('confirm', t('game.confirm')),
      h('span.downloads', null, `${t('game.download')}: `,
        ...FORMATS.map((f) => h('button', { type: 'button', 'data-format': f, onclick: () => save(g, f) }, f.toUpperCase()))));
  };
  return { el, render };
}

/**
 * Downloads the record in `format`: the server's, which it has whole while
 * the game runs too (the opening's decisions, the names, the rule set, the
 * date, every move's time; no result until it is over).
 * @param {GamePage} g @param {RecordFormat} format
 */
async function save(g, format) {
  const st = g.st;
  if (!st) return;
  const table = g.table;
  const live = st.over ? '' : '-live';
  g.showMsg(null);
  try {
    const r = await g.app.conn.request({ type: 'game_record', game: table, format }, 'game_record');
    if (format === 'json') download(`tengen-${table}${live}.json`, `${JSON.stringify(r.record, null, 2)}\n`, 'application/json');
    else download(`tengen-${table}${live}.${format === 'psq' ? 'psq' : 'txt'}`, r.text ?? '');
  } catch (e) { g.showMsg(e); }
}
