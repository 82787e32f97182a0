// A game page's options (move numbers, click twice to play; kept in this
// browser) and its downloads: the server's record once the game is over
// (every action with its exact time), else the game so far as this page
// holds it (record.js), also while the server still stores a game that
// has just ended.

import { h, fill, download } from '../dom.js';
import { t } from '../i18n.js';
import { ProtoError } from '../conn.js';
import { liveRecord } from './record.js';

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

/** Downloads the record in `format`. @param {GamePage} g @param {RecordFormat} format */
async function save(g, format) {
  const st = g.st;
  if (!st) return;
  const table = g.table;
  g.showMsg(null);
  if (st.over) {
    try {
      const r = await g.app.conn.request({ type: 'game_record', game: table, format }, 'game_record');
      if (format === 'json') download(`tengen-${table}.json`, JSON.stringify(r.record, null, 2), 'application/json');
      else download(`tengen-${table}.${format === 'psq' ? 'psq' : 'txt'}`, r.text ?? '');
      return;
    } catch (e) {
      if (!(e instanceof ProtoError && e.code === 'not_found')) { g.showMsg(e); return; }
    }
  }
  try {
    const r = liveRecord(st, format);
    download(`tengen-${table}${st.over ? '' : '-live'}.${r.ext}`, r.text, r.type);
  } catch (e) { g.showMsg(e); }
}
