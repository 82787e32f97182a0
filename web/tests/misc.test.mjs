// Tengen TV follows a live game and moves to the next when it ends; the
// board is playable from the keyboard; the page switches to Chinese; the
// leaderboard and an unknown route answer.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, person, register, createRoom, table, whoseTurn, sameEverywhere, until, BASE } from './helpers.mjs';

test('keyboard play, Tengen TV, Chinese, leaderboard', async () => {
  const b = await browser();
  try {
    // The first game is between two accounts: Tengen TV prefers it to
    // guests' games (any other live game of the server).
    const tag = Date.now().toString(36).slice(-6);
    const [alice, bob] = [await person(b, 'x'), await person(b, 'y')];
    await register(alice, `tv${tag}a`);
    await register(bob, `tv${tag}b`);
    const room = await createRoom(alice, { ruleSet: 'renju', opening: 'free' });
    await bob.goto(`${BASE}/play/${room}`);
    for (const p of [alice, bob]) await p.waitForSelector('svg.board');
    const first = { alice, bob, table: await alice.evaluate(() => /** @type {any} */ (window).__tengen.seated.values().next().value) };
    const second = await table(b, { ruleSet: 'gomoku', opening: 'free' }, { spectator: false });
    // Keyboard: the cursor starts on the centre; Enter plays there, arrows move it.
    let t = await whoseTurn([first.alice, first.bob]);
    await t.page.focus('svg.board');
    await t.page.keyboard.press('Enter');
    await sameEverywhere([first.alice, first.bob], 1);
    t = await whoseTurn([first.alice, first.bob]);
    await t.page.focus('svg.board');
    await t.page.keyboard.press('ArrowRight');
    await t.page.keyboard.press('ArrowUp');
    await t.page.keyboard.press('Enter');
    const shown = await sameEverywhere([first.alice, first.bob], 2);
    assert.deepEqual(shown.moves, ['h8', 'i9']);

    // TV shows one of the live games; when it ends, it moves to another.
    const tv = await person(b, 'viewer', '/tv');
    await tv.waitForSelector('svg.board');
    await until(tv, () => document.querySelector('.tv-game .spectators'));
    const watched = async () => tv.evaluate(() => [...(/** @type {any} */ (window).__tengen.conn.tables.keys())][0]);
    const before = await watched();
    // Accounts' games come before guests' ones. An earlier test file's
    // accounts' game may still be live on this shared server, rated
    // higher than ours: TV rightly shows that one, and only ours can be
    // ended here to see TV move on.
    assert.notEqual(before, second.table, 'TV prefers an accounts\' game to guests\'');
    if (before === first.table) {
      await first.alice.click('button[data-act="act.resign"]');
      await first.alice.click('button[data-act="act.yes"]');
      await until(tv, (b4) => {
        const now = [.../** @type {any} */ (window).__tengen.conn.tables.keys()][0];
        return now && now !== b4;
      }, before, 15000);
      assert.notEqual(await watched(), before);
    }

    // 中文
    await tv.click('#lang-btn');
    await until(tv, () => document.querySelector('nav a')?.textContent === '大厅');
    await tv.goto(`${BASE}/leaderboard`);
    // One tab per rating family: renju, gomoku, free-style, twin.
    await until(tv, () => document.querySelectorAll('.tabs button').length === 4);
    assert.equal(await tv.textContent('.tabs button:last-of-type'), '职业制传统五子棋（双棋盘）');
    assert.equal(await tv.textContent('h2'), '排行榜');
    const res = await fetch(`${BASE}/no/such/page`);
    assert.equal(res.status, 404);
  } finally {
    await b.close();
  }
});
