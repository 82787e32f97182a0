// Absence as on lichess, the draw path, through clicks only: a player
// closes the tab in a timed game; their clock runs on and the server ends
// nothing, during the grace or after it; after the grace the opponent is
// offered to claim the win, call a draw or wait, and calling the draw
// ends the game as a draw everywhere and in the record.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { browser, table, tournamentGame, whoseTurn, sameEverywhere, play, shots, until, clock } from './helpers.mjs';

test('a player who closed the tab: the opponent calls it a draw after the grace; nothing ends by itself', async () => {
  const b = await browser();
  try {
    const { alice, bob, carol } = await table(b, { ruleSet: 'gomoku', opening: 'free', time: 'fischer', clock: { main: 2, increment: 0 } });
    const players = [alice, bob];
    let n = 0;
    for (const p of ['H8', 'I9', 'H9']) {
      await play((await whoseTurn(players)).page, p);
      await sameEverywhere([alice, bob, carol], (n += 1));
    }
    // White is to move, and closes the tab.
    const { page: gone } = await whoseTurn(players);
    const stay = gone === alice ? bob : alice;
    const goneSeat = await gone.evaluate(() => /** @type {any} */ (window).__tengen.current.seat);
    const goneName = await gone.evaluate(() => /** @type {any} */ (window).__tengen.me.name);
    await gone.context().close();
    // The grace counts down on both the opponent's and the spectator's page.
    for (const p of [stay, carol]) {
      await until(p, (s) => /\d+ s/.test(document.querySelector(`[data-away="${s}"]`)?.textContent || ''), goneSeat);
    }
    const before = await clock(stay, goneSeat);
    assert.ok(before.running, 'the absent player\'s clock runs');
    // After the grace (15 s): claim, draw or wait, offered to the player only.
    await until(stay, () => document.querySelector('[data-absence="claim"]'), undefined, 25000);
    assert.equal(await carol.locator('[data-absence]').count(), 0, 'the spectator is offered nothing');
    assert.match(await stay.textContent('[data-absence]'), new RegExp(`^${goneName} has left: their clock runs on\\. Claim the win, call it a draw, or wait\\.`));
    // Nobody decides for the player: five more seconds, the game goes on
    // and the absent clock keeps running.
    const offered = await clock(stay, goneSeat);
    await stay.waitForTimeout(5000);
    const later = await clock(stay, goneSeat);
    assert.ok(later.running && later.s <= offered.s - 4, `the clock ran on: ${offered.s} s, then ${later.s} s`);
    assert.ok(later.s < before.s - 15, `the grace was counted on the clock: ${before.s} s, then ${later.s} s`);
    for (const p of [stay, carol]) assert.equal(await p.getAttribute('#prompt', 'data-over'), null, 'the server ended nothing');
    await shots(stay, 'absence-draw-offered');
    // The draw: the game ends drawn everywhere, the absent clock stops.
    await stay.click('button[data-act="act.call_draw"]');
    for (const p of [stay, carol]) {
      await until(p, () => document.querySelector('#prompt')?.hasAttribute('data-over'));
      assert.equal(await p.textContent('#prompt'), 'Draw · draw called (opponent away)');
      assert.equal((await clock(p, goneSeat)).running, false);
    }
    assert.equal(await stay.locator('[data-absence]').count(), 0);
    await shots(stay, 'absence-draw-called');
    // The record says so.
    const [dl] = await Promise.all([carol.waitForEvent('download'), carol.click('.downloads button[data-format="renju"]')]);
    const text = readFileSync(await dl.path(), 'utf8');
    assert.match(text, /^\[Result "draw"\]$/m);
    assert.match(text, /^\[Termination ".*"\]$/m);
    assert.match(text, /^1\. h8 2\. i9 3\. h9$/m);
  } finally {
    await b.close();
  }
});

test('both players close their tabs before move 2: the spectator sees the game aborted after the grace', async () => {
  const b = await browser();
  try {
    const { alice, bob, carol } = await table(b, { ruleSet: 'gomoku', opening: 'free', time: 'fischer', clock: { main: 2, increment: 0 } });
    await play((await whoseTurn([alice, bob])).page, 'H8');
    await sameEverywhere([alice, bob, carol], 1);
    await alice.context().close();
    await bob.context().close();
    await until(carol, () => /Both players are away/.test(document.querySelector('.side')?.textContent || ''));
    await shots(carol, 'absence-both-away');
    await until(carol, () => document.querySelector('#prompt')?.hasAttribute('data-over'), undefined, 25000);
    assert.equal(await carol.textContent('#prompt'), 'Aborted · by the server');
  } finally {
    await b.close();
  }
});

test('a tournament game, where nobody is there to claim: the win is given after the grace, and said beforehand', async () => {
  const b = await browser();
  try {
    const { players } = await tournamentGame(b, 'Away', { kind: 'fischer', main: '2', increment: '0' });
    await play((await whoseTurn(players)).page, 'H8');
    await sameEverywhere(players, 1);
    // The player to move leaves; the other is told the game will be theirs.
    const { page: gone } = await whoseTurn(players);
    const stay = gone === players[0] ? players[1] : players[0];
    const goneSeat = await gone.evaluate(() => /** @type {any} */ (window).__tengen.current.seat);
    await gone.context().close();
    await until(stay, (s) => /^is away: if not back in \d+ s, the game is yours\.$/.test(document.querySelector(`[data-away="${s}"]`)?.textContent || ''), goneSeat);
    assert.equal(await stay.locator('[data-absence]').count(), 0, 'nothing to claim');
    await shots(stay, 'absence-tournament-win-soon');
    await until(stay, () => document.querySelector('#prompt')?.hasAttribute('data-over'), undefined, 25000);
    const me = await stay.evaluate(() => /** @type {any} */ (window).__tengen.me.name);
    assert.match(await stay.textContent('#prompt'), new RegExp(`^${me} \\((Black|White)\\) wins · by abandonment$`));
  } finally {
    await b.close();
  }
});
