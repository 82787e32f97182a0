// The other opening rules' prompts, answered from the page: Yamaguchi's
// declared offers, Soosõrv's declaration by white, Taraguchi's option,
// Swap2's two stones and colour choice, Sakata's stones 4 and 5 by the
// other player and Super Sakata's choice with two more stones; then a draw
// offered and accepted, and a rematch (same room, a new table, the opener
// switched).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, table, whoseTurn, sameEverywhere, play, until } from './helpers.mjs';

/**
 * Answers whatever the server asks, move after move: `points` for stones
 * (offers included), `choices` for buttons, until `moves` stand.
 */
async function drive(pages, points, moves, { declare = 2, option = 'offers' } = {}) {
  const [alice, bob] = pages;
  const seen = [];
  let i = 0;
  for (let guard = 0; guard < 40; guard++) {
    const count = await alice.locator('ol.moves li').count();
    if (count >= moves) break;
    const { page, task } = await whoseTurn([alice, bob]);
    seen.push(task);
    const before = await page.evaluate(() => /** @type {any} */ (window).__tengen.current.seq);
    switch (task) {
      case 'place': await play(page, points[i++]); break;
      case 'decide_swap': await page.click('button[data-act="act.keep"]'); break;
      case 'declare_offers':
        await page.fill('input[name=declare]', String(declare));
        await page.click('button[data-act="act.declare"]');
        break;
      case 'choose_option': await page.click(`button[data-act="act.${option === 'offers' ? 'offers' : 'single'}"]`); break;
      case 'offer_fifths': {
        const n = Number((await page.textContent('.actions .small')).split('/')[1]);
        for (let k = 0; k < n; k++) await play(page, points[i++]);
        await page.click('button[data-act="act.send_offers"]');
        break;
      }
      case 'keep_fifth': {
        const offer = await page.getAttribute('[data-mark]', 'aria-label');
        await play(page, offer);
        break;
      }
      default: throw new Error(`unexpected task ${task}`);
    }
    // An action is applied when its event arrives; a refusal shows its message.
    const after = await until(page, (b4) => {
      const msg = document.querySelector('#game-msg')?.textContent;
      if (msg) return { msg };
      return /** @type {any} */ (window).__tengen.current.seq > b4 && { ok: true };
    }, before);
    if (after.msg) throw new Error(`${task} refused: ${after.msg} (tasks so far: ${seen.join(' ')})`);
  }
  await sameEverywhere(pages, moves);
  return seen;
}

test('Yamaguchi, Soosõrv, Taraguchi: every opening prompt from the page', async () => {
  const b = await browser();
  try {
    // Yamaguchi: 1-3, the opener declares 2 offers, a swap option, white 4, offers, keep, 6.
    let t = await table(b, { ruleSet: 'renju', opening: 'yamaguchi' }, { spectator: false });
    let seen = await drive([t.alice, t.bob], ['H8', 'I9', 'J8', 'A1', 'K8', 'H10', 'A3'], 6);
    assert.deepEqual([...new Set(seen)].sort(), ['decide_swap', 'declare_offers', 'keep_fifth', 'offer_fifths', 'place']);
    // Soosõrv-2: white declares after 4.
    t = await table(b, { ruleSet: 'renju', opening: 'soosorv' }, { spectator: false });
    seen = await drive([t.alice, t.bob], ['H8', 'I9', 'J8', 'A1', 'K8', 'H10', 'A3'], 6);
    assert.ok(seen.includes('declare_offers') && seen.includes('keep_fifth'), seen.join());
  } finally {
    await b.close();
  }
});

test('Taraguchi option "offers", Swap2 with two stones, a draw, a rematch', async () => {
  const b = await browser();
  try {
    let t = await table(b, { ruleSet: 'renju', opening: 'taraguchi' }, { spectator: false });
    // Taraguchi-10 by default: ten offers, then white keeps one.
    const seen = await drive([t.alice, t.bob], ['H8', 'I9', 'J8', 'G6', 'A1', 'A3', 'A5', 'A7', 'A9', 'A11', 'A13', 'A15', 'C15', 'E15', 'O1'], 6);
    assert.ok(seen.includes('choose_option'), seen.join());

    t = await table(b, { ruleSet: 'gomoku', opening: 'swap2' }, { spectator: false });
    const pages = [t.alice, t.bob];
    for (const p of ['H8', 'I9', 'J10']) {
      await play((await whoseTurn(pages)).page, p);
    }
    await sameEverywhere(pages, 3);
    let turn = await whoseTurn(pages, 'swap2_choice');
    await turn.page.click('button[data-act="act.place_two"]');
    await play(turn.page, 'A1');
    await play(turn.page, 'O15');
    await sameEverywhere(pages, 5);
    turn = await whoseTurn(pages, 'decide_swap');
    await turn.page.click('button[data-act="act.keep"]');
    // White 6, then white offers a draw; black accepts.
    turn = await whoseTurn(pages, 'place');
    await play(turn.page, 'A15');
    await sameEverywhere(pages, 6);
    await turn.page.click('button[data-act="act.offer_draw"]');
    const other = turn.page === t.alice ? t.bob : t.alice;
    // The answer stands on a line of its own, not beside Pass.
    await other.waitForSelector('button[data-act="act.accept_draw"]');
    const rows = await other.evaluate(() => ['act.accept_draw', 'act.pass'].map((k) => document.querySelector(`button[data-act="${k}"]`)?.getBoundingClientRect().top));
    if (rows[1] != null) assert.notEqual(Math.round(rows[0] ?? 0), Math.round(rows[1]), 'Accept the draw beside Pass');
    await other.click('button[data-act="act.accept_draw"]');
    for (const p of pages) {
      await until(p, () => document.querySelector('#prompt')?.hasAttribute('data-over'));
      assert.match(await p.textContent('#prompt'), /Draw · agreed/);
    }
    const oldTable = t.table;
    for (const p of pages) await p.click('button[data-act="act.rematch"]');
    for (const p of pages) {
      await until(p, (old) => {
        const app = /** @type {any} */ (window).__tengen;
        return [...app.seated.values()].some((tb) => tb !== old) && document.querySelectorAll('ol.moves li').length === 0
          && document.querySelector('#prompt')?.hasAttribute('data-task');
      }, oldTable);
    }
    await sameEverywhere(pages, 0);
    // The opener switched: the seat that was asked first in the old game is not asked now.
    const now = await whoseTurn(pages);
    assert.equal(now.task, 'place');
  } finally {
    await b.close();
  }
});

