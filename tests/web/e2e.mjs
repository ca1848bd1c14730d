#!/usr/bin/env node
// End-to-end test of `duel serve`'s page in headless Chromium (Debian's
// /usr/bin/chromium driven by playwright-core): plays games by clicking
// squares as a person would, against the engine on the server. Cases: a whole
// Gardner game, a promotion through the chooser, a checkers double jump
// clicked square by square, a whole N-Queens game, a timed search watched
// live then stopped and taken back, two programs watched playing KCell, and
// the server's errors on the status line; last, the server must exit 0 on
// SIGTERM.
//
//   node tests/web/e2e.mjs DUEL_BIN [OUTDIR]
//
// OUTDIR (or $DUEL_E2E_OUT; default a new temporary dir) receives the
// screenshots. Prints one line per case. Exit 0: all passed; 1: a failure
// (FAIL line; a screenshot NAME-failure.png); 77: skipped (no Chromium or no
// node_modules: run scripts/setup-node.sh). $DUEL_CHROMIUM overrides /usr/bin/chromium;
// $DUEL_WEB_ROOT=web serves the page from disk instead of the copy built
// into the binary (page development without a rebuild).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const SKIP = 77;
const STEP_MS = 60_000;  // the longest wait for one thing to appear

function skip(why) {
  console.log(`SKIP: ${why}`);
  process.exit(SKIP);
}

class Failure extends Error {}
function check(cond, what) {
  if (!cond) throw new Failure(what);
}

// ---- setup -----------------------------------------------------------------

const duelBin = process.argv[2];
if (!duelBin || !existsSync(duelBin)) {
  console.error(`usage: node e2e.mjs DUEL_BIN [OUTDIR] (no duel binary at '${duelBin ?? ''}')`);
  process.exit(1);
}
const chromiumPath = process.env.DUEL_CHROMIUM || '/usr/bin/chromium';
if (!existsSync(chromiumPath)) {
  skip(`no Chromium at ${chromiumPath} (apt-get install chromium, or bash scripts/setup-node.sh)`);
}
let chromium;
try {
  ({ chromium } = await import(join(here, 'node_modules', 'playwright-core', 'index.mjs')));
} catch {
  skip(`playwright-core is not installed in ${here}/node_modules (bash scripts/setup-node.sh)`);
}
const outDir = resolve(process.argv[3] || process.env.DUEL_E2E_OUT || mkdtempSync(join(tmpdir(), 'duel-e2e-')));
mkdirSync(outDir, { recursive: true });

// Starts `duel serve --port 0` and resolves to its base URL.
function startServer() {
  const args = ['serve', '--port', '0'];
  if (process.env.DUEL_WEB_ROOT) args.push('--web-root', process.env.DUEL_WEB_ROOT);
  const proc = spawn(duelBin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  const url = new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Failure(`duel serve printed no listening line in 20 s; stderr: ${stderr}`)), 20_000);
    createInterface({ input: proc.stdout }).on('line', (line) => {
      const m = /^duel serve: listening on (http:\/\/\S+?)\/?$/.exec(line.trim());
      if (m) {
        clearTimeout(timer);
        res(m[1]);
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      rej(new Failure(`duel serve exited (status ${code}) before listening; stderr: ${stderr}`));
    });
  });
  return { proc, url, stderr: () => stderr };
}

// ---- page helpers ------------------------------------------------------------

const sqSel = (r, c) => `#board .sq[data-square="${r},${c}"]`;

// Waits until the page is ready for a person (phase human) or the game is over.
async function waitTurn(page) {
  await page.waitForFunction(() => {
    const p = document.body.dataset.phase;
    return p === 'human' || p === 'over' || document.querySelector('#status.error');
  }, null, { timeout: STEP_MS });
  const err = await page.$eval('#status', (s) => (s.classList.contains('error') ? s.textContent : ''));
  check(!err, `the page shows an error: ${err}`);
  return page.$eval('body', (b) => b.dataset.phase);
}

