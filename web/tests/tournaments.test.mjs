// Tournaments through the pages, against the real server: an organiser
// creates a Swiss from the form (with a tie-break order of its own), four
// accounts join from the event's page, one withdraws, the organiser
// starts it; the pages show the pairings, and each result the organiser
// records (`tournament_result`, from the buttons on the board) reaches a
// page left open without a reload (the withdrawn player's: it plays no
// game, so no game of its own takes the page elsewhere once rounds start
// tables): the next round's pairing, the standings with the tie-breaks in
// the chosen order, the crosstable, the end. The list files the event
// under upcoming, then finished. In 中文 the page reads in Chinese. In a
// best-of-3 knockout the organiser's buttons name the winner whichever
// seat they hold in that game (the seats alternate), and the server
// scores what they name. An arena created from the form sends its
// minutes and no tie-break order.
//
// Every name here is new (a suffix of the clock), and nothing is asserted
// about events other than this test's: all test files share one server.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, person, register, until, shots, BASE } from './helpers.mjs';

const TAG = (Date.now() % 1e7).toString(36);

/** The names of the pairings' board rows of round `r` as `first-second` (or `first-bye`). */
async function boards(page, r) {
  return page.$$eval(`table.pairings[data-round="${r}"] tr[data-board]`, (rows) => rows.map((row) => {
    const cells = row.querySelectorAll('td');
    return `${cells[1].textContent}-${row.querySelector('em') ? 'bye' : cells[2].textContent}`;
  }));
}

/** Waits for the event's page to be drawn with `state` on `page`. */
async function inState(page, state) {
  await until(page, (s) => document.querySelector('.tournament-state')?.getAttribute('data-state') === s, state);
}

/** The list (upcoming / running / finished) that files the event `id`. */
async function listOf(page, id) {
  return page.evaluate((i) => document.querySelector(`tr[data-tournament="${i}"]`)?.closest('section')?.getAttribute('data-list'), id);
}

