// Sounds, counted by a wrapper around the page's AudioContext (every
// oscillator started, with its frequency): a move sounds, the mute button
// silences it (and is remembered), the game's end sounds; low time on
// one's own clock is marked and warned once, with a sound.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, table, whoseTurn, play, until, sameEverywhere, countTones, tones, BASE } from './helpers.mjs';

const MOVE = [660];
const END = [523, 659, 784];
const LOW = [880, 880];

/** Turns the sound on before the page's scripts run, and counts its tones. */
async function loud(context) {
  await context.addInitScript(() => { try { localStorage.setItem('tengen.muted', '0'); } catch { /* about:blank */ } });
  await countTones(context);
}

/** Waits until `page` started `n` tones in all. */
const tonesReach = (page, n) => until(page, (k) => /** @type {any} */ (window).__tones.length >= k, n);

test('a move sounds, mute silences it and is kept, the end sounds', async () => {
  const b = await browser();
  try {
    const { alice, bob } = await table(b, { ruleSet: 'freestyle', opening: 'free' }, { spectator: false, prepare: countTones });
    // Alice turns the sound on (both pages start muted); Bob leaves it off.
    assert.equal(await alice.getAttribute('#sound-btn', 'aria-pressed'), 'false');
    await alice.click('#sound-btn');
    assert.equal(await alice.getAttribute('#sound-btn', 'aria-pressed'), 'true');
    assert.equal(await alice.evaluate(() => localStorage.getItem('tengen.muted')), '0');

    const first = await whoseTurn([alice, bob], 'place');
    await play(first.page, 'H8');
    await sameEverywhere([alice, bob], 1);
    await tonesReach(alice, 1);
    assert.deepEqual(await tones(alice), MOVE);
    assert.deepEqual(await tones(bob), [], 'a muted page makes no sound');

    // Muted, a move makes no sound.
    await alice.click('#sound-btn');
    assert.equal(await alice.getAttribute('#sound-btn', 'aria-pressed'), 'false');
    const second = await whoseTurn([alice, bob], 'place');
    await play(second.page, 'I9');
    await sameEverywhere([alice, bob], 2);
    await alice.waitForTimeout(200);
    assert.deepEqual(await tones(alice), MOVE);

    // On again, another move sounds; the game's end has its own sound.
    await alice.click('#sound-btn');
    const third = await whoseTurn([alice, bob], 'place');
    await play(third.page, 'H9');
    await sameEverywhere([alice, bob], 3);
    await tonesReach(alice, 2);
    const resigner = (await whoseTurn([alice, bob], 'place')).page;
    await resigner.click('button[data-act="act.resign"]');
    await resigner.click('button[data-act="act.yes"]');
    await tonesReach(alice, 2 + END.length);
    assert.deepEqual(await tones(alice), [...MOVE, ...MOVE, ...END]);
    assert.deepEqual(await tones(bob), []);

    // The choice is kept: another page of Alice's starts with the sound on.
    const again = await alice.context().newPage();
    await again.goto(BASE);
    await until(again, () => /** @type {any} */ (window).__tengen?.me);
    assert.equal(await again.getAttribute('#sound-btn', 'aria-pressed'), 'true');
  } finally {
    await b.close();
  }
});

test('low time: one\'s own clock under 10 s is marked and warned once', async () => {
  const b = await browser();
  try {
    // 15 s each, sudden death.
    const { alice, bob } = await table(b, { ruleSet: 'freestyle', opening: 'free', time: 'sudden_death', clock: { main: 0.25 } },
      { spectator: false, prepare: loud });
    const { page: mover } = await whoseTurn([alice, bob], 'place');
    const waiter = mover === alice ? bob : alice;
    const seat = await mover.evaluate(() => /** @type {any} */ (window).__tengen.current.seat);
    const other = seat === 'first' ? 'second' : 'first';
    const isLow = (page, s) => page.$eval(`[data-clock="${s}"]`, (el) => el.hasAttribute('data-low') && el.classList.contains('low'));
    // Over 10 s left: not marked (read together: text and mark of one instant).
    const before = await mover.$eval(`[data-clock="${seat}"]`, (el) => ({ text: el.textContent, low: el.hasAttribute('data-low') }));
    const secs = Number(before.text.split(':')[1]);
    assert.equal(before.low, secs < 10, `${before.text} marked ${before.low}`);
    assert.equal(await isLow(mover, other), false, 'a full clock is not low');

    // Under 10 s: marked on both pages; the warning sounds once, on the mover's page only.
    await until(mover, (s) => document.querySelector(`[data-clock="${s}"]`)?.hasAttribute('data-low'), seat, 12000);
    assert.match(await mover.textContent(`[data-clock="${seat}"]`), /^0:(0\d|10)$/);
    await tonesReach(mover, LOW.length);
    await mover.waitForTimeout(1000);
    assert.deepEqual(await tones(mover), LOW);
    assert.equal(await isLow(waiter, seat), true);
    assert.equal(await isLow(waiter, other), false);
    assert.deepEqual(await tones(waiter), []);

    // A move and an answer: each sounds on both pages; the spell of low
    // time goes on, so no second warning.
    await play(mover, 'H8');
    await sameEverywhere([alice, bob], 1);
    await play(waiter, 'I9');
    await sameEverywhere([alice, bob], 2);
    await tonesReach(mover, LOW.length + 2);
    await tonesReach(waiter, 2);
    assert.deepEqual(await tones(mover), [...LOW, ...MOVE, ...MOVE]);
    assert.deepEqual(await tones(waiter), [...MOVE, ...MOVE]);

    // The mover's flag falls (the server says so): the end sounds on both.
    await until(mover, () => document.querySelector('#prompt')?.hasAttribute('data-over'), undefined, 15000);
    assert.equal(await mover.evaluate(() => /** @type {any} */ (window).__tengen.current.result.reason.kind), 'time');
    await tonesReach(mover, LOW.length + 2 + END.length);
    await tonesReach(waiter, 2 + END.length);
    assert.deepEqual(await tones(mover), [...LOW, ...MOVE, ...MOVE, ...END]);
    assert.deepEqual(await tones(waiter), [...MOVE, ...MOVE, ...END]);
    // Over: nothing is marked low any more.
    assert.equal(await isLow(mover, seat), false);
  } finally {
    await b.close();
  }
});
