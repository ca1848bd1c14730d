#!/usr/bin/env node
// End-to-end test of games that live on the server, seen by several pages
// in headless Chromium (Debian's /usr/bin/chromium driven by playwright-core)
// against `duel serve --port 0`: a second browser watches a game between
// people, gets each move within a second and cannot move; stale moves are
// refused with the game as it is; two programs play on across a reload,
// then Stop pauses them; New game in a second tab leaves the first tab's
// game alive; checkers is drawn from the person's side; a draw agreed
// through a play link, one a program declines, and a resignation; a pasted
// PGN analysed (evaluation, arrow, three lines) and a PDN imported.
//
//   node tests/web/live.mjs DUEL_BIN [OUTDIR]
//
// OUTDIR (or $DUEL_E2E_OUT; default a new temporary dir) receives the
// screenshots. Prints one line per case. Exit 0: all passed; 1: a failure
// (FAIL line; screenshots NAME-failure-N.png); 77: skipped (no Chromium or no
// node_modules: run scripts/setup-node.sh). $DUEL_CHROMIUM overrides
// /usr/bin/chromium; $DUEL_WEB_ROOT=web serves the page from disk.
import { join } from 'node:path';

import {
  STEP_MS, check, clickFirstMove, runCase, setup, sqSel, startServer, stopServer, waitTurn,
} from './support.mjs';

const { duelBin, chromium, chromiumPath, outDir } = await setup('live.mjs');
const DELIVERY_MS = 1000;  // a move reaches a watching page within this

// ---- pages -------------------------------------------------------------------

// The pages a case opened (screenshots on a failure), their browser
// contexts (closed after each case) and the errors seen in them.
let pages = [];
let contexts = [];
let pageErrors = [];

function watchErrors(page, name) {
  page.on('pageerror', (e) => pageErrors.push(`${name}: ${e.message}`));
  page.on('console', (m) => {
    // Refusals the cases ask for (403, 409) and the events a stale page blocks.
    if (m.type() === 'error' && !/40[0349]|Bad Request|Not Found|Conflict|Forbidden|ERR_FAILED/.test(m.text())) {
      pageErrors.push(`${name}: ${m.text()} (${m.location()?.url ?? ''})`);
    }
  });
}

// A page in `ctx` (a new browser context, with its own localStorage, when
// none is given) at `path`, once it shows a game.
async function openPage(browser, base, path, name, ctx = null) {
  if (!ctx) {
    ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    contexts.push(ctx);
  }
  const page = await ctx.newPage();
  pages.push({ name, page });
  watchErrors(page, name);
  await page.goto(`${base}${path}`);
  await shows(page);
  return page;
}

// Waits until the page shows a game (`id`, else any but `not`) and is not
// still loading or starting one.
const shows = (page, { id = null, not = null } = {}) => page.waitForFunction(([want, was]) => {
  const g = document.body.dataset.gameId || '';
  return document.querySelector('#board .sq') && !['starting', 'loading'].includes(document.body.dataset.phase) &&
         g && (want ? g === want : g !== was);
}, [id, not], { timeout: STEP_MS });

const gameId = (page) => page.$eval('body', (b) => b.dataset.gameId || '');
const statusText = async (page) => (await page.textContent('#status')).trim();


// The moves in the list (buttons: not the "…" before a second player's first).
const historyLength = (page) => page.$$eval('#history button.mv', (l) => l.length);
const waitHistory = (page, n) => page.waitForFunction((k) => document.querySelectorAll('#history button.mv').length >= k,
                                                      n, { timeout: STEP_MS });

// Sets up a game in the form and presses New game.
async function newGame(page, { game, spec, position = '', first, second, delay = 0 }) {
  const old = await gameId(page);
  await page.selectOption('#game-select', game);
  await page.fill('#spec', spec);
  await page.fill('#position', position);
  await page.fill('#first-agent', first);
  await page.fill('#second-agent', second);
  await page.fill('#watch-delay', String(delay));
  await page.click('#new-game');
  await shows(page, { not: old });
  return gameId(page);
}


