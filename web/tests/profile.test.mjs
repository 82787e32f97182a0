// A player's profile lists their games as renju players want them, through
// clicks only: two accounts play a RIF game (the opening formed, the swap
// taken, fifth-move offers) to a five; the loser clicks the winner's name
// at the table and finds the game on the winner's profile: the date
// linking to the record, the opponent, the colour the winner held, the
// rule set and opening rule, the result from the winner's side and the
// opening formed; the record it links to shows the same.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, person, register, createRoom, whoseTurn, sameEverywhere, play, shots, until, rifOpening } from './helpers.mjs';

test('the profile\'s game list: opening, result, colour and rule set; the row opens the record', async () => {
  const b = await browser();
  try {
    const tag = Date.now().toString(36).slice(-6);
    const [ann, ben] = [await person(b, 'x'), await person(b, 'y')];
    await register(ann, `ann${tag}`);
    await register(ben, `ben${tag}`);
    const room = await createRoom(ann, { ruleSet: 'renju', opening: 'rif' });
    // Ben joins from his lobby.
    await until(ben, (r) => document.querySelector(`tr[data-room="${r}"] button`), room);
    await ben.click(`tr[data-room="${room}"] button:text("Join")`);
    for (const p of [ann, ben]) await p.waitForSelector('svg.board');
    const players = [ann, ben];
    let { n, black: offerer } = await rifOpening(players, players);
    const place = async (/** @type {string} */ point) => {
      await play((await whoseTurn(players, 'place')).page, point);
      await sameEverywhere(players, (n += 1));
    };
    // Black (who offered) makes five on row 8: G8 I8 (white far away).
    for (const p of ['A3', 'I8', 'A5', 'G8']) await place(p);
    for (const p of players) await until(p, () => document.querySelector('#prompt')?.hasAttribute('data-over'));
    const opening = (await ann.textContent('.info'))?.match(/\b([DI]\d+) (\w+)/);
    assert.ok(opening, 'the table names the opening');
    const winner = offerer;
    const loser = winner === ann ? ben : ann;
    const [winnerName, loserName] = [winner === ann ? `ann${tag}` : `ben${tag}`, winner === ann ? `ben${tag}` : `ann${tag}`];
    assert.match(await loser.textContent('#prompt'), new RegExp(`^${winnerName} \\(Black\\) wins · five in a row$`));

    // The loser clicks the winner's name at the table.
    await loser.click(`.seat a.name:text("${winnerName}")`);
    await loser.waitForURL(`**/@/${winnerName}`);
    await until(loser, () => document.querySelector('table.history tr[data-game]'));
    assert.deepEqual(await loser.$$eval('table.history th', (th) => th.map((e) => e.textContent)),
      ['Date', 'Opponent', 'Colour', 'Rules', 'Result', 'Opening']);
    const row = await loser.$eval('table.history tr[data-game]', (tr) => ({
      result: tr.getAttribute('data-result'), color: tr.querySelector('[data-color]')?.getAttribute('data-color'),
      cells: [...tr.querySelectorAll('td')].map((td) => (td.textContent || '').trim()),
    }));
    assert.equal(row.result, 'win');
    assert.equal(row.color, 'black');
    assert.equal(row.cells[1], loserName);
    assert.equal(row.cells[2], 'Black');
    assert.equal(row.cells[3], 'Renju · RIF');
    assert.equal(row.cells[4], 'won · five in a row');
    assert.equal(row.cells[5], `${opening[1]} ${opening[2]}`);
    await shots(loser, 'profile-opening');
    // The row's date opens the record, which names the same opening.
    await loser.click('table.history tr[data-game] td a');
    await loser.waitForURL('**/game/*');
    await until(loser, () => document.querySelectorAll('[data-stone]').length === 9);
    assert.match(await loser.textContent('[data-tag="Opening"]'), new RegExp(`^${opening[1]} ${opening[2]}`));
    assert.equal(await loser.textContent('[data-tag="Black"]'), winnerName);
  } finally {
    await b.close();
  }
});
