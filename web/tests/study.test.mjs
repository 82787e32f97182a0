// The explorer, a puzzle and the trainer, from games played through the
// pages to the end:
//  - two free-style games, the second the first's mirror image for ten
//    moves: at move 11 of the first black misses a VCF (K8 four, L8
//    forced, K11 open four) and resigns at move 13; in the second black
//    plays it and wins;
//  - a renju game where black plays a double three (J8) and white claims.
// The explorer is walked by clicking its marks: both games are one line
// for ten moves (whichever way each was played), and the two next moves
// appear where they stand in the orientation being looked at. The missed
// VCF becomes a puzzle: solved (the server plays the defender's forced
// block), then failed with the winning line shown. The double three
// becomes a trainer position: a wrong kind, then the right answer.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, table, createRoom, whoseTurn, sameEverywhere, play, until, shot, shots, BASE } from './helpers.mjs';

/** A new game of the same two players (from the lobby); its table id. */
async function again(alice, bob, opts) {
  await alice.goto(`${BASE}/`);
  await until(alice, () => /** @type {any} */ (window).__tengen?.me);
  const room = await createRoom(alice, opts);
  await bob.goto(`${BASE}/play/${room}`);
  await Promise.all([alice, bob].map((p) => p.waitForURL(`**/play/${room}`)));
  await Promise.all([alice, bob].map((p) => p.waitForSelector('svg.board')));
  // The newest table seated at (the finished ones stay in the set a while).
  return alice.evaluate(() => [.../** @type {any} */ (window).__tengen.seated.values()].pop());
}

/** Plays `moves` in order at a table of `t.alice` and `t.bob`. */
async function playAll(players, moves) {
  for (const [i, p] of moves.entries()) {
    const { page } = await whoseTurn(players, 'place');
    await play(page, p);
    await sameEverywhere(players, i + 1);
  }
}

/** A request over the page's own connection. */
const ask = (page, msg) => page.evaluate((m) => /** @type {any} */ (window).__tengen.conn.request(m), msg);

/** Waits until the server has made the game's puzzles. */
async function puzzlesOf(page, game) {
  const end = Date.now() + 20000;
  for (;;) {
    const r = await ask(page, { type: 'game_puzzles', game });
    if (r.puzzles.length) return r.puzzles;
    if (Date.now() > end) throw new Error(`no puzzles from ${game}`);
    await new Promise((res) => setTimeout(res, 200));
  }
}

/** The next moves the explorer shows: point -> games, from its table. */
const nextMoves = (page) => page.$$eval('table.ex-moves tr[data-move]', (rows) =>
  Object.fromEntries(rows.map((r) => [r.getAttribute('data-move'), Number(r.children[1].textContent)])));