// Notes in the page when its move list first holds each number of moves
// (Date.now(), the same clock in every page of the browser).
const noteMoveTimes = (page) => page.evaluate(() => {
  window.seenAt = {};
  const note = () => { window.seenAt[document.querySelectorAll('#history button.mv').length] ??= Date.now(); };
  new MutationObserver(note).observe(document.getElementById('history'), { childList: true, subtree: true });
  note();
});
const seenAt = (page, n) => page.evaluate((k) => window.seenAt[k], n);

// How the board is drawn: the first square drawn (top left), the side named
// below it, and the pieces on squares drawn above and below its middle.
function facing(page) {
  return page.evaluate(() => {
    const board = document.querySelector('#board');
    const box = board.getBoundingClientRect();
    const out = { first: board.querySelector('.sq').dataset.square, top: '', bottom: '',
                  name: document.querySelector('#player-bottom .name').textContent.trim() };
    for (const sq of board.querySelectorAll('.sq')) {
      const r = sq.getBoundingClientRect();
      out[r.top + r.height / 2 < box.top + box.height / 2 ? 'top' : 'bottom'] += sq.dataset.piece || '';
    }
    return out;
  });
}

const viewOf = async (base, id) => (await fetch(`${base}/api/games/${id}`)).json();
const seatsIn = (page, id) => page.evaluate((k) => JSON.parse(localStorage.getItem(k) || 'null'), `duel.seats.${id}`);

// A draw offered for `seat` by fetch, not by the page (202: the offer
// stands), and the page's view of the game's next event, which redraws its
// status line.
async function offerDrawByFetch(page, id, seat, what) {
  const version = Number(await page.evaluate(() => document.body.dataset.version));
  const answered = await page.evaluate(async ([g, s]) => (await fetch(`/api/games/${g}/draw`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ seat: s }) })).status,
  [id, seat]);
  check(answered === 202, `${what} answered ${answered}`);
  await page.waitForFunction((v) => Number(document.body.dataset.version) > v, version, { timeout: STEP_MS });
}

// A game between people, both seats held by a page of a new browser.
async function peoplesGame(browser, base) {
  const a = await openPage(browser, base, '/', 'A');
  const id = await newGame(a, { game: 'gardner', spec: 'gardner', first: 'human', second: 'human' });
  check(new URL(a.url()).pathname === `/g/${id}`, `after New game the address is ${a.url()}, want /g/${id}`);
  const seats = await seatsIn(a, id);
  check(Array.isArray(seats) && seats.every((s) => /^[0-9a-f]{32}$/.test(s ?? '')), `A's seats: ${JSON.stringify(seats)}`);
  return { a, id, seats };
}

// ---- cases -------------------------------------------------------------------

// 1. Page A plays both sides; page B (another browser) sees each move
// within a second and cannot move.
async function twoPages(browser, base) {
  const { a, id } = await peoplesGame(browser, base);
  const b = await openPage(browser, base, `/g/${id}`, 'B');
  check((await gameId(b)) === id, `B opened ${await gameId(b)}, not ${id}`);
  check(!((await seatsIn(b, id)) ?? []).some(Boolean), 'B holds a seat');
  check(/watching/.test(await statusText(b)), `B's status reads '${await statusText(b)}', not that it watches`);
  for (const button of ['undo', 'stop', 'watch', 'resign', 'draw']) {
    check(await b.isDisabled(`#${button}`), `B (watching) may press #${button}`);
  }
  const posts = [];
  b.on('request', (r) => { if (r.method() === 'POST') posts.push(r.url()); });
  await noteMoveTimes(a);
  await noteMoveTimes(b);
  const delays = [];
  for (let n = 1; n <= 4; n++) {
    check((await waitTurn(a)) === 'human', `A is not to move before move ${n}`);
    await clickFirstMove(a);
    await waitHistory(b, n);
    const [ta, tb] = [await seenAt(a, n), await seenAt(b, n)];
    delays.push(tb - ta);
    check(tb - ta < DELIVERY_MS, `move ${n} reached B ${tb - ta} ms after A had it (want < ${DELIVERY_MS})`);
    check((await b.$$('#board .sq.can-move')).length === 0, `B's board offers moves after move ${n}`);
  }
  // A click on a piece of the side to move (White) does nothing on B.
  const white = await b.$$eval('#board .sq', (l) => l.filter((e) => /^[A-Z]$/.test(e.dataset.piece))
    .map((e) => e.dataset.square));
  await b.click(sqSel(...white[0].split(',')));
  check((await b.$$('#board .sq.selected, #board .sq.target')).length === 0, `a click on ${white[0]} picked it on B`);
  check((await historyLength(b)) === 4 && !posts.length, `B's click: ${await historyLength(b)} moves, posts ${posts}`);
  await b.screenshot({ path: join(outDir, 'live-watcher.png') });
  return `${id}: 4 moves reached B ${delays.join(', ')} ms after A had them; B watches and cannot move`;
}

