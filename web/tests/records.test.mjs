// The record of a live game, downloaded while it goes on in each of the
// three formats (JSON, renju notation, PSQ) by a player, a spectator who
// saw it start and one who came late: the server's record so far, which
// carries the whole opening as a finished record does (the rule set and
// opening rule, the date, the names by colour, the swap, the fifth-move
// offers and the one kept) and no result. Once the game is over the
// downloads are the stored record: the same, with the result and the
// moves played since.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { browser, table, person, whoseTurn, sameEverywhere, play, until, shots, rifOpening } from './helpers.mjs';

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

/** A renju-notation game's tags, and its moves with the notes in braces. @param {string} text */
function readRenju(text) {
  const tags = Object.fromEntries([...text.matchAll(/^\[(\w+) "(.*)"\]$/gm)].map((m) => [m[1], m[2]]));
  const body = text.split('\n\n').slice(1).join('\n').replace(/\s+/g, ' ').trim();
  return { tags, body };
}

/** PSQ's x,y of a point on 15x15: column from the left, row from the top, from 1. */
const PSQ = { H8: '8,8', I9: '9,7', J8: '10,8', A1: '1,15', K8: '11,8', A3: '1,13', I8: '9,8', G8: '7,8' };

test('a live RIF game\'s downloads carry the opening (swap, offers, names, rule set, date), then the result', async () => {
  const b = await browser();
  try {
    const { alice, bob, carol, table: id } = await table(b, { ruleSet: 'renju', opening: 'rif', time: 'unlimited' });
    const players = [alice, bob];
    const all = [alice, bob, carol];
    let { n } = await rifOpening(players, all);
    const place = async (/** @type {string} */ point) => {
      await play((await whoseTurn(players, 'place')).page, point);
      await sameEverywhere(all, (n += 1));
    };
    await place('A3');
    // The opening's name stays on a page reloaded after it formed.
    const named = (await carol.textContent('.info'))?.match(/\b[DI]\d+ \w+/)?.[0];
    assert.ok(named, 'the live page names the opening');
    await carol.reload();
    await until(carol, (k) => document.querySelectorAll('ol.moves li').length === k, n);
    await until(carol, (o) => (document.querySelector('.info')?.textContent || '').includes(o), named);
    // Dora comes now: she knows the game from the snapshot only.
    const late = await person(b, 'dora', `/watch/${id}`);
    await until(late, (k) => document.querySelectorAll('ol.moves li').length === k, n);
    const { first, second, black, opener } = await alice.evaluate(() => {
      const st = /** @type {any} */ (window).__tengen.current;
      return { first: st.players.first.name, second: st.players.second.name, black: st.black, opener: st.opener };
    });
    const names = { Black: black === 'first' ? first : second, White: black === 'first' ? second : first };
    const moves = '1. h8 2. i9 3. j8 {swap} 4. a1 5. k8 {5th-move offers: k8 h10} 6. a3';

    for (const page of [alice, carol, late]) {
      const renju = await download(page, 'renju');
      assert.equal(renju.name, `tengen-${id}-live.txt`);
      const { tags, body } = readRenju(renju.text);
      assert.equal(tags.Game, 'renju');
      assert.equal(tags.Rule, 'rif');
      assert.equal(tags.Forbidden, 'claim');
      assert.equal(tags.Black, names.Black);
      assert.equal(tags.White, names.White);
      assert.match(tags.Date, /^\d{4}\.\d\d\.\d\d$/);
      assert.match(tags.Opening, /^[DI]\d+ \w+/);
      assert.equal(tags.Alt, 'k8 h10');
      assert.equal(tags.Result, undefined, 'no result while it runs');
      assert.equal(tags.Termination, undefined);
      assert.equal(body, moves);

      const psqFile = await download(page, 'psq');
      assert.equal(psqFile.name, `tengen-${id}-live.psq`);
      const psq = readPsq(psqFile.text);
      assert.equal(psq.header, 'Piskvorky 15x15, 11:11, 0');
      assert.deepEqual(psq.points, ['H8', 'I9', 'J8', 'A1', 'K8', 'A3'].map((p) => PSQ[p]));
      // The one who started as black first.
      assert.deepEqual(psq.trailer, [...(opener === 'first' ? [first, second] : [second, first]), '-1']);
      // The server's times: the late spectator's file has them too.
      assert.ok(psq.ms.slice(1).every((ms) => ms > 0 && ms < 60000), `times ${psq.ms}`);

      const json = await download(page, 'json');
      assert.equal(json.name, `tengen-${id}-live.json`);
      const rec = JSON.parse(json.text);
      assert.equal(rec.result ?? null, null);
      assert.equal(rec.config.rule_set, 'renju');
      assert.equal(rec.config.opening, 'rif');
      assert.equal(rec.tags.first, first);
      assert.equal(rec.tags.second, second);
      assert.equal(rec.tags.black, names.Black);
      assert.equal(rec.tags.table, id);
      assert.match(rec.tags.opening, /^[DI]\d+ /);
      const acts = rec.entries.filter((e) => e.input === 'act').map((e) => JSON.stringify(e.action));
      assert.ok(acts.some((a) => /"swap"/.test(a)), `a swap among ${acts}`);
      assert.ok(acts.some((a) => /offer_fifths/.test(a) && /K8/i.test(a) && /H10/i.test(a)), `the offers among ${acts}`);
    }
    await shots(carol, 'record-live');

    // Over: the stored record; the live one was its beginning.
    await place('I8');
    await place('G8');
    const { page: resigner } = await whoseTurn(players, 'place');
    await resigner.click('button[data-act="act.resign"]');
    await resigner.click('button[data-act="act.yes"]');
    await until(carol, () => document.querySelector('#prompt')?.hasAttribute('data-over'));
    const done = await download(carol, 'renju');
    assert.equal(done.name, `tengen-${id}.txt`);
    const { tags, body } = readRenju(done.text);
    assert.equal(body, `${moves} 7. i8 8. g8`);
    assert.match(tags.Result, /^(black|white) wins$/);
    assert.match(tags.Termination, /resign/);
    assert.equal(tags.Alt, 'k8 h10');
    const json = JSON.parse((await download(carol, 'json')).text);
    assert.equal(json.version, 1);
    assert.equal(json.result.reason.kind, 'resignation');
  } finally {
    await b.close();
  }
});

const MOVES = ['H8', 'I9', 'H9', 'J9', 'H10', 'J8'];

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
    assert.equal(readRenju((await download(black, 'renju')).text).body, '1. h8 2. i9 3. h9 4. j9 5. h10 6. pass');
    let downloads = 0;
    black.on('download', () => { downloads += 1; });
    await black.click('.downloads button[data-format="psq"]');
    await until(black, () => document.querySelector('#game-msg')?.textContent);
    assert.equal(await black.textContent('#game-msg'), 'PSQ cannot record a pass (move 6)');
    assert.equal(downloads, 0);
    const rec = JSON.parse((await download(black, 'json')).text);
    assert.equal(rec.entries.filter((e) => e.input === 'act').length, 6);
    assert.equal(rec.entries.at(-1).action.type, 'pass');
  } finally {
    await b.close();
  }
});
