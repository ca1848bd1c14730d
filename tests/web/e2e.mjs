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
import { join } from 'node:path';

import {
  STEP_MS, Failure, check, clickFirstMove, runCase, setup, sqSel, startServer, stopServer, waitTurn,
} from './support.mjs';

const { duelBin, chromium, chromiumPath, outDir } = await setup('e2e.mjs');

// ---- page helpers ------------------------------------------------------------



async function historyLength(page) {
  return page.$$eval('#history .mv', (l) => l.length);
}

// Sets up a game in the form and presses New game.
async function newGame(page, { game, spec, position = '', first, second }) {
  const old = await page.$eval('body', (b) => b.dataset.gameId || '');
  await page.selectOption('#game-select', game);
  await page.fill('#spec', spec);
  await page.fill('#position', position);
  await page.fill('#first-agent', first);
  await page.fill('#second-agent', second);
  await page.fill('#watch-delay', '0');
  await page.click('#new-game');
  await page.waitForFunction((was) => document.querySelector('#board .sq') &&
                                      (document.body.dataset.gameId || '') !== was &&
                                      !['starting', 'loading'].includes(document.body.dataset.phase),
                             old, { timeout: STEP_MS });
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
  const first = (await page.textContent('#history .mv')).trim();
  check(first === 'a5=N', `the first move is '${first}', want a5=N (SAN)`);
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
  // PDN's numbers on the 32 dark squares (1 is b8, 32 is g1), the seed's
  // colours: White's men drawn white, Black's black.
  const nums = await page.$$eval('#board .coord.num', (l) => l.map((e) => `${e.closest('.sq').dataset.square}=${e.textContent}`));
  check(nums.length === 32 && nums.includes('0,1=1') && nums.includes('1,2=6') && nums.includes('7,6=32'),
        `square numbers: ${nums.slice(0, 6).join(' ')} ... (${nums.length})`);
  const fill = (sel) => page.$eval(sel, (e) => getComputedStyle(e).fill);
  const [white, black] = [await fill('#board .piece.checker.white'), await fill('#board .piece.checker.black')];
  const light = (rgb) => rgb.match(/\d+/g).slice(0, 3).reduce((a, x) => a + Number(x), 0) / 3;
  check(light(white) > 200 && light(black) < 70, `White's men are ${white}, Black's ${black}`);
  await page.click(sqSel(1, 2));
  const targets = await page.$$eval('#board .sq.target', (l) => l.map((e) => e.dataset.square).sort());
  check(JSON.stringify(targets) === '["3,0","3,4"]', `first landings are ${JSON.stringify(targets)}, want 3,0 and 3,4`);
  await page.click(sqSel(3, 4));
  check((await historyLength(page)) === 0, 'the move was played after the first landing of a double jump');
  const next = await page.$$eval('#board .sq.target', (l) => l.map((e) => e.dataset.square));
  check(JSON.stringify(next) === '["5,2"]', `second landings are ${JSON.stringify(next)}, want ["5,2"]`);
  await page.screenshot({ path: join(outDir, 'checkers-jump.png') });
  await page.click(sqSel(5, 2));
  await page.waitForFunction(() => document.querySelectorAll('#history .mv').length >= 1, null, { timeout: STEP_MS });
  const first = await page.textContent('#history .mv');
  check(first.trim() === '6x15x22', `the jump reads '${first}' in the move list, want 6x15x22`);
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
  const score = (await page.textContent('#search-score')).trim();
  check(/^([+-]\d+\.\d\d pawns|0\.00 pawns|(White|Black) mates in \d+)$/.test(score),
        `the score reads '${score}', not pawns from White's view or a mate`);
  // The engine's clock runs and counts its 5 s down; the board is turned
  // for the person, who plays Black.
  const clock = '[data-testid="clock-1"]';
  check(await page.$eval(clock, (c) => c.classList.contains('running')), 'the thinking side\'s clock does not run');
  const c0 = (await page.textContent(clock)).trim();
  await page.waitForTimeout(400);
  const c1 = (await page.textContent(clock)).trim();
  check(c0 !== c1 && /s left$/.test(c1), `the engine's clock reads '${c0}' then '${c1}'`);
  check((await page.$eval('#board .sq', (b) => b.dataset.square)) === '4,4', 'the board is not turned for Black');
  check((await page.textContent('#player-bottom .name')).trim() === 'Black', 'Black is not at the bottom');
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
  await page.waitForFunction(() => document.querySelectorAll('#history .mv').length === 1 &&
                                   document.body.dataset.phase === 'human', null, { timeout: STEP_MS });
  await page.click('#undo');
  await page.waitForFunction(() => document.querySelectorAll('#history .mv').length === 0 &&
                                   document.body.dataset.phase === 'paused', null, { timeout: STEP_MS });
  return `live: depth ${depth}, ${nodes} nodes, ${bars} chart bars, score '${score}', clock ${c0} -> ${c1}; Stop moved in ` +
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
  await page.waitForFunction(() => document.querySelectorAll('#history .mv').length === 1, null, { timeout: STEP_MS });
  const first = (await page.textContent('#history .mv')).trim();
  check(first === 'pass', `the move list shows '${first}' for the pass`);
  await page.screenshot({ path: join(outDir, 'kcell-pass.png') });
  const row = (await page.textContent(`#my-games li[data-game="${await page.$eval('body', (b) => b.dataset.gameId)}"] .what`)).trim();
  check(/, 1 move$/.test(row), `the game's row in Your games reads '${row}' after one move`);
  // After a reload the page lists the game it made: Open shows it, Delete
  // deletes it on the server.
  const id = await page.$eval('body', (b) => b.dataset.gameId);
  await page.reload();
  await page.waitForSelector(`#my-games li[data-game="${id}"]`, { timeout: STEP_MS });
  await page.click(`#my-games li[data-game="${id}"] button[data-action="open"]`);
  await page.waitForFunction((g) => document.body.dataset.gameId === g &&
                                    document.querySelectorAll('#history .mv').length === 1, id, { timeout: STEP_MS });
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

  // An agent the server refuses: its error on New game, and the game stays.
  await page.fill('#spec', 'nqueens:n=4');
  await page.fill('#second-agent', 'exec:cmd=ls');
  await page.click('#new-game');
  await page.waitForSelector('#status.error', { timeout: STEP_MS });
  const refused = (await page.textContent('#status')).trim();
  check(/exec/.test(refused), `a refused agent shows '${refused}'`);
  check((await page.$eval('body', (b) => b.dataset.gameId)) === id, 'a refused agent replaced the game');
  await page.screenshot({ path: join(outDir, 'error.png') });
  return `KCell engine vs random watched: ${plies} plies, ${result}; bad spec shows "${msg}"; ` +
         `refused agent shows "${refused}"`;
}

