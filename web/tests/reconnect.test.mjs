// A dropped connection mid-game: the test closes a player's socket and
// keeps the server out of reach while the opponent moves; the page says it
// is reconnecting, comes back by itself (resume token, `watch` with
// `since`), and shows every move exactly once; the game goes on.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, person, createRoom, whoseTurn, sameEverywhere, play, until, BASE } from './helpers.mjs';

test('a dropped connection comes back with no lost or doubled move', async () => {
  const b = await browser();
  try {
    let open = true;
    /** @type {{ws: any, server: any}|null} */
    let current = null;
    let refused = 0;
    const alice = await person(b, 'alice', '/', undefined, async (context) => {
      // Every WebSocket of alice's page goes through here: while `open` is
      // false the server is out of reach (each attempt is closed at once).
      await context.routeWebSocket(/\/ws$/, (ws) => {
        if (!open) { refused += 1; ws.close({ code: 1011, reason: 'unreachable' }); return; }
        current = { ws, server: ws.connectToServer() };
      });
    });
    const bob = await person(b, 'bob');
    const room = await createRoom(alice, { ruleSet: 'renju', opening: 'free' });
    await bob.goto(`${BASE}/play/${room}`);
    for (const p of [alice, bob]) await p.waitForSelector('svg.board');
    const points = ['H8', 'A1', 'I8', 'A3', 'J11', 'A5', 'K12', 'A7', 'L13'];
    let n = 0;
    const next = async (page) => { await play(page, points[n]); n += 1; await sameEverywhere([alice, bob], n); };
    // Play until it is bob's turn (alice waits).
    do { await next((await whoseTurn([alice, bob])).page); } while ((await whoseTurn([alice, bob])).page !== bob || n < 3);

    open = false;
    current.server.close({ code: 4000, reason: 'test drop' });
    current.ws.close({ code: 4000, reason: 'test drop' });
    await until(alice, () => document.querySelector('#net')?.getAttribute('data-state') === 'reconnecting');
    assert.match(await alice.textContent('#net'), /reconnecting/);
    // Bob moves while alice is away, and sees her away countdown.
    await play(bob, points[n]);
    n += 1;
    await until(bob, (k) => document.querySelectorAll('ol.moves li').length === k, n);
    await until(bob, () => /away/.test(document.querySelector('.away:not(:empty)')?.textContent || ''));
    assert.equal(await alice.locator('ol.moves li').count(), n - 1, 'alice cannot have the move yet');
    assert.ok(refused >= 1, 'alice tried to reconnect while the server was out of reach');

    open = true;
    await until(alice, () => document.querySelector('#net')?.hidden, undefined, 15000);
    const both = await sameEverywhere([alice, bob], n);
    assert.equal(new Set(both.moves).size, both.moves.length, 'no move twice');
    assert.deepEqual(both.moves, points.slice(0, n).map((p) => p.toLowerCase()));
    // The game goes on from alice's page.
    assert.equal((await whoseTurn([alice, bob])).page, alice);
    await next(alice);
    await until(bob, () => !document.querySelector('.away:not(:empty)'));
  } finally {
    await b.close();
  }
});
