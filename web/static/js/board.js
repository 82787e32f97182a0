// The board, drawn in SVG: one element per point (with the point's
// coordinate as its accessible name), stones, marks and a keyboard cursor.
// It draws what it is given and reports clicks; it judges nothing.

export const COLS = 'ABCDEFGHIJKLMNOPQRS';

/** "H8" -> [x, y] from 0 (column A, row 1). @param {string} p @returns {[number, number]} */
export function xy(p) {
  return [p.toUpperCase().charCodeAt(0) - 65, Number(p.slice(1)) - 1];
}
/** @param {number} x @param {number} y */
export function pointAt(x, y) { return `${COLS[x]}${y + 1}`; }

const NS = 'http://www.w3.org/2000/svg';
const CELL = 40;
const PAD = 48;

/** @param {string} tag @param {Record<string, string|number>} attrs @param {Element} [parent] */
function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

/** Star points of a board size. @param {number} n */
function stars(n) {
  if (n === 19) return [3, 9, 15].flatMap((x) => [3, 9, 15].map((y) => [x, y]));
  return [[3, 3], [3, 11], [11, 3], [11, 11], [7, 7]];
}

/**
 * A stone: its colour and move number.
 * @typedef {{color: import('tengen-protocol').Color, number: number}} Stone
 * A point marked with a label (offers being placed, a line's ghost stones); `cls` styles it.
 * @typedef {{point: string, label: string, cls: string}} Mark
 * What to draw: the stones (by point), the last move, the winning line, the
 * forbidden points revealed, the marks, whether stones show their numbers,
 * and the stones that let a forced win go (the viewer's analysis).
 * `claimed`: the forbidden stones named with their kind (a claim upheld, a
 * forbidden move that lost, or every forbidden stone once a claim game ends).
 * @typedef {{stones: Map<string, Stone>, last?: string|null, line?: string[], forbidden?: import('tengen-protocol').ForbiddenPoint[],
 *   marks?: Mark[], numbers?: boolean, missed?: string[], claimed?: import('tengen-protocol').ForbiddenPoint[]}} Picture
 * What a point shows: `key` sums it up, to redraw only what changed.
 * @typedef {{key: string, stone?: Stone, mark?: Mark, forbidden?: string}} Look
 */

export class Board {
  /**
   * @param {number} size @param {(p: string) => void} onPick
   * @param {string} [label] the accessible name (twin rooms: `board 1`, `board 2`)
   */
  constructor(size, onPick, label = 'board') {
    this.size = size;
    this.onPick = onPick;
    this.interactive = false;
    this.confirm = false;
    /** @type {string|null} */
    this.armed = null;
    /** Told the point armed for a second click (null: none armed). @type {(p: string|null) => void} */
    this.onArm = () => {};
    const span = CELL * (size - 1) + 2 * PAD;
    const svg = el('svg', { viewBox: `0 0 ${span} ${span}`, class: 'board', role: 'grid', tabindex: 0, 'aria-label': label });
    this.svg = svg;
    el('rect', { x: 0, y: 0, width: span, height: span, class: 'wood' }, svg);
    const lines = [];
    for (let i = 0; i < size; i++) {
      const a = PAD + i * CELL;
      lines.push(`M${PAD} ${a}H${PAD + CELL * (size - 1)}M${a} ${PAD}V${PAD + CELL * (size - 1)}`);
    }
    el('path', { d: lines.join(''), class: 'grid' }, svg);
    for (const [x, y] of stars(size)) el('circle', { cx: this.cx(x), cy: this.cy(y), r: 4, class: 'star' }, svg);
    for (let i = 0; i < size; i++) {
      const letter = el('text', { x: this.cx(i), y: span - 8, class: 'coord' }, svg);
      letter.textContent = COLS[i];
      const top = el('text', { x: this.cx(i), y: 18, class: 'coord' }, svg);
      top.textContent = COLS[i];
      const num = el('text', { x: 13, y: this.cy(i) + 5, class: 'coord' }, svg);
      num.textContent = String(i + 1);
      const num2 = el('text', { x: span - 13, y: this.cy(i) + 5, class: 'coord' }, svg);
      num2.textContent = String(i + 1);
    }
    this.ghostEl = el('circle', { r: CELL * 0.45, class: 'ghost', visibility: 'hidden' }, svg);
    /** @type {Map<string, SVGGElement>} */
    this.points = new Map();
    const layer = el('g', { class: 'points' }, svg);
    for (let y = size - 1; y >= 0; y--) {
      const row = el('g', { role: 'row' }, layer);
      for (let x = 0; x < size; x++) {
        const p = pointAt(x, y);
        const g = /** @type {SVGGElement} */ (el('g', { class: 'pt', role: 'gridcell', 'aria-label': p, 'data-p': p }, row));
        el('rect', { x: this.cx(x) - CELL / 2, y: this.cy(y) - CELL / 2, width: CELL, height: CELL, class: 'hit' }, g);
        this.points.set(p, g);
      }
    }
    this.cursorEl = el('rect', { width: CELL, height: CELL, class: 'cursor', visibility: 'hidden' }, svg);
    this.cursor = pointAt(Math.floor(size / 2), Math.floor(size / 2));
    /** @type {Map<string, string>} what each point shows now, to redraw only what changed */
    this.drawn = new Map();
    svg.addEventListener('click', (ev) => {
      const g = /** @type {Element} */ (ev.target).closest('.pt');
      if (g) this.pick(/** @type {string} */ (g.getAttribute('data-p')));
    });
    svg.addEventListener('pointerover', (ev) => {
      const g = /** @type {Element} */ (ev.target).closest('.pt');
      if (g) this.hover(g.getAttribute('data-p'));
    });
    svg.addEventListener('pointerleave', () => this.hover(null));
    svg.addEventListener('keydown', (ev) => this.key(ev));
    svg.addEventListener('focus', () => this.showCursor(svg.matches(':focus-visible')));
    svg.addEventListener('blur', () => this.showCursor(false));
    /** @type {string|null} colour of the stone a click would place (for the hover preview) */
    this.previewColor = null;
  }