// The board at a glance: coordinates that turn with it, a drag and a move
// played from the keyboard (arrows, Enter; Esc drops a pick).
async function boardInput(page) {
  await newGame(page, { game: 'gardner', spec: 'gardner', first: 'human', second: 'engine:depth=1' });
  check((await waitTurn(page)) === 'human', 'White (a person) is not to move');
  const edge = () => page.$$eval('#board .coord.file', (l) => l.map((e) => e.textContent).join(''));
  const ranks = () => page.$$eval('#board .coord.rank', (l) => l.map((e) => e.textContent).join(''));
  check((await edge()) === 'abcde' && (await ranks()) === '54321', `edges read ${await edge()} / ${await ranks()}`);
  // Drawn in the square's corners: ranks top left, files bottom right.
  const corners = await page.$eval(sqSel(4, 0), (sq) => {
    const b = sq.getBoundingClientRect();
    const at = (sel) => { const r = sq.querySelector(sel).getBoundingClientRect(); return [(r.left - b.left) / b.width, (r.top - b.top) / b.height]; };
    return { rank: at('.coord.rank'), file: at('.coord.file') };
  });
  check(corners.rank[0] < 0.2 && corners.rank[1] < 0.2 && corners.file[0] > 0.7 && corners.file[1] > 0.7,
        `a1's labels sit at ${JSON.stringify(corners)} (fractions of the square)`);
  await page.click('#flip');
  check((await edge()) === 'edcba' && (await ranks()) === '12345', `flipped edges read ${await edge()} / ${await ranks()}`);
  await page.click('#flip');

  // Drag b2 to b3.
  await page.dragAndDrop(sqSel(3, 1), sqSel(2, 1));
  await page.waitForFunction(() => document.querySelectorAll('#history .mv').length >= 1, null, { timeout: STEP_MS });
  const dragged = (await page.textContent('#history .mv')).trim();
  check(dragged === 'b3', `the drag played '${dragged}', want b3`);
  check((await waitTurn(page)) === 'human', 'the engine did not answer the drag');

  // The keyboard: Tab reaches one square; arrows walk to c2, Enter picks
  // it, Esc drops it; pick again, Up to c3, Enter plays c3.
  await page.focus('#board .sq[tabindex="0"]');
  const walk = async (to) => {
    for (let i = 0; i < 12; i++) {
      const at = await page.evaluate(() => document.activeElement?.dataset?.square);
      const [r, c] = at.split(',').map(Number);
      if (r === to[0] && c === to[1]) return;
      await page.keyboard.press(r < to[0] ? 'ArrowDown' : r > to[0] ? 'ArrowUp' : c < to[1] ? 'ArrowRight' : 'ArrowLeft');
    }
    throw new Failure(`the arrow keys did not reach ${to}`);
  };
  await walk([3, 2]);
  await page.keyboard.press('Enter');
  check((await page.$$('#board .sq.selected')).length === 1, 'Enter did not pick c2');
  await page.keyboard.press('Escape');
  check((await page.$$('#board .sq.selected')).length === 0, 'Esc did not drop the pick');
  await page.keyboard.press('Enter');
  await walk([2, 2]);
  await page.screenshot({ path: join(outDir, 'keyboard.png') });
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('#history .mv').length >= 3, null, { timeout: STEP_MS });
  const third = (await page.$$eval('#history .mv', (l) => l[2].textContent)).trim();
  check(third === 'c3', `the keyboard played '${third}', want c3`);
  await waitTurn(page);
  return `edges abcde/54321 and turned; drag played ${dragged}; arrows + Enter played ${third}, Esc dropped a pick`;
}

