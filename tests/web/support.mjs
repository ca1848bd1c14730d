// What the page's end-to-end tests share (tests/web/e2e.mjs, live.mjs):
// the skip and failure conventions, finding Chromium and playwright-core,
// starting `duel serve --port 0` and stopping it, and playing a move by clicks.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const SKIP = 77;
export const STEP_MS = 60_000;  // the longest wait for one thing to appear

export function skip(why) {
  console.log(`SKIP: ${why}`);
  process.exit(SKIP);
}

export class Failure extends Error {}
export function check(cond, what) {
  if (!cond) throw new Failure(what);
}

// The command line and what the test needs: the duel binary (argv[2]),
// Chromium ($DUEL_CHROMIUM or /usr/bin/chromium) and playwright-core (else
// a skip), and the screenshots' folder (argv[3], $DUEL_E2E_OUT or a new one).
export async function setup(script) {
  const duelBin = process.argv[2];
  if (!duelBin || !existsSync(duelBin)) {
    console.error(`usage: node ${script} DUEL_BIN [OUTDIR] (no duel binary at '${duelBin ?? ''}')`);
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
  return { duelBin, chromium, chromiumPath, outDir };
}

// Starts `duel serve --port 0` ($DUEL_WEB_ROOT: the page from that folder);
// `url` resolves to its base URL.
export function startServer(duelBin) {
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

// The server stops cleanly on SIGTERM (status 0; under ASan also no
// report): prints the case's line and says whether it did.
export async function stopServer(server) {
  if (server.proc.exitCode !== null || server.proc.signalCode !== null) {
    console.log(`FAIL server: duel serve died during the test (status ${server.proc.exitCode}, ` +
                `signal ${server.proc.signalCode}); stderr: ${server.stderr().slice(-2000)}`);
    return false;
  }
  const exited = new Promise((res) => server.proc.once('exit', (code, sig) => res({ code, sig })));
  server.proc.kill('SIGTERM');
  const end = await Promise.race([exited, new Promise((res) => setTimeout(() => res(null), 15_000))]);
  if (!end) {
    server.proc.kill('SIGKILL');
    console.log('FAIL server: duel serve did not exit within 15 s of SIGTERM');
    return false;
  }
  if (end.code !== 0) {
    console.log(`FAIL server: duel serve ended with status ${end.code} signal ${end.sig} on SIGTERM; ` +
                `stderr: ${server.stderr().slice(-2000)}`);
    return false;
  }
  console.log('ok   server: exit status 0 on SIGTERM');
  return true;
}

export const sqSel = (r, c) => `#board .sq[data-square="${r},${c}"]`;

// Waits until the page is ready for a person (phase human) or the game is over.
export async function waitTurn(page) {
  await page.waitForFunction(() => ['human', 'over'].includes(document.body.dataset.phase) ||
                                   document.querySelector('#status.error'), null, { timeout: STEP_MS });
  const err = await page.$eval('#status', (s) => (s.classList.contains('error') ? s.textContent : ''));
  check(!err, `the page shows an error: ${err}`);
  return page.$eval('body', (b) => b.dataset.phase);
}

// Plays the first legal move by clicks: the first square marked as a move's
// start, then the first target while the move goes on, then the first
// choice if the page asks. Returns the squares clicked, once the move list
// (`moves`: the selector of its entries) grew or the status line shows an error.
export async function clickFirstMove(page, moves = '#history button.mv') {
  const count = () => page.$$eval(moves, (l) => l.length);
  const before = await count();
  const clicked = [];
  const start = await page.$('#board .sq.can-move');
  check(start, 'a person is to move but no square is marked as a move start');
  clicked.push(await start.getAttribute('data-square'));
  await start.click();
  for (let i = 0; i < 20; i++) {
    // Played: the list grew, or the move is on its way (the phase left human).
    if ((await count()) > before || (await page.$eval('body', (b) => b.dataset.phase)) !== 'human') break;
    if (await page.isVisible('#chooser')) {
      await page.click('#chooser-moves button');
      break;
    }
    const target = await page.$('#board .sq.target');
    if (!target) break;
    clicked.push(await target.getAttribute('data-square'));
    await target.click();
  }
  await page.waitForFunction(([sel, n]) => document.querySelectorAll(sel).length > n ||
                                           document.querySelector('#status.error'), [moves, before], { timeout: STEP_MS });
  return clicked;
}

// Runs one case: prints `ok NAME: what it returned (seconds)`, or `FAIL
// NAME: why` and then calls `onFail()` (screenshots, status lines). A case
// also fails on `errors` seen in its pages. Whether it passed.
export async function runCase(name, run, errors, onFail) {
  const t0 = Date.now();
  try {
    const what = await run();
    check(!errors.length, `errors in the page: ${errors.join(' | ')}`);
    console.log(`ok   ${name}: ${what} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    return true;
  } catch (e) {
    console.log(`FAIL ${name}: ${e.message.split('\n')[0]}`);
    if (!(e instanceof Failure)) console.error(e.stack);
    await onFail();
    return false;
  }
}
