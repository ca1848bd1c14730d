#!/usr/bin/env node
// Checks agent.mjs against Duel's own rules engine.
//
//   node verify.mjs [--duel PATH] [--depth D] [--selfplay PLIES] [--seed S]
//
// 1. Fixtures: each input.txt is given to agent.mjs in a scratch directory;
//    its exit code must be the expected one, and every output.txt must be a
//    legal move of the position according to `duel play` (the move is typed
//    to a `human` player, which accepts only moves in the engine's list).
// 2. --selfplay N: agent.mjs (alpha-beta, --depth) plays Black against
//    agent.mjs --random for N plies from the start; every move is checked by
//    duel as in 1 and the agent's CPU time per move is reported.
// Prints one line per check and 'N passed, N failed' at the end; exits 1 on
// any failure.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rowColToPos } from './board.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = { duel: path.resolve(here, '../../../build/bin/duel'), depth: 10, selfplay: 0, seed: 1 };
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--duel') opt.duel = args[++i];
  else if (args[i] === '--depth') opt.depth = Number(args[++i]);
  else if (args[i] === '--selfplay') opt.selfplay = Number(args[++i]);
  else if (args[i] === '--seed') opt.seed = Number(args[++i]);
  else {
    console.error(`verify: unknown argument '${args[i]}'`);
    process.exit(2);
  }
}
if (!fs.existsSync(opt.duel)) {
  console.error(`verify: no duel binary at ${opt.duel} (build it, or pass --duel PATH)`);
  process.exit(2);
}

const board = (lines) => lines.join('\n');
const START = ['.b.b.b.b', 'b.b.b.b.', '.b.b.b.b', '........', '........', 'w.w.w.w.', '.w.w.w.w', 'w.w.w.w.'];
const input = (mode, colour, secs, rows) => `${mode}\n${colour}\n${secs}\n${board(rows)}\n`;

const FIXTURES = [
  { name: 'start, Black', text: input('SINGLE', 'BLACK', '100.0', START), exit: 0 },
  {
    name: "seed's example, White after d6-e5",
    text: input('SINGLE', 'WHITE', '100.0', ['.b.b.b.b', 'b.b.b.b.', '.b...b.b', '....b...', '........', 'w.w.w.w.', '.w.w.w.w', 'w.w.w.w.']),
    exit: 0,
  },
  {
    name: 'forced double jump, Black (c7xe5xg3)',
    text: input('GAME', 'BLACK', '50', ['........', '..b.....', '...w....', '........', '.....w..', '........', '.......w', '........']),
    exit: 0,
    expect: 'J c7 e5\nJ e5 g3\n',
  },
  {
    name: 'forced jump, two branches, White',
    text: input('SINGLE', 'WHITE', '30', ['.b......', '........', '...b.b..', '........', '...b....', '..w.....', '........', '........']),
    exit: 0,
  },
  {
    name: 'man crowned mid-jump stops, Black',
    text: input('SINGLE', 'BLACK', '10', ['........', '........', '........', 'b.......', '.w......', '........', '...w.w..', '........']),
    exit: 0,
    expect: 'J a5 c3\nJ c3 e1\n',
  },
  {
    name: 'king ring: jump path back to its start square (library stops one short)',
    text: input('SINGLE', 'WHITE', '10', ['........', '........', '........', '........', '...b.b..', '..W.....', '...b.b..', '........']),
    exit: 0,
  },
  {
    name: 'tiny time left (0.05 s), GAME',
    text: input('GAME', 'BLACK', '0.05', START),
    exit: 0,
  },
  { name: 'no legal move (blocked)', text: input('SINGLE', 'BLACK', '10', ['........', '........', '........', '........', '........', '........', '.b......', 'w.w.....']), exit: 1 },
  { name: 'no pieces', text: input('SINGLE', 'WHITE', '10', ['........', '........', '........', '........', '........', '........', '.b......', '........']), exit: 1 },
  { name: 'malformed: bad character', text: input('SINGLE', 'BLACK', '10', START.map((l, i) => (i === 3 ? '...x....' : l))), exit: 2 },
  { name: 'malformed: piece on a light square', text: input('SINGLE', 'BLACK', '10', START.map((l, i) => (i === 3 ? '.b......' : l))), exit: 2 },
  { name: 'malformed: colour', text: input('SINGLE', 'RED', '10', START), exit: 2 },
  { name: 'malformed: time 0', text: input('SINGLE', 'BLACK', '0', START), exit: 2 },
  { name: 'malformed: 7 board lines', text: input('SINGLE', 'BLACK', '10', START.slice(0, 7)), exit: 2 },
  { name: 'malformed: uncrowned man on the crown row', text: input('SINGLE', 'WHITE', '10', ['.w.b.b.b', ...START.slice(1)]), exit: 2 },
  { name: 'blank lines and CRLF (lenient)', text: input('SINGLE', 'black', '100.0', START).replace(/\n/g, '\r\n\r\n'), exit: 0 },
];

let passed = 0;
let failed = 0;
const report = (ok, what) => {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
};

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-verify-'));

function runAgent(text, extra = []) {
  fs.writeFileSync(path.join(scratch, 'input.txt'), text);
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [path.join(here, 'agent.mjs'), '--verbose', ...extra], { cwd: scratch, encoding: 'utf8' });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const out = path.join(scratch, 'output.txt');
  const output = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : undefined;
  const cpu = /([\d.]+) s cpu in all/.exec(r.stderr ?? '');
  return { code: r.status, stderr: r.stderr, output, wall, cpu: cpu ? Number(cpu[1]) : NaN };
}