// 1b. Stale moves: one sent with the seat of the side to move and an old
// ply; then clicked on a page of A's browser whose events are cut off,
// two moves behind (the same side to move), then one (the other side's
// turn now). Each is refused with 409, the error and the game now, which
// the page shows.
async function staleMove(browser, base) {
  const { a, id, seats } = await peoplesGame(browser, base);
  for (let i = 0; i < 2; i++) await clickFirstMove(a);
  const stale = await a.evaluate(async ([g, s]) => {
    const v = await (await fetch(`/api/games/${g}`)).json();
    const r = await fetch(`/api/games/${g}/move`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ move: v.moves[0].text, ply: v.history.length - 2, seat: s[v.to_move - 1] }) });
    return { status: r.status, body: await r.json(), plies: v.history.length };
  }, [id, seats]);
  check(stale.status === 409 && /^the game moved on/.test(stale.body.refused ?? '') &&
        stale.body.history?.length === stale.plies,
        `a stale move answered ${stale.status} '${stale.body.refused}' with ${stale.body.history?.length} moves`);

  const d = await a.context().newPage();
  pages.push({ name: 'D', page: d });
  watchErrors(d, 'D');
  await d.route('**/events', (r) => r.abort());
  await d.goto(`${base}/g/${id}`);
  await d.waitForFunction((g) => document.body.dataset.gameId === g && document.body.dataset.phase === 'human', id,
                          { timeout: STEP_MS });
  const staleOn = async (behind) => {
    const was = await historyLength(d);
    for (let i = 0; i < behind; i++) await clickFirstMove(a);
    check((await historyLength(d)) === was, 'the page without events followed the game');
    const answer = d.waitForResponse((r) => r.url().endsWith('/move'), { timeout: STEP_MS });
    await clickFirstMove(d);
    const got = await answer;
    const [msg, err, now] = [await statusText(d), await d.$('#status.error'), await historyLength(d)];
    check(got.status() === 409 && err && /the game moved on/.test(msg) && now === was + behind,
          `D (holding both seats) clicked a move for the position after ${was} moves, ${behind} behind the game: ` +
          `answered ${got.status()}, D shows '${msg}' and ${now} moves (want 409, "the game moved on" and the game ` +
          `now, ${was + behind} moves)`);
  };
  await staleOn(2);
  await staleOn(1);
  return `${id}: by fetch and by clicks 2 and 1 moves behind: 409 "the game moved on" and the game now`;
}

