// The player's table, through clicks only, at 1280 x 800 and 390 x 844:
//  - absence as on lichess: a player closes the tab; their clock runs on,
//    the server ends nothing; after the grace the opponent is offered to
//    claim the win, call a draw or wait, and the claim ends the game;
//  - a rematch offered after the other player went back to the lobby
//    reaches them there, and accepting it starts the new game;
//  - a claimed forbidden move: the claim is offered only once it can hold,
//    names black's stone, and the point is marked with its kind live, on
//    `/game/ID` and in its renju download; the lobby says which
//    forbidden-move handling a room uses.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, person, register, createRoom, table, tournamentGame, whoseTurn, sameEverywhere, play, shot, shots, until, BASE, DESKTOP, PHONE, clock } from './helpers.mjs';

test('a player who closed the tab: their clock runs, the opponent claims after the grace', async () => {
  const b = await browser();
  try {
    const { alice, bob, carol } = await table(b, { ruleSet: 'renju', opening: 'free', time: 'fischer', clock: { main: 2, increment: 0 } });
    const players = [alice, bob];
    let n = 0;
    for (const p of ['H8', 'I9']) {
      await play((await whoseTurn(players)).page, p);
      await sameEverywhere([alice, bob, carol], (n += 1));
    }
    // Black is to move, and closes the tab.
    const { page: gone } = await whoseTurn(players);
    const stay = gone === alice ? bob : alice;
    const goneSeat = await gone.evaluate(() => /** @type {any} */ (window).__tengen.current.seat);
    await gone.context().close();
    // The opponent sees the grace count down; the absent clock runs on.
    await until(stay, (s) => /\d+ s/.test(document.querySelector(`[data-away="${s}"]`)?.textContent || ''), goneSeat);
    const before = await clock(stay, goneSeat);
    assert.ok(before.running, 'the absent player\'s clock runs');
    await shots(stay, 'absence-grace');
    // After the grace (15 s: a tenth of 2 min, 15 s at least): claim, draw or wait.
    await until(stay, () => document.querySelector('[data-absence="claim"]'), undefined, 25000);
    const after = await clock(stay, goneSeat);
    assert.ok(after.running && after.s < before.s - 10, `the clock ran on: ${before.s} s, then ${after.s} s`);
    for (const p of [stay, carol]) assert.equal(await p.getAttribute('#prompt', 'data-over'), null, 'the server ended nothing');
    assert.match(await stay.textContent('[data-absence]'), /has left: their clock runs on\. Claim the win, call it a draw, or wait\./);
    await shots(stay, 'absence-claim');
    // Waiting keeps the claim at hand; then the claim ends the game.
    await stay.click('button[data-act="act.wait"]');
    await until(stay, () => document.querySelector('[data-absence="waiting"]'));
    await stay.click('button[data-act="act.claim_win"]');
    const winner = await stay.evaluate(() => /** @type {any} */ (window).__tengen.me.name);
    for (const p of [stay, carol]) {
      await until(p, () => document.querySelector('#prompt')?.hasAttribute('data-over'));
      assert.match(await p.textContent('#prompt'), new RegExp(`^${winner} \\((Black|White)\\) wins · by abandonment$`));
    }
    await shots(stay, 'absence-claimed');
  } finally {
    await b.close();
  }
});

