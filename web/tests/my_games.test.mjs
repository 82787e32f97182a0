// Coming back to a game after the browser was closed: the browser context
// is closed entirely and a new one opened with the same localStorage (as a
// restart keeps it; sessionStorage starts empty). The lobby shows "your
// games" with the one where it is the player's move, which opens in the
// player's seat, and a move is played. A second tab does not take the
// session from the first; a kept session the server no longer has gets a
// message and nothing else; a finished game is marked finished. An
// account finds its game from a browser that never had the session (only
// the login token), through `my_tables`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, table, person, createRoom, register, whoseTurn, sameEverywhere, play, until, shot, BASE } from './helpers.mjs';

const CORR = { ruleSet: 'gomoku', opening: 'free', time: 'correspondence', fields: { days: 3, vacation: 0 } };

/** A new browser context holding `storage` (localStorage as a restart keeps it) and a page at `/`. */
async function reopen(b, storage) {
  const context = await b.newContext({ viewport: { width: 1280, height: 860 }, storageState: storage });
  const page = await context.newPage();
  page.on('pageerror', (e) => { console.error(`[reopened] page error: ${e.message}`); });
  await page.goto(`${BASE}/`);
  await until(page, () => /** @type {any} */ (window).__tengen?.me);
  return page;
}

/** Makes it `page`'s move (the other page plays first if it must); returns the moves played. */
async function movesUntilTurnOf(page, other) {
  if ((await whoseTurn([page, other])).page === page) return 0;
  await play(other, 'H8');
  await sameEverywhere([page, other], 1);
  return 1;
}

/** The "your games" rows a page shows: `TABLE:STATE`. */
async function rows(page) {
  return page.$$eval('.my-games li', (els) => els.map((e) => `${e.getAttribute('data-table')}:${e.getAttribute('data-state')}`));
}

test('a correspondence game is taken up after the browser was closed', async () => {
  const b = await browser();
  try {
    const { alice, bob, room, table: tableId } = await table(b, CORR, { spectator: false });
    let n = await movesUntilTurnOf(alice, bob);
    const storage = await alice.context().storageState();
    const kept = JSON.parse(storage.origins[0].localStorage.find((e) => e.name === 'tengen.kept').value);
    assert.equal(kept.length, 1, 'the seated session is kept');
    await alice.context().close();

    // The browser opened again: the lobby lists the game, alice's move.
    const again = await reopen(b, storage);
    assert.equal(await again.evaluate(() => sessionStorage.getItem('tengen.resume')), kept[0], 'the kept session taken up');
    await until(again, () => document.querySelector('.my-games li')?.getAttribute('data-state') === 'yours');
    assert.deepEqual(await rows(again), [`${tableId}:yours`]);
    assert.match(await again.textContent('.my-games'), /against bob/);
    // The room list offers the way back too, not "watch".
    await until(again, (r) => document.querySelector(`tr[data-room="${r}"] a.primary`), room);
    await shot(again, 'my-games');

    // A second tab does not take the session over: it has its own.
    const tab2 = await again.context().newPage();
    await tab2.goto(`${BASE}/`);
    await until(tab2, () => /** @type {any} */ (window).__tengen?.me);
    const t2 = await tab2.evaluate(() => /** @type {any} */ (window).__tengen.conn.resumeToken);
    assert.notEqual(t2, kept[0]);
    assert.deepEqual(await rows(tab2), []);
    await tab2.close();
    assert.equal(await again.evaluate(() => /** @type {any} */ (window).__tengen.conn.state), 'open', 'the first tab kept its connection');

    // Opening it seats alice again; she plays, bob sees it.
    await again.click(`.my-games li[data-table="${tableId}"] a`);
    await again.waitForURL(`**/play/${room}`);
    await again.waitForSelector('svg.board');
    await until(again, () => document.querySelector('#prompt')?.getAttribute('data-mine-task') === 'place');
    await play(again, 'A1');
    n += 1;
    await sameEverywhere([again, bob], n);

    // Bob resigns: alice's lobby shows the game finished.
    await bob.click('button:text("Resign")');
    await bob.click('button:text("Yes, resign")');
    await until(again, () => document.querySelector('#prompt')?.hasAttribute('data-over'));
    await again.click('a[href="/"]');
    await until(again, () => document.querySelector('.my-games li')?.getAttribute('data-state') === 'over');
  } finally {
    await b.close();
  }
});

test('a kept session the server no longer has: a message, and nothing changes', async () => {
  const b = await browser();
  try {
    const stale = 'ab'.repeat(16);
    const storage = { cookies: [], origins: [{ origin: BASE, localStorage: [{ name: 'tengen.kept', value: JSON.stringify([stale]) }, { name: 'tengen.muted', value: '1' }] }] };
    const page = await reopen(b, storage);
    await until(page, () => /earlier session has ended \(its games are over\)/.test(document.querySelector('#notice')?.textContent || ''));
    const token = await page.evaluate(() => /** @type {any} */ (window).__tengen.conn.resumeToken);
    assert.notEqual(token, stale, 'a new session');
    assert.deepEqual(await page.evaluate(() => JSON.parse(localStorage.getItem('tengen.kept') || '[]')), [], 'the stale token is forgotten');
    assert.deepEqual(await rows(page), []);
    assert.equal(await page.evaluate(() => document.querySelector('.my-games')?.hidden), true);
  } finally {
    await b.close();
  }
});

test('an account finds its game from a browser that only has its login', async () => {
  const b = await browser();
  try {
    const alice = await person(b, 'alice');
    await register(alice, `corr${Date.now() % 100000}`);
    const bob = await person(b, 'bob');
    const room = await createRoom(alice, CORR);
    await bob.goto(`${BASE}/play/${room}`);
    for (const p of [alice, bob]) await p.waitForSelector('svg.board');
    const tableId = await alice.evaluate(() => /** @type {any} */ (window).__tengen.seated.get(location.pathname.split('/')[2]));
    const n = await movesUntilTurnOf(alice, bob);
    const login = await alice.evaluate(() => localStorage.getItem('tengen.token'));
    const storage = { cookies: [], origins: [{ origin: BASE, localStorage: [{ name: 'tengen.token', value: login }, { name: 'tengen.muted', value: '1' }] }] };

    // Another device while alice's page is open: the game is only pointed
    // to, and alice's page keeps its session.
    const meanwhile = await reopen(b, storage);
    await until(meanwhile, () => /another tab or on another device/.test(document.querySelector('.my-games')?.textContent || ''));
    assert.deepEqual(await rows(meanwhile), []);
    assert.equal(await alice.evaluate(() => /** @type {any} */ (window).__tengen.conn.state), 'open');
    await meanwhile.context().close();
    await alice.context().close();

    // Another device: only the login token, no kept session.
    const other = await reopen(b, storage);
    await until(other, () => document.querySelector('.my-games li')?.getAttribute('data-state') === 'yours');
    assert.deepEqual(await rows(other), [`${tableId}:yours`]);
    await other.click(`.my-games li[data-table="${tableId}"] a`);
    await other.waitForURL(`**/play/${room}`);
    await until(other, () => document.querySelector('#prompt')?.getAttribute('data-mine-task') === 'place');
    await play(other, 'A1');
    await sameEverywhere([other, bob], n + 1);
  } finally {
    await b.close();
  }
});