// 2. Two programs play on with no page; a reload shows the same game, its
// players and delay, and it goes on; Stop pauses it.
async function reloadEngines(browser, base) {
  const a = await openPage(browser, base, '/', 'A');
  // Every status line the page shows, from every load of it.
  await a.addInitScript(() => {
    window.statuses = [];
    new MutationObserver(() => {
      const s = document.getElementById('status');
      const t = s ? `${s.textContent}|${document.body?.dataset.phase}` : '';
      if (t && window.statuses[window.statuses.length - 1] !== t) window.statuses.push(t);
    }).observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
  });
  const [first, second] = ['engine:time=0.2', 'engine:time=0.3'];
  const id = await newGame(a, { game: 'gardner', spec: 'gardner', first, second, delay: 300 });
  await waitHistory(a, 2);
  await a.reload();
  await shows(a, { id });
  const at = await historyLength(a);
  check(new URL(a.url()).pathname === `/g/${id}`, `after the reload the address is ${a.url()}`);
  const form = [await a.inputValue('#first-agent'), await a.inputValue('#second-agent'), await a.inputValue('#watch-delay')];
  check(form.join(' ') === `${first} ${second} 300`, `after the reload the form reads ${JSON.stringify(form)}`);
  check(at >= 2, `after the reload the move list shows ${at} moves, want 2 or more`);
  await waitHistory(a, at + 2);
  const bad = (await a.evaluate(() => window.statuses)).filter((s) => /click|\|human$|Error/.test(s));
  check(!bad.length, `after the reload a status asked for a person or failed: ${bad.join(' / ')}`);
  check(!(await a.$eval('body', (b) => b.dataset.phase === 'over')), 'the game ended too soon to see it go on');

  // Stop: the search in progress moves or not, then the programs wait.
  await a.click('#stop');
  await a.waitForFunction(() => document.body.dataset.phase === 'paused' &&
                                /paused, press Go/.test(document.querySelector('#status').textContent),
                          null, { timeout: STEP_MS });
  const v = await viewOf(base, id);
  check(v.paused && !v.thinking, `after Stop the server says paused ${v.paused}, thinking ${v.thinking}`);
  check(!(await a.isDisabled('#watch')), 'Go / watch is disabled while paused');
  // Nothing comes while paused: a window longer than a delay and a move.
  const stopped = await historyLength(a);
  await a.waitForTimeout(1500);
  const later = await viewOf(base, id);
  check(later.history.length === v.history.length && (await historyLength(a)) === stopped,
        `moves came while paused: ${v.history.length} then ${later.history.length}`);
  await fetch(`${base}/api/games/${id}?seat=${(await seatsIn(a, id))[0]}`, { method: 'DELETE' });
  return `${id}: ${at} moves at the reload, form ${form.join(' / ')}, went on; Stop paused it at ${stopped} moves`;
}

// 3. Two tabs of one browser: New game in the second leaves the first
// tab's game on the server, shown and playable there.
async function newGameSecondTab(browser, base) {
  const p1 = await openPage(browser, base, '/', 'tab1');
  const id1 = await newGame(p1, { game: 'gardner', spec: 'gardner', first: 'human', second: 'engine:depth=1' });
  const p2 = await openPage(browser, base, '/', 'tab2', p1.context());
  check((await gameId(p2)) === id1, `the second tab opened ${await gameId(p2)}, not the last game ${id1}`);
  const id2 = await newGame(p2, { game: 'nqueens', spec: 'nqueens:n=5', first: 'human', second: 'engine:depth=1' });
  check(id2 !== id1 && new URL(p2.url()).pathname === `/g/${id2}`, `the second tab's New game: ${id2} at ${p2.url()}`);
  const still = await fetch(`${base}/api/games/${id1}`);
  check(still.status === 200, `the first tab's game after New game in the second: GET ${still.status}`);
  check((await gameId(p1)) === id1 && new URL(p1.url()).pathname === `/g/${id1}`,
        `the first tab now shows ${await gameId(p1)} at ${p1.url()}`);
  check((await waitTurn(p1)) === 'human', 'the first tab is not ready for a move');
  await clickFirstMove(p1);
  check((await waitTurn(p1)) === 'human', 'the engine did not answer in the first tab');
  const n = await historyLength(p1);
  const v = await viewOf(base, id1);
  check(n === 2 && v.history.length === 2, `the first tab's game: ${n} moves shown, ${v.history.length} on the server`);
  check((await historyLength(p2)) === 0 && (await gameId(p2)) === id2, 'the second tab\'s game changed');
  return `${id1} played on in tab 1 (2 moves) after tab 2 made ${id2}`;
}

// 4. Checkers from the person's side: playing Black (first) the board is
// turned, Black's men at the bottom; playing White it is not.
async function checkersSides(browser, base) {
  const a = await openPage(browser, base, '/', 'A');
  const want = async (what, first, name, bottom, top) => {
    const f = await facing(a);
    check(f.first === first && f.name === name && bottom.test(f.bottom) && top.test(f.top),
          `${what}: first square drawn ${f.first} (want ${first}), bottom bar '${f.name}' (want ${name}), ` +
          `men drawn below '${f.bottom}', above '${f.top}'`);
  };
  await newGame(a, { game: 'checkers', spec: 'checkers', first: 'human', second: 'engine:depth=1' });
  check((await waitTurn(a)) === 'human', 'Black (a person) is not to move');
  await want('playing Black', '7,7', 'Black', /^b{12}$/, /^w{12}$/);
  await a.screenshot({ path: join(outDir, 'checkers-black.png') });
  await a.click('#flip');
  await want('playing Black, flipped', '0,0', 'White', /^w{12}$/, /^b{12}$/);
  await a.click('#flip');

  await newGame(a, { game: 'checkers', spec: 'checkers', first: 'engine:depth=1', second: 'human' });
  check((await waitTurn(a)) === 'human', 'White (a person) is not to move after the engine\'s first move');
  await want('playing White', '0,0', 'White', /^w{12}$/, /^b{12}$/);
  await a.click('#flip');
  await want('playing White, flipped', '7,7', 'Black', /^b{12}$/, /^w{12}$/);
  await a.screenshot({ path: join(outDir, 'checkers-white-flipped.png') });
  await a.click('#flip');
  return 'Black: turned, b men below, bar Black; White: not turned, w men below, bar White; Flip turns both';
}