// The move list in pairs; a click shows an earlier position, the arrow keys
// step, Esc comes back; a proven result in words.
async function moveList(page) {
  await newGame(page, { game: 'gardner', spec: 'gardner', first: 'human', second: 'engine:depth=1' });
  for (let i = 0; i < 2; i++) {
    check((await waitTurn(page)) === 'human', 'White (a person) is not to move');
    await clickFirstMove(page);
  }
  await waitTurn(page);
  const rows = await page.$$eval('#history li', (l) => l.map((li) => [...li.children].map((e) => e.textContent).join(' ')));
  check(rows.length === 2 && /^1\. \S+ \S+$/.test(rows[0]) && /^2\. \S+ \S+$/.test(rows[1]),
        `the move list reads ${JSON.stringify(rows)}, want "1. W B", "2. W B"`);
  const live = await page.$$eval('#board .sq', (l) => l.map((e) => e.dataset.piece).join('|'));
  await page.click('#history .mv[data-ply="1"]');
  await page.waitForFunction(() => document.body.dataset.viewing === '1', null, { timeout: STEP_MS });
  check(!(await page.isHidden('#viewing')), 'no note says an earlier position is shown');
  const past = await page.$$eval('#board .sq', (l) => l.map((e) => e.dataset.piece).join('|'));
  check(past !== live, 'the board did not change to the position after move 1');
  check((await page.$$('#board .sq.can-move')).length === 0, 'an earlier position offers moves');
  await page.screenshot({ path: join(outDir, 'move-list-past.png') });
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.body.dataset.viewing === '0', null, { timeout: STEP_MS });
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.body.dataset.viewing === '1', null, { timeout: STEP_MS });
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.body.dataset.viewing, null, { timeout: STEP_MS });
  const back = await page.$$eval('#board .sq', (l) => l.map((e) => e.dataset.piece).join('|'));
  check(back === live, 'Esc did not bring back the game now');
  check((await page.$$('#board .sq.can-move')).length > 0, 'back in the game, no move is offered');

  // A proven result: White mates at once (Qe5#).
  await newGame(page, { game: 'gardner', spec: 'gardner', position: 'k4/5/1K3/4Q/5 w - - 0 1',
                        first: 'engine:depth=3', second: 'human' });
  await page.waitForFunction(() => document.body.dataset.phase === 'over' || document.querySelector('#status.error'),
                             null, { timeout: STEP_MS });
  const score = (await page.textContent('#search-score')).trim();
  check(score === 'White mates in 1', `the proven score reads '${score}'`);
  const mate = (await page.textContent('#history .mv')).trim();
  check(mate === 'Qe5#', `the mate reads '${mate}'`);
  const pv = (await page.textContent('#search-pv')).trim();
  check(pv.startsWith('Qe5#'), `the line reads '${pv}'`);
  return `rows ${rows.join(' | ')}; move 1 shown, arrows stepped, Esc back; mate scored '${score}'`;
}