test('a Swiss created, joined, withdrawn from, started and scored through the pages', async () => {
  const b = await browser();
  try {
    const org = await person(b, 'olga', '/tournaments');
    await register(org, `org${TAG}`);
    const title = `Cup ${TAG}`;
    await org.waitForSelector('form.create-tournament');
    await org.fill('input[name=tname]', title);
    await org.selectOption('select[name=system]', 'swiss');
    await org.fill('input[name=rounds]', '2');
    await org.selectOption('select[name=rule_set]', 'gomoku');
    await org.selectOption('select[name=time]', 'unlimited');
    await org.selectOption('select[name=tb1]', 'wins');
    await org.selectOption('select[name=tb2]', 'buchholz');
    await org.click('form.create-tournament button[type=submit]');
    await org.waitForURL('**/tournament/*');
    const id = org.url().split('/').pop();
    await inState(org, 'open');
    assert.equal(await org.textContent('.tournament h2'), title);
    assert.match(await org.textContent('[data-setting=tie_breaks]'), /^Wins, Buchholz$/);
    assert.match(await org.textContent('[data-setting=system]'), /Swiss · 2 rounds/);

    // Four accounts join from the event's page; the fourth withdraws.
    const names = ['a', 'b', 'c', 'd'].map((x) => `${x}${TAG}`);
    const players = [];
    for (const [i, name] of names.entries()) {
      // A guest's name is not the account's (a guest holds it meanwhile).
      const p = await person(b, ['ann', 'bob', 'cid', 'dan'][i], `/tournament/${id}`);
      await register(p, name);
      await p.click('button[data-act=join]');
      await until(p, (n) => document.querySelector(`li[data-player="${n}"]`), name);
      players.push(p);
    }
    // Everyone watching sees every entry, the organiser's page too.
    await until(org, () => document.querySelectorAll('ul.entrants li').length === 4);
    const [ann, , , dan] = players;
    await dan.click('button[data-act=withdraw]');
    await until(ann, (n) => !document.querySelector(`li[data-player="${n}"]`), names[3]);
    // Dan's page redraws at the same update push as Ann's, not before it.
    await until(dan, () => document.querySelector('button[data-act=join]'), undefined, 5000)
      .catch(() => assert.fail('the one who left may join again'));

    // The list files it under upcoming.
    await ann.click('a[href="/tournaments"]');
    await until(ann, (i) => document.querySelector(`tr[data-tournament="${i}"]`), id);
    assert.equal(await listOf(ann, id), 'open');
    assert.match(await ann.textContent(`tr[data-tournament="${id}"]`), new RegExp(`${title}.*Swiss.*3`));
    await ann.click(`tr[data-tournament="${id}"] a[href="/tournament/${id}"]`);
    await inState(ann, 'open');
    assert.equal(await ann.$('button[data-act=start]'), null, 'only the organiser starts it');

    // The organiser starts it: three players, so round 1 is one game and a bye.
    await org.click('button[data-act=start]');
    await inState(org, 'running');
    await inState(dan, 'running');
    const r1 = await boards(dan, 1);
    assert.equal(r1.length, 2, `${r1}`);
    assert.equal(r1.filter((x) => x.endsWith('-bye')).length, 1, `${r1}`);
    const game = r1.find((x) => !x.endsWith('-bye'));
    const [first, second] = game.split('-');
    assert.deepEqual([first, second].every((n) => names.slice(0, 3).includes(n)), true);
    assert.equal(await dan.$('span.record button'), null, 'only the organiser records results');
    await until(dan, () => document.querySelectorAll('table.standings tbody tr').length === 3);
    assert.deepEqual(await dan.$$eval('table.standings th[data-tb]', (th) => th.map((e) => e.textContent)), ['Wins', 'Buchholz'],
      'the tie-breaks in the organiser\'s order');

    // The organiser records round 1 (the first seat wins): dan's page,
    // left open (dan plays no game, so nothing takes the page elsewhere),
    // shows round 2 paired and the standings, live.
    await org.click('table.pairings[data-round="1"] tr:not([data-over]) button[data-result=first]');
    await until(dan, () => document.querySelector('table.pairings[data-round="2"]'));
    assert.equal(await dan.textContent('table.pairings[data-round="1"] tr[data-board]:not(:has(em)) td.results'), '1-0');
    const top = await dan.$$eval('table.standings tbody tr', (rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)));
    // Round 2 is paired with its bye (the loser of round 1, who has had
    // none), so all three have a point; the one win over the board ranks
    // first, as the organiser put Wins first.
    assert.deepEqual(top.map((r) => r[2]), ['1', '1', '1'], `${top}`);
    assert.deepEqual(top[0].slice(0, 2), ['1', first], `${top}`);
    assert.deepEqual(top.map((r) => r[3]), ['1', '0', '0'], `${top}: the Wins column`);
    assert.ok((await boards(dan, 2)).includes(`${second}-bye`));
    // The crosstable is a table built from the server's rows, a row per
    // player, its header in words: round 1's winner beat the one placed
    // second or third with black ("2b1"), the loser lost with white.
    const cross = await dan.$$eval('table.crosstable tr', (rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
    assert.equal(cross.length, 4, JSON.stringify(cross));
    assert.deepEqual(cross[0], ['#', 'Player', 'Rating', 'Round 1', 'Round 2', 'Points', 'Wins', 'Buchholz']);
    const line = (/** @type {string} */ n) => cross.findIndex((r) => r[1] === n);
    assert.equal(line(first), 1, JSON.stringify(cross));
    assert.equal(cross[line(first)][3], `${line(second)}b1`, JSON.stringify(cross));
    assert.equal(cross[line(second)][3], `${line(first)}w0`, JSON.stringify(cross));
    assert.equal(await dan.getAttribute(`table.crosstable tr[data-player="${first}"] td[data-result="1"]`, 'title'), `beat no. ${line(second)} with black`);
    // Round 2 is paired: the bye is a full point, the game not yet played.
    const bye = cross.slice(1).find((r) => r[1] !== first && r[1] !== second);
    assert.equal(bye?.[3], 'U', JSON.stringify(cross));
    await shots(dan, 'tournament-running');

    // Round 2: the bye of round 1 plays; the organiser records a draw.
    const r2 = await boards(org, 2);
    assert.ok(r2.some((x) => !x.endsWith('-bye')), `${r2}`);
    await until(org, () => document.querySelector('table.pairings[data-round="2"] tr:not([data-over]) button[data-result=draw]'));
    await org.click('table.pairings[data-round="2"] tr:not([data-over]) button[data-result=draw]');
    await inState(dan, 'finished');
    await inState(org, 'finished');
    assert.equal(await org.$('span.record button'), null, 'nothing left to record');
    await dan.click('a[href="/tournaments"]');
    await until(dan, (i) => document.querySelector(`section[data-list=finished] tr[data-tournament="${i}"]`), id);

    // In Chinese.
    await dan.click('#lang-btn');
    await dan.goto(`${BASE}/tournament/${id}`);
    await inState(dan, 'finished');
    assert.equal(await dan.textContent('.tournament-state'), '已结束 · 第 2 轮，共 2 轮');
    assert.match(await dan.textContent('[data-setting=tie_breaks]'), /胜局数, 对手分/);
    assert.deepEqual(await dan.$$eval('table.crosstable th', (th) => th.map((e) => e.textContent)),
      ['#', '棋手', '等级分', '第 1 轮', '第 2 轮', '积分', '胜局数', '对手分']);
    await shots(dan, 'tournament-zh');
  } finally {
    await b.close();
  }
});

test('a best-of-3 knockout: each button names the winner, whatever seat they hold in that game', async () => {
  const b = await browser();
  try {
    const org = await person(b, 'olga', '/tournaments');
    await register(org, `ko${TAG}`);
    await org.waitForSelector('form.create-tournament');
    await org.fill('input[name=tname]', `Knockout ${TAG}`);
    await org.selectOption('select[name=system]', 'knockout');
    await org.selectOption('select[name=games]', '3');
    await org.click('form.create-tournament button[type=submit]');
    await org.waitForURL('**/tournament/*');
    const id = org.url().split('/').pop();
    await inState(org, 'open');
    assert.match(await org.textContent('[data-setting=system]'), /Knockout · best of 3/);
    for (const [guest, name] of [['pat', `p${TAG}`], ['quinn', `q${TAG}`]]) {
      const p = await person(b, guest, `/tournament/${id}`);
      await register(p, name);
      await p.click('button[data-act=join]');
      await until(org, (n) => document.querySelector(`li[data-player="${n}"]`), name);
    }
    await org.click('button[data-act=start]');
    await inState(org, 'running');
    const [pair] = await boards(org, 1);
    const [first, second] = pair.split('-');
    const row = 'table.pairings[data-round="1"] tr[data-board="1"]';
    const results = () => org.textContent(`${row} td.results`);
    // Game 1 (first opens): the second player wins; from the first's side 0-1.
    await org.click(`${row} button:text("${second} wins")`);
    await until(org, (r) => document.querySelector(`${r} td.results`)?.textContent === '0-1', row);
    // Games 2 and 3: the first player wins both, in the second seat of
    // game 2 and the first of game 3; each reads 1-0 from their side.
    await org.click(`${row} button:text("${first} wins")`);
    await until(org, (r) => document.querySelector(`${r} td.results`)?.textContent === '0-1 1-0', row);
    await org.click(`${row} button:text("${first} wins")`);
    await inState(org, 'finished');
    assert.equal(await results(), '0-1 1-0 1-0');
    assert.equal(await org.getAttribute('table.standings tbody tr:first-child', 'data-player'), first);
  } finally {
    await b.close();
  }
});

test('a guest sees the list and a page, and is asked to log in', async () => {
  const b = await browser();
  try {
    const guest = await person(b, 'gina', '/tournaments');
    await until(guest, () => document.querySelector('section[data-list=open]'));
    assert.match(await guest.textContent('.tournament-create'), /Log in to organise a tournament/);
    assert.equal(await guest.$('form.create-tournament'), null);
    await guest.goto(`${BASE}/tournament/nosuchevent`);
    await until(guest, () => document.querySelector('.tournament p.error'));
  } finally {
    await b.close();
  }
});

test('an arena created from the form: its minutes, no tie-break order', async () => {
  const b = await browser();
  try {
    const org = await person(b, 'olga', '/tournaments');
    await register(org, `are${TAG}`);
    const title = `Arena ${TAG}`;
    await org.waitForSelector('form.create-tournament');
    await org.fill('input[name=tname]', title);
    await org.selectOption('select[name=system]', 'arena');
    assert.equal(await org.isVisible('input[name=minutes]'), true);
    assert.equal(await org.isVisible('input[name=rounds]'), false);
    await org.fill('input[name=minutes]', '45');
    await org.selectOption('select[name=rule_set]', 'gomoku');
    await org.selectOption('select[name=time]', 'unlimited');
    // A tie-break chosen anyway is not sent: an arena ranks by its own.
    await org.selectOption('select[name=tb1]', 'wins');
    await org.click('form.create-tournament button[type=submit]');
    await org.waitForURL('**/tournament/*');
    await inState(org, 'open');
    assert.equal(await org.textContent('.tournament h2'), title);
    assert.match(await org.textContent('[data-setting=system]'), /^Arena · 45 min$/);
  } finally {
    await b.close();
  }
});