// 5. A draw between two people through a play link; a draw a program
// declines; a resignation.
async function resignAndDraw(browser, base) {
  const { a, id } = await peoplesGame(browser, base);
  await a.waitForSelector('#share:not([hidden])', { timeout: STEP_MS });
  const link = await a.inputValue('[data-testid="play-link-2"]');
  const watch = await a.inputValue('#share-watch');
  check(watch === `${base}/g/${id}`, `the watch link is ${watch}`);
  check(new RegExp(`^${base}/g/${id}#seat=2\\.[0-9a-f]{32}$`).test(link), `the play link for Black is ${link}`);
  check((await a.$$('[data-testid="play-link-1"]')).length === 1, 'no play link for White');

  const b = await openPage(browser, base, link.slice(base.length), 'B');
  check((await gameId(b)) === id && !new URL(b.url()).hash, `the play link opened ${await gameId(b)} at ${b.url()}`);
  const f = await facing(b);
  check(f.first === '4,4' && f.name === 'Black', `B (Black) sees first square ${f.first}, bottom bar '${f.name}'`);
  check(!(await b.isDisabled('#draw')) && !(await b.isDisabled('#resign')), 'B (Black) may not offer a draw or resign');
  check((await b.$$('#board .sq.can-move')).length === 0, 'B (Black) is offered moves on White\'s turn');

  await a.click('#draw');
  await b.waitForFunction(() => document.querySelector('#draw').textContent.trim() === 'Accept draw', null,
                          { timeout: STEP_MS });
  check((await a.textContent('#draw')).trim() === 'Offer draw', 'the page that offered shows Accept draw');
  // The offer is said on the offering page's status line until it is
  // answered, through the game's next event (the offer made again by
  // fetch), which redraws that line.
  const waiting = /White to move: click a piece or square — you offered a draw: waiting for Black$/;
  await a.waitForFunction((re) => new RegExp(re).test(document.querySelector('#status').textContent.trim()),
                          waiting.source, { timeout: STEP_MS });
  await offerDrawByFetch(a, id, (await seatsIn(a, id))[0], 'the draw offered again');
  check(waiting.test(await statusText(a)), `A's status after the next event: '${await statusText(a)}'`);
  await b.click('#draw');
  const drawn = 'Draw: draw agreed (1/2-1/2)';
  for (const p of [a, b]) {
    await p.waitForFunction(() => document.body.dataset.phase === 'over', null, { timeout: STEP_MS });
    const result = (await p.textContent('#result')).trim();
    check(result === drawn, `after the draw was accepted #result reads '${result}', want '${drawn}'`);
    check(await p.isDisabled('#resign'), 'Resign is still enabled after the game ended');
  }
  await b.screenshot({ path: join(outDir, 'draw-agreed.png') });

  // Against a program well ahead (a queen up, depth 1): it declines.
  await newGame(a, { game: 'gardner', spec: 'gardner', position: 'k4/5/2q2/P4/4K w - - 0 1', first: 'human',
                     second: 'engine:depth=1' });
  check((await waitTurn(a)) === 'human', 'White (a person) is not to move');
  await a.click(sqSel(4, 4));
  await a.click(sqSel(4, 3));
  await waitHistory(a, 2);
  check((await waitTurn(a)) === 'human', 'the engine did not answer Kd1');
  await a.click('#draw');
  await a.waitForSelector('#status.error', { timeout: STEP_MS });
  const declined = await statusText(a);
  check(/declines the draw/.test(declined), `a draw offered to the engine a queen up reads '${declined}'`);
  check((await a.$eval('body', (x) => x.dataset.phase)) !== 'over', 'the declined draw ended the game');

  await a.click('#resign');
  await a.waitForFunction(() => document.body.dataset.phase === 'over', null, { timeout: STEP_MS });
  const resigned = (await a.textContent('#result')).trim();
  check(resigned === 'Black wins: White resigned (0-1)', `after White resigned #result reads '${resigned}'`);
  await a.screenshot({ path: join(outDir, 'resigned.png') });
  return `play link for Black, draw offered and accepted: '${drawn}'; engine ${declined.replace(/^Error: /, '')}; ` +
         `'${resigned}'`;
}

