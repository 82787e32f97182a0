// Twin rooms (professional traditional gomoku on two boards,
// docs/rules.md §9) in the browser: the room chosen in the lobby form, both
// boards drawn, each stone clicked on the board it belongs to, the prompt
// naming the stone of the turn, and a game played to a five on both boards
// in one turn, seen the same by both players and a spectator.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, table, whoseTurn, sameEverywhere, until, shot } from './helpers.mjs';

/** Black to fours on both boards, white down the A file; then black closes both. */
const GAME = '1:A10  1:A1 2:A1  1:B10 2:A10  1:A2 2:A2  1:C10 2:B10  1:A3 2:A3 '
  + ' 1:D10 2:C10  1:A5 2:A5  2:E10 1:S1  1:A7 2:A7  1:E10 2:D10';

test('a twin game: two boards, stones on either, a five on both wins', async () => {
  const b = await browser();
  try {
    const t = await table(b, { ruleSet: 'twin' });
    const pages = [t.alice, t.bob, t.carol];
    // Both boards, 19×19 each, on every page.
    for (const p of pages) {
      for (const n of [1, 2]) assert.equal(await p.locator(`svg.board[aria-label="board ${n}"] [data-p]`).count(), 361);
    }
    const stones = GAME.split(/\s+/).filter(Boolean);
    for (const [i, tok] of stones.entries()) {
      const [board, point] = tok.split(':');
      const { page } = await whoseTurn([t.alice, t.bob], 'place');
      const prompt = await page.textContent('#prompt');
      if (i > 0) assert.match(prompt, new RegExp(`stone ${i % 2 === 1 ? 1 : 2} of 2 this turn`), prompt);
      const before = await page.evaluate(() => /** @type {any} */ (window).__tengen.current.seq);
      await page.click(`svg.board[aria-label="board ${board}"] [aria-label="${point}"]`);
      const after = await until(page, (b4) => {
        const msg = document.querySelector('#game-msg')?.textContent;
        if (msg) return { msg };
        return /** @type {any} */ (window).__tengen.current.seq > b4 && { ok: true };
      }, before);
      if (after.msg) throw new Error(`${tok} refused: ${after.msg}`);
    }
    const shown = await sameEverywhere(pages, stones.length);
    assert.deepEqual(shown.moves.slice(0, 3), ['1:a10', '1:a1', '2:a1']);
    // Each stone is on its own board: A10 black on both, A1 white on both, S1 only on board 1.
    const at = (page, n, p) => page.getAttribute(`svg.board[aria-label="board ${n}"] [aria-label="${p}"]`, 'data-stone');
    for (const p of pages) {
      assert.equal(await at(p, 1, 'S1'), 'black');
      assert.equal(await at(p, 2, 'S1'), null);
      assert.equal(await at(p, 2, 'E10'), 'black');
    }
    for (const p of pages) {
      await until(p, () => document.querySelector('#prompt')?.hasAttribute('data-over'));
      assert.match(await p.textContent('#prompt'), /a five on both boards in one turn/);
      // The winning lines are marked on both boards.
      assert.equal(await p.locator('svg.board circle.stone.win').count(), 10);
    }
    await shot(t.alice, 'twin-game');
  } finally {
    await b.close();
  }
});

test('a twin turn of one stone: the player ends it from the page', async () => {
  const b = await browser();
  try {
    const t = await table(b, { ruleSet: 'twin' }, { spectator: false });
    const players = [t.alice, t.bob];
    // Black's first turn is one stone; white plays one and ends the turn.
    let { page } = await whoseTurn(players, 'place');
    await page.click('svg.board[aria-label="board 1"] [aria-label="J10"]');
    ({ page } = await whoseTurn(players, 'place'));
    const white = page;
    assert.equal(await white.locator('button[data-act="act.end_turn"]').count(), 0, 'no turn to end before its first stone');
    await white.click('svg.board[aria-label="board 2"] [aria-label="K11"]');
    await white.waitForSelector('button[data-act="act.end_turn"]');
    await white.click('button[data-act="act.end_turn"]');
    // Black's turn now, with two stones to play.
    const next = await whoseTurn(players, 'place');
    assert.notEqual(next.page, white);
    assert.match(await next.page.textContent('#prompt'), /stone 1 of 2 this turn/);
    await sameEverywhere(players, 2);
  } finally {
    await b.close();
  }
});
