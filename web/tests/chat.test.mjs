// Chat is text: markup a player types is shown as typed and never runs.
// Players and spectators talk apart, as the server keeps them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, table, until, dialogs } from './helpers.mjs';

const EVIL = '<img src=x onerror=alert(1)>';

async function say(page, text) {
  await page.fill('input[name=chat]', text);
  await page.click('.chat button[type=submit]');
}

test('a chat message with markup shows as text and runs nothing', async () => {
  const b = await browser();
  try {
    const { alice, bob, carol } = await table(b, { ruleSet: 'gomoku', opening: 'free' });
    await say(alice, EVIL);
    for (const p of [alice, bob]) {
      await until(p, (evil) => [...document.querySelectorAll('.chat-log li')].some((li) => li.textContent.endsWith(evil)), EVIL);
      assert.equal(await p.locator('.chat-log img').count(), 0);
      assert.equal(await p.locator('img').count(), 0);
    }
    await say(carol, 'spectators only');
    await until(carol, () => /spectators only/.test(document.querySelector('.chat-log')?.textContent || ''));
    await bob.waitForTimeout(300);
    for (const p of [alice, bob]) assert.doesNotMatch(await p.textContent('.chat-log'), /spectators only/);
    assert.doesNotMatch(await carol.textContent('.chat-log'), /onerror/);
    assert.deepEqual(dialogs, [], 'no alert ran');
  } finally {
    await b.close();
  }
});