// A fresh browser opens on a board ready to play; on a phone (375 px) the
// board comes first and takes nearly the whole width.
async function startAndPhone(browser, base) {
  const out = [];
  for (const [name, viewport] of [['desktop', { width: 1280, height: 860 }], ['phone', { width: 375, height: 667 }]]) {
    const ctx = await browser.newContext({ viewport, hasTouch: name === 'phone' });
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(`${base}/`);
      await page.waitForFunction(() => document.querySelectorAll('#board .sq').length > 0 &&
                                       document.body.dataset.phase === 'human', null, { timeout: STEP_MS });
      const box = await page.$eval('#board', (b) => { const r = b.getBoundingClientRect(); return { w: r.width, top: r.top, bottom: r.bottom, left: r.left, right: r.right }; });
      if (name === 'phone') {
        check(box.w >= 0.9 * viewport.width, `the board is ${box.w.toFixed(0)} px wide on a ${viewport.width} px phone`);
        check(box.bottom <= viewport.height, `the board ends at ${box.bottom.toFixed(0)} px, below the first screen (${viewport.height})`);
        check(box.left >= 0 && box.right <= viewport.width, `the board spans ${box.left.toFixed(0)}-${box.right.toFixed(0)} px of ${viewport.width}`);
        const wide = await page.evaluate(() => document.documentElement.scrollWidth);
        check(wide <= viewport.width, `the page is ${wide} px wide on a ${viewport.width} px phone`);
        // A move by taps: the first square that starts one, then its first
        // target if the move goes on (one tap places a queen).
        await page.tap('#board .sq.can-move');
        const t = await page.$('#board .sq.target');
        if (t) await t.tap();
        await page.waitForFunction(() => document.querySelectorAll('#history .mv').length >= 1, null, { timeout: STEP_MS });
      }
      await page.screenshot({ path: join(outDir, `start-${name}.png`) });
      check(!errors.length, `errors in the page: ${errors.join(' | ')}`);
      out.push(`${name}: board ${box.w.toFixed(0)} px wide, ${box.top.toFixed(0)}-${box.bottom.toFixed(0)} px`);
      const id = await page.$eval('body', (b) => b.dataset.gameId);
      await fetch(`${base}/api/games/${id}`, { method: 'DELETE' });
    } finally {
      await ctx.close();
    }
  }
  return out.join('; ');
}

// ---- main --------------------------------------------------------------------

const server = startServer(duelBin);
let browser;
let status = 0;
try {
  const base = await server.url;
  browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/400|404|Bad Request|Not Found/.test(m.text())) pageErrors.push(`${m.text()} (${m.location()?.url ?? ''})`);
  });
  await page.goto(`${base}/`);
  await page.waitForFunction(() => document.querySelectorAll('#game-select option').length > 0, null, { timeout: STEP_MS });
  console.log(`web.e2e: ${base}/ in Chromium ${browser.version()}; screenshots in ${outDir}`);
  for (const [name, run] of [['start-and-phone', () => startAndPhone(browser, base)], ['gardner', gardner],
                             ['promotion', promotion], ['board-input', boardInput], ['move-list', moveList],
                             ['checkers', checkers], ['nqueens', nqueens], ['live-search', liveSearch],
                             ['kcell-pass', kcellPass], ['watch', watchAndError]]) {
    const passed = await runCase(name, () => run(page), pageErrors, async () => {
      await page.screenshot({ path: join(outDir, `${name}-failure.png`) }).catch(() => {});
      console.log(`     status line: ${await page.textContent('#status').catch(() => '?')}`);
    });
    if (!passed) status = 1;
  }
} catch (e) {
  status = 1;
  console.log(`FAIL setup: ${e.message}`);
} finally {
  if (browser) await browser.close().catch(() => {});
}
if (!(await stopServer(server))) status = 1;
console.log(status === 0 ? 'web.e2e: all cases passed' : 'web.e2e: FAILED');
process.exit(status);
