// Bot accounts in the browser: an account made a bot (by `become_bot`,
// which a bot's program sends) is marked as a bot in the lobby's room list,
// at the table and on its profile page; a person is not. The leaderboard's
// switch asks for the bots' leaderboard.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, person, register, createRoom, until } from './helpers.mjs';

test('a bot account is marked in the lobby, at the table and on its profile', async () => {
  const b = await browser();
  try {
    const tag = Date.now().toString(36).slice(-6);
    const [botName, human] = [`bot${tag}`, `hum${tag}`];
    const [bot, person2] = [await person(b, 'x'), await person(b, 'y')];
    await register(bot, botName);
    await register(person2, human);
    const became = await bot.evaluate(() => /** @type {any} */ (window).__tengen.conn.request({ type: 'become_bot' }));
    assert.equal(became.player.bot, true);
    const room = await createRoom(bot);
    // The person's lobby lists the room with the bot's mark.
    const mark = await until(person2, (r) => document.querySelector(`tr[data-room="${r}"] [data-bot]`)?.textContent, room);
    assert.equal(mark, 'bot');
    // The person joins: the table marks the bot's seat, not the person's.
    await person2.click(`tr[data-room="${room}"] button`);
    await person2.waitForSelector('svg.board');
    const seats = await until(person2, () => {
      const names = [...document.querySelectorAll('a.name')];
      return names.length === 2 && names.map((a) => `${a.textContent}:${a.nextElementSibling?.hasAttribute('data-bot') ?? false}`);
    });
    assert.deepEqual(seats.sort(), [`${botName}:true`, `${human}:false`].sort());
    // Profiles: the bot's is marked, the person's is not.
    await person2.goto(`${new URL(person2.url()).origin}/@/${botName}`);
    assert.equal(await until(person2, () => document.querySelector('.profile-head [data-bot]')?.textContent), 'bot');
    await person2.goto(`${new URL(person2.url()).origin}/@/${human}`);
    await until(person2, () => document.querySelector('.profile-head p.small'));
    assert.equal(await person2.evaluate(() => document.querySelector('.profile-head [data-bot]')), null);
    // The leaderboard lists people; its switch asks for the bots' instead.
    await person2.goto(`${new URL(person2.url()).origin}/leaderboard`);
    await until(person2, () => document.querySelector('input[name=bots]'));
    await person2.evaluate(() => {
      const app = /** @type {any} */ (window).__tengen;
      const ask = app.conn.request.bind(app.conn);
      app.asked = [];
      app.conn.request = (/** @type {any} */ m) => { app.asked.push(m); return ask(m); };
    });
    await person2.check('input[name=bots]');
    const asked = await until(person2, () => /** @type {any} */ (window).__tengen.asked.find((m) => m.type === 'leaderboard'));
    assert.equal(asked.bots, true);
    await until(person2, () => document.querySelector('section.leaderboard p:not(.error)'));
  } finally {
    await b.close();
  }
});
