// A small DOM builder: text always goes in as text (textContent), never as
// markup, so nothing a player typed can become an element or a script.

/**
 * An attribute's value: `true` sets it empty, `false`, null and undefined
 * leave it out; a function under `on…` is a listener.
 * @typedef {string|number|boolean|null|undefined|((ev: Event) => unknown)} Attr
 * A child: an element, or text; nothing for null, undefined and false.
 * @typedef {Node|string|number|null|undefined|false|Kids} Kid
 * @typedef {Kid[]} Kids
 */

/**
 * @param {string} tag "div", "button.primary", "span#id.a.b"
 * @param {Record<string, Attr>|null} [attrs] attributes; `on*` functions become listeners
 * @param {...Kid} kids
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...kids) {
  const [name, ...rest] = tag.split(/(?=[.#])/);
  const e = document.createElement(name);
  for (const r of rest) {
    if (r[0] === '.') e.classList.add(r.slice(1));
    else e.id = r.slice(1);
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (typeof v === 'function') { if (k.startsWith('on')) e.addEventListener(k.slice(2), v); }
    else if (k === 'value') /** @type {HTMLInputElement} */ (e).value = String(v);
    else if (k === 'checked') /** @type {HTMLInputElement} */ (e).checked = !!v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  append(e, kids);
  return e;
}

/** @param {Node} e @param {Kid[]} kids */
function append(e, kids) {
  for (const k of kids) {
    if (k == null || k === false) continue;
    if (Array.isArray(k)) append(e, k);
    else e.appendChild(typeof k === 'object' ? k : document.createTextNode(String(k)));
  }
}

/**
 * A bot account's mark after its name (nothing for a person).
 * @param {import('tengen-protocol').Player|null|undefined} p
 * @param {string} label the mark's text (`player.bot`, translated)
 */
export function botMark(p, label) {
  return p?.bot ? h('span.bot', { title: label, 'data-bot': '' }, label) : null;
}

/** Replaces the children of `e`. @template {Element} E @param {E} e @param {...Kid} kids @returns {E} */
export function fill(e, ...kids) {
  e.replaceChildren();
  append(e, kids);
  return e;
}

/** Offers `text` as a file download. @param {string} name @param {string} text @param {string} [type] */
export function download(name, text, type = 'text/plain') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { href: url, download: name });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Formats milliseconds as m:ss (or h:mm:ss). @param {number} ms */
export function clock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}