  /** @param {number} x */
  cx(x) { return PAD + x * CELL; }
  /** @param {number} y */
  cy(y) { return PAD + (this.size - 1 - y) * CELL; }

  /** @param {string|null} p */
  hover(p) {
    if (!p || !this.interactive || !this.previewColor || this.drawn.get(p)?.startsWith('s')) {
      this.ghostEl.setAttribute('visibility', 'hidden');
      return;
    }
    const [x, y] = xy(p);
    this.ghostEl.setAttribute('cx', String(this.cx(x)));
    this.ghostEl.setAttribute('cy', String(this.cy(y)));
    this.ghostEl.setAttribute('class', `ghost ${this.previewColor}`);
    this.ghostEl.setAttribute('visibility', 'visible');
  }

  /** A click or Enter on `p`: in confirm mode the first one only arms it. @param {string} p */
  pick(p) {
    if (!this.interactive) return;
    if (this.confirm && this.armed !== p) {
      this.armed = p;
      this.redrawArmed();
      return;
    }
    this.armed = null;
    this.redrawArmed();
    this.onPick(p);
  }

  redrawArmed() {
    for (const g of this.points.values()) g.classList.remove('armed');
    if (this.armed) this.points.get(this.armed)?.classList.add('armed');
    this.onArm(this.armed);
  }

