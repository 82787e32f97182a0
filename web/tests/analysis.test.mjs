// A finished game's analysis in the viewer: Alice (black) misses a VCF at
// move 7 (her open three h8-h10 wanted h7 or h11), the game ends, and in
// the viewer the Analyze button marks move 7 in the move list and on the
// board; picking it shows the winning line as numbered ghost stones on
// the position before the move, the move played marked apart. Then the
// same in Chinese.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, browser, table, whoseTurn, play, sameEverywhere, until, shot } from './helpers.mjs';

const MOVES = ['H8', 'A1', 'H9', 'A3', 'H10', 'A5', 'B14', 'H11', 'C14'];

test('the viewer\'s analysis marks a missed VCF and shows its line', async () => {
  const b = await browser();
  try {
    const { alice, bob, table: id } = await table(b, { ruleSet: 'renju', opening: 'free', time: 'unlimited' }, { spectator: false });
    const players = [alice, bob];
    for (const [i, p] of MOVES.entries()) {
      const { page } = await whoseTurn(players, 'place');
      await play(page, p);
      await sameEverywhere(players, i + 1);
    }
    const { page: white } = await whoseTurn(players, 'place');
    await white.click('button[data-act="act.resign"]');
    await white.click('button[data-act="act.yes"]');
    await until(white, async (game) => {
      try { await /** @type {any} */ (window).__tengen.conn.request({ type: 'game_record', game, format: 'renju' }); return true; } catch { return false; }
    }, id, 15000);

    const page = alice;
    await page.goto(`${BASE}/game/${id}`);
    await until(page, (n) => document.querySelectorAll('ol.moves li').length === n, MOVES.length);
    // Nothing is marked before the analysis.
    assert.equal(await page.locator('ol.moves li.missed').count(), 0);
    assert.equal(await page.locator('svg.board [data-missed]').count(), 0);

    await page.click('#analyze');
    await until(page, () => document.querySelector('#analysis')?.getAttribute('data-state') === 'done', undefined, 20000);
    assert.equal(await page.getAttribute('#analysis', 'data-missed'), '1');
    // Move 7 (B14), and only it, is marked in the list and on the board.
    const marked = await page.$$eval('ol.moves li', (els) => els.map((e, i) => [i + 1, e.textContent, e.getAttribute('data-missed')]).filter((x) => x[2]));
    assert.deepEqual(marked, [[7, 'b14', 'vcf']]);
    assert.deepEqual(await page.$$eval('svg.board [data-missed]', (els) => els.map((e) => e.getAttribute('aria-label'))), ['B14']);
    const item = await page.textContent('.missed-wins button[data-move="7"]');
    assert.match(item ?? '', /Move 7 \(b14\) missed a VCF: (h7|h11)$/);

    // Picking it: the position before move 7, the line as ghost stone 1.
    await page.click('ol.moves li.missed');
    await until(page, () => document.querySelectorAll('svg.board [data-mark]').length > 0);
    assert.equal(await page.locator('svg.board [data-stone]').count(), 6);
    const marks = await page.$$eval('svg.board [data-mark]', (els) => els.map((e) => `${e.getAttribute('aria-label')}:${e.getAttribute('data-mark')}`).sort());
    const line = (item ?? '').split(': ').pop()?.toUpperCase();
    assert.deepEqual(marks, [`${line}:1`, 'B14:×'].sort());
    assert.equal(await page.locator('svg.board .mark.line.black').count(), 1);
    await shot(page, 'analysis-line');
    // The move itself on a second click: its stone, ringed as the miss.
    await page.click('ol.moves li.missed');
    await until(page, () => document.querySelectorAll('svg.board [data-mark]').length === 0);
    assert.equal(await page.locator('svg.board [data-stone]').count(), 7);
    assert.equal(await page.getAttribute('svg.board [aria-label="B14"]', 'data-missed'), '');

    // 中文, with VCTs too: move 7 is still the one missed (a VCF).
    await page.click('#lang-btn');
    await until(page, () => document.querySelector('nav a')?.textContent === '大厅');
    await page.goto(`${BASE}/game/${id}`);
    await page.waitForSelector('#analyze');
    assert.equal(await page.textContent('#analyze'), '分析');
    await page.check('#analyze-vct');
    await page.click('#analyze');
    await until(page, () => document.querySelector('#analysis')?.getAttribute('data-state') === 'done', undefined, 30000);
    assert.match(await page.textContent('.missed-wins button[data-move="7"]') ?? '', /^第 7 手（b14）漏掉 VCF：(h7|h11)$/);
    await page.click('#lang-btn');
  } finally {
    await b.close();
  }
});
