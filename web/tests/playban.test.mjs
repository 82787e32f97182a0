// Fair play in the browser: an account that aborts four rated games within
// a day is refused the rated queue, and the page says why and how long it
// waits (the server's `playbanned` message, shown in the notice bar).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, person, register, until, whoseTurn, sameEverywhere, play, BASE } from './helpers.mjs';

test('a player who aborts four rated games is told how long before the next', async () => {
  const b = await browser();
  try {
    const tag = Date.now().toString(36).slice(-6);
    const [ann, ben] = [await person(b, 'x'), await person(b, 'y')];
    await register(ann, `pa${tag}`);
    await register(ben, `pb${tag}`);
    for (let i = 0; i < 4; i++) {
      for (const p of [ann, ben]) await p.click('button:text("Find a rated opponent")');
      for (const p of [ann, ben]) {
        await p.waitForURL('**/play/*', { timeout: 20000 });
        await p.waitForSelector('svg.board');
      }
      // The page offers Abort to the player to move: if bob opens, he
      // plays first and annika aborts on her first turn.
      if ((await whoseTurn([ann, ben])).page === ben) {
        await play(ben, 'H8');
        await sameEverywhere([ann, ben], 1);
        await whoseTurn([ann]);
      }
      await ann.click('button:text("Abort")');
      for (const p of [ann, ben]) {
        await until(p, () => document.querySelector('#prompt')?.hasAttribute('data-over'));
        await p.click('a:text("Back to the lobby"), button:text("Back to the lobby")');
        await p.waitForURL(`${BASE}/`);
      }
    }
    // The fourth abort is stored just after the game ends.
    await ann.waitForTimeout(1000);
    await ann.click('button:text("Find a rated opponent")');
    await until(ann, () => /you can play rated games again in/.test(document.querySelector('#notice')?.textContent || ''));
    const notice = await ann.textContent('#notice');
    assert.match(notice, /^you abandoned 4 rated games in the last 24 hours .*; you can play rated games again in 1[45] min$/);
    // Not queued: the button is still there to press.
    assert.ok(await ann.isVisible('button:text("Find a rated opponent")'));
  } finally {
    await b.close();
  }
});
