// Play the computer in the browser: from the lobby a guest picks the rule
// set (the room form's), the computer's level and a colour, and presses
// Play; the server's computer joins the private room it opens, the page
// goes to the game, the computer's seat is named for its level, the
// colours are as asked and the computer answers each stone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, person, until, whoseTurn, play, stones } from './helpers.mjs';

/** The players' names as the game page shows them. */
async function names(page) {
  return until(page, () => {
    const n = [...document.querySelectorAll('a.name')].map((a) => a.textContent);
    return n.length === 2 && n;
  });
}

/** A free point next to the stones (or H8 on an empty board). */
async function freePoint(page) {
  return page.evaluate(() => {
    const taken = new Set([...document.querySelectorAll('[data-stone]')].map((e) => e.getAttribute('aria-label')));
    for (const l of 'HIGJFKE') for (const n of [8, 7, 9, 6, 10]) if (!taken.has(`${l}${n}`)) return `${l}${n}`;
    return 'A1';
  });
}

/**
 * Asks for the computer from the lobby.
 * @param {import("playwright-core").Page} page @param {string} ruleSet
 * @param {number} level @param {string} colour
 */
async function playComputer(page, ruleSet, level, colour) {
  await page.selectOption('select[name=rule_set]', ruleSet);
  await page.selectOption('select[name=opening]', 'free');
  await page.selectOption('select[name=time]', 'unlimited');
  await page.selectOption('form.computer select[name=level]', String(level));
  await page.selectOption('form.computer select[name=colour]', colour);
  await page.click('form.computer button[type=submit]');
  await page.waitForURL('**/play/*');
  await page.waitForSelector('svg.board');
}

test('a guest plays the computer from the lobby: level, colour and rule set as chosen', async () => {
  const b = await browser();
  try {
    // White at free-style against level 1: the computer opens.
    const ann = await person(b, 'ann');
    await playComputer(ann, 'freestyle', 1, 'white');
    assert.ok((await names(ann)).some((n) => n?.startsWith('computer-1')));
    // The computer's first stone (on a busy machine it may take a while).
    await until(ann, () => document.querySelectorAll('[data-stone]').length === 1, undefined, 20000);
    await whoseTurn([ann], 'place');
    assert.deepEqual((await stones(ann)).map((s) => s.split(':')[1]), ['black']);
    await play(ann, await freePoint(ann));
    await until(ann, () => document.querySelectorAll('[data-stone]').length >= 3, undefined, 20000);
    assert.equal((await stones(ann)).filter((s) => s.endsWith(':white')).length, 1);

    // Black at renju against level 3: the board is ours to open, and the
    // computer answers with white.
    const bob = await person(b, 'bob');
    await playComputer(bob, 'renju', 3, 'black');
    assert.ok((await names(bob)).some((n) => n?.startsWith('computer-3')));
    await whoseTurn([bob], 'place');
    assert.equal((await stones(bob)).length, 0);
    await play(bob, 'H8');
    await until(bob, () => document.querySelectorAll('[data-stone="white"]').length === 1, undefined, 20000);
    assert.match(await bob.textContent('body'), /renju/i);
  } finally {
    await b.close();
  }
});
