// Forbidden moves as the rooms reveal them. Black H8 I8 J9 J10 (white far
// away on the A file): black's J8 would make two threes (三三).
//  - claim room: black plays J8, no page shows any mark of it; white
//    claims and wins.
//  - block room: the mark shows at J8 for black (and the spectator), and
//    clicking it is refused with a visible message.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, table, whoseTurn, sameEverywhere, play, until } from './helpers.mjs';

const SETUP = ['H8', 'A1', 'I8', 'A3', 'J9', 'A5', 'J10', 'A7'];

async function setUp(b, forbidden) {
  const t = await table(b, { ruleSet: 'renju', opening: 'free', forbidden });
  const all = [t.alice, t.bob, t.carol];
  let n = 0;
  for (const p of SETUP) {
    const turn = await whoseTurn([t.alice, t.bob]);
    await play(turn.page, p);
    n += 1;
    await sameEverywhere(all, n);
  }
  const black = (await whoseTurn([t.alice, t.bob])).page;
  const white = black === t.alice ? t.bob : t.alice;
  return { ...t, all, black, white };
}

test('claim room: a forbidden move shows no mark; white claims and wins', async () => {
  const b = await browser();
  try {
    const { all, black, white } = await setUp(b, 'claim');
    for (const p of all) assert.equal(await p.locator('[data-forbidden]').count(), 0);
    await play(black, 'J8');
    await sameEverywhere(all, 9);
    for (const p of all) assert.equal(await p.locator('[data-forbidden]').count(), 0);
    await white.click('button[data-act="act.claim_at"]');
    for (const p of all) {
      await until(p, () => document.querySelector('#prompt')?.hasAttribute('data-over'));
      assert.match(await p.textContent('#prompt'), /\(White\) wins · forbidden move claimed/);
    }
  } finally {
    await b.close();
  }
});

test('block room: black sees the forbidden point and a click on it is refused', async () => {
  const b = await browser();
  try {
    const { all, black, carol } = await setUp(b, 'block');
    for (const p of [black, carol]) {
      await until(p, () => document.querySelector('[aria-label="J8"]')?.getAttribute('data-forbidden') === 'double-three');
    }
    await play(black, 'J8');
    await until(black, () => /J8 is forbidden for black \(double-three\)/.test(document.querySelector('#game-msg')?.textContent || ''));
    assert.equal(await black.isVisible('#game-msg'), true);
    // On the Chinese page the same refusal reads in Chinese (by its code,
    // with the point and the kind it names).
    await black.click('#lang-btn');
    await until(black, () => document.documentElement.lang === 'zh-Hans');
    await play(black, 'J8');
    await until(black, () => /J8 是黑棋的禁手（三三）/.test(document.querySelector('#game-msg')?.textContent || ''));
    await black.click('#lang-btn');
    await until(black, () => document.documentElement.lang === 'en');
    // Nothing changed: still eight moves everywhere, still black's turn.
    await sameEverywhere(all, 8);
    assert.equal((await whoseTurn([black])).task, 'place');
    // Black plays elsewhere: the mark goes while white is to play.
    await play(black, 'O15');
    await sameEverywhere(all, 9);
    for (const p of all) await until(p, () => !document.querySelector('[data-forbidden]'));
  } finally {
    await b.close();
  }
});
