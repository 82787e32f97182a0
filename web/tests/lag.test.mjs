// The lag page (`/lag`, from the footer): after a few moves it shows the
// server's figures exactly as `/lag.json` gives them, and this browser's
// round trip measured with the protocol's `ping`, with its history; in
// Chinese too. Screenshots at desktop and phone sizes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, table, whoseTurn, sameEverywhere, play, shot, shots, until, BASE } from './helpers.mjs';

/** As the page shows milliseconds (pages/lag.js). */
const fmt = (ms) => ms == null ? '—' : ms < 1 ? ms.toFixed(2) : ms < 10 ? ms.toFixed(1) : String(Math.round(ms));

test("the lag page shows the server's percentiles and this browser's round trip", async () => {
  const b = await browser();
  try {
    const { alice, bob } = await table(b, { ruleSet: 'freestyle', opening: 'free' }, { spectator: false });
    const moves = ['H8', 'H9', 'J8', 'J9', 'K8'];
    for (let n = 0; n < moves.length; n++) {
      await play((await whoseTurn([alice, bob])).page, moves[n]);
      await sameEverywhere([alice, bob], n + 1);
    }

    // From the footer, inside the page (the game goes on meanwhile).
    await alice.click('footer a[href="/lag"]');
    await alice.waitForURL(`${BASE}/lag`);
    await until(alice, () => document.querySelector('[data-lag="moves.count"]'));
    assert.equal(await alice.title(), 'Lag · Tengen');
    const server = await (await fetch(`${BASE}/lag.json`)).json();
    assert.equal(server.moves.count, moves.length);
    assert.ok(server.store_writes.count >= moves.length);
    assert.equal(server.tables, 1);
    assert.equal(server.connections, 2);
    const shown = await alice.$$eval('[data-lag]', (els) => Object.fromEntries(els.map((e) => [e.getAttribute('data-lag'), e.textContent])));
    for (const w of ['moves', 'store_writes']) {
      for (const q of ['p50_ms', 'p90_ms', 'p99_ms', 'max_ms']) {
        assert.ok(server[w][q] > 0, `${w}.${q}`);
        assert.equal(shown[`${w}.${q}`], fmt(server[w][q]), `${w}.${q}`);
      }
      assert.equal(shown[`${w}.count`], String(server[w].count));
    }
    assert.equal(shown.server, `${fmt(server.moves.p50_ms)} ms`);
    assert.equal(shown.tables, '1');
    assert.equal(shown.connections, '2');

    // The round trip: a positive number of milliseconds, then a history.
    const rtt = await until(alice, () => {
      const m = /^([\d.]+) ms$/.exec(document.querySelector('[data-lag="rtt"]')?.textContent ?? '');
      return m && Number(m[1]);
    });
    assert.ok(rtt > 0 && rtt < 5000, `round trip ${rtt} ms`);
    await until(alice, () => document.querySelectorAll('.lag-history rect').length >= 2, undefined, 8000);
    const bars = await alice.$$eval('.lag-history rect', (els) => els.map((e) => Number(e.getAttribute('data-ms'))));
    assert.ok(bars.every((ms) => ms > 0), `history ${bars}`);
    await shots(alice, 'lag');

    // 中文
    await alice.click('#lang-btn');
    await until(alice, () => document.querySelector('section.lag h2')?.textContent === '延迟');
    assert.equal(await alice.textContent('footer a'), '延迟');
    // The view was drawn again in Chinese: the round trips measured stay.
    assert.ok(await alice.$$eval('.lag-history rect', (els) => els.length) >= bars.length);
    assert.match(await alice.textContent('section.lag'), /服务器延迟.*你的网络/s);
    await shot(alice, 'lag-zh-desktop');
  } finally {
    await b.close();
  }
});
