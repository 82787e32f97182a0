// The record of a live game, downloaded while it goes on in each of the
// three formats (JSON, renju notation, PSQ) by a player, a spectator who
// saw it start and one who came late; each checked against the moves
// played. Once the game is over, the server's own export of the same game
// is the reference: the live renju text and PSQ stones equal its.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { browser, table, person, whoseTurn, sameEverywhere, play, until } from './helpers.mjs';

/** Clicks the download button of `format` on `page`; the file's name and text. */
async function download(page, format) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`.downloads button[data-format="${format}"]`)]);
  return { name: dl.suggestedFilename(), text: readFileSync(await dl.path(), 'utf8') };
}

/** The PSQ stones as `x,y` and their times; the trailer lines. @param {string} text */
function readPsq(text) {
  const lines = text.trimEnd().split('\n');
  const header = lines[0];
  const stones = lines.slice(1).filter((l) => /^\d+,\d+,\d+$/.test(l));
  return {
    header,
    points: stones.map((l) => l.split(',').slice(0, 2).join(',')),
    ms: stones.map((l) => Number(l.split(',')[2])),
    trailer: lines.slice(1 + stones.length),
  };
}

const MOVES = ['H8', 'I9', 'H9', 'J9', 'H10', 'J8'];
/** PSQ's x,y of a point on 15x15: column from the left, row from the top, from 1. */
const PSQ = { H8: '8,8', I9: '9,7', H9: '8,7', J9: '10,7', H10: '8,6', J8: '10,8' };