// One page holding both seats of a game between people: Undo takes back the
// last move at once (it asks and accepts), Resign is the side to move's;
// copying a play link gives that seat away (the page then plays the other).
async function bothSeats(browser, base) {
  const { a, id } = await peoplesGame(browser, base);
  await clickFirstMove(a);
  await clickFirstMove(a);
  await waitHistory(a, 2);
  await a.click('#undo');
  await a.waitForFunction(() => document.querySelectorAll('#history button.mv').length === 1, null,
                          { timeout: STEP_MS });
  await a.waitForSelector('#share:not([hidden])', { timeout: STEP_MS });
  await a.$eval('[data-testid="play-link-1"]', (i) => i.dispatchEvent(new ClipboardEvent('copy', { bubbles: true })));
  const seats = await seatsIn(a, id);
  check(seats[0] === null && /^[0-9a-f]{32}$/.test(seats[1] ?? ''), `after copying White's link A holds ${JSON.stringify(seats)}`);
  const f = await facing(a);
  check(f.first === '4,4' && f.name === 'Black', `A (now Black) sees first square ${f.first}, bottom bar '${f.name}'`);
  check(/plays Black/.test(await statusText(a)), `A's status after the copy: '${await statusText(a)}'`);
  // The game's next change (here a draw offered for Black from outside the
  // page) comes as an event that redraws the status line: the notice stays
  // until a move is made.
  await offerDrawByFetch(a, id, seats[1], 'a draw offered for Black');
  check(/plays Black\. Black to move/.test(await statusText(a)),
        `A's status after the next event: '${await statusText(a)}'`);
  await a.click('#resign');
  await a.waitForFunction(() => document.body.dataset.phase === 'over', null, { timeout: STEP_MS });
  const result = (await a.textContent('#result')).trim();
  check(result === 'White wins: Black resigned (1-0)', `A (Black) resigned: '${result}'`);
  return `${id}: Undo took back 1 of 2 moves at once; a copied link gave White away (said until a move); Black resigned: '${result}'`;
}

// A pasted PGN becomes a game to step through; analysis of an earlier
// position shows the engine's evaluation, its best move as an arrow and its
// three best lines, and plays nothing; a PDN imports too. The PGN is a
// Gardner game's first moves as `duel play --pgn` wrote them.
const PGN = '[Event "club"]\n[White "Ann"]\n[Black "Bob"]\n[Variant "gardner"]\n\n' +
            '1. d3 c3 2. b3 e3 3. bxa4 Rxa4 *\n';