// The seed's board lines and side -> Duel's --state text.
function duelState(text) {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l);
  return `${lines.slice(3, 11).join(' ')} ${lines[1].toUpperCase()}`;
}

// Is `output` a legal move for the side to play in `text`? Returns Duel's
// name of the move (standard numbers) or throws with the reason.
function duelCheck(text, output) {
  const colour = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l)[1].toUpperCase();
  const human = colour === 'BLACK' ? ['-1', 'human', '-2', 'first'] : ['-1', 'first', '-2', 'human'];
  const r = spawnSync(opt.duel, ['play', 'checkers', '--state', duelState(text), ...human, '--max-turns', '1', '-q', '--json'], {
    input: `${output.trim().split(/\s*\n\s*/).join(' ')}\n`,
    encoding: 'utf8',
  });
  const json = r.stdout.slice(r.stdout.indexOf('{'));
  let rec;
  try {
    rec = JSON.parse(json);
  } catch {
    throw new Error(`duel said: ${r.stdout} ${r.stderr}`);
  }
  const first = rec.moves?.[0];
  if (!first || first.player !== (colour === 'BLACK' ? 1 : 2)) {
    const why = /illegal move: [^\n]*/.exec(r.stdout);
    throw new Error(why ? why[0] : `duel did not play it: ${rec.reason}`);
  }
  return first.move;
}

// Our own name of the output in standard numbers, to compare with Duel's.
function numbersOf(output) {
  const sq = (s) => rowColToPos(8 - Number(s[1]), s.charCodeAt(0) - 97) + 1;
  const steps = output.trim().split(/\n/).map((l) => l.trim().split(/\s+/));
  if (steps[0][0] === 'E') return `${sq(steps[0][1])}-${sq(steps[0][2])}`;
  return [sq(steps[0][1]), ...steps.map((s) => sq(s[2]))].join('x');
}

// Step 1. Fixtures.
for (const f of FIXTURES) {
  const r = runAgent(f.text, ['--depth', String(opt.depth)]);
  let ok = r.code === f.exit;
  let detail = `exit ${r.code}`;
  if (ok && f.exit === 0) {
    try {
      const duelName = duelCheck(f.text, r.output);
      ok = duelName === numbersOf(r.output) && (f.expect === undefined || f.expect === r.output);
      detail += `, ${r.output.trim().replace(/\n/g, ' / ')} = duel ${duelName}${ok ? '' : ' (unexpected)'}`;
    } catch (e) {
      ok = false;
      detail += `, output '${r.output?.trim()}': ${e.message}`;
    }
    detail += `, ${r.cpu.toFixed(2)} s cpu, ${r.wall.toFixed(2)} s wall`;
  } else if (ok) {
    ok = r.output === undefined && r.stderr.trim() !== '';
    detail += `, stderr: ${r.stderr.trim().split('\n')[0]}`;
  } else {
    detail += ` (expected ${f.exit}): ${r.stderr.trim().split('\n').slice(-1)[0]}`;
  }
  report(ok, `${f.name}: ${detail}`);
}

// Step 2. Self-play: the alpha-beta agent (Black) against the random agent.
if (opt.selfplay > 0) {
  let rows = START.map((l) => l.split(''));
  let colour = 'BLACK';
  const times = [];
  for (let ply = 0; ply < opt.selfplay; ply++) {
    const text = input('SINGLE', colour, '100.0', rows.map((r) => r.join('')));
    const extra = colour === 'BLACK' ? ['--depth', String(opt.depth)] : ['--random', String(opt.seed * 1000 + ply)];
    const r = runAgent(text, extra);
    if (r.code === 1) {
      console.log(`selfplay: ${colour} has no move after ${ply} plies`);
      break;
    }
    let ok = r.code === 0;
    let name = '';
    try {
      name = duelCheck(text, r.output);
    } catch (e) {
      ok = false;
      name = e.message;
    }
    if (colour === 'BLACK') times.push(r.cpu);
    report(ok, `selfplay ply ${ply + 1} ${colour}: ${r.output?.trim().replace(/\n/g, ' / ')} = duel ${name}${colour === 'BLACK' ? `, ${r.cpu.toFixed(2)} s cpu, ${r.wall.toFixed(2)} s wall` : ''}`);
    if (!ok) break;
    // Apply the move to the board.
    const steps = r.output.trim().split(/\n/).map((l) => l.trim().split(/\s+/));
    const rc = (s) => [8 - Number(s[1]), s.charCodeAt(0) - 97];
    const [fr, fc] = rc(steps[0][1]);
    let piece = rows[fr][fc];
    rows[fr][fc] = '.';
    for (const s of steps) {
      if (s[0] === 'J') {
        const [ar, ac] = rc(s[1]);
        const [br, bc] = rc(s[2]);
        rows[(ar + br) / 2][(ac + bc) / 2] = '.';
      }
    }
    const [tr, tc] = rc(steps[steps.length - 1][2]);
    if (piece === 'b' && tr === 7) piece = 'B';
    if (piece === 'w' && tr === 0) piece = 'W';
    rows[tr][tc] = piece;
    colour = colour === 'BLACK' ? 'WHITE' : 'BLACK';
  }
  if (times.length > 0) {
    const sorted = [...times].sort((a, b) => a - b);
    const med = sorted[Math.floor(sorted.length / 2)];
    console.log(`selfplay: agent depth ${opt.depth}, ${times.length} moves, cpu s per move: median ${med.toFixed(2)}, max ${sorted[sorted.length - 1].toFixed(2)}, total ${times.reduce((a, b) => a + b, 0).toFixed(1)}`);
  }
}

fs.rmSync(scratch, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
