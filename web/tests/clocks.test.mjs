// The clocks of a real byo-yomi game with short times (12 s main time, then
// 2 periods of 8 s): the main time with the periods to come, then the
// current period and how many are left, then the last period; after a
// move in the periods, every page shows the server's figures (a fresh
// period, as the server's clock says). Low time is marked in the periods
// (under 10 s), not in the main time while periods remain.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, table, whoseTurn, play, until, sameEverywhere } from './helpers.mjs';

/** The clock of `seat` on `page`: text, phase, periods, low. */
async function face(page, seat) {
  return page.$eval(`[data-clock="${seat}"]`, (el) => ({
    text: el.textContent,
    phase: el.getAttribute('data-phase'),
    periods: el.getAttribute('data-periods'),
    low: el.hasAttribute('data-low'),
  }));
}

test('byo-yomi: main time, then the periods left and the period time, as the server says', async () => {
  const b = await browser();
  try {
    const { alice, bob, carol } = await table(b, {
      ruleSet: 'renju', opening: 'free', time: 'byo_yomi', clock: { main: 0.2, periods: 2, period: 8, moves: 1 },
    });
    const all = [alice, bob, carol];
    const { page: mover } = await whoseTurn([alice, bob], 'place');
    const seat = await mover.evaluate(() => /** @type {any} */ (window).__tengen.current.seat);
    const config = await carol.evaluate(() => /** @type {any} */ (window).__tengen.current.config.time);
    assert.deepEqual(config, { kind: 'byo_yomi', main_ms: 12000, periods: 2, period_ms: 8000, moves_per_period: 1 });

    // The main time runs, the periods to come beside it; not low, even
    // under 10 s: the periods are still to come.
    for (const p of all) {
      const f = await face(p, seat);
      assert.match(f.text, /^0:(0[1-9]|1[0-2]) \+ 2 × 0:08$/, f.text);
      assert.equal(f.phase, 'main');
      assert.equal(f.low, false);
    }
    await until(carol, (s) => /^0:0\d \+/.test(document.querySelector(`[data-clock="${s}"]`)?.textContent || ''), seat, 8000);
    assert.equal((await face(carol, seat)).low, false, 'under 10 s of main time, with periods to come');
    // The main time is used up: the first of two periods.
    for (const p of all) {
      await until(p, (s) => document.querySelector(`[data-clock="${s}"]`)?.getAttribute('data-phase') === 'periods', seat, 20000);
    }
    let f = await face(carol, seat);
    assert.match(f.text, /^0:0[1-8] \(2 periods\)$/, f.text);
    assert.equal(f.periods, '2');
    assert.equal(f.low, true, 'an 8 s period is low time');
    // That period runs out: the last one.
    for (const p of all) {
      await until(p, (s) => document.querySelector(`[data-clock="${s}"]`)?.getAttribute('data-periods') === '1', seat, 12000);
    }
    f = await face(mover, seat);
    assert.match(f.text, /^0:0[1-8] \(last period\)$/, f.text);

    // A move in the last period: the server's clock gives a fresh period,
    // and every page shows its figures.
    await play(mover, 'H8');
    await sameEverywhere(all, 1);
    for (const p of all) {
      const server = await p.evaluate((s) => /** @type {any} */ (window).__tengen.current.clocks[s], seat);
      assert.deepEqual(server, { main_ms: 0, periods: 1, period_ms: 8000, period_moves: 1 });
      f = await face(p, seat);
      assert.equal(f.text, '0:08 (last period)');
      assert.equal(f.phase, 'periods');
      assert.equal(f.periods, '1');
      // The other clock runs now, in its main time.
      const other = seat === 'first' ? 'second' : 'first';
      const o = await face(p, other);
      assert.equal(o.phase, 'main');
      assert.match(o.text, /^0:(0[1-9]|1[0-2]) \+ 2 × 0:08$/, o.text);
    }
    // In Chinese, the same figures in words.
    await carol.click('#lang-btn');
    await until(carol, (s) => /读秒/.test(document.querySelector(`[data-clock="${s}"]`)?.textContent || ''), seat);
    assert.equal((await face(carol, seat)).text, '0:08 (最后一次读秒)');
  } finally {
    await b.close();
  }
});
