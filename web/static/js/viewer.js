// `/game/ID`: a finished game from its record, stepped through and
// downloadable, and analysed on request (`analysis.js`). The stones come
// from the record's moves in renju notation, numbered in order (black's
// odd): no rule is applied. A twin game (two boards) is listed, not drawn:
// which stone is whose there is the turn structure, a rule.

import { h, fill, download } from './dom.js';
import { t, configName } from './i18n.js';
import { Board } from './board.js';
import { analysisPanel, lineMarks, linePoints, missed, moveIndex } from './analysis.js';

/** @param {any} app @param {HTMLElement} root @param {string} id */
export function mountViewer(app, root, id) {
  const boardWrap = h('div.board-wrap');
  const side = h('aside.side');
  fill(root, h('section.game.viewer', null, boardWrap, side));
  (async () => {
    try {
      const [json, renju] = await Promise.all([
        app.conn.request({ type: 'game_record', game: id, format: 'json' }),
        app.conn.request({ type: 'game_record', game: id, format: 'renju' }),
      ]);
      const rec = json.record;
      const moves = renju.text.trim() ? renju.text.trim().split(/\s+/) : [];
      const twin = rec.config.rule_set === 'twin';
      const board = new Board(rec.config.board_size, () => {});
      fill(boardWrap, twin ? h('p.small', null, t('viewer.twin')) : board.svg);
      let at = moves.length;
      const line = rec.result?.reason?.kind === 'five' ? rec.result.reason.line : [];
      const list = h('ol.moves');
      /** @type {import('./analysis.js').Analysis|null} */
      let analysis = null;
      /** @type {import('./analysis.js').Verdict|null} the missed win whose line is shown (before its move) */
      let shown = null;
      const draw = () => {
        /** @type {Map<string, {color: string, number: number}>} */
        const stones = new Map();
        moves.slice(0, at).forEach((m, i) => { if (m !== 'pass') stones.set(m.toUpperCase(), { color: i % 2 ? 'white' : 'black', number: i + 1 }); });
        const last = at ? moves[at - 1].toUpperCase() : null;
        const gone = new Map(missed(analysis).map((v) => [moveIndex(moves, v), v]));
        const marked = [...gone.keys()].filter((i) => i >= 0 && i < at && moves[i] !== 'pass').map((i) => moves[i].toUpperCase());
        const marks = shown ? lineMarks(shown) : [];
        if (shown && shown.played !== 'pass' && !linePoints(shown).includes(shown.played.toUpperCase())) {
          marks.push({ point: shown.played.toUpperCase(), label: '×', cls: 'played' });
        }
        if (!twin) board.draw({ stones, last: last === 'PASS' ? null : last, line: at === moves.length ? line : [], missed: marked, marks });
        fill(list, moves.map((m, i) => {
          const v = gone.get(i);
          const cls = `${twin ? '' : i % 2 ? 'white' : 'black'}${i + 1 === at ? ' at' : ''}${v ? ' missed' : ''}${v && v === shown ? ' shown' : ''}`;
          const title = v ? t('an.item', { n: v.number, move: v.played, kind: v.vcf ? 'VCF' : 'VCT', line: v.vcf ?? v.vct ?? '' }) : null;
          // A missed win's move: the first click shows the line before it, the next the move.
          const pick = () => { if (v && shown !== v) { shown = v; at = i; } else { shown = null; at = i + 1; } draw(); };
          return h('li', { class: cls, 'data-missed': v ? (v.vcf ? 'vcf' : 'vct') : null, title, onclick: pick }, m);
        }));
      };
      const step = (/** @type {number} */ n) => () => { shown = null; at = Math.max(0, Math.min(moves.length, n)); draw(); };
      const show = (/** @type {import('./analysis.js').Verdict} */ v) => {
        const i = moveIndex(moves, v);
        if (i < 0) return;
        shown = v;
        at = i;
        draw();
      };
      const panel = analysisPanel(app, id, (a) => { analysis = a; shown = null; draw(); }, show);
      const fmt = async (/** @type {string} */ f) => {
        try {
          const r = f === 'json' ? json : await app.conn.request({ type: 'game_record', game: id, format: f });
          if (f === 'json') download(`tengen-${id}.json`, JSON.stringify(r.record, null, 2), 'application/json');
          else download(`tengen-${id}.${f === 'psq' ? 'psq' : 'txt'}`, r.text);
        } catch (e) { app.fail(e); }
      };
      const r = rec.result;
      fill(side,
        h('h2', null, `${rec.tags?.first ?? '?'} – ${rec.tags?.second ?? '?'}`),
        h('p.small', null, configName(rec.config)),
        h('p.prompt', null, r ? `${r.outcome.kind === 'win' ? t('result.win', { who: rec.tags?.[r.outcome.seat] ?? r.outcome.seat, color: t(`color.${r.outcome.color}`) }) : t(r.outcome.kind === 'draw' ? 'result.draw' : 'result.aborted')} · ${t(`reason.${r.reason.kind}`)}` : ''),
        h('div.movebox', null, list, h('div.nav', null,
          h('button', { type: 'button', onclick: step(0) }, '|◀'), h('button', { type: 'button', onclick: () => step(at - 1)() }, '◀'),
          h('button', { type: 'button', onclick: () => step(at + 1)() }, '▶'), h('button', { type: 'button', onclick: step(moves.length) }, '▶|'))),
        h('p', null, `${t('game.download')}: `, ...['json', 'renju', 'psq'].map((f) => h('button', { type: 'button', onclick: () => fmt(f) }, f.toUpperCase()))),
        panel);
      draw();
    } catch (e) {
      fill(side, h('p.error', { role: 'alert' }, e instanceof Error ? e.message : String(e)));
    }
  })();
  return () => {};
}
