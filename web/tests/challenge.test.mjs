// A challenge by name, accepted from the lobby; the click-twice mode for
// touch screens; a private room's invite link; logging out.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, person, register, createRoom, whoseTurn, sameEverywhere, play, until, BASE } from './helpers.mjs';

test('challenge by name, click twice to play, invite link, log out', async () => {
  const b = await browser();
  try {
    const alice = await person(b, 'alice');
    const bob = await person(b, 'bob');
    const bobName = await bob.evaluate(() => /** @type {any} */ (window).__tengen.me.name);
    await alice.fill('input[name=player]', bobName);
    await alice.click('form.inline button:text("Challenge")');
    await until(bob, () => document.querySelector('.challenge'));
    assert.match(await bob.textContent('.challenge'), /challenges you/);
    await bob.click('.challenge button:text("Accept")');
    for (const p of [alice, bob]) {
      await p.waitForURL('**/play/*');
      await p.waitForSelector('svg.board');
    }
    // Click twice: the first click only marks the point.
    const first = await whoseTurn([alice, bob]);
    await first.page.check('label:has-text("Click twice to play") input');
    await play(first.page, 'H8');
    await first.page.waitForTimeout(300);
    assert.equal(await first.page.locator('ol.moves li').count(), 0);
    assert.equal(await first.page.locator('.pt.armed').count(), 1);
    // The page says how to play it.
    assert.equal(await first.page.isVisible('[data-arm-hint]'), true);
    assert.equal(await first.page.textContent('[data-arm-hint]'), 'Tap H8 again to play it.');
    await play(first.page, 'H8');
    await sameEverywhere([alice, bob], 1);
    assert.equal(await first.page.isVisible('[data-arm-hint]'), false);

    // A private room: the invite link opens it for whoever has it.
    const carol = await person(b, 'carol');
    const room = await createRoom(carol, { ruleSet: 'gomoku', opening: 'free', isPublic: false });
    const link = await carol.inputValue('input.invite');
    assert.equal(link, `${BASE}/play/${room}`);
    const dave = await person(b, 'dave');
    await dave.goto(link);
    for (const p of [carol, dave]) await p.waitForSelector('svg.board');

    // Log in, then out: the token is gone from the browser.
    const tag = Date.now().toString(36).slice(-6);
    const erin = await person(b, 'erin');
    await register(erin, `erin${tag}`);
    await erin.click('#account-btn');
    await erin.click('dialog button:text-is("Log out")');
    await until(erin, () => /\(guest\)/.test(document.querySelector('#me-name')?.textContent || ''));
    assert.equal(await erin.evaluate(() => localStorage.getItem('tengen.token')), null);

    // Logged in on two devices, then out everywhere from one: the other
    // is closed (4007), comes back a guest and forgets the token.
    const phone = await person(b, 'phone');
    for (const p of [erin, phone]) {
      await p.click('#account-btn');
      await p.fill('dialog input[name=name]', `erin${tag}`);
      await p.fill('dialog input[name=password]', 'correct horse battery');
      await p.click('dialog button:text("Log in")');
      await until(p, (n) => document.querySelector('#me-name')?.textContent === n, `erin${tag}`);
    }
    await erin.click('#account-btn');
    await erin.click('dialog button:text("Log out everywhere")');
    for (const p of [erin, phone]) {
      await until(p, () => /\(guest\)/.test(document.querySelector('#me-name')?.textContent || ''));
      assert.equal(await p.evaluate(() => localStorage.getItem('tengen.token')), null);
    }
  } finally {
    await b.close();
  }
});
