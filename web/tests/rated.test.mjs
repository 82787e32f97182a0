// Accounts and rated play: two players register, queue for a rated game,
// are paired, play it, and both ratings change on the profile pages.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, person, register, whoseTurn, sameEverywhere, play, until, shot, BASE } from './helpers.mjs';

test('two accounts queue, play a rated game and see their ratings change', async () => {
  const b = await browser();
  try {
    const tag = Date.now().toString(36).slice(-6);
    const names = [`ann${tag}`, `ben${tag}`];
    const [ann, ben] = [await person(b, 'x'), await person(b, 'y')];
    await register(ann, names[0]);
    await register(ben, names[1]);
    for (const p of [ann, ben]) {
      await p.click('button:text("Find a rated opponent")');
    }
    await until(ann, () => /Waiting|\/play\//.test(document.body.textContent + location.pathname));
    for (const p of [ann, ben]) {
      await p.waitForURL('**/play/*', { timeout: 20000 });
      await p.waitForSelector('svg.board');
    }
    // Fischer 5+5: both clocks shown, the running one counts down locally.
    const clockText = () => ann.textContent('.clock.running');
    await until(ann, () => document.querySelector('.clock.running'));
    const c1 = await clockText();
    assert.match(c1, /^[45]:\d\d$/);
    await ann.waitForTimeout(1300);
    assert.notEqual(await clockText(), c1);
    // Black makes five down the H file; white plays on the A file.
    const black = ['H8', 'H9', 'H10', 'H11', 'H12'];
    const white = ['A1', 'A3', 'A5', 'A7'];
    let n = 0;
    for (let i = 0; i < 9; i++) {
      const t = await whoseTurn([ann, ben]);
      await play(t.page, i % 2 ? white[(i - 1) / 2] : black[i / 2]);
      n += 1;
      await sameEverywhere([ann, ben], n);
      if (n !== 2) continue;
      // No takeback in a rated game: nobody is offered to ask for one.
      for (const p of [ann, ben]) assert.equal(await p.locator('button[data-act="act.request_takeback"]').count(), 0);
    }
    for (const p of [ann, ben]) await until(p, () => document.querySelector('#prompt')?.hasAttribute('data-over'));
    const winnerName = (await ann.textContent('#prompt')).split(' (')[0];
    for (const [i, p] of [ann, ben].entries()) {
      await p.goto(`${BASE}/@/${names[i]}`);
      await until(p, () => document.querySelector('.rating[data-family="renju"] .value'));
      const rating = Number(await p.textContent('.rating[data-family="renju"] .value'));
      if (names[i] === winnerName) assert.ok(rating > 1500, `${names[i]} won: ${rating}`);
      else assert.ok(rating < 1500, `${names[i]} lost: ${rating}`);
      // The game is in the history with its result from this player's
      // side, the colour held, the rule set and opening rule; its viewer
      // shows the nine stones.
      await until(p, () => document.querySelector('table.history tr[data-game]'));
      const row = await p.$eval('table.history tr[data-game]', (tr) => ({
        result: tr.getAttribute('data-result'), color: tr.querySelector('[data-color]')?.getAttribute('data-color'),
        cells: [...tr.querySelectorAll('td')].map((td) => td.textContent.trim()),
      }));
      assert.equal(row.result, names[i] === winnerName ? 'win' : 'loss');
      assert.equal(row.cells[1], names[1 - i]);
      assert.ok(['black', 'white'].includes(row.color ?? ''), JSON.stringify(row));
      assert.match(row.cells[3], /^Renju · /);
      assert.match(row.cells[4], /^(won|lost) · five in a row$/);
      if (i === 0) {
        for (const [size, vp] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]]) {
          await p.setViewportSize(vp);
          await shot(p, `profile-games-${size}`);
          const wide = await p.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(wide <= vp.width + 1, `the profile is ${wide} px wide at ${vp.width}`);
        }
        await p.setViewportSize({ width: 1280, height: 860 });
      }
      await p.click('table.history td a');
      await p.waitForURL('**/game/*');
      await until(p, () => document.querySelectorAll('[data-stone]').length === 9);
    }
  } finally {
    await b.close();
  }
});