async function historyLength(page) {
  return page.$$eval('#history li', (l) => l.length);
}

// Sets up a game in the form and presses New game.
async function newGame(page, { game, spec, position = '', first, second }) {
  await page.selectOption('#game-select', game);
  await page.fill('#spec', spec);
  await page.fill('#position', position);
  await page.fill('#first-agent', first);
  await page.fill('#second-agent', second);
  await page.fill('#watch-delay', '0');
  await page.click('#new-game');
  await page.waitForFunction(() => document.querySelector('#board .sq') &&
                                   !['starting', 'loading'].includes(document.body.dataset.phase),
                             null, { timeout: STEP_MS });
}

// Plays the first legal move by clicks: the first square marked as a move's
// start, then the first target while the move goes on, then the first
// choice if the page asks. Returns the squares clicked.
async function clickFirstMove(page) {
  const before = await historyLength(page);
  const clicked = [];
  const start = await page.$('#board .sq.can-move');
  check(start, 'a person is to move but no square is marked as a move start');
  clicked.push(await start.getAttribute('data-square'));
  await start.click();
  for (let i = 0; i < 20; i++) {
    if ((await historyLength(page)) > before || (await page.$eval('body', (b) => b.dataset.phase)) !== 'human') break;
    if (await page.isVisible('#chooser')) {
      await page.click('#chooser-moves button');
      break;
    }
    const target = await page.$('#board .sq.target');
    if (!target) break;
    clicked.push(await target.getAttribute('data-square'));
    await target.click();
  }
  await page.waitForFunction((n) => document.querySelectorAll('#history li').length > n ||
                                    document.querySelector('#status.error'), before, { timeout: STEP_MS });
  return clicked;
}

// Downloads the record behind a link of the page (from inside the page).
async function record(page, id) {
  check(!(await page.isHidden(id)), `the record link ${id} is hidden`);
  const href = await page.getAttribute(id, 'href');
  return page.evaluate(async (h) => {
    const r = await fetch(h);
    return { ok: r.ok, text: await r.text(), disposition: r.headers.get('Content-Disposition') || '' };
  }, href);
}

// ---- cases -------------------------------------------------------------------

