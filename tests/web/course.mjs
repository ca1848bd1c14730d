#!/usr/bin/env node
// End-to-end test of the course page (/course/, web/course/) in headless
// Chromium (Debian's /usr/bin/chromium driven by playwright-core) against
// `duel course serve --port 0`, for a CSCI-561 course and a CS3243 one:
// students sign in by their links (the token leaves the address), upload
// through the page's file input, follow the queue and see their results
// (CSCI-561: ten single moves and the games, one opened on the board;
// CS3243: the five opponents), a crashing program's reason, a 403 on another
// student's submission, the ladder's ratings; the teacher starts a grading
// run and downloads grades.csv, which must be byte for byte the
// results.csv of `duel tournament` run by this test on the same files.
//
//   DUEL_WEB_ROOT=web node tests/web/course.mjs DUEL_BIN [OUTDIR]
//
// DUEL_BIN is build/bin/duel (`duel course` runs duel-course beside it).
// $DUEL_WEB_ROOT serves the pages from that folder (else the files built
// into the binary). OUTDIR (or $DUEL_E2E_OUT; default a new temporary dir)
// receives the screenshots. Prints one line per case. Exit 0: all passed;
// 1: a failure; 77: skipped (no Chromium or no node_modules).
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { Failure, STEP_MS, check, runCase, setup } from './support.mjs';

const { duelBin, chromium, chromiumPath, outDir } = await setup('course.mjs');
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);
const JUDGE_MS = 120_000;  // the longest wait for the judges (a submission, the ladder, a run)

const tmp = mkdtempSync(join(tmpdir(), 'duel-course-test-'));
const ROSTER = 'id,name,email\nalice,Alice Ames,alice@example.edu\nbob,Bob Brown,bob@example.edu\n' +
               'carol,Carol Chen,carol@example.edu\n';

// ---- the course and its server -------------------------------------------------

// `duel course new`, course.json made fast for the test; the tokens by id.
async function makeCourse(name, course, settings) {
  const dir = join(tmp, name);
  writeFileSync(join(tmp, 'roster.csv'), ROSTER);
  const { stdout } = await run(duelBin, ['course', 'new', dir, '--course', course, '--roster', join(tmp, 'roster.csv'),
                                         '--url', 'http://127.0.0.1:1']);
  const tokens = {};
  for (const line of stdout.trim().split('\n').slice(1)) {
    const [id, , , token] = line.split(',');
    tokens[id] = token;
  }
  tokens.teacher = /#token=([0-9a-f]{32})/.exec(readFileSync(join(dir, 'teacher-link.txt'), 'utf8'))[1];
  check(Object.values(tokens).every((t) => /^[0-9a-f]{32}$/.test(t)), `duel course new printed tokens ${JSON.stringify(tokens)}`);
  const config = JSON.parse(readFileSync(join(dir, 'course.json'), 'utf8'));
  writeFileSync(join(dir, 'course.json'), JSON.stringify({ ...config, ...settings }, null, 2));
  return { dir, tokens };
}

// `duel course serve DIR --port 0`; `url` resolves to its base URL once it
// printed its serving line.
const servers = [];  // every server started: killed if this process ends before stopping them
process.on('exit', () => {
  for (const p of servers) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
});
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    console.log(`web.course: ${sig}: stopping`);
    process.exit(1);
  });
}

function serve(dir) {
  const args = ['course', 'serve', dir, '--port', '0', '--workers', '2'];
  if (process.env.DUEL_WEB_ROOT) args.push('--web-root', process.env.DUEL_WEB_ROOT);
  const proc = spawn(duelBin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  servers.push(proc);
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  const url = new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Failure(`duel course serve printed no serving line in 20 s; stderr: ${stderr}`)), 20_000);
    createInterface({ input: proc.stdout }).on('line', (line) => {
      const m = /^duel course: serving .* on (http:\/\/\S+?)\/course\//.exec(line);
      if (m) {
        clearTimeout(timer);
        res(m[1]);
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      rej(new Failure(`duel course serve exited (status ${code}) before serving; stderr: ${stderr}`));
    });
  });
  url.catch(() => {});
  return { proc, url, stderr: () => stderr };
}