  /** @param {KeyboardEvent} ev */
  key(ev) {
    let [x, y] = xy(this.cursor);
    const moves = /** @type {Record<string, [number, number]>} */ ({ ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] });
    if (moves[ev.key]) {
      x = Math.max(0, Math.min(this.size - 1, x + moves[ev.key][0]));
      y = Math.max(0, Math.min(this.size - 1, y + moves[ev.key][1]));
      this.cursor = pointAt(x, y);
      this.showCursor(true);
      this.hover(this.cursor);
      ev.preventDefault();
    } else if (ev.key === 'Enter' || ev.key === ' ') {
      this.pick(this.cursor);
      ev.preventDefault();
    }
  }

  /** @param {boolean} on */
  showCursor(on) {
    const [x, y] = xy(this.cursor);
    this.cursorEl.setAttribute('x', String(this.cx(x) - CELL / 2));
    this.cursorEl.setAttribute('y', String(this.cy(y) - CELL / 2));
    this.cursorEl.setAttribute('visibility', on ? 'visible' : 'hidden');
    this.svg.setAttribute('aria-activedescendant', this.cursor);
  }

  /**
   * Draws `pic`, touching only the points whose look changed (a move
   * redraws two or three points, not the board).
   * @param {Picture} pic
   */
  draw(pic) {
    /** @type {Map<string, Look>} */
    const want = new Map();
    const line = new Set(pic.line || []);
    const missed = new Set(pic.missed || []);
    const claimed = new Map((pic.claimed || []).map((f) => [f.point.toUpperCase(), f.kind]));
    for (const [p, s] of pic.stones) {
      const flags = `${p === pic.last ? 'L' : ''}${line.has(p) ? 'W' : ''}${pic.numbers ? 'N' : ''}${missed.has(p) ? 'M' : ''}${claimed.get(p) ?? ''}`;
      want.set(p, { key: `s${s.color}${s.number}${flags}`, stone: s });
    }
    for (const f of pic.forbidden || []) {
      if (!want.has(f.point)) want.set(f.point, { key: `f${f.kind}`, forbidden: f.kind });
    }
    for (const m of pic.marks || []) {
      if (!want.has(m.point) || want.get(m.point)?.forbidden) want.set(m.point, { key: `m${m.label}${m.cls}`, mark: m });
    }
    for (const p of this.drawn.keys()) if (!want.has(p)) { this.paint(p, null, pic); this.drawn.delete(p); }
    for (const [p, w] of want) {
      if (this.drawn.get(p) === w.key) continue;
      this.paint(p, w, pic);
      this.drawn.set(p, w.key);
    }
  }

  /** @param {string} p @param {Look|null} w @param {Picture} pic */
  paint(p, w, pic) {
    const g = this.points.get(p.toUpperCase());
    if (!g) return;
    while (g.childNodes.length > 1) g.lastChild?.remove();
    g.removeAttribute('data-stone');
    g.removeAttribute('data-forbidden');
    g.removeAttribute('data-mark');
    g.removeAttribute('data-missed');
    g.removeAttribute('data-claimed');
    if (!w) return;
    const [x, y] = xy(p);
    const cx = this.cx(x);
    const cy = this.cy(y);
    if (w.stone) {
      const s = w.stone;
      g.setAttribute('data-stone', s.color);
      const win = (pic.line || []).includes(p);
      el('circle', { cx, cy, r: CELL * 0.46, class: `stone ${s.color}${win ? ' win' : ''}` }, g);
      if (pic.numbers) {
        const t = el('text', { x: cx, y: cy + 6, class: `num ${s.color}` }, g);
        t.textContent = String(s.number);
      } else if (p === pic.last) {
        el('circle', { cx, cy, r: 6, class: 'last' }, g);
      }
      if (pic.numbers && p === pic.last) el('circle', { cx, cy, r: CELL * 0.46, class: 'last-ring' }, g);
      const kind = (pic.claimed || []).find((f) => f.point.toUpperCase() === p)?.kind;
      if (kind) {
        // A forbidden stone, named with its kind: a red cross over it.
        g.setAttribute('data-claimed', kind);
        const d = CELL * 0.3;
        el('path', { d: `M${cx - d} ${cy - d}L${cx + d} ${cy + d}M${cx + d} ${cy - d}L${cx - d} ${cy + d}`, class: 'claimed' }, g);
        const title = el('title', {}, g);
        title.textContent = `${p}: ${kind}`;
      }
      if ((pic.missed || []).includes(p)) {
        // A move that let a forced win go (the viewer's analysis).
        g.setAttribute('data-missed', '');
        el('circle', { cx, cy, r: CELL * 0.52, class: 'missed-ring' }, g);
      }
    } else if (w.forbidden) {
      g.setAttribute('data-forbidden', w.forbidden);
      const d = CELL * 0.22;
      el('path', { d: `M${cx - d} ${cy - d}L${cx + d} ${cy + d}M${cx + d} ${cy - d}L${cx - d} ${cy + d}`, class: 'forbid' }, g);
      const title = el('title', {}, g);
      title.textContent = `${p}: ${w.forbidden}`;
    } else if (w.mark) {
      g.setAttribute('data-mark', w.mark.label);
      el('circle', { cx, cy, r: CELL * 0.4, class: `mark ${w.mark.cls}` }, g);
      const t = el('text', { x: cx, y: cy + 6, class: 'num mark-label' }, g);
      t.textContent = w.mark.label;
    }
  }
}
