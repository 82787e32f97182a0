// `/lag`: what delays a move, in two figures, as lichess shows it: the
// server's own time over the last minutes (`/lag.json`, this server's
// percentiles of a move's handling and of the store's writes, and its live
// tables and connections), and this browser's round trip to the server,
// measured here with the protocol's `ping` every two seconds, with its
// recent history.

import { h, fill } from '../dom.js';
import { t } from '../i18n.js';

/**
 * @typedef {import('../app.js').App} App
 * @typedef {{count: number, p50_ms: number|null, p90_ms: number|null, p99_ms: number|null, max_ms: number|null}} Percentiles
 * @typedef {{window_secs: number, moves: Percentiles, store_writes: Percentiles, tables: number, connections: number}} LagReport
 */

/** Round trips kept for the history. */
const HISTORY = 30;
const PING_MS = 2000;
const FETCH_MS = 5000;
/** This page's round trips, kept while the page is open (a language switch redraws the view). @type {number[]} */
const rtts = [];

/** Milliseconds as shown: two decimals below 1, one below 10, whole above. @param {number|null} ms */
export const fmt = (ms) => ms == null ? '—' : ms < 1 ? ms.toFixed(2) : ms < 10 ? ms.toFixed(1) : String(Math.round(ms));

/** A figure's grade: `good`, `fair` or `poor`, against its two limits. @param {number|null} ms @param {number} good @param {number} fair */
const grade = (ms, good, fair) => ms == null ? '' : ms <= good ? 'good' : ms <= fair ? 'fair' : 'poor';

/** @param {App} app @param {HTMLElement} root */
export function mountLag(app, root) {
  const serverBig = h('span.lag-big', { 'data-lag': 'server' });
  const netBig = h('span.lag-big', { 'data-lag': 'rtt' });
  const netMedian = h('p.small');
  const history = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  history.setAttribute('class', 'chart lag-history');
  history.setAttribute('viewBox', `0 0 ${HISTORY * 10} 80`);
  history.setAttribute('preserveAspectRatio', 'none');
  history.setAttribute('aria-label', t('lag.history'));
  const span = h('p.small');
  const rows = h('tbody');
  const live = h('p');

  const cell = (/** @type {string} */ key, /** @type {number|null} */ ms) => h('td', { 'data-lag': key }, fmt(ms));
  /** @param {LagReport} r */
  const showServer = (r) => {
    const m = r.moves;
    serverBig.textContent = `${fmt(m.p50_ms)} ms`;
    serverBig.dataset.grade = grade(m.p90_ms, 50, 200);
    fill(span, t(m.count ? 'lag.window' : 'lag.empty', { m: Math.round(r.window_secs / 60), n: m.count, ms: fmt(m.p90_ms) }));
    // Each figure's row, then its line of explanation under it.
    fill(rows, [['moves', 'lag.moves'], ['store_writes', 'lag.store']].map(([k, label]) => {
      const p = /** @type {Percentiles} */ (r[/** @type {'moves'|'store_writes'} */ (k)]);
      return [h('tr', null, h('th', null, t(label)),
        cell(`${k}.p50_ms`, p.p50_ms), cell(`${k}.p90_ms`, p.p90_ms), cell(`${k}.p99_ms`, p.p99_ms), cell(`${k}.max_ms`, p.max_ms),
        h('td', { 'data-lag': `${k}.count` }, p.count)),
      h('tr.hint', null, h('td.small', { colspan: 6 }, t(`${label}.hint`)))];
    }));
    fill(live, t('lag.tables'), h('span', { 'data-lag': 'tables' }, r.tables), ` · ${t('lag.connections')}`,
      h('span', { 'data-lag': 'connections' }, r.connections));
  };
  const showNet = () => {
    const last = rtts[rtts.length - 1];
    netBig.textContent = `${fmt(last)} ms`;
    netBig.dataset.grade = grade(last, 100, 300);
    const sorted = [...rtts].sort((a, b) => a - b);
    const mid = sorted.length / 2;
    const median = sorted.length % 2 ? sorted[Math.floor(mid)] : (sorted[mid - 1] + sorted[mid]) / 2;
    netMedian.textContent = t('lag.rtt_median', { n: rtts.length, ms: fmt(median) });
    // A bar a round trip, the latest on the right, scaled to the longest.
    const top = Math.max(...rtts);
    history.replaceChildren(...rtts.map((v, i) => {
      const bar = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
      const tall = Math.max(1, (v / top) * 76);
      for (const [k, x] of Object.entries({ x: (HISTORY - rtts.length + i) * 10 + 1, y: 80 - tall, width: 8, height: tall })) bar.setAttribute(k, x.toFixed(1));
      bar.setAttribute('data-ms', fmt(v));
      return bar;
    }));
  };

  const fetchServer = async () => {
    try {
      const res = await fetch('/lag.json', { cache: 'no-store' });
      if (res.ok) showServer(/** @type {LagReport} */ (await res.json()));
    } catch { /* offline: the figures shown stay */ }
  };
  const ping = async () => {
    // Only on an open connection: a reconnect's wait is not the network's.
    if (app.conn.state !== 'open' || document.hidden) return;
    const sent = performance.now();
    try {
      await app.conn.send({ type: 'ping' }, 'pong');
    } catch { return; }
    rtts.push(performance.now() - sent);
    if (rtts.length > HISTORY) rtts.shift();
    showNet();
  };

  const head = h('tr', null, h('th'), ...['lag.p50', 'lag.p90', 'lag.p99', 'lag.max', 'lag.count'].map((k) => h('th', null, t(k))));
  fill(root, h('section.lag', null, h('h2', null, t('title.lag')),
    h('div.lag-gauges', null,
      h('div.lag-gauge', null, h('h3', null, t('lag.server')), serverBig, h('p', null, t('lag.server.hint')), span),
      h('div.lag-gauge', null, h('h3', null, t('lag.net')), netBig, h('p', null, t('lag.net.hint')), history, netMedian)),
    h('table.lb.lag-table', null, h('caption.small', null, t('lag.unit')), h('thead', null, head), rows),
    live));
  if (rtts.length) showNet(); else netBig.textContent = '— ms';
  fetchServer();
  ping();
  const timers = [setInterval(fetchServer, FETCH_MS), setInterval(ping, PING_MS)];
  return () => timers.forEach(clearInterval);
}
