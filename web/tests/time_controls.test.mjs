// The eight-stone overtime and correspondence rooms, created from the
// lobby form: what the clocks say (the overtime's move time and stones
// left; a correspondence move's days and the vacation left), and the
// overtime's draw once every overtime stone is down.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, table, whoseTurn, play, sameEverywhere, until } from './helpers.mjs';

/** Both seats' clock texts on `page`, the running one first. */
async function clocks(page) {
  return page.evaluate(() => {
    const all = [...document.querySelectorAll('[data-clock]')];
    const running = all.find((e) => e.classList.contains('running'));
    return [running?.textContent ?? '', ...all.filter((e) => e !== running).map((e) => e.textContent)];
  });
}

test('eight-stone overtime: both sides in overtime at once, stones counted, a draw after the last', async () => {
  const b = await browser();
  try {
    // 15 s of main time each (room for a slow machine to seat everyone and
    // play the first two stones in main time), then 2 overtime stones each
    // of 20 s at most.
    const { alice, bob, carol } = await table(b, {
      ruleSet: 'freestyle', opening: 'free', time: 'eight_stone', fields: { main: 0.25, move: 20, stones: 2 },
    });
    const pages = [alice, bob, carol];
    let n = 0;
    const move = async (p) => {
      const t = await whoseTurn([alice, bob]);
      await play(t.page, p);
      n += 1;
      await sameEverywhere(pages, n);
      return t.page;
    };
    await move('H8');
    const whitePage = await move('A1');
    // Black's main time runs out on its turn: black counts its overtime
    // move down, and white's unused main time has lapsed too.
    for (const p of [whitePage, carol]) {
      await until(p, () => [...document.querySelectorAll('[data-clock]')].every((e) => / · 2 left$/.test(e.textContent)), undefined, 25000);
    }
    const [running, waiting] = await clocks(carol);
    assert.match(running, /^0:[012]\d · 2 left$/);
    assert.equal(waiting, '0:20 · 2 left');
    await move('H9');
    assert.match((await clocks(carol)).slice(1).join(), /· 1 left/);
    await move('A2');
    await move('H10');
    await move('A3');
    for (const p of pages) await until(p, () => document.querySelector('#prompt')?.hasAttribute('data-over'));
    assert.match(await carol.textContent('#prompt'), /Draw · overtime stones all played/);
  } finally {
    await b.close();
  }
});

test('correspondence: days per move and vacation on the clock', async () => {
  const b = await browser();
  try {
    const { alice, bob, carol } = await table(b, {
      ruleSet: 'gomoku', opening: 'swap_after_three', time: 'correspondence', fields: { days: 3, vacation: 7 },
    });
    for (const p of [alice, bob, carol]) {
      await until(p, () => document.querySelector('[data-clock].running'));
      const [running, waiting] = await clocks(p);
      assert.equal(running, '2d 23h · vacation 7d 0h');
      assert.equal(waiting, '3d 0h · vacation 7d 0h');
    }
    const t = await whoseTurn([alice, bob]);
    await play(t.page, 'H8');
    await sameEverywhere([alice, bob, carol], 1);
    const [, waiting] = await clocks(carol);
    assert.equal(waiting, '3d 0h · vacation 7d 0h', 'a fresh 3 days for the next move');
    // The player to move closes the browser: no countdown to abandonment
    // is shown (there is none), and the game goes on.
    const gone = t.page === alice ? bob : alice;
    const seen = await carol.evaluate(() => document.querySelectorAll('[data-away]').length);
    assert.ok(seen > 0);
    await gone.context().close();
    await carol.waitForTimeout(1500);
    const away = await carol.$$eval('[data-away]', (els) => els.map((e) => e.textContent).join(''));
    assert.equal(away, '');
    assert.equal(await carol.evaluate(() => document.querySelector('#prompt')?.hasAttribute('data-over')), false);
  } finally {
    await b.close();
  }
});