test('a rematch offered after the other player left for the lobby: offered there, accepted, played', async () => {
  const b = await browser();
  try {
    const { alice, bob, room, table: first } = await table(b, { ruleSet: 'gomoku', opening: 'free' }, { spectator: false });
    let n = 0;
    for (const p of ['H8', 'I9']) {
      await play((await whoseTurn([alice, bob])).page, p);
      await sameEverywhere([alice, bob], (n += 1));
    }
    await alice.click('button[data-act="act.resign"]');
    await alice.click('button[data-act="act.yes"]');
    for (const p of [alice, bob]) await until(p, () => document.querySelector('#prompt')?.hasAttribute('data-over'));
    // Alice goes back to the lobby; Bob then offers a rematch.
    await alice.click('button[data-act="act.leave"]');
    await alice.waitForURL(`${BASE}/`);
    await bob.click('button[data-act="act.rematch"]');
    await until(bob, () => document.querySelector('[data-rematch-waiting]'));
    // The lobby tells Alice, with the game's configuration.
    await until(alice, () => document.querySelector('[data-rematch-offer]'));
    assert.match(await alice.textContent('[data-rematch-offer]'), /^bob\S* offers a rematch: Gomoku 15×15 · Free/);
    await shots(alice, 'rematch-in-lobby');
    await alice.click('[data-rematch-offer] button:text("Accept")');
    // Both are seated at the new game, which starts from an empty board.
    for (const p of [alice, bob]) {
      await until(p, (old) => {
        const st = /** @type {any} */ (window).__tengen.current;
        return st && st.table !== old && st.seat && location.pathname.startsWith('/play/') && !st.over;
      }, first, 15000);
      assert.equal(await p.locator('[data-stone]').count(), 0);
    }
    assert.match(alice.url(), /\/play\//);
    assert.notEqual(await alice.evaluate(() => /** @type {any} */ (window).__tengen.current.table), first);
    assert.ok(room);
  } finally {
    await b.close();
  }
});

// Black H8 I8 J9 J10 (white far away on the A file): black's J8 makes two
// threes.
const SETUP = ['H8', 'A1', 'I8', 'A3', 'J9', 'A5', 'J10', 'A7'];

test('a claimed forbidden move is marked with its kind, live and in the record; the lobby names the handling', async () => {
  const b = await browser();
  try {
    const dave = await person(b, 'dave');
    const t = await table(b, { ruleSet: 'renju', opening: 'free' });
    const all = [t.alice, t.bob, t.carol];
    const players = [t.alice, t.bob];
    // The lobby names the room's forbidden-move handling.
    await until(dave, (room) => document.querySelector(`tr[data-room="${room}"] [data-forbidden-rule="claim"]`), t.room);
    assert.match(await dave.textContent(`tr[data-room="${t.room}"]`), /Claim \(white claims\)/);
    await shots(dave, 'lobby-forbidden-rule');
    // On the phone the time control is still shown (its column is not).
    await dave.setViewportSize(PHONE);
    assert.equal(await dave.isVisible(`tr[data-room="${t.room}"] [data-time]`), true);
    assert.match(await dave.textContent(`tr[data-room="${t.room}"] [data-time]`), /Unlimited/);
    await dave.setViewportSize(DESKTOP);
    assert.equal(await dave.isVisible(`tr[data-room="${t.room}"] [data-time]`), false);
    let n = 0;
    for (const p of SETUP) {
      const turn = await whoseTurn(players);
      // No claim is offered while none can hold (no black stone could be forbidden yet).
      for (const q of players) assert.equal(await q.locator('button[data-act="act.claim_at"]').count(), 0, `before move ${n + 1}`);
      await play(turn.page, p);
      await sameEverywhere(all, (n += 1));
    }
    const black = (await whoseTurn(players)).page;
    const white = black === t.alice ? t.bob : t.alice;
    await play(black, 'J8');
    await sameEverywhere(all, (n += 1));
    // White's claim names black's stone.
    await until(white, () => document.querySelector('button[data-act="act.claim_at"]'));
    assert.equal(await white.textContent('button[data-act="act.claim_at"]'), 'Claim J8 forbidden');
    await white.click('button[data-act="act.claim_at"]');
    for (const p of all) {
      await until(p, () => document.querySelector('#prompt')?.hasAttribute('data-over'));
      assert.match(await p.textContent('#prompt'), /\(White\) wins · forbidden move claimed: J8 \(double-three\)$/);
      await until(p, () => document.querySelector('[aria-label="J8"]')?.getAttribute('data-claimed') === 'double-three');
    }
    await shots(t.carol, 'claim-live');
    // The record: the same mark and words on /game/ID, the tags, the download.
    await until(t.carol, async (game) => {
      try { await /** @type {any} */ (window).__tengen.conn.request({ type: 'game_record', game, format: 'json' }); return true; } catch { return false; }
    }, t.table, 15000);
    await t.carol.goto(`${BASE}/game/${t.table}`);
    await until(t.carol, () => document.querySelector('[aria-label="J8"]')?.getAttribute('data-claimed') === 'double-three');
    assert.match(await t.carol.textContent('.viewer .prompt'), /\(White\) wins · forbidden move claimed: J8 \(double-three\)$/);
    const whiteName = await white.evaluate(() => /** @type {any} */ (window).__tengen.me.name);
    const blackName = await black.evaluate(() => /** @type {any} */ (window).__tengen.me.name);
    assert.equal(await t.carol.textContent('[data-tag="Black"]'), blackName);
    assert.equal(await t.carol.textContent('[data-tag="White"]'), whiteName);
    assert.equal(await t.carol.textContent('[data-tag="Result"]'), 'white wins');
    assert.match(await t.carol.textContent('[data-tag="Termination"]'), /J8 \(double-three\)/);
    assert.equal(await t.carol.locator('ol.moves li').count(), 9);
    await shots(t.carol, 'claim-record');
    const [dl] = await Promise.all([t.carol.waitForEvent('download'), t.carol.click('button:text("RENJU")')]);
    const text = await (await import('node:fs/promises')).readFile(await dl.path(), 'utf8');
    assert.match(text, new RegExp(`^\\[Black "${blackName}"\\]$`, 'm'));
    assert.match(text, /^\[Termination ".*J8 \(double-three\)"\]$/m);
    assert.match(text, /^1\. h8 2\. a1 /m);
  } finally {
    await b.close();
  }
});

test('a tournament game ends with the way back to its tournament, not a rematch', async () => {
  const b = await browser();
  try {
    const { id, players } = await tournamentGame(b, 'Table', { kind: 'unlimited' });
    // The game takes both players' pages; one resigns after two moves.
    let n = 0;
    for (const pt of ['H8', 'I9']) {
      await play((await whoseTurn(players)).page, pt);
      await sameEverywhere(players, (n += 1));
    }
    // No takeback in a tournament game.
    for (const p of players) assert.equal(await p.locator('button[data-act="act.request_takeback"]').count(), 0);
    await players[0].click('button[data-act="act.resign"]');
    await players[0].click('button[data-act="act.yes"]');
    for (const p of players) {
      await until(p, () => document.querySelector('#prompt')?.hasAttribute('data-over'));
      assert.equal(await p.locator('button[data-act="act.rematch"]').count(), 0, 'no rematch in a tournament');
      await p.waitForSelector('a[data-act="act.to_tournament"]');
    }
    await shots(players[1], 'tournament-game-over');
    await players[1].click('a[data-act="act.to_tournament"]');
    await players[1].waitForURL(`**/tournament/${id}`);
    await until(players[1], () => document.querySelector('.tournament-state'));
  } finally {
    await b.close();
  }
});

test('a takeback in a casual game: asked, allowed, the move gone everywhere', async () => {
  const b = await browser();
  try {
    const { alice, bob, carol } = await table(b, { ruleSet: 'gomoku', opening: 'free' });
    const all = [alice, bob, carol];
    let n = 0;
    for (const pt of ['H8', 'I9', 'H9']) {
      await play((await whoseTurn([alice, bob])).page, pt);
      await sameEverywhere(all, (n += 1));
    }
    // The player who just moved asks; the opponent allows it.
    const { page: toMove } = await whoseTurn([alice, bob]);
    const asker = toMove === alice ? bob : alice;
    // The tab's title says whose move it is.
    await until(toMove, () => document.title.startsWith('● '));
    assert.ok(!(await asker.title()).startsWith('● '));
    await asker.click('button[data-act="act.request_takeback"]');
    await until(toMove, () => document.querySelector('button[data-act="act.accept_takeback"]'));
    assert.match(await toMove.textContent('[data-takeback]'), /asks to take back a move/);
    await shots(toMove, 'takeback-asked');
    await toMove.click('button[data-act="act.accept_takeback"]');
    await sameEverywhere(all, 2);
    assert.equal((await whoseTurn([alice, bob])).page, asker, 'the asker moves again');
    await play(asker, 'J10');
    const final = await sameEverywhere(all, 3);
    assert.deepEqual(final.moves.slice(2), ['j10']);
    // The asker offers a draw; the opponent declines; the offerer is told.
    await asker.click('button[data-act="act.offer_draw"]');
    await toMove.click('button[data-act="act.decline_draw"]');
    await until(asker, () => /declined your draw offer/.test(document.querySelector('.chat')?.textContent || document.body.textContent || ''));
  } finally {
    await b.close();
  }
});

test('the eight-stone overtime\'s plain reading from the form: a move late in main time loses', async () => {
  const b = await browser();
  try {
    const alice = await person(b, 'alice');
    const bob = await person(b, 'bob');
    const room = await createRoom(alice, { ruleSet: 'freestyle', time: 'eight_stone', fields: { main: 5, move: 3, stones: 8 }, checks: ['move_limit_in_main'] });
    await bob.goto(`${BASE}/play/${room}`);
    for (const p of [alice, bob]) await p.waitForSelector('svg.board');
    const tc = await alice.evaluate(() => /** @type {any} */ (window).__tengen.current.config.time);
    assert.equal(tc.move_limit_in_main, true, JSON.stringify(tc));
    // Nobody moves: 3 s a move holds in the 5 minutes of main time too.
    for (const p of [alice, bob]) {
      await until(p, () => document.querySelector('#prompt')?.hasAttribute('data-over'), undefined, 15000);
      assert.match(await p.textContent('#prompt'), /wins · on time$/);
    }
  } finally {
    await b.close();
  }
});

test('the theme switch: dark, light, the system\'s again, kept across a reload', async () => {
  const b = await browser();
  try {
    const p = await person(b, 'tess');
    const bg = () => p.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await bg();
    await p.click('#theme-btn');
    await until(p, () => document.documentElement.dataset.theme === 'dark');
    const dark = await bg();
    assert.notEqual(dark, light);
    await p.reload();
    await until(p, () => /** @type {any} */ (window).__tengen?.me);
    assert.equal(await p.evaluate(() => document.documentElement.dataset.theme), 'dark');
    assert.equal(await bg(), dark);
    await shots(p, 'theme-dark-lobby');
    await p.click('#theme-btn');
    await until(p, () => document.documentElement.dataset.theme === 'light');
    assert.equal(await bg(), light);
    await p.click('#theme-btn');
    await until(p, () => document.documentElement.dataset.theme === undefined);
  } finally {
    await b.close();
  }
});

test('Tengen TV at 1280 x 860: the whole board above the fold, the panel beside it', async () => {
  const b = await browser();
  try {
    const { alice, bob } = await table(b, { ruleSet: 'gomoku', opening: 'free' }, { spectator: false });
    await play((await whoseTurn([alice, bob])).page, 'H8');
    const viewer = await person(b, 'vic', '/tv', { width: 1280, height: 860 });
    await viewer.waitForSelector('.tv svg.board');
    const box = await viewer.evaluate(() => {
      const r = document.querySelector('.tv svg.board')?.getBoundingClientRect();
      const side = document.querySelector('.tv .side')?.getBoundingClientRect();
      return { bottom: r?.bottom ?? 0, right: r?.right ?? 0, side: side?.left ?? 0, height: innerHeight };
    });
    assert.ok(box.bottom <= box.height, `the board ends at ${box.bottom} px of ${box.height}`);
    assert.ok(box.side - box.right < 40, `${box.side - box.right} px between the board and the panel`);
    await shot(viewer, 'tv-1280x860');
    await shots(viewer, 'tv');
  } finally {
    await b.close();
  }
});

test('a notification when it becomes your move in a hidden tab', async () => {
  const b = await browser();
  try {
    const prepare = async (context) => {
      await context.grantPermissions(['notifications'], { origin: BASE });
      await context.addInitScript(() => {
        const w = /** @type {any} */ (window);
        w.__notes = [];
        w.__hide = false;
        Object.defineProperty(document, 'hidden', { get: () => w.__hide });
        const Real = w.Notification;
        if (Real) w.Notification = class extends Real { constructor(title, o) { super(title, o); w.__notes.push([title, o?.body]); } };
      });
    };
    const { alice, bob } = await table(b, { ruleSet: 'gomoku', opening: 'free' }, { spectator: false, prepare });
    const first = (await whoseTurn([alice, bob])).page;
    const other = first === alice ? bob : alice;
    // The other player's tab is hidden: the move is announced there.
    await other.evaluate(() => { /** @type {any} */ (window).__hide = true; });
    await play(first, 'H8');
    const notes = await until(other, () => { const n = /** @type {any} */ (window).__notes; return n.length && n; });
    assert.deepEqual(notes[0], ['Your move', 'Your turn: place White 2']);
    // A visible tab is not notified.
    await play(other, 'I9');
    await until(first, () => document.querySelector('#prompt')?.getAttribute('data-mine-task') === 'place');
    assert.equal(await first.evaluate(() => /** @type {any} */ (window).__notes.length), 0);
  } finally {
    await b.close();
  }
});

test('an overline claimed later: white names the stone on the board', async () => {
  const b = await browser();
  try {
    const t = await table(b, { ruleSet: 'renju', opening: 'free' }, { spectator: false });
    const players = [t.alice, t.bob];
    // Black H8 H9 H10 H12 H13, then H11: six in a row, an overline (white on the A file).
    let n = 0;
    for (const p of ['H8', 'A1', 'H9', 'A3', 'H10', 'A5', 'H12', 'A7', 'H13', 'A9', 'H11']) {
      await play((await whoseTurn(players)).page, p);
      await sameEverywhere(players, (n += 1));
    }
    const white = (await whoseTurn(players)).page;
    const black = white === t.alice ? t.bob : t.alice;
    // White plays on, black too; the overline can still be claimed.
    await play(white, 'A11');
    await sameEverywhere(players, (n += 1));
    await play(black, 'O15');
    await sameEverywhere(players, (n += 1));
    await white.click('button[data-act="act.claim_pick"]');
    assert.equal(await white.textContent('#prompt'), 'Click the black stone you claim is forbidden.');
    await play(white, 'H11');
    for (const p of players) {
      await until(p, () => document.querySelector('#prompt')?.hasAttribute('data-over'));
      assert.match(await p.textContent('#prompt'), /\(White\) wins · forbidden move claimed: H11 \(overline\)$/);
      await until(p, () => document.querySelector('[aria-label="H11"]')?.getAttribute('data-claimed') === 'overline');
    }
    await shots(white, 'claim-overline-later');
  } finally {
    await b.close();
  }
});

test('a premove: queued in the opponent\'s turn, played the moment the turn comes', async () => {
  const b = await browser();
  try {
    const t = await table(b, { ruleSet: 'gomoku', opening: 'free' }, { spectator: false });
    const players = [t.alice, t.bob];
    let n = 0;
    for (const p of ['H8', 'I9', 'H9', 'I10', 'H10']) {
      await play((await whoseTurn(players)).page, p);
      await sameEverywhere(players, (n += 1));
    }
    const mover = (await whoseTurn(players)).page;
    const waiter = mover === t.alice ? t.bob : t.alice;
    // Black waits for white's move 6 and queues H11 meanwhile (a second click drops it; a third queues it again).
    for (let i = 0; i < 3; i++) await play(waiter, 'H11');
    await until(waiter, () => document.querySelector('[aria-label="H11"]')?.getAttribute('data-mark') === '·');
    await shots(waiter, 'premove');
    await play(mover, 'H12');
    const final = await sameEverywhere(players, 7);
    assert.deepEqual(final.moves.slice(5), ['h12', 'h11']);
    // In dark mode the current move in the list reads clearly (WCAG AA: a
    // contrast of 4.5 at least), as every other move does.
    await waiter.click('#theme-btn');
    await until(waiter, () => document.documentElement.dataset.theme === 'dark');
    await waiter.click('ol.moves li[data-n="6"]');
    await until(waiter, () => document.querySelector('ol.moves li.at')?.getAttribute('data-n') === '6');
    const contrast = await waiter.evaluate(() => {
      /** @param {string} c */
      const rgb = (c) => (c.match(/[\d.]+/g) || []).slice(0, 3).map(Number);
      /** @param {number[]} c */
      const lum = (c) => {
        const [r, g, b] = c.map((v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      /** The colour behind `el`: its own, or its nearest ancestor's. @param {Element|null} el */
      const behind = (el) => {
        for (; el; el = el.parentElement) {
          const c = getComputedStyle(el).backgroundColor;
          if (c && !/rgba\(.*, 0\)$/.test(c) && c !== 'transparent') return c;
        }
        return 'rgb(255, 255, 255)';
      };
      return [...document.querySelectorAll('ol.moves li')].map((li) => {
        /** @param {number} a @param {number} b */
        const ratio = (a, b) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        const fg = lum(rgb(getComputedStyle(li).color));
        // The text on the item's own background, and its number (the list
        // marker, outside that background) on the list's.
        return { n: li.getAttribute('data-n'), at: li.classList.contains('at'), ratio: Math.min(ratio(fg, lum(rgb(behind(li)))), ratio(fg, lum(rgb(behind(li.parentElement))))) };
      });
    });
    for (const c of contrast) assert.ok(c.ratio >= 4.5, `move ${c.n}${c.at ? ' (the current one)' : ''}: contrast ${c.ratio.toFixed(2)}`);
    assert.ok(contrast.some((c) => c.at));
    await shots(waiter, 'dark-current-move');
  } finally {
    await b.close();
  }
});