// (a) Gardner: a person (White, by clicks) against engine:depth=2 to the end.
async function gardner(page) {
  await newGame(page, { game: 'gardner', spec: 'gardner:draw-plies=10', first: 'human',
                        second: 'engine:depth=2' });
  let moves = 0;
  let sawSearch = false;
  for (;;) {
    const phase = await waitTurn(page);
    if (phase === 'over') break;
    check(moves < 200, 'the Gardner game did not end in 200 moves');
    const clicked = await clickFirstMove(page);
    check(clicked.length >= 2, `a chess move took ${clicked.length} click(s)`);
    moves++;
    if (moves === 3) await page.screenshot({ path: join(outDir, 'gardner-midgame.png') });
    if (!sawSearch && (await page.$$('#nodes-chart rect.bar')).length > 0) sawSearch = true;
  }
  const result = (await page.textContent('#result')).trim();
  check(result, 'the game is over but #result is empty');
  check(sawSearch || (await page.$$('#nodes-chart rect.bar')).length > 0, 'the nodes-by-depth chart never showed a bar');
  const depth = (await page.textContent('#search-depth')).trim();
  check(/^\d+$/.test(depth), `#search-depth is '${depth}' after the engine moved`);
  const rec = await record(page, '#record-pgn');
  check(rec.ok && /\[Result /.test(rec.text), `the PGN record is not a PGN: ${rec.text.slice(0, 200)}`);
  check(/attachment/.test(rec.disposition), `the PGN is not a download: '${rec.disposition}'`);
  const json = await record(page, '#record-json');
  check(json.ok && JSON.parse(json.text), 'the JSON record is not JSON');
  await page.screenshot({ path: join(outDir, 'gardner.png') });
  return `${moves} moves by clicks, result ${result}, last search depth ${depth}`;
}

// (a2) A promotion: one pair of squares, four moves: the page asks.
async function promotion(page) {
  await newGame(page, { game: 'gardner', spec: 'gardner', position: '4k/P4/5/5/K4 w - - 0 1', first: 'human',
                        second: 'engine:depth=1' });
  check((await waitTurn(page)) === 'human', 'White (a person) is not to move');
  await page.click(sqSel(1, 0));
  await page.click(sqSel(0, 0));
  await page.waitForSelector('#chooser:not([hidden])', { timeout: STEP_MS });
  const choices = await page.$$eval('#chooser-moves button', (l) => l.map((b) => b.dataset.move));
  check(choices.length === 4, `the chooser offers ${JSON.stringify(choices)}, want 4 promotions`);
  await page.screenshot({ path: join(outDir, 'promotion-chooser.png') });
  await page.click('#chooser-moves button[data-move="a4a5n"]');
  await waitTurn(page);
  const first = (await page.textContent('#history li')).trim();
  check(first === 'a4a5n', `the first move is '${first}', want a4a5n`);
  const piece = await page.getAttribute(sqSel(0, 0), 'data-piece');
  check(piece === 'N', `a5 holds '${piece}' after promoting to a knight`);
  // Flip: a1 (row 4, column 0 from the server) is drawn top right, a5 bottom
  // right, and the knight stays on a5's square.
  const order = () => page.$$eval('#board .sq', (l) => l.map((b) => b.dataset.square));
  await page.click('#flip');
  const flipped = await order();
  check(flipped[0] === '4,4' && flipped[4] === '4,0' && flipped[24] === '0,0',
        `flipped board order starts ${flipped.slice(0, 5)} and ends ${flipped[24]}`);
  check((await page.getAttribute(sqSel(0, 0), 'data-piece')) === 'N', 'the knight moved when flipped');
  await page.screenshot({ path: join(outDir, 'promotion-flipped.png') });
  await page.click('#flip');
  check((await order())[0] === '0,0', 'flipping twice does not restore the board');
  return `a4a5 offered ${choices.join(' ')}; chose the knight; flipped and back`;
}

// (b) Checkers from a position where Black (a person) must jump: 6x15x22
// (two pieces) or 6x13 (one). The path is clicked square by square.
async function checkers(page) {
  await newGame(page, { game: 'checkers', spec: 'checkers', position: 'B:W9,10,18,32:B6', first: 'human',
                        second: 'engine:depth=2' });
  check((await waitTurn(page)) === 'human', 'Black (a person) is not to move in the checkers position');
  const starts = await page.$$eval('#board .sq.can-move', (l) => l.map((e) => e.dataset.square));
  check(starts.length === 1 && starts[0] === '1,2', `move starts are ${JSON.stringify(starts)}, want ["1,2"] (c7)`);
  await page.click(sqSel(1, 2));
  const targets = await page.$$eval('#board .sq.target', (l) => l.map((e) => e.dataset.square).sort());
  check(JSON.stringify(targets) === '["3,0","3,4"]', `first landings are ${JSON.stringify(targets)}, want 3,0 and 3,4`);
  await page.click(sqSel(3, 4));
  check((await historyLength(page)) === 0, 'the move was played after the first landing of a double jump');
  const next = await page.$$eval('#board .sq.target', (l) => l.map((e) => e.dataset.square));
  check(JSON.stringify(next) === '["5,2"]', `second landings are ${JSON.stringify(next)}, want ["5,2"]`);
  await page.screenshot({ path: join(outDir, 'checkers-jump.png') });
  await page.click(sqSel(5, 2));
  await page.waitForFunction(() => document.querySelectorAll('#history li').length >= 1, null, { timeout: STEP_MS });
  const first = await page.textContent('#history li');
  // The engine (White) replies; the jumped men are gone.
  await waitTurn(page);
  const pieces = await page.$$eval('#board .sq', (l) => l.filter((e) => e.dataset.piece).map((e) => `${e.dataset.square}${e.dataset.piece}`));
  check(!pieces.some((p) => p.startsWith('2,3') || p.startsWith('4,3')), `jumped men still on the board: ${pieces}`);
  check(pieces.includes('5,2b'), `Black's man is not on c3: ${pieces}`);
  const lastSquares = await page.$$eval('#board .sq.last', (l) => l.length);
  const pdn = await record(page, '#record-pdn');
  check(pdn.ok && /\b6x(15x)?22\b/.test(pdn.text),
        `the PDN record lacks the double jump: ${pdn.text.slice(0, 300)}`);
  await page.screenshot({ path: join(outDir, 'checkers.png') });
  return `double jump ${first.trim()} by 3 clicks, engine replied (${lastSquares} squares marked as last move)`;
}

// (c) N-Queens: a person against engine:depth=2, to the end.
async function nqueens(page) {
  await newGame(page, { game: 'nqueens', spec: 'nqueens:n=5', first: 'human', second: 'engine:depth=2' });
  let moves = 0;
  let shaded = 0;
  for (;;) {
    const phase = await waitTurn(page);
    if (phase === 'over') break;
    check(moves < 30, 'the N-Queens game did not end in 30 moves');
    const clicked = await clickFirstMove(page);
    check(clicked.length === 1, `an N-Queens move took ${clicked.length} clicks`);
    moves++;
    shaded = Math.max(shaded, (await page.$$('#board .sq.attacked')).length);
  }
  const queens = (await page.$$('#board .sq[data-piece="Q"]')).length;
  check(queens >= 2, `only ${queens} queen(s) on the board at the end`);
  check(shaded > 0, 'no square was ever shaded as attacked');
  const result = (await page.textContent('#result')).trim();
  check(/^Player [12] wins: Player [12] has no square left for a queen \((1-0|0-1)\)$/.test(result),
        `the N-Queens result '${result}' does not name the winner and why`);
  await page.screenshot({ path: join(outDir, 'nqueens.png') });
  return `${moves} queens placed by clicks, ${queens} queens in all, result ${result}`;
}

// (d) A timed search seen live, Stop (it moves at once), then Undo (the
// program to move again waits for Go).
async function liveSearch(page) {
  await newGame(page, { game: 'gardner', spec: 'gardner', first: 'engine:time=5', second: 'human' });
  await page.waitForFunction(() => document.body.dataset.phase === 'thinking' &&
                                   /thinking/.test(document.querySelector('#search-title').textContent) &&
                                   /^\d+$/.test(document.querySelector('#search-depth').textContent.trim()),
                             null, { timeout: STEP_MS });
  const depth = (await page.textContent('#search-depth')).trim();
  const nodes = (await page.textContent('#search-nodes')).trim();
  const bars = (await page.$$('#nodes-chart rect.bar')).length;
  await page.screenshot({ path: join(outDir, 'search-live.png') });
  const t0 = Date.now();
  await page.click('#stop');
  check((await waitTurn(page)) === 'human', 'after Stop the person (Black) is not to move');
  const took = (Date.now() - t0) / 1000;
  check(took < 2.5, `Stop took ${took} s to bring the engine's move (time=5)`);
  check((await historyLength(page)) === 1, 'the engine did not play exactly one move after Stop');
  // After Stop the person's move is still answered.
  await clickFirstMove(page);
  await page.waitForFunction(() => document.body.dataset.phase === 'thinking', null, { timeout: STEP_MS });
  await page.click('#stop');
  check((await waitTurn(page)) === 'human', 'the engine did not answer the move after Stop');
  check((await historyLength(page)) === 3, 'after Stop, a move and its answer the history is not 3 plies');
  await page.click('#undo');  // the answer and the person's move
  await page.waitForFunction(() => document.querySelectorAll('#history li').length === 1 &&
                                   document.body.dataset.phase === 'human', null, { timeout: STEP_MS });
  await page.click('#undo');
  await page.waitForFunction(() => document.querySelectorAll('#history li').length === 0 &&
                                   document.body.dataset.phase === 'paused', null, { timeout: STEP_MS });
  return `live: depth ${depth}, ${nodes} nodes, ${bars} chart bars while thinking; Stop moved in ` +
         `${took.toFixed(2)} s; the next move answered after Stop; Undo left the engine waiting for Go`;
}

// KCell's forced pass: a button named Pass, "pass" in the move list; and a
// finished game's result names the winner.
async function kcellPass(page) {
  await newGame(page, { game: 'kcell', spec: 'kcell:n=2,k=5', position: '[_oxxo] o', first: 'human', second: 'human' });
  check((await waitTurn(page)) === 'human', 'Player 1 is not to move');
  const label = (await page.textContent('#other-moves button')).trim();
  check(label === 'Pass', `the pass button reads '${label}'`);
  await page.click('#other-moves button');
  await page.waitForFunction(() => document.querySelectorAll('#history li').length === 1, null, { timeout: STEP_MS });
  const first = (await page.textContent('#history li')).trim();
  check(first === 'pass', `the move list shows '${first}' for the pass`);
  await page.screenshot({ path: join(outDir, 'kcell-pass.png') });
  // After a reload the page lists the game it made: Open shows it, Delete
  // deletes it on the server.
  const id = await page.$eval('body', (b) => b.dataset.gameId);
  await page.reload();
  await page.waitForSelector(`#my-games li[data-game="${id}"]`, { timeout: STEP_MS });
  await page.click(`#my-games li[data-game="${id}"] button[data-action="open"]`);
  await page.waitForFunction((g) => document.body.dataset.gameId === g &&
                                    document.querySelectorAll('#history li').length === 1, id, { timeout: STEP_MS });
  await page.click(`#my-games li[data-game="${id}"] button[data-action="delete"]`);
  await page.waitForFunction((g) => !document.querySelector(`#my-games li[data-game="${g}"]`), id, { timeout: STEP_MS });
  const gone = await fetch(`${await server.url}/api/games/${id}`);
  check(gone.status === 404, `Delete left the game on the server (GET: ${gone.status})`);
  return `the pass is a '${label}' button and '${first}' in the move list; after a reload the game ` +
         'is listed, opened and deleted from the list';
}

// (e) Watch: two programs play KCell to the end; then a bad spec shows an error.
async function watchAndError(page) {
  await newGame(page, { game: 'kcell', spec: 'kcell:n=2,k=7', first: 'engine:depth=3', second: 'random:seed=1' });
  await page.waitForFunction(() => document.body.dataset.phase === 'over' || document.querySelector('#status.error'),
                             null, { timeout: STEP_MS * 2 });
  const err = await page.$eval('#status', (s) => (s.classList.contains('error') ? s.textContent : ''));
  check(!err, `watching KCell: ${err}`);
  const plies = await historyLength(page);
  const result = (await page.textContent('#result')).trim();
  check(/^(Player 1 wins|Player 2 wins|Draw)(: .+)? \((1-0|0-1|1\/2-1\/2)\)$/.test(result),
        `the result '${result}' does not name the winner`);
  await page.screenshot({ path: join(outDir, 'kcell-watch.png') });

  // A bad spec on New game: its error, and the game in progress stays.
  const id = await page.$eval('body', (b) => b.dataset.gameId);
  await page.fill('#spec', 'nosuchgame:x=1');
  await page.click('#new-game');
  await page.waitForSelector('#status.error', { timeout: STEP_MS });
  const msg = (await page.textContent('#status')).trim();
  check(msg.length > 7, 'the error line is empty');
  check((await historyLength(page)) === plies, 'a bad spec changed the game in progress');
  check((await page.$eval('body', (b) => b.dataset.gameId)) === id, 'a bad spec replaced the game');
  const still = await fetch(`${await server.url}/api/games/${id}`);
  check(still.status === 200, `a bad spec deleted the game in progress (GET: ${still.status})`);

  // An agent the server refuses: its error, after the person's move.
  await newGame(page, { game: 'nqueens', spec: 'nqueens:n=4', first: 'human', second: 'exec:cmd=ls' });
  await waitTurn(page);
  await page.click('#board .sq.can-move');
  await page.waitForSelector('#status.error', { timeout: STEP_MS });
  const refused = (await page.textContent('#status')).trim();
  check(/exec/.test(refused), `a refused agent shows '${refused}'`);
  await page.screenshot({ path: join(outDir, 'error.png') });
  return `KCell engine vs random watched: ${plies} plies, ${result}; bad spec shows "${msg}"; ` +
         `refused agent shows "${refused}"`;
}

// ---- main --------------------------------------------------------------------

const server = startServer();
let browser;
let status = 0;
try {
  const base = await server.url;
  browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error' && !/400|404|Bad Request|Not Found/.test(m.text())) pageErrors.push(m.text()); });
  await page.goto(`${base}/`);
  await page.waitForFunction(() => document.querySelectorAll('#game-select option').length > 0, null, { timeout: STEP_MS });
  console.log(`web.e2e: ${base}/ in Chromium ${browser.version()}; screenshots in ${outDir}`);
  for (const [name, run] of [['gardner', gardner], ['promotion', promotion], ['checkers', checkers], ['nqueens', nqueens],
                             ['live-search', liveSearch], ['kcell-pass', kcellPass], ['watch', watchAndError]]) {
    const t0 = Date.now();
    try {
      const what = await run(page);
      check(!pageErrors.length, `errors in the page: ${pageErrors.join(' | ')}`);
      console.log(`ok   ${name}: ${what} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (e) {
      status = 1;
      console.log(`FAIL ${name}: ${e.message.split('\n')[0]}`);
      if (!(e instanceof Failure)) console.error(e.stack);
      await page.screenshot({ path: join(outDir, `${name}-failure.png`) }).catch(() => {});
      const st = await page.textContent('#status').catch(() => '?');
      console.log(`     status line: ${st}`);
    }
  }
} catch (e) {
  status = 1;
  console.log(`FAIL setup: ${e.message}`);
} finally {
  if (browser) await browser.close().catch(() => {});
}
// The server stops cleanly on SIGTERM (status 0; under ASan also no report).
if (server.proc.exitCode === null && server.proc.signalCode === null) {
  const exited = new Promise((res) => server.proc.once('exit', (code, sig) => res({ code, sig })));
  server.proc.kill('SIGTERM');
  const timeout = new Promise((res) => setTimeout(() => res(null), 15_000));
  const end = await Promise.race([exited, timeout]);
  if (!end) {
    server.proc.kill('SIGKILL');
    status = 1;
    console.log('FAIL server: duel serve did not exit within 15 s of SIGTERM');
  } else if (end.code !== 0) {
    status = 1;
    console.log(`FAIL server: duel serve ended with status ${end.code} signal ${end.sig} on SIGTERM; ` +
                `stderr: ${server.stderr().slice(-2000)}`);
  } else {
    console.log('ok   server: exit status 0 on SIGTERM');
  }
} else {
  status = 1;
  console.log(`FAIL server: duel serve died during the test (status ${server.proc.exitCode}, ` +
              `signal ${server.proc.signalCode}); stderr: ${server.stderr().slice(-2000)}`);
}
console.log(status === 0 ? 'web.e2e: all cases passed' : 'web.e2e: FAILED');
process.exit(status);