test('Jonsson, Yamaguchi with 52 openings, the Yamaguchi variant: from the form to move 6', async () => {
  const b = await browser();
  try {
    // Jonsson: white declares (1-3) after its 4th, then black may swap.
    let t = await table(b, { ruleSet: 'renju', opening: 'jonsson' }, { spectator: false });
    let seen = await drive([t.alice, t.bob], ['H8', 'H9', 'I9', 'A1', 'K8', 'G12', 'A3'], 6);
    assert.deepEqual(seen.filter((s) => s !== 'place'), ['decide_swap', 'declare_offers', 'decide_swap', 'offer_fifths', 'keep_fifth']);
    assert.match(await t.alice.textContent('.side p.info'), /D4 Kagetsu/);
    // Yamaguchi-52: black 3 outside the 5x5 forms one of the extensions.
    t = await table(b, { ruleSet: 'renju', opening: 'yamaguchi_52' }, { spectator: false });
    seen = await drive([t.alice, t.bob], ['H8', 'H9', 'H11', 'A1', 'K8', 'G12', 'A3'], 6);
    assert.deepEqual(seen.filter((s) => s !== 'place'), ['declare_offers', 'decide_swap', 'offer_fifths', 'keep_fifth']);
    assert.match(await t.bob.textContent('.side p.info'), /LD1 Large direct 1/);
    // The variant: white 2 is asked of the other player.
    t = await table(b, { ruleSet: 'renju', opening: 'yamaguchi_variant' }, { spectator: false });
    const first = await whoseTurn([t.alice, t.bob], 'place');
    await play(first.page, 'H8');
    await sameEverywhere([t.alice, t.bob], 1);
    const second = await whoseTurn([t.alice, t.bob], 'place');
    assert.notEqual(second.page, first.page);
    seen = await drive([t.alice, t.bob], ['H9', 'E5', 'A1', 'K8', 'G12', 'A3'], 6);
    assert.deepEqual(seen.filter((s) => s !== 'place'), ['declare_offers', 'decide_swap', 'offer_fifths', 'keep_fifth']);
  } finally {
    await b.close();
  }
});

test('Sakata and Super Sakata: from the form to normal play', async () => {
  const b = await browser();
  try {
    // Sakata: the opener's three stones, then the other player's 4 (7×7) and 5 (9×9).
    let t = await table(b, { ruleSet: 'renju', opening: 'sakata' }, { spectator: false });
    let pages = [t.alice, t.bob];
    const opener = await whoseTurn(pages, 'place');
    for (const p of ['H8', 'H9', 'I9']) await play(opener.page, p);
    await sameEverywhere(pages, 3);
    const other = opener.page === t.alice ? t.bob : t.alice;
    assert.equal((await whoseTurn(pages, 'place')).page, other);
    assert.match(await other.textContent('#prompt'), /White 4 \(within the central 7×7\)/);
    // Outside the 7×7: the server's refusal is shown, nothing changes.
    await play(other, 'L12');
    await until(other, () => /central 7x7/.test(document.querySelector('#game-msg')?.textContent ?? ''));
    await play(other, 'K11');
    await sameEverywhere(pages, 4);
    assert.match(await other.textContent('#prompt'), /Black 5 \(within the central 9×9\)/);
    await play(other, 'L12');
    await sameEverywhere(pages, 5);
    // The opener chooses its colour; keeping black, the other plays white 6.
    let turn = await whoseTurn(pages, 'decide_swap');
    assert.equal(turn.page, opener.page);
    await turn.page.click('button[data-act="act.keep"]');
    turn = await whoseTurn(pages, 'place');
    assert.equal(turn.page, other);
    await play(other, 'A1');
    await sameEverywhere(pages, 6);

    // Super Sakata: after 5 the opener places two more; the other player then keeps white and plays 8.
    t = await table(b, { ruleSet: 'renju', opening: 'super_sakata' }, { spectator: false });
    pages = [t.alice, t.bob];
    await drive(pages, ['H8', 'H9', 'I9', 'K11', 'L12'], 5);
    turn = await whoseTurn(pages, 'super_sakata_choice');
    assert.match(await turn.page.textContent('#prompt'), /keep Black, swap, or place two more stones/);
    await turn.page.click('button[data-act="act.place_two_more"]');
    await play(turn.page, 'A1');
    await play(turn.page, 'O15');
    await sameEverywhere(pages, 7);
    const next = await whoseTurn(pages, 'super_sakata_choice');
    assert.notEqual(next.page, turn.page);
    assert.match(await next.page.textContent('#prompt'), /keep White/);
    await next.page.click('button[data-act="act.keep"]');
    const eighth = await whoseTurn(pages, 'place');
    assert.equal(eighth.page, next.page);
    assert.match(await eighth.page.textContent('#prompt'), /White 8/);
    await play(eighth.page, 'B1');
    await sameEverywhere(pages, 8);
    assert.equal((await whoseTurn(pages, 'place')).page, turn.page);
  } finally {
    await b.close();
  }
});