test('explorer, puzzle and trainer from games played to the end', async () => {
  const b = await browser();
  try {
    // Game 1: black misses the VCF at move 11, resigns at move 13.
    const g1 = await table(b, { ruleSet: 'freestyle', opening: 'free' }, { spectator: false });
    const p1 = [g1.alice, g1.bob];
    await playAll(p1, ['H8', 'G8', 'I8', 'A1', 'J8', 'A3', 'K9', 'A5', 'K10', 'A7', 'O15', 'K8']);
    const { page: loser } = await whoseTurn(p1, 'place');
    await loser.click('button[data-act="act.resign"]');
    await loser.click('button[data-act="act.yes"]');
    for (const p of p1) await until(p, () => document.querySelector('#prompt')?.hasAttribute('data-over'));

    // Game 2: the mirror image (columns reversed); black plays the VCF.
    const g2 = await again(g1.alice, g1.bob, { ruleSet: 'freestyle', opening: 'free' });
    await playAll(p1, ['H8', 'I8', 'G8', 'O1', 'F8', 'O3', 'E9', 'O5', 'E10', 'O7', 'E8', 'D8', 'E11', 'O9', 'E12']);
    for (const p of p1) await until(p, () => document.querySelector('#prompt')?.hasAttribute('data-over'));

    // Game 3: renju, black's J8 makes two threes; white claims it.
    await again(g1.alice, g1.bob, { ruleSet: 'renju', opening: 'free' });
    await playAll(p1, ['H8', 'A1', 'I8', 'A3', 'J9', 'A5', 'J10', 'A7', 'J8']);
    const white = (await whoseTurn(p1)).page;
    await white.click('button[data-act="act.claim_at"]');
    for (const p of p1) await until(p, () => document.querySelector('#prompt')?.hasAttribute('data-over'));

    const page = g1.alice;
    const made = await puzzlesOf(page, g1.table);
    const puzzles = made.filter((p) => p.move_number === 11);
    assert.equal(puzzles.length, 1, JSON.stringify(made));
    assert.deepEqual(puzzles[0].themes, ['vcf', 'black']);
    // The mirrored game played the win: not a puzzle of its.
    assert.notEqual(g2, g1.table);
    const of2 = (await ask(page, { type: 'game_puzzles', game: g2 })).puzzles;
    assert.ok(!of2.some((p) => p.puzzle === puzzles[0].puzzle), JSON.stringify(of2));

    // --- The explorer, from the header.
    await page.goto(`${BASE}/`);
    await page.click('header nav a[href="/explorer"]');
    await page.waitForURL(`${BASE}/explorer`);
    await page.selectOption('select[name=rule_set]', 'freestyle');
    await until(page, () => document.querySelector('table.ex-moves tr[data-move="H8"]'));
    assert.deepEqual(await nextMoves(page), { H8: 2 });
    assert.match(await page.textContent('.ex-head'), /^2 games reached this position; Black to move/);
    // Down the shared line by the board's marks: each step two games, one
    // move (the mirror images are one move), shown where this board has it.
    const path = [];
    for (let ply = 1; ply <= 10; ply++) {
      const next = await nextMoves(page);
      assert.equal(Object.keys(next).length, 1, `after ${path}: ${JSON.stringify(next)}`);
      const [p, n] = Object.entries(next)[0];
      assert.equal(n, 2);
      path.push(p);
      await play(page, p);
      await until(page, (k) => document.querySelectorAll('.ex-path li').length === k + 1, ply);
    }
    const next = await nextMoves(page);
    assert.equal(Object.keys(next).length, 2, JSON.stringify(next));
    // The win taken (K8 in the first game's orientation) extends the row
    // of three black stones shown here into four.
    const xy = (p) => [p.charCodeAt(0) - 65, Number(p.slice(1)) - 1];
    const three = [path[0], path[2], path[4]].map(xy);
    const [dx, dy] = [Math.sign(three[1][0] - three[0][0]), Math.sign(three[1][1] - three[0][1])];
    const ends = [[three[0][0] - dx, three[0][1] - dy], [three[2][0] + dx, three[2][1] + dy]];
    const extending = Object.keys(next).filter((p) => ends.some(([x, y]) => xy(p)[0] === x && xy(p)[1] === y));
    assert.equal(extending.length, 1, `next ${Object.keys(next)} beside ${path}`);
    const won = await page.$eval(`tr[data-move="${extending[0]}"] .result-bar`, (e) => [e.getAttribute('data-black'), e.getAttribute('data-white')]);
    assert.deepEqual(won, ['1', '0']);
    const other = Object.keys(next).find((p) => p !== extending[0]);
    assert.deepEqual(await page.$eval(`tr[data-move="${other}"] .result-bar`, (e) => [e.getAttribute('data-black'), e.getAttribute('data-white')]), ['0', '1']);
    assert.equal(await page.locator('ul.ex-games li').count(), 2);
    // At 1280 x 800 and on a phone (nothing wider than its screen).
    await shots(page, 'explorer');
    // In Chinese: the same position, drawn again.
    await page.click('#lang-btn');
    await until(page, () => document.querySelector('section.explorer h2')?.textContent === '开局库');
    await until(page, () => document.querySelectorAll('table.ex-moves tr[data-move]').length === 2);
    assert.deepEqual(await nextMoves(page), next);
    assert.match(await page.textContent('.ex-head'), /^2 局到达此局面；轮到黑方/);
    await shot(page, 'explorer-zh');
    await page.click('#lang-btn');
    await until(page, () => document.documentElement.lang === 'en');
    // Back to the start through the move list.
    await until(page, () => document.querySelectorAll('.ex-path li').length === 11);
    await page.click('.ex-path button:text("Start")');
    await until(page, () => document.querySelectorAll('.ex-path li').length === 1);
    assert.deepEqual(await nextMoves(page), { H8: 2 });
    // Filters: the games were untimed; none was blitz.
    await page.selectOption('select[name=speed]', 'blitz');
    await page.click('form.ex-filter button[type=submit]');
    await until(page, () => /^0 games/.test(document.querySelector('.ex-head')?.textContent ?? ''));
    assert.deepEqual(await nextMoves(page), {});
    await page.selectOption('select[name=speed]', 'unlimited');
    await page.click('form.ex-filter button[type=submit]');
    await until(page, () => /^2 games/.test(document.querySelector('.ex-head')?.textContent ?? ''));

    // --- The puzzle, from the game it came from: solved, then failed.
    await page.goto(`${BASE}/game/${g1.table}`);
    await page.click(`a[data-puzzle="${puzzles[0].puzzle}"]`);
    await page.waitForURL(`${BASE}/puzzle/${puzzles[0].puzzle}`);
    await until(page, () => document.querySelector('.pz-status')?.getAttribute('data-state') === 'playing');
    assert.match(await page.textContent('.pz-status'), /Black to play and win/);
    await play(page, 'K8');
    // The four's only block, played by the server.
    await until(page, () => /answered L8/.test(document.querySelector('.pz-status')?.textContent ?? ''));
    assert.equal(await page.getAttribute('svg.board [aria-label="L8"]', 'data-stone'), 'white');
    await shots(page, 'puzzle-reply');
    await play(page, 'K11');
    await until(page, () => document.querySelector('.pz-status')?.getAttribute('data-state') === 'solved');
    await shot(page, 'puzzle-solved');
    await page.click('button[data-act="retry"]');
    await until(page, () => document.querySelector('.pz-status')?.getAttribute('data-state') === 'playing');
    await play(page, 'K11');
    await until(page, () => document.querySelector('.pz-status')?.getAttribute('data-state') === 'failed');
    assert.match(await page.textContent('.pz-status'), /K11 lets the win go\. A winning line: K8 L8 /);
    // The winning line is drawn, numbered from 1.
    assert.ok(await page.locator('svg.board [data-mark="1"]').count() === 1);
    await shot(page, 'puzzle-failed');

    // --- The trainer: J8 marked of the wrong kind, then rightly.
    await page.click('header nav a[href="/trainer"]');
    await until(page, () => document.querySelector('.tr-status')?.getAttribute('data-state') === 'asking');
    assert.equal(await page.getAttribute('svg.board [aria-label="J10"]', 'data-stone'), 'black');
    await page.check('input[name=kind][value="double-four"]');
    await play(page, 'J8');
    await page.click('button[data-act="answer"]');
    await until(page, () => document.querySelector('.tr-status')?.getAttribute('data-state') === 'wrong');
    assert.match(await page.textContent('[data-list="wrong_kind"]'), /J8/);
    assert.match(await page.textContent('.tr-status'), /Forbidden for black: J8 \(double-three\)/);
    await shots(page, 'trainer-wrong');
    await page.click('button[data-act="next"]');
    await until(page, () => document.querySelector('.tr-status')?.getAttribute('data-state') === 'asking');
    await page.check('input[name=kind][value="double-three"]');
    await play(page, 'J8');
    await page.click('button[data-act="answer"]');
    await until(page, () => document.querySelector('.tr-status')?.getAttribute('data-state') === 'correct');
    assert.match(await page.textContent('[data-list="right"]'), /J8/);
    await shot(page, 'trainer-right');
  } finally {
    await b.close();
  }
});
