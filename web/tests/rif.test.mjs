// Two browsers play a RIF game through every opening step (1-3 in their
// zones, the swap, white 4, two fifth-move offers, white keeping one, 6)
// to a five while a third watches: after every step the spectator's board
// and move list equal the players'. Screenshots of the game in progress and
// finished, at desktop and phone sizes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, table, whoseTurn, sameEverywhere, play, shots, until, BASE } from './helpers.mjs';

test('a RIF game through every opening step, watched', async () => {
  const b = await browser();
  try {
    const { alice, bob, carol, table: id } = await table(b, { ruleSet: 'renju', opening: 'rif' });
    const all = [alice, bob, carol];
    const players = [alice, bob];
    let n = 0;
    /** The player asked for `task` places `point`; everyone then shows the same. */
    const place = async (point, task = 'place') => {
      const t = await whoseTurn(players);
      assert.equal(t.task, task, `expected ${task} before ${point}`);
      await play(t.page, point);
      n += 1;
      await sameEverywhere(all, n);
      return t.page;
    };
    await place('H8');
    await place('I9');
    await place('J8');
    // Black 3 formed a canonical opening; every page names it.
    for (const p of all) await until(p, () => /\b[DI]\d+\b/.test(document.querySelector('.info')?.textContent || ''));
    // The other seat may swap: it does, and the colours change hands.
    const swapper = await whoseTurn(players);
    assert.equal(swapper.task, 'decide_swap');
    const colourBefore = await swapper.page.getAttribute('.seat:has(.you) .stone-icon', 'class');
    await swapper.page.click('button[data-act="act.swap"]');
    await until(swapper.page, (before) => document.querySelector('.seat:has(.you) .stone-icon')?.getAttribute('class') !== before, colourBefore);
    await place('A1');
    // Black offers two fifth moves, marked on every board, then white keeps one.
    const offerer = await whoseTurn(players);
    assert.equal(offerer.task, 'offer_fifths');
    await play(offerer.page, 'K8');
    await play(offerer.page, 'H10');
    await offerer.page.click('button[data-act="act.send_offers"]');
    for (const p of all) {
      await until(p, () => document.querySelectorAll('[data-mark]').length === 2).catch(async (e) => {
        throw new Error(`${e.message}; the offerer's page says: ${await offerer.page.textContent('#game-msg')}`);
      });
    }
    await shots(carol, 'game-offers');
    const keeper = await whoseTurn(players);
    assert.equal(keeper.task, 'keep_fifth');
    await play(keeper.page, 'K8');
    n += 1;
    await sameEverywhere(all, n);
    for (const p of all) await until(p, () => document.querySelectorAll('[data-mark]').length === 0);
    await place('A3');
    await place('I8');
    await shots(alice, 'game-in-progress');
    await place('G8');
    await place('L8');
    for (const p of all) {
      await until(p, () => document.querySelector('#prompt')?.hasAttribute('data-over'));
      assert.match(await p.textContent('#prompt'), /wins · five in a row/);
      // The winning line is highlighted.
      assert.equal(await p.locator('circle.stone.win').count(), 5);
    }
    const final = await sameEverywhere(all, 9);
    assert.deepEqual(final.moves, ['h8', 'i9', 'j8', 'a1', 'k8', 'a3', 'i8', 'g8', 'l8']);
    await shots(carol, 'game-finished');
    // Stepping back shows an earlier position; the live board comes back.
    await carol.click('ol.moves li[data-n="3"]');
    assert.equal((await carol.$$('[data-stone]')).length, 3);
    await carol.click('button[aria-label="last"]');
    assert.equal((await carol.$$('[data-stone]')).length, 9);
    const opening = (await carol.textContent('.info'))?.match(/\b([DI]\d+) (\w+)/);
    assert.ok(opening, 'the live page names the opening');
    // The record keeps the opening as renju players write it: the swap
    // after 3, both fifth-move offers and the one kept, the opening's name
    // (after a reload too), the names by colour and the result.
    await until(carol, async (game) => {
      try { await /** @type {any} */ (window).__tengen.conn.request({ type: 'game_record', game, format: 'json' }); return true; } catch { return false; }
    }, id, 15000);
    await carol.goto(`${BASE}/game/${id}`);
    await until(carol, () => document.querySelectorAll('[data-stone]').length === 9);
    assert.equal(await carol.textContent('[data-tag="Opening"]').then((x) => x?.split(' ').slice(0, 2).join(' ')), `${opening[1]} ${opening[2]}`);
    assert.equal(await carol.textContent('[data-tag="Alt"]'), 'k8 h10');
    assert.equal(await carol.textContent('.record-notes li[data-after="3"]'), '3. j8: swap');
    assert.match(await carol.textContent('.record-notes li[data-after="5"]'), /^5\. k8: 5th-move offers: k8 h10/);
    assert.match(await carol.textContent('[data-tag="Result"]'), /^(black|white) wins$/);
    assert.ok(await carol.textContent('[data-tag="Black"]'));
    await shots(carol, 'record-opening');
  } finally {
    await b.close();
  }
});
