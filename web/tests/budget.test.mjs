// What the server sends for the page (headers, routes, compression,
// caching) and the budgets: the first load's transfer, the lobby's time to
// usable, and the time to draw an opponent's move in a 200-move game.
// The figures are printed (`# budget ...`) for BENCHMARKS.md. Lobby
// screenshots at desktop and phone sizes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, person, createRoom, table, shot, until, BASE } from './helpers.mjs';

const ROUTES = ['/', '/play/abc', '/watch/abc', '/tv', '/@/someone', '/game/abc', '/leaderboard', '/tournaments', '/tournament/abc', '/lag'];

test('every client route is the page, with strict security headers', async () => {
  const page = await (await fetch(`${BASE}/`)).text();
  for (const r of ROUTES) {
    const res = await fetch(BASE + r);
    assert.equal(res.status, 200, r);
    assert.equal(await res.text(), page, r);
    const csp = res.headers.get('content-security-policy');
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(res.headers.get('cache-control'), 'no-cache');
  }
  // No inline script: every script is a file of this origin.
  assert.doesNotMatch(page, /<script(?![^>]*\bsrc=)[^>]*>/);
  const js = page.match(/src="(\/assets\/[0-9a-f]+\/js\/main\.js)"/)[1];
  const res = await fetch(BASE + js, { headers: { 'accept-encoding': 'gzip' } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-encoding'), 'gzip');
  assert.match(res.headers.get('cache-control'), /immutable/);
  const etag = res.headers.get('etag');
  const again = await fetch(BASE + js, { headers: { 'if-none-match': etag } });
  assert.equal(again.status, 304);
  assert.equal((await fetch(`${BASE}/assets/x/js/nope.js`)).status, 404);
});

// The time budgets are a benchmark (BENCHMARKS.md): they are held exactly
// only with TENGEN_BUDGETS=strict, against a release server on a quiet
// machine. Otherwise (the test suite: a debug server beside compilers and
// other tests) the figures are printed and only a gross regression, four
// times a budget, fails the test. The transfer size is exact either way.
const STRICT = process.env.TENGEN_BUDGETS === 'strict';
const SLACK = STRICT ? 1 : 4;

test('budgets: first load ≤ 150 KiB, lobby usable ≤ 500 ms, a move drawn ≤ 16 ms', async () => {
  const b = await browser();
  try {
    // Some rooms for the lobby to list.
    for (const [name, opts] of [['dora', { ruleSet: 'renju', opening: 'rif', time: 'fischer', name: 'RIF 5+5' }],
      ['eve', { ruleSet: 'gomoku', opening: 'swap2', time: 'byo_yomi' }], ['fay', { ruleSet: 'freestyle', opening: 'free' }]]) {
      await createRoom(await person(b, name), opts);
    }
    const times = [];
    let bytes = 0;
    for (let i = 0; i < 5; i++) {
      const context = await b.newContext({ viewport: { width: 1280, height: 860 } });
      const page = await context.newPage();
      await page.goto(BASE);
      const usable = await until(page, () => performance.getEntriesByName('lobby-usable')[0]?.startTime);
      await until(page, () => document.querySelectorAll('tr[data-room]').length >= 3);
      times.push(usable);
      bytes = await page.evaluate(() => {
        const nav = /** @type {PerformanceNavigationTiming} */ (performance.getEntriesByType('navigation')[0]);
        return nav.transferSize + performance.getEntriesByType('resource').reduce((s, r) => s + /** @type {PerformanceResourceTiming} */ (r).transferSize, 0);
      });
      if (i === 0) {
        await shot(page, 'lobby-desktop');
        await page.setViewportSize({ width: 375, height: 812 });
        await shot(page, 'lobby-phone');
      }
      await context.close();
    }
    times.sort((x, y) => x - y);
    const median = times[2];
    console.log(`# budget first-load transfer: ${bytes} bytes (${(bytes / 1024).toFixed(1)} KiB)`);
    console.log(`# budget lobby usable: median ${median.toFixed(0)} ms of ${times.map((t) => t.toFixed(0)).join(', ')}`);
    assert.ok(bytes > 0 && bytes <= 150 * 1024, `first load ${bytes} bytes`);
    // The budget is for the median (BENCHMARKS.md, a release server on an
    // idle machine).
    assert.ok(median <= 500 * SLACK, `lobby usable after ${median} ms (median; budget 500 ms × ${SLACK})`);

    // A 200-move free-style game without a five: the colour of (x, y) is
    // fixed by (x + 2y) mod 4, which never puts five of a colour in a line.
    const { alice, bob, carol } = await table(b, { ruleSet: 'freestyle', opening: 'free' });
    const cells = { black: [], white: [] };
    for (let y = 0; y < 15; y++) for (let x = 0; x < 15; x++) cells[((x + 2 * y) % 4) < 2 ? 'black' : 'white'].push(`${'ABCDEFGHIJKLMNO'[x]}${y + 1}`);
    cells.black.sort((p, q) => (p === 'H8' ? -1 : q === 'H8' ? 1 : 0));
    const opener = (await alice.evaluate(() => /** @type {any} */ (document.querySelector('#prompt')).hasAttribute('data-mine-task'))) ? alice : bob;
    const other = opener === alice ? bob : alice;
    await Promise.all([alice, bob, carol].map((p) => p.evaluate(() => { /** @type {any} */ (window).__tengen.drawTimes = []; })));
    for (let i = 0; i < 200; i++) {
      const page = i % 2 ? other : opener;
      const point = i % 2 ? cells.white[(i - 1) / 2] : cells.black[i / 2];
      await page.evaluate(async ({ point }) => {
        const app = /** @type {any} */ (window).__tengen;
        const table = [...app.seated.values()].pop();
        await app.conn.request({ type: 'act', table, action: { type: 'place', point } });
      }, { point });
    }
    await until(carol, () => document.querySelectorAll('ol.moves li').length === 200, undefined, 30000);
    await carol.waitForTimeout(100);
    const draws = [];
    for (const p of [alice, bob, carol]) draws.push(...await p.evaluate(() => /** @type {any} */ (window).__tengen.drawTimes));
    const sync = draws.map((d) => d[0]).sort((x, y) => x - y);
    const frame = draws.map((d) => d[1]).sort((x, y) => x - y);
    const pct = (a, q) => a[Math.min(a.length - 1, Math.floor(a.length * q))];
    console.log(`# budget move drawn (frame arrival to board and panels updated): median ${pct(sync, 0.5).toFixed(2)} ms, p95 ${pct(sync, 0.95).toFixed(2)} ms, max ${sync[sync.length - 1].toFixed(2)} ms over ${sync.length} moves`);
    console.log(`# budget move on screen (to the next animation frame): median ${pct(frame, 0.5).toFixed(2)} ms, p95 ${pct(frame, 0.95).toFixed(2)} ms`);
    assert.equal(sync.length, 600);
    assert.ok(pct(sync, 0.95) <= 16 * SLACK, `p95 draw ${pct(sync, 0.95)} ms (budget 16 ms × ${SLACK})`);
    await shot(carol, 'game-200-moves-desktop');
  } finally {
    await b.close();
  }
});