test('a live game\'s record in JSON, renju notation and PSQ, then the server\'s', async () => {
  const b = await browser();
  try {
    const { alice, bob, carol, table: id } = await table(b, { ruleSet: 'renju', opening: 'free', time: 'unlimited' });
    const players = [alice, bob];
    let late = null;
    for (const [i, p] of MOVES.entries()) {
      const { page } = await whoseTurn(players, 'place');
      await page.waitForTimeout(50);
      await play(page, p);
      await sameEverywhere([alice, bob, carol], i + 1);
      if (i === 1) {
        // Dora comes when two moves stand: she knows them from the snapshot only.
        late = await person(b, 'dora', `/watch/${id}`);
        await until(late, () => document.querySelectorAll('ol.moves li').length === 2);
      }
    }
    await until(late, (n) => document.querySelectorAll('ol.moves li').length === n, MOVES.length);
    // The players' names as the server gave them (a guest's name may get a suffix).
    const { opener, first, second } = await alice.evaluate(() => {
      const st = /** @type {any} */ (window).__tengen.current;
      return { opener: st.opener, first: st.players.first.name, second: st.players.second.name };
    });
    assert.match(first, /^alice/);
    assert.match(second, /^bob/);
    const names = opener === 'first' ? [first, second] : [second, first];

    for (const page of [alice, carol, late]) {
      const renju = await download(page, 'renju');
      assert.equal(renju.name, `tengen-${id}-live.txt`);
      assert.equal(renju.text, `${MOVES.map((p) => p.toLowerCase()).join(' ')}\n`);

      const psq = readPsq((await download(page, 'psq')).text);
      assert.equal(psq.header, 'Piskvorky 15x15, 11:11, 0');
      assert.deepEqual(psq.points, MOVES.map((p) => PSQ[p]));
      assert.deepEqual(psq.trailer, [...names, '-1']);
      if (page === late) {
        // The moves before Dora came have no time she could see; the later ones have.
        assert.deepEqual(psq.ms.slice(0, 2), [0, 0]);
        assert.ok(psq.ms.slice(3).every((ms) => ms > 0), `late times ${psq.ms}`);
      } else {
        assert.ok(psq.ms.every((ms) => ms > 0 && ms < 60000), `times ${psq.ms}`);
      }

      const json = await download(page, 'json');
      assert.equal(json.name, `tengen-${id}-live.json`);
      const rec = JSON.parse(json.text);
      assert.equal(rec.live, true);
      assert.equal(rec.table, id);
      assert.equal(rec.result, null);
      assert.equal(rec.config.rule_set, 'renju');
      assert.deepEqual(rec.tags, { first, second });
      assert.deepEqual(rec.moves.map((m) => m.point), MOVES);
      assert.deepEqual(rec.moves.map((m) => m.color), MOVES.map((_, i) => (i % 2 ? 'white' : 'black')));
      assert.deepEqual(rec.moves.map((m) => m.number), MOVES.map((_, i) => i + 1));
      assert.equal(rec.opener, opener);
    }
    const live = { renju: (await download(carol, 'renju')).text, psq: readPsq((await download(carol, 'psq')).text) };

    // Over: the downloads are the server's record, and the live ones agreed with it.
    const { page: resigner } = await whoseTurn(players, 'place');
    await resigner.click('button[data-act="act.resign"]');
    await resigner.click('button[data-act="act.yes"]');
    await until(carol, () => document.querySelector('#prompt')?.hasAttribute('data-over'));
    await until(carol, async (game) => {
      try { await /** @type {any} */ (window).__tengen.conn.request({ type: 'game_record', game, format: 'json' }); return true; } catch { return false; }
    }, id, 15000);
    const renju = await download(carol, 'renju');
    assert.equal(renju.name, `tengen-${id}.txt`);
    // The server's is the record renju players keep: its tags (players by
    // colour, result and why), then the numbered moves, which are the live list's.
    const tags = Object.fromEntries([...renju.text.matchAll(/^\[(\w+) "(.*)"\]$/gm)].map((m) => [m[1], m[2]]));
    assert.equal(tags.Game, 'renju');
    assert.ok(tags.Black && tags.White && tags.Black !== tags.White, JSON.stringify(tags));
    assert.match(tags.Result, /^(black|white) wins$/);
    assert.match(tags.Termination, /resign/);
    assert.match(tags.Date, /^\d{4}\.\d\d\.\d\d$/);
    const body = renju.text.split('\n\n').slice(1).join(' ').replace(/\{[^}]*\}/g, ' ');
    assert.equal(`${body.split(/\s+/).filter((w) => w && !/^\d+\.$/.test(w)).join(' ')}\n`, live.renju);
    const psqFile = await download(carol, 'psq');
    assert.equal(psqFile.name, `tengen-${id}.psq`);
    const psq = readPsq(psqFile.text);
    assert.equal(psq.header, live.psq.header);
    assert.deepEqual(psq.points, live.psq.points);
    assert.deepEqual(psq.trailer, live.psq.trailer);
    const json = JSON.parse((await download(carol, 'json')).text);
    assert.equal(json.version, 1);
    assert.equal(json.result.reason.kind, 'resignation');
  } finally {
    await b.close();
  }
});

test('a pass: in the live renju notation, and PSQ refuses it as the server does', async () => {
  const b = await browser();
  try {
    const { alice, bob } = await table(b, { ruleSet: 'renju', opening: 'free', time: 'unlimited' }, { spectator: false });
    // No pass before five stones stand (the referee's rule): five, then white passes.
    for (const [i, p] of MOVES.slice(0, 5).entries()) {
      await play((await whoseTurn([alice, bob], 'place')).page, p);
      await sameEverywhere([alice, bob], i + 1);
    }
    const { page: white } = await whoseTurn([alice, bob], 'place');
    const black = white === alice ? bob : alice;
    await white.click('button[data-act="act.pass"]');
    await sameEverywhere([alice, bob], 6);
    assert.equal((await download(black, 'renju')).text, 'h8 i9 h9 j9 h10 pass\n');
    let downloads = 0;
    black.on('download', () => { downloads += 1; });
    await black.click('.downloads button[data-format="psq"]');
    await until(black, () => document.querySelector('#game-msg')?.textContent);
    assert.equal(await black.textContent('#game-msg'), 'PSQ cannot record a pass (move 6)');
    assert.equal(downloads, 0);
    const rec = JSON.parse((await download(black, 'json')).text);
    assert.deepEqual(rec.moves.map((m) => m.point), [...MOVES.slice(0, 5), null]);
  } finally {
    await b.close();
  }
});
