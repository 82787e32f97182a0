// The eight-stone overtime and correspondence rooms, created from the
// lobby form: what the clocks say (the overtime's move time and stones
// left; a correspondence move's days and the vacation left), and the
// overtime's draw once every overtime stone is down.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, table, person, createRoom, whoseTurn, play, sameEverywhere, until, shots } from './helpers.mjs';

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

/** Seconds of a main-time clock text (`0:27`). @param {string} text */
const secs = (text) => { const [m, s] = text.split(':').map(Number); return m * 60 + s; };

test('eight-stone with one main time for the game: created from the form, one clock for both, then overtime', async () => {
  const b = await browser();
  try {
    const alice = await person(b, 'alice');
    const bob = await person(b, 'bob');
    // 30 s of main time for the whole game, then 2 overtime stones of 20 s each.
    const room = await createRoom(alice, { ruleSet: 'freestyle', time: 'eight_stone', fields: { main: 0.5, move: 20, stones: 2 }, checks: ['shared_main'] });
    // Bob's lobby says the main time is shared; he joins from there.
    await until(bob, (r) => document.querySelector(`tr[data-room="${r}"] button`), room);
    assert.match(await bob.textContent(`tr[data-room="${room}"]`), /0\.5\+2×20s \(Eight-stone overtime, one main time for both\)/);
    await bob.click(`tr[data-room="${room}"] button:text("Join")`);
    for (const p of [alice, bob]) await p.waitForSelector('svg.board');
    const players = [alice, bob];
    const tc = await alice.evaluate(() => /** @type {any} */ (window).__tengen.current.config.time);
    assert.equal(tc.shared_main, true, JSON.stringify(tc));
    assert.match(await alice.textContent('.info'), /one main time for both/);
    /** Both seats' clocks on `page`: [running, waiting] seconds. */
    const both = async (/** @type {import('playwright-core').Page} */ page) => page.evaluate(() => {
      const all = [...document.querySelectorAll('[data-clock]')];
      const running = all.find((e) => e.classList.contains('running'));
      return [running, ...all.filter((e) => e !== running)].map((e) => e?.textContent ?? '');
    });
    const first = (await whoseTurn(players)).page;
    await first.waitForTimeout(2000);
    await play(first, 'H8');
    await sameEverywhere(players, 1);
    // The second player's turn: the one clock runs on from where the first
    // left it, and it is both seats' (the waiting seat's counts down too).
    const [r1, w1] = (await both(first)).map(secs);
    assert.ok(Math.abs(r1 - w1) <= 1, `one main time: ${r1} s and ${w1} s`);
    assert.ok(r1 <= 28, `the first move's time was taken from the game's: ${r1} s`);
    await first.waitForTimeout(3000);
    const [r2, w2] = (await both(first)).map(secs);
    assert.ok(Math.abs(r2 - w2) <= 1, `one main time: ${r2} s and ${w2} s`);
    assert.ok(w2 <= w1 - 2, `the waiting seat's main time ran with the other's: ${w1} s, then ${w2} s`);
    await shots(first, 'eight-stone-shared');
    await play((await whoseTurn(players)).page, 'A1');
    await sameEverywhere(players, 2);
    // The game's main time runs out: both seats are in overtime at once.
    for (const p of players) {
      await until(p, () => [...document.querySelectorAll('[data-clock]')].every((e) => / · 2 left$/.test(e.textContent)), undefined, 35000);
    }
    const [running, waiting] = await both(alice);
    assert.match(running, /^0:[012]\d · 2 left$/);
    assert.equal(waiting, '0:20 · 2 left');
    for (const p of players) assert.equal(await p.getAttribute('#prompt', 'data-over'), null);
    await shots(alice, 'eight-stone-shared-overtime');
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