// The server's base URL once it serves this course page (not an older one
// built into the binary: then DUEL_WEB_ROOT=web, or build again).
async function served(server) {
  const base = await server.url;
  const page = await (await fetch(`${base}/course/`)).text();
  check(page.includes('/course/course.js'), `${base}/course/ is not web/course/index.html (the binary's built-in pages ` +
        'are older: set DUEL_WEB_ROOT=web or build again)');
  return base;
}

// SIGTERM; the case's line says whether it exited 0.
async function stop(name, server) {
  if (server.proc.exitCode !== null || server.proc.signalCode !== null) {
    console.log(`FAIL ${name}-server: it died during the test (status ${server.proc.exitCode}, signal ` +
                `${server.proc.signalCode}); stderr: ${server.stderr().slice(-2000)}`);
    return false;
  }
  const exited = new Promise((res) => server.proc.once('exit', (code, sig) => res({ code, sig })));
  server.proc.kill('SIGTERM');
  const end = await Promise.race([exited, new Promise((res) => setTimeout(() => res(null), 20_000))]);
  if (!end) {
    server.proc.kill('SIGKILL');
    console.log(`FAIL ${name}-server: duel course serve did not exit within 20 s of SIGTERM`);
    return false;
  }
  if (end.code !== 0) {
    console.log(`FAIL ${name}-server: status ${end.code} signal ${end.sig} on SIGTERM; stderr: ${server.stderr().slice(-2000)}`);
    return false;
  }
  console.log(`ok   ${name}-server: exit status 0 on SIGTERM`);
  return true;
}