const PDN = '[Black "Cy"]\n[White "Di"]\n[GameType "21"]\n\n1. 11-15 22-18 2. 15x22 25x18 *\n';
async function analysisOfAnImport(browser, base) {
  const a = await openPage(browser, base, '/', 'A');
  const before = await gameId(a);
  await a.fill('#record-text', PGN);
  await a.click('#import');
  await shows(a, { not: before });
  const id = await gameId(a);
  await a.waitForFunction(() => document.querySelectorAll('#history .mv').length === 6, null, { timeout: STEP_MS });
  check(/\/g\/g\d+$/.test(a.url()), `the imported game is not at its own address: ${a.url()}`);
  const names = await a.$$eval('.player .who', (l) => l.map((x) => x.textContent).sort());
  check(names.join() === 'Ann,Bob', `the players' bars name ${names.join(', ')}, not the record's Ann and Bob`);
  // Step back two moves (the position after 2. b3 e3) and analyse it. Both
  // steps are taken before the server's first answer comes (held here, as
  // on a slow line or a busy machine): the second counts from the first.
  const plyAsked = /\/api\/games\/[^/?]+\?ply=/;
  let release;
  const held = new Promise((r) => { release = r; });
  await a.route(plyAsked, async (route) => { await held; await route.continue(); });
  await a.click('#nav-prev');
  await a.click('#nav-prev');
  release();
  await a.waitForFunction(() => document.body.dataset.viewing === '4', null, { timeout: STEP_MS });
  await a.unroute(plyAsked);
  await a.click('#analyse');
  await a.waitForFunction(() => document.body.dataset.analysed === '4' &&
                                document.querySelector('#board .arrows'), null, { timeout: STEP_MS });
  const evalText = (await a.textContent('#eval-text')).trim();
  check(/^([+-]\d+\.\d\d|0\.00) pawns \(White's view\), depth \d+$|mates in \d+/.test(evalText),
        `the evaluation reads '${evalText}'`);
  const lines = await a.$$eval('#lines li', (l) => l.map((x) => x.textContent.trim()));
  check(lines.length === 3, `${lines.length} lines shown, not 3: ${lines.join(' | ')}`);
  const arrow = await a.$$eval('#board .arrows polyline, #board .arrows circle', (l) => l.length);
  check(arrow === 1, 'no arrow for the best move');
  const fill = await a.$eval('#eval-bar .fill', (f) => f.style.height);
  check(/%$/.test(fill), `the evaluation bar is not drawn (${fill})`);
  await a.screenshot({ path: join(outDir, 'analysis.png') });
  // Nothing was played; the record keeps the players' names.
  const v = await (await fetch(`${base}/api/games/${id}`)).json();
  check(v.history.length === 6, `analysis changed the game: ${v.history.length} moves`);
  check(v.names[0] === 'Ann' && v.names[1] === 'Bob', `the imported names are ${v.names}`);
  const pgn = await (await fetch(`${base}/api/games/${id}/record?format=pgn`)).text();
  check(/\[White "Ann"\]/.test(pgn) && /\[Date "\d{4}\.\d\d\.\d\d"\]/.test(pgn),
        'the exported PGN has not the names and the date');
  // A PDN.
  await a.fill('#record-text', PDN);
  await a.click('#import');
  await shows(a, { not: id });
  await a.waitForFunction(() => document.querySelectorAll('#history .mv').length === 4, null, { timeout: STEP_MS });
  const moves = await a.$$eval('#history .mv', (l) => l.map((x) => x.textContent.trim()));
  check(moves.join(' ') === '11-15 22-18 15x22 25x18', `the PDN's moves read ${moves.join(' ')}`);
  return `PGN imported (bars ${names.join('/')}), position after 4 plies: '${evalText}', lines ` +
         `${lines.map((l) => l.split(' ')[0]).join(', ')}, arrow drawn; PDN moves ${moves.join(' ')}`;
}

// ---- main --------------------------------------------------------------------

const server = startServer(duelBin);
let browser;
let status = 0;
try {
  const base = await server.url;
  browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  console.log(`web.live: ${base}/ in Chromium ${browser.version()}; screenshots in ${outDir}`);
  for (const [name, run] of [['two-pages', twoPages], ['stale-move', staleMove], ['reload-engines', reloadEngines],
                             ['new-game-second-tab', newGameSecondTab], ['checkers-sides', checkersSides],
                             ['resign-and-draw', resignAndDraw], ['both-seats', bothSeats],
                             ['analysis-of-an-import', analysisOfAnImport]]) {
    [pages, contexts, pageErrors] = [[], [], []];
    const passed = await runCase(name, () => run(browser, base), pageErrors, async () => {
      for (const [i, { name: who, page }] of pages.entries()) {
        await page.screenshot({ path: join(outDir, `${name}-failure-${i + 1}.png`) }).catch(() => {});
        console.log(`     ${who}'s status line: ${await page.textContent('#status').catch(() => '?')}`);
      }
    });
    if (!passed) status = 1;
    for (const ctx of contexts) await ctx.close().catch(() => {});
  }
} catch (e) {
  status = 1;
  console.log(`FAIL setup: ${e.message}`);
} finally {
  if (browser) await browser.close().catch(() => {});
}
if (!(await stopServer(server))) status = 1;
console.log(status === 0 ? 'web.live: all cases passed' : 'web.live: FAILED');
process.exit(status);
