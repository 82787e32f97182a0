// The browser tests' harness: one headless Chromium (the system's, driven
// by playwright-core), a fresh browser context per person (its own
// storage, so its own session), and helpers that act through the page as a
// person would: clicking points by their accessible name, pressing buttons.
//
// The server is a real tengen-server at TENGEN_URL (server/tests/it/web.rs
// starts one and runs these tests; see web/README.md to run them by hand).

import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import assert from 'node:assert/strict';

export const BASE = process.env.TENGEN_URL || 'http://127.0.0.1:8415';
export const SHOTS = process.env.TENGEN_SCREENSHOTS || '../target/web-screenshots';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

/** Starts Chromium (a fresh profile each time). */
export async function browser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ARGS,
    headless: true,
  });
}

/**
 * Polls `fn` in the page until it returns something truthy (Playwright's
 * waitForFunction evaluates a string in the page, which the page's CSP
 * forbids: the tests keep the real CSP on).
 */
export async function until(page, fn, arg, timeout = 10000) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await page.evaluate(fn, arg);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${fn.toString().slice(0, 120)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Counts dialogs (alert, confirm) a page opens: none may open. */
export const dialogs = [];

/**
 * A person: a page in its own context, at `path`, connected as `name`.
 * @param {import('playwright-core').Browser} b
 */
export async function person(b, name, path = '/', viewport = { width: 1280, height: 860 }, prepare = async (_context) => {}) {
  const context = await b.newContext({ viewport });
  await prepare(context);
  await context.addInitScript((n) => {
    // Quiet unless a test turned the sound on (its own init script runs first).
    try {
      if (!localStorage.getItem('tengen.name')) localStorage.setItem('tengen.name', n);
      if (localStorage.getItem('tengen.muted') == null) localStorage.setItem('tengen.muted', '1');
    } catch { /* about:blank */ }
  }, name);
  const page = await context.newPage();
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  page.on('pageerror', (e) => { console.error(`[${name}] page error: ${e.message}`); });
  await page.goto(BASE + path);
  await until(page, () => /** @type {any} */ (window).__tengen?.me);
  return page;
}

/** Creates a room from the lobby form (`clock`, `fields`: more inputs to fill, by name; `checks`: boxes to tick); returns the room id. */
export async function createRoom(page, { ruleSet = 'renju', opening = 'free', time = 'unlimited', clock = {}, fields = {}, checks = [], forbidden, isPublic = true, name } = {}) {
  await page.selectOption('select[name=rule_set]', ruleSet);
  await page.selectOption('select[name=opening]', opening);
  await page.selectOption('select[name=time]', time);
  // The time control's fields as the form names them: main (min), increment,
  // periods, period (s), moves; boxes to tick (`shared_main`).
  for (const [field, v] of Object.entries({ ...clock, ...fields })) await page.fill(`input[name=${field}]`, String(v));
  for (const box of checks) await page.check(`input[name=${box}]`);
  if (forbidden) await page.selectOption('select[name=forbidden]', forbidden);
  if (!isPublic) await page.uncheck('input[name=public]');
  if (name) await page.fill('input[name=name]', name);
  await page.click('form.create-room button[type=submit]');
  return until(page, () => /** @type {any} */ (window).__tengen.waiting);
}

/** Two players at a new table of the given kind, and optionally a spectator. */
export async function table(b, opts = {}, { spectator = true, prepare = undefined } = {}) {
  const alice = await person(b, 'alice', '/', undefined, prepare);
  const bob = await person(b, 'bob', '/', undefined, prepare);
  const room = await createRoom(alice, opts);
  await bob.goto(`${BASE}/play/${room}`);
  await Promise.all([alice, bob].map((p) => p.waitForURL(`**/play/${room}`)));
  await Promise.all([alice, bob].map((p) => p.waitForSelector('svg.board')));
  const tableId = await alice.evaluate(() => /** @type {any} */ (window).__tengen.seated.values().next().value);
  let carol = null;
  if (spectator) {
    carol = await person(b, 'carol', `/watch/${tableId}`);
    await carol.waitForSelector('svg.board');
  }
  return { alice, bob, carol, room, table: tableId };
}

/** The page whose prompt is its own (for the task `want`, if given), and the task. */
export async function whoseTurn(pages, want = null) {
  for (let i = 0; i < 200; i++) {
    for (const p of pages) {
      const task = await p.getAttribute('#prompt', 'data-mine-task').catch(() => null);
      if (task && (!want || task === want)) return { page: p, task };
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('nobody is asked to act');
}

/** The board as a page shows it: "H8:black" for every stone, sorted. */
export async function stones(page) {
  return page.$$eval('[data-stone]', (els) => els.map((e) => `${e.getAttribute('aria-label')}:${e.getAttribute('data-stone')}`).sort());
}

/** The move list as a page shows it. */
export async function moveList(page) {
  return page.$$eval('ol.moves li', (els) => els.map((e) => e.textContent));
}

/** Waits until every page shows `n` moves, then checks they all agree. */
export async function sameEverywhere(pages, n) {
  for (const p of pages) await until(p, (k) => document.querySelectorAll('ol.moves li').length === k, n);
  const first = { stones: await stones(pages[0]), moves: await moveList(pages[0]) };
  assert.equal(first.moves.length, n);
  for (const p of pages.slice(1)) {
    assert.deepEqual(await stones(p), first.stones);
    assert.deepEqual(await moveList(p), first.moves);
  }
  return first;
}

/** Clicks point `p` on `page`'s board (twice in click-twice mode). */
export async function play(page, p) {
  await page.click(`svg.board [aria-label="${p}"]`);
}

/**
 * Counts the tones a page starts: wraps its AudioContext (before the
 * page's scripts run) so that `window.__tones` lists the frequency of
 * every oscillator started. Pass as `person`'s `prepare`.
 * @param {import('playwright-core').BrowserContext} context
 */
export async function countTones(context) {
  await context.addInitScript(() => {
    const w = /** @type {any} */ (window);
    w.__tones = [];
    const Real = w.AudioContext;
    if (!Real) return;
    w.AudioContext = class extends Real {
      createOscillator() {
        const o = super.createOscillator();
        const start = o.start.bind(o);
        o.start = (when) => { w.__tones.push(o.frequency.value); start(when); };
        return o;
      }
    };
  });
}

/** The tones `page` started so far (see countTones). */
export async function tones(page) {
  return page.evaluate(() => /** @type {any} */ (window).__tones.slice());
}

export async function shot(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Registers `name` from the account dialog; the page is then logged in. */
export async function register(page, name) {
  await page.click('#account-btn');
  await page.fill('dialog input[name=name]', name);
  await page.fill('dialog input[name=password]', 'correct horse battery');
  await page.click('dialog button:text("Register")');
  await until(page, (n) => document.querySelector('#me-name')?.textContent === n, name);
  // The login token is kept in the browser, never in the address.
  assert.ok(await page.evaluate(() => localStorage.getItem('tengen.token')));
  assert.doesNotMatch(page.url(), /token/);
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/**
 * Screenshots of `page` at 1280 x 800 (`NAME-desktop`) and 390 x 844
 * (`NAME-phone`); the page stays at the desktop size. At 1280 px a game's
 * panel sits beside the board without a wide gap; on the phone nothing is
 * wider than the screen.
 */
export async function shots(page, name) {
  await page.setViewportSize(DESKTOP);
  await shot(page, `${name}-desktop`);
  const gap = await page.evaluate(() => {
    const board = document.querySelector('.game .board-wrap')?.getBoundingClientRect();
    const side = document.querySelector('.game .side')?.getBoundingClientRect();
    return board && side ? side.left - board.right : null;
  });
  if (gap != null) assert.ok(gap >= 0 && gap < 40, `${gap} px between the board and the panel`);
  await page.setViewportSize(PHONE);
  await shot(page, `${name}-phone`);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= PHONE.width + 1, `the phone page is ${wide} px wide`);
  await page.setViewportSize(DESKTOP);
}

/** The clock of `seat` on `page` in seconds (`1:38`), and whether it runs. */
export async function clock(page, seat) {
  return page.$eval(`[data-clock="${seat}"]`, (el) => {
    const [m, s] = (el.textContent || '').split(':').map(Number);
    return { s: m * 60 + s, running: el.classList.contains('running') };
  });
}

/**
 * A RIF opening played by `players`, every page in `all` showing each
 * move: H8 I9 J8, the second player swaps, white A1, black offers K8 and
 * H10, white keeps K8. Returns the moves played (5) and black's page.
 */
export async function rifOpening(players, all) {
  let n = 0;
  const place = async (point) => {
    await play((await whoseTurn(players, 'place')).page, point);
    await sameEverywhere(all, (n += 1));
  };
  await place('H8');
  await place('I9');
  await place('J8');
  await (await whoseTurn(players, 'decide_swap')).page.click('button[data-act="act.swap"]');
  await place('A1');
  const black = (await whoseTurn(players, 'offer_fifths')).page;
  await play(black, 'K8');
  await play(black, 'H10');
  await black.click('button[data-act="act.send_offers"]');
  await play((await whoseTurn(players, 'keep_fifth')).page, 'K8');
  await sameEverywhere(all, (n += 1));
  return { n, black };
}

/**
 * A one-round Swiss of two players made through the pages: an organiser
 * creates it (gomoku, `time` as the form's fields) and starts it once both
 * have joined; returns when both players' pages show the game's board.
 * @param {import('playwright-core').Browser} b
 * @param {string} title
 * @param {{ kind: string, main?: string, increment?: string }} time
 */
export async function tournamentGame(b, title, time) {
  const tag = (Date.now() % 1e7).toString(36);
  const org = await person(b, 'olga', '/tournaments');
  await register(org, `org${tag}`);
  await org.waitForSelector('form.create-tournament');
  await org.fill('input[name=tname]', `${title} ${tag}`);
  await org.selectOption('select[name=system]', 'swiss');
  await org.fill('input[name=rounds]', '1');
  await org.selectOption('select[name=rule_set]', 'gomoku');
  await org.selectOption('select[name=time]', time.kind);
  if (time.main !== undefined) await org.fill('input[name=main]', time.main);
  if (time.increment !== undefined) await org.fill('input[name=increment]', time.increment);
  await org.click('form.create-tournament button[type=submit]');
  await org.waitForURL('**/tournament/*');
  const id = org.url().split('/').pop();
  const players = [];
  for (const [i, name] of [`p${tag}`, `q${tag}`].entries()) {
    const p = await person(b, ['pia', 'quin'][i], `/tournament/${id}`);
    await register(p, name);
    await p.click('button[data-act=join]');
    await until(p, (n) => document.querySelector(`li[data-player="${n}"]`), name);
    players.push(p);
  }
  await until(org, () => document.querySelectorAll('ul.entrants li').length === 2);
  await org.click('button[data-act=start]');
  for (const p of players) { await p.waitForURL('**/play/*', { timeout: 20000 }); await p.waitForSelector('svg.board'); }
  return { org, id, players, tag };
}