// Polls `get()` until `ok(value)`, at most `ms`; the last value.
async function until(what, get, ok, ms = JUDGE_MS) {
  const end = Date.now() + ms;
  let last;
  for (;;) {
    last = await get();
    if (ok(last)) return last;
    if (Date.now() > end) throw new Failure(`${what}: not within ${ms / 1000} s; last ${JSON.stringify(last).slice(0, 600)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

// ---- pages ----------------------------------------------------------------------

let browser;
let pages = [];
let pageErrors = [];

async function newPage(name, options = {}) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true, ...options });
  const page = await ctx.newPage();
  pages.push({ name, page });
  page.on('pageerror', (e) => pageErrors.push(`${name}: ${e.message}`));
  page.on('console', (m) => {
    // The refusals the cases ask for (400, 401, 403, 404) are logged by the browser.
    if (m.type() === 'error' && !/40[0134]|Bad Request|Forbidden|Not Found|ERR_FAILED/.test(m.text())) {
      pageErrors.push(`${name}: ${m.text()} (${m.location()?.url ?? ''})`);
    }
  });
  // Every status text the page shows, to see the queue go by.
  await page.addInitScript(() => {
    window.seen = [];
    new MutationObserver(() => {
      for (const e of document.querySelectorAll('[data-testid="sub-status"], [data-testid="detail-status"], #notice')) {
        if (window.seen[window.seen.length - 1] !== e.textContent) window.seen.push(e.textContent);
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  return page;
}

// A page signed in by the link with `token`, once it shows the course.
async function signedIn(base, token, name, options) {
  const page = await newPage(name, options);
  await page.goto(`${base}/course/#token=${token}`);
  await page.waitForFunction(() => ['student', 'teacher'].includes(document.body.dataset.phase) ||
                                   document.body.dataset.error, null, { timeout: STEP_MS });
  const err = await page.evaluate(() => document.body.dataset.error || '');
  check(!err, `${name}: signing in by the link shows '${err}'`);
  check(!page.url().includes(token), `${name}: the token is still in the address ${page.url()}`);
  return page;
}

const text = (page, sel) => page.$eval(sel, (e) => e.textContent.trim());
const phase = (page) => page.evaluate(() => document.body.dataset.phase);
const shownError = (page) => page.evaluate(() => (document.getElementById('message').hidden ? '' : document.getElementById('message-text').textContent));

// Uploads `file` through the page's form; the new submission's id once
// the page shows it judged (its detail's status done).
async function upload(page, file) {
  await page.setInputFiles('#upload-file', file);
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/course/submissions') && r.request().method() === 'POST');
  await page.click('#upload-submit');
  const res = await answer;
  check(res.status() === 201, `the upload of ${file} answered ${res.status()}: ${await res.text()}`);
  const id = (await res.json()).id;
  await page.waitForSelector(`#subs tbody tr[data-id="${id}"]`, { timeout: STEP_MS });
  await page.waitForFunction((k) => {
    const d = document.getElementById('detail');
    return (d.dataset.id === String(k) && d.dataset.status === 'done') || document.body.dataset.error;
  }, id, { timeout: JUDGE_MS });
  const err = await shownError(page);
  check(!err, `after uploading ${file} the page shows '${err}'`);
  return id;
}

// The statuses the page showed so far (queued, running, done...).
const seenStatuses = (page) => page.evaluate(() => window.seen);

// Opens a game by its "Open on the board" button `sel`; the moves the
// board's list shows (at least one), then back to the course page.
async function onTheBoard(page, sel, back) {
  await page.click(sel);
  await page.waitForURL(/\/g\/g\d+$/, { timeout: STEP_MS });
  await page.waitForFunction(() => document.querySelectorAll('#history button.mv').length > 0 ||
                                   document.querySelector('#status.error'), null, { timeout: STEP_MS });
  const moves = await page.$$eval('#history button.mv', (l) => l.map((x) => x.textContent.trim()));
  const status = await text(page, '#status');
  check(moves.length > 0, `the board shows no moves; its status: ${status}`);
  const where = page.url();
  if (back) {
    await page.goBack();
    await page.waitForFunction(() => ['student', 'teacher'].includes(document.body.dataset.phase), null, { timeout: STEP_MS });
  }
  return { moves, where };
}

// The ladder through the API until every player has played; then the
// page's table after Refresh: rows of [rank, name, rating, games, W/D/L].
async function ladderShown(page, names) {
  await until('both programs rated on the ladder', async () => (await page.request.get(new URL('/api/course/ladder', page.url()).href)).json(),
              (l) => l.players.length === names.length && l.players.every((p) => p.games > 0));
  await page.click('#ladder-refresh');
  await page.waitForFunction((n) => document.querySelectorAll('#ladder-table tbody tr').length === n, names.length,
                             { timeout: STEP_MS });
  const rows = await page.$$eval('#ladder-table tbody tr', (l) => l.map((tr) => ({
    you: tr.classList.contains('you'), cells: [...tr.cells].map((c) => c.textContent.trim()),
  })));
  for (const r of rows) check(/^\d+ ± \d+$/.test(r.cells[2]) && Number(r.cells[3]) > 0, `a ladder row reads ${r.cells.join(' | ')}`);
  const you = rows.filter((r) => r.you);
  check(you.length === 1 && you[0].cells[1].includes('(you)'), `the own row is not the one marked: ${JSON.stringify(rows)}`);
  return rows;
}

// The fetch of another's submission from the page (its cookie).
const statusOf = (page, path) => page.evaluate(async (p) => (await fetch(p)).status, path);

// The teacher's grading run from the page, and its grades.csv downloaded.
async function gradingRun(t) {
  await t.click('#run-grading');
  const row = await t.waitForSelector('#runs tbody tr[data-status]', { timeout: STEP_MS });
  const id = await row.getAttribute('data-id');
  await t.waitForSelector(`#runs tbody tr[data-id="${id}"][data-status="done"] [data-testid="grades-link"]`, { timeout: JUDGE_MS });
  const [download] = await Promise.all([t.waitForEvent('download'),
    t.click(`#runs tbody tr[data-id="${id}"] [data-testid="grades-link"]`)]);
  return readFileSync(await download.path());
}

// `duel tournament COURSE` on the class laid out as class/ID/FILE.
async function tournament(course, files, args) {
  const cls = join(tmp, `${course}-class`);
  for (const [id, [from, name]] of Object.entries(files)) {
    mkdirSync(join(cls, id), { recursive: true });
    copyFileSync(from, join(cls, id, name));
  }
  const out = join(tmp, `${course}-tournament`);
  await run(duelBin, ['tournament', course, cls, '--out', out, ...args], { maxBuffer: 1 << 24 });
  return readFileSync(join(out, 'results.csv'));
}

// ---- CSCI-561 -----------------------------------------------------------------------

async function csci561(cases) {
  const { dir, tokens } = await makeCourse('csci561', 'csci561', {
    practice: ['--single-time', '5', '--reference-games', '2', '--time', '30'],
    grading: ['--reference-games', '2', '--time', '30'],
    ladder: { on: true, games: 2, pair_cap: 2, args: ['--time', '30'] },
  });
  const server = serve(dir);
  const s = {};
  const A = join(repo, 'tests/data/class561/s01-first-py/homework.py');
  const B = join(repo, 'tests/data/class561/f01-crash-py/homework.py');
  try {
    const base = await served(server);
    console.log(`web.course: csci561 at ${base}/course/`);
    await cases('csci561-sign-in', async () => {
      s.a = await signedIn(base, tokens.alice, 'A');
      s.b = await signedIn(base, tokens.bob, 'B');
      check((await phase(s.a)) === 'student', 'A is not shown the student view');
      const curl = await text(s.a, '#curl');
      check(curl.includes('Bearer YOUR_TOKEN') && curl.includes('-F file=@homework.py') && !curl.includes(tokens.alice) &&
            curl.endsWith(`${base}/api/course/submissions`), `A's curl line: ${curl}`);
      // No session, no token: the form; a pasted token signs in (and may be shown).
      const c = await newPage('C');
      await c.goto(`${base}/course/`);
      await c.waitForFunction(() => document.body.dataset.phase === 'signin', null, { timeout: STEP_MS });
      check(/course e-mail/.test(await text(c, '#signin')), 'the sign-in form does not say where the link is');
      await c.fill('#token-input', 'not-a-token');
      await c.click('[data-testid="signin-submit"]');
      await c.waitForSelector('#message:not([hidden])', { timeout: STEP_MS });
      await c.fill('#token-input', tokens.carol);
      await c.click('[data-testid="signin-submit"]');
      await c.waitForFunction(() => document.body.dataset.phase === 'student', null, { timeout: STEP_MS });
      check((await text(c, '#curl')).includes(tokens.carol), 'a pasted token is not in the curl line');
      await c.click('#signout');
      await c.waitForFunction(() => document.body.dataset.phase === 'signin', null, { timeout: STEP_MS });
      const me = await c.evaluate(async () => (await fetch('/api/course/me')).status);
      check(me === 401, `after Sign out /api/course/me answers ${me}`);
      return `A and B signed in by their links (token gone from the address); a pasted token signed C in and out; curl: ${curl}`;
    });
    await cases('csci561-upload', async () => {
      // A refused upload first: its message is shown.
      writeFileSync(join(tmp, 'notes.txt'), 'hello\n');
      await s.a.setInputFiles('#upload-file', join(tmp, 'notes.txt'));
      await s.a.click('#upload-submit');
      await s.a.waitForSelector('#message:not([hidden])', { timeout: STEP_MS });
      const refused = await shownError(s.a);
      check(/no program/.test(refused), `a notes.txt upload shows '${refused}'`);
      await s.a.click('#message-close');
      s.aId = await upload(s.a, A);
      const seen = await seenStatuses(s.a);
      check(seen.some((x) => /queued|running/.test(x)), `A never saw the submission queued or running: ${seen.join(' / ')}`);
      const singles = await s.a.$$eval('[data-testid="singles"] tbody tr', (l) => l.map((tr) => tr.cells[1].textContent));
      const games = await s.a.$$eval('[data-testid="games"] tbody tr', (l) => l.map((tr) => tr.cells[3].textContent));
      check(singles.length === 10, `${singles.length} single moves shown, not 10`);
      check(games.length === 2, `${games.length} games shown, not 2`);
      const feedback = await text(s.a, '[data-testid="feedback"]');
      check(/Single moves: \d+ of 10 points/.test(feedback), 'the feedback text is not shown');
      await s.a.screenshot({ path: join(outDir, 'course-csci561-result.png'), fullPage: true });
      return `refused '${refused.slice(0, 60)}…'; #${s.aId}: statuses ${[...new Set(seen.filter((x) => /^(queued|running|done)/.test(x)))].join(', ')}; ` +
             `singles ${singles.filter((x) => x === 'point').length}/10, games ${games.join(', ')}`;
    });
    await cases('csci561-board', async () => {
      const { moves, where } = await onTheBoard(s.a, '[data-testid="games"] tbody tr:first-child [data-testid="game-board"]', true);
      await s.a.waitForFunction((k) => document.getElementById('detail').dataset.id === String(k), s.aId, { timeout: STEP_MS });
      return `game 1 opened at ${new URL(where).pathname}: ${moves.length} moves (${moves.slice(0, 4).join(' ')} …); Back shows #${s.aId} again`;
    });
    await cases('csci561-crash', async () => {
      s.bId = await upload(s.b, B);
      const detail = await text(s.b, '#detail');
      check(/crash/.test(detail) && detail.includes('RuntimeError: f01-crash-py'), `B's result does not show the crash: ${detail.slice(0, 400)}`);
      const points = await s.b.$$eval('[data-testid="singles"] tbody tr', (l) => l.map((tr) => tr.cells[1].textContent));
      check(points.length === 10 && points.every((p) => p === 'no point'), `B's singles: ${points.join(', ')}`);
      const reason = await text(s.b, '[data-testid="games"] tbody tr:first-child td.detail');
      return `#${s.bId}: 10 × no point; game 1: ${reason}`;
    });
    await cases('csci561-forbidden', async () => {
      const got = await statusOf(s.b, `/api/course/submissions/${s.aId}`);
      check(got === 403, `B's GET of A's submission answered ${got}`);
      const record = await statusOf(s.b, `/api/course/submissions/${s.aId}/games/0/record`);
      check(record === 403, `B's GET of A's game record answered ${record}`);
      const none = (await fetch(`${base}/api/course/submissions/${s.aId}`)).status;
      check(none === 401, `a request with no session answered ${none}`);
      await s.b.goto(`${base}/course/#submission=${s.aId}`);
      await s.b.waitForSelector('#message:not([hidden])', { timeout: STEP_MS });
      const shown = await shownError(s.b);
      check(/not yours/.test(shown), `B opening A's submission by its address sees '${shown}'`);
      return `B: 403 on A's submission and record, the page says '${shown}'; no session: 401`;
    });
    await cases('csci561-ladder', async () => {
      const rows = await ladderShown(s.a, ['alice', 'bob']);
      await s.a.fill('#nickname-input', 'Ace');
      await s.a.click('[data-testid="nickname-save"]');
      await s.a.waitForFunction(() => document.querySelector('#ladder-table tr.you th').textContent.startsWith('Ace'), null, { timeout: STEP_MS });
      // A moved first (Black) in one game: it has a move at least.
      const sel = '#ladder-games li:has(.first:text-is("Ace")) button';
      const { moves } = await onTheBoard(s.a, sel, true);
      return `${rows.map((r) => r.cells.join(' ')).join('; ')}; nickname Ace shown; a ladder game on the board: ${moves.join(' ')}`;
    });
    await cases('csci561-phone', async () => {
      const p = await signedIn(base, tokens.alice, 'A-phone', { viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });
      await p.click(`#subs tbody tr[data-id="${s.aId}"] [data-testid="sub-show"]`);
      await p.waitForFunction((k) => document.getElementById('detail').dataset.id === String(k), s.aId, { timeout: STEP_MS });
      const widths = await p.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      check(widths[0] <= 375 && widths[1] === 375, `at 375 px the page is ${widths[0]} px wide (its layout ${widths[1]} px)`);
      await p.screenshot({ path: join(outDir, 'course-phone.png'), fullPage: true });
      return `at ${widths[1]} px wide nothing is wider (${widths[0]} px)`;
    });
    await cases('csci561-teacher', async () => {
      const t = await signedIn(base, tokens.teacher, 'T');
      check((await phase(t)) === 'teacher', 'the teacher is not shown the teacher view');
      // The view shows first; its lists follow from their own requests.
      await t.waitForFunction(() => document.querySelectorAll('#students tbody tr').length === 3 &&
                                    document.querySelectorAll('#subs tbody tr').length === 2, null, { timeout: STEP_MS })
        .catch(() => {});
      const students = await t.$$eval('#students tbody tr', (l) => l.map((tr) => tr.dataset.id));
      check(students.join() === 'alice,bob,carol', `the students listed: ${students}`);
      const subs = await t.$$eval('#subs tbody tr', (l) => l.map((tr) => tr.dataset.id));
      check(subs.length === 2, `the teacher sees ${subs.length} submissions`);
      const zip = await t.request.get(`${base}/api/course/submissions/${s.aId}/download`);
      check(zip.ok() && (await zip.body()).subarray(0, 2).toString() === 'PK', `the download answered ${zip.status()}`);
      // The deadline: set from the datetime-local field, then taken off.
      await t.fill('#deadline-input', '2031-05-04T12:30');
      await t.click('[data-testid="deadline-set"]');
      await t.waitForFunction(() => /^Deadline:/.test(document.getElementById('teacher-deadline').textContent), null, { timeout: STEP_MS });
      const [set, want] = await t.evaluate(async () => [(await (await fetch('/api/course/me')).json()).deadline,
                                                        new Date('2031-05-04T12:30').getTime() / 1000]);
      check(set === want, `the deadline set is ${set}, want ${want}`);
      await t.click('#deadline-clear');
      await t.waitForFunction(() => /No deadline/.test(document.getElementById('teacher-deadline').textContent), null, { timeout: STEP_MS });
      const [csv, mine] = await Promise.all([gradingRun(t), tournament('csci561', { alice: [A, 'homework.py'], bob: [B, 'homework.py'] },
        ['--quiet', '--reference-games', '2', '--time', '30'])]);
      check(csv.equals(mine), `grades.csv differs from duel tournament's results.csv:\n${csv}\n---\n${mine}`);
      await t.screenshot({ path: join(outDir, 'course-teacher.png'), fullPage: true });
      return `3 students, 2 submissions, zip, deadline set and cleared; grades.csv = duel tournament's results.csv ` +
             `(${csv.length} bytes, ${csv.toString().trim().split('\n').length - 1} rows)`;
    });
  } finally {
    s.ok = await stop('csci561', server);
  }
  return s.ok;
}

// ---- CS3243 ---------------------------------------------------------------------------

async function cs3243(cases) {
  const { dir, tokens } = await makeCourse('cs3243', 'cs3243', {
    practice: ['--games', '1'], grading: ['--games', '1'], ladder: { on: true, games: 2, pair_cap: 2, args: [] },
  });
  // A: the plain mover of tests/data/hostile3243 (a correct agent); B: one that raises.
  for (const who of ['a', 'b']) mkdirSync(join(tmp, `ab-${who}`), { recursive: true });
  const A = join(tmp, 'ab-a', 'AB.py');
  const B = join(tmp, 'ab-b', 'AB.py');
  copyFileSync(join(repo, 'tests/data/hostile3243/plain_mover.py'), A);
  writeFileSync(B, 'def studentAgent(gameboard):\n    raise RuntimeError("boom")\n');
  const server = serve(dir);
  const s = {};
  try {
    const base = await served(server);
    console.log(`web.course: cs3243 at ${base}/course/`);
    await cases('cs3243-upload', async () => {
      s.a = await signedIn(base, tokens.alice, 'A');
      s.b = await signedIn(base, tokens.bob, 'B');
      const curl = await text(s.a, '#curl');
      check(curl.includes('-F file=@AB.py'), `the cs3243 curl line: ${curl}`);
      [s.aId, s.bId] = await Promise.all([upload(s.a, A), upload(s.b, B)]);
      const opponents = await s.a.$$eval('[data-testid="opponents"] tbody tr', (l) => l.map((tr) => [...tr.cells].map((c) => c.textContent.trim())));
      // The hand-out's five test cases, in its order (seed 000).
      check(opponents.map((o) => o[0]).join() === 'first,random,greedy,smart,minimax4',
            `A's opponents: ${JSON.stringify(opponents)}`);
      check(opponents.every((o) => o.slice(1, 4).every((n) => /^\d+$/.test(n)) && Number(o[1]) + Number(o[2]) + Number(o[3]) === 1),
            `A's results: ${JSON.stringify(opponents)}`);
      const detail = await text(s.b, '#detail');
      check(detail.includes('RuntimeError: boom'), `B's result does not give the reason: ${detail.slice(0, 400)}`);
      await s.a.screenshot({ path: join(outDir, 'course-cs3243-result.png'), fullPage: true });
      return `A #${s.aId}: ${opponents.map((o) => `${o[0]} ${o[1]}/${o[2]}/${o[3]}`).join(', ')}; B #${s.bId} shows 'RuntimeError: boom'`;
    });
    await cases('cs3243-board', async () => {
      const { moves } = await onTheBoard(s.a, '[data-testid="games"] tbody tr:first-child button', true);
      return `A's game 1 (against first) on the board: ${moves.slice(0, 4).join(' ')} … (${moves.length} moves)`;
    });
    await cases('cs3243-forbidden', async () => {
      const got = await statusOf(s.b, `/api/course/submissions/${s.aId}`);
      check(got === 403, `B's GET of A's submission answered ${got}`);
      return 'B: 403 on A\'s submission';
    });
    await cases('cs3243-ladder', async () => {
      const rows = await ladderShown(s.a, ['alice', 'bob']);
      const { moves } = await onTheBoard(s.a, '#ladder-games li:has(.first:text-is("Alice Ames")) button', true);
      return `${rows.map((r) => r.cells.join(' ')).join('; ')}; a ladder game on the board: ${moves.join(' ')}`;
    });
    await cases('cs3243-teacher', async () => {
      const t = await signedIn(base, tokens.teacher, 'T');
      check(await t.isHidden('#run-competition'), 'a cs3243 teacher is offered a competition');
      // Rejudge B: queued again, then done.
      // Once the page says so the server has it queued: done after that is the new judging's.
      await t.click(`#subs tbody tr[data-id="${s.bId}"] button:text("Rejudge")`);
      await t.waitForFunction(() => /queued to be judged again/.test(document.getElementById('notice').textContent), null,
                              { timeout: STEP_MS });
      await until('the rejudged submission judged', async () => (await t.request.get(`${base}/api/course/submissions/${s.bId}`)).json(),
                  (x) => x.status === 'done');
      await t.waitForSelector(`#subs tbody tr[data-id="${s.bId}"][data-status="done"]`, { timeout: STEP_MS });
      const [csv, mine] = await Promise.all([gradingRun(t), tournament('cs3243', { alice: [A, 'AB.py'], bob: [B, 'AB.py'] },
        ['--games', '1'])]);
      check(csv.equals(mine), `grades.csv differs from duel tournament's results.csv:\n${csv}\n---\n${mine}`);
      return `B rejudged; grades.csv = duel tournament's results.csv (${csv.length} bytes)`;
    });
  } finally {
    s.ok = await stop('cs3243', server);
  }
  return s.ok;
}

// ---- main ------------------------------------------------------------------------------

let status = 0;
const t0 = Date.now();
try {
  browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  console.log(`web.course: Chromium ${browser.version()}; screenshots in ${outDir}; course folders in ${tmp}`);
  // cs3243 is graded by the Python package beside the binary (duel
  // tournament's rule); a tree without it (the sanitizer build) runs csci561 only.
  const python = process.env.DUEL_PYTHONPATH || join(dirname(dirname(duelBin)), 'python');
  const courses = [csci561];
  if (existsSync(join(python, 'duel', 'cs3243', '__main__.py'))) {
    courses.push(cs3243);
  } else {
    console.log(`skip cs3243: no Python package duel in ${python} (this tree builds none)`);
  }
  for (const course of courses) {
    let failed = false;
    const cases = async (name, fn) => {
      if (failed) {
        console.log(`skip ${name}: an earlier case of the course failed`);
        return;
      }
      pageErrors = [];
      const passed = await runCase(name, fn, pageErrors, async () => {
        for (const [i, { name: who, page }] of pages.entries()) {
          await page.screenshot({ path: join(outDir, `${name}-failure-${i + 1}.png`), fullPage: true }).catch(() => {});
          console.log(`     ${who}: ${await page.evaluate(() => `${document.body.dataset.phase}; ` +
            `${document.getElementById('message-text')?.textContent ?? ''} ${document.getElementById('notice')?.textContent ?? ''}`).catch(() => '?')}`);
        }
      });
      if (!passed) failed = true;
    };
    const stopped = await course(cases).catch((e) => {
      console.log(`FAIL ${course.name}: ${e.message.split('\n')[0]}`);
      return false;
    });
    if (failed || !stopped) status = 1;
    for (const { page } of pages) await page.context().close().catch(() => {});
    pages = [];
  }
} catch (e) {
  status = 1;
  console.log(`FAIL setup: ${e.message}`);
} finally {
  if (browser) await browser.close().catch(() => {});
}
if (status === 0) rmSync(tmp, { recursive: true, force: true });
console.log(`${status === 0 ? 'web.course: all cases passed' : 'web.course: FAILED'} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
process.exit(status);
