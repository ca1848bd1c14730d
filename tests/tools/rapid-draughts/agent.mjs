#!/usr/bin/env node
// A second, independent checkers agent for seed 003's file protocol
// (RULES.md §5), built on the npm package rapid-draughts.
//
//   node agent.mjs [--depth D] [--time SECS] [--random SEED] [--verbose]
//
// Reads input.txt in the working directory (SINGLE|GAME, BLACK|WHITE, seconds
// left, 8 lines of `.bBwW`, top row = rank 8 first) and writes output.txt:
// `E c3 d4`, or one `J from to` line per jump. The move is the one chosen by
// rapid-draughts' own alpha-beta AI (EnglishDraughtsComputerFactory.alphaBeta,
// its default evaluation and quiescence), searched by iterative deepening
// over depths of D's parity up to D (default 10) while a CPU-time budget lasts; --random plays a uniformly
// random legal move instead.
//
// Exit codes: 0 move written; 1 no legal move (nothing written); 2 malformed
// input or arguments; 3 internal error. Any stale output.txt is removed first.
import fs from 'node:fs';
import { EnglishDraughts, EnglishDraughtsComputerFactory } from 'rapid-draughts/english';
import { posName, rowColToPos, posToRowCol, engineData } from './board.mjs';

const DEFAULT_DEPTH = 10;

function die(code, msg) {
  process.stderr.write(`rapid-draughts agent: ${msg}\n`);
  process.exit(code);
}

// Step 1. Arguments.
function parseArgs(argv) {
  const opt = { depth: DEFAULT_DEPTH, time: undefined, random: undefined, verbose: false };
  const num = (name, v, integer) => {
    if (v === undefined) die(2, `${name} needs a value`);
    const x = Number(v);
    if (!Number.isFinite(x) || x < 0 || (integer && !Number.isInteger(x))) die(2, `bad value for ${name}: '${v}'`);
    return x;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--depth' || a === '-d') opt.depth = num(a, argv[++i], true);
    else if (a === '--time' || a === '-t') opt.time = num(a, argv[++i], false);
    else if (a === '--random') opt.random = num(a, argv[++i], true);
    else if (a === '--verbose' || a === '-v') opt.verbose = true;
    else if (a === '--help' || a === '-h') {
      process.stdout.write('usage: node agent.mjs [--depth D (10)] [--time CPU_SECONDS] [--random SEED] [--verbose]\n');
      process.exit(0);
    } else die(2, `unknown argument '${a}'`);
  }
  if (opt.depth < 1 || opt.depth > 40) die(2, '--depth must be 1..40');
  return opt;
}

// Step 2. input.txt. Lenient like the seed's own examples (blank lines,
// surrounding spaces, CRLF, any case for the words); strict about the board.
function parseInput(text) {
  const lines = text.split(/\r?\n|\r/).map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length < 11) throw new Error(`input.txt has ${lines.length} non-empty lines, expected 11 (mode, colour, time, 8 board lines)`);
  if (lines.length > 11) throw new Error(`input.txt has ${lines.length} non-empty lines, expected 11; extra: '${lines[11]}'`);
  const mode = lines[0].toUpperCase();
  if (mode !== 'SINGLE' && mode !== 'GAME') throw new Error(`line 1 is '${lines[0]}', expected SINGLE or GAME`);
  const colour = lines[1].toUpperCase();
  if (colour !== 'BLACK' && colour !== 'WHITE') throw new Error(`line 2 is '${lines[1]}', expected BLACK or WHITE`);
  if (!/^[+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(lines[2])) throw new Error(`line 3 is '${lines[2]}', expected the seconds left (a number > 0)`);
  const seconds = Number(lines[2]);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`line 3 is '${lines[2]}', expected the seconds left (a number > 0)`);
  const pieces = [];
  const counts = { b: 0, w: 0 };
  for (let row = 0; row < 8; row++) {
    const line = lines[3 + row];
    if (line.length !== 8) throw new Error(`board line ${row + 1} is '${line}', not 8 characters of .bBwW`);
    for (let col = 0; col < 8; col++) {
      const c = line[col];
      if (c === '.') continue;
      if (!'bBwW'.includes(c)) throw new Error(`board line ${row + 1}: '${c}' is not one of .bBwW`);
      const sq = `${'abcdefgh'[col]}${8 - row}`;
      const p = rowColToPos(row, col);
      if (p < 0) throw new Error(`a piece on the light square ${sq}`);
      const black = c === 'b' || c === 'B';
      const king = c === 'B' || c === 'W';
      if (!king && black && row === 7) throw new Error(`a black man on ${sq} would have been crowned`);
      if (!king && !black && row === 0) throw new Error(`a white man on ${sq} would have been crowned`);
      counts[black ? 'b' : 'w']++;
      pieces.push({ p, king, black });
    }
  }
  if (counts.b > 12 || counts.w > 12) throw new Error('a side has more than 12 pieces');
  return { mode, colour, seconds, pieces };
}

// Step 3. The jump path of a library move. rapid-draughts gives only origin,
// destination and the captured set; rebuild a path under RULES.md §5 (the
// start square is empty once the piece leaves it; captured pieces stay until
// the move ends; a man stops when crowned). If that path could still go on
// under §5 (rapid-draughts never lands a jump on the start square, so it can
// end a king's path early), continue it so the move is complete and legal.
function jumpPath(input, move) {
  const at = new Map(input.pieces.map((x) => [x.p, x]));
  const mover = at.get(move.origin);
  const dirs = mover.king ? [1, -1] : [mover.black ? 1 : -1]; // Black men move down (row+1)
  const crownRow = mover.black ? 7 : 0;
  const want = new Set(move.captures);
  const jumps = (cur, captured) => {
    if (!mover.king && posToRowCol(cur).row === crownRow && cur !== move.origin) return [];
    const { row, col } = posToRowCol(cur);
    const out = [];
    for (const dr of dirs) {
      for (const dc of [-1, 1]) {
        const mid = rowColToPos(row + dr, col + dc);
        const to = rowColToPos(row + 2 * dr, col + 2 * dc);
        if (mid < 0 || to < 0) continue;
        const victim = at.get(mid);
        if (!victim || victim.black === mover.black || captured.has(mid)) continue;
        if (to !== move.origin && at.has(to)) continue;
        out.push({ mid, to });
      }
    }
    return out;
  };
  // Depth-first: a path to the destination capturing exactly `want`.
  const find = (cur, captured, path) => {
    if (cur === move.destination && captured.size === want.size && path.length > 0) return { path, captured };
    for (const { mid, to } of jumps(cur, captured)) {
      if (!want.has(mid)) continue;
      const next = new Set(captured).add(mid);
      const r = find(to, next, [...path, [cur, to]]);
      if (r) return r;
    }
    return undefined;
  };
  const found = find(move.origin, new Set(), []);
  if (!found) throw new Error(`cannot rebuild the jump path of ${JSON.stringify(move)}`);
  let { path, captured } = found;
  let extended = 0;
  for (let cur = move.destination; ; ) {
    const more = jumps(cur, captured);
    if (more.length === 0) break;
    const { mid, to } = more[0];
    captured = new Set(captured).add(mid);
    path = [...path, [cur, to]];
    cur = to;
    extended++;
  }
  return { path, extended };
}

function moveText(input, move) {
  if (move.captures.length === 0) return { text: `E ${posName(move.origin)} ${posName(move.destination)}\n`, extended: 0 };
  const { path, extended } = jumpPath(input, move);
  return { text: path.map(([a, b]) => `J ${posName(a)} ${posName(b)}\n`).join(''), extended };
}

// Step 4. Time. CPU time of the whole process (all threads), as the seed
// charges it. The budget: --time if given, else SINGLE 0.5 x seconds left,
// GAME seconds left / 30; never above 0.9 x seconds left.
const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

class OutOfTime extends Error {}

// Iterative deepening over the library's own alpha-beta. The library has no
// stop hook, so the budget is checked in DraughtsEngine.prototype.clone (one
// call per node searched) and a search over budget is thrown away.
async function searchMove(game, maxDepth, budget, verbose) {
  const proto = Object.getPrototypeOf(game.engine);
  const clone = proto.clone;
  let armed = false;
  let calls = 0;
  proto.clone = function patchedClone() {
    if (armed && (++calls & 255) === 0 && cpuSeconds() > budget) throw new OutOfTime();
    return clone.call(this);
  };
  let best;
  let reached = 0;
  try {
    // Same-parity depths only (2, 4, ..., D or 1, 3, ..., D): the library
    // keeps nothing between searches, so every extra depth is pure overhead.
    for (let d = 2 - (maxDepth % 2); d <= maxDepth; d += 2) {
      armed = d > 2; // depths 1-2 always finish (a few hundred nodes)
      const t0 = cpuSeconds();
      try {
        best = await EnglishDraughtsComputerFactory.alphaBeta({ maxDepth: d })(game);
      } catch (e) {
        if (e instanceof OutOfTime) break;
        throw e;
      }
      reached = d;
      if (verbose) process.stderr.write(`depth ${d}: ${posName(best.origin)}-${posName(best.destination)} (${(cpuSeconds() - t0).toFixed(3)} s cpu)\n`);
      // Two plies more cost several times this search: do not start what cannot finish.
      const elapsed = cpuSeconds() - t0;
      if (d < maxDepth && cpuSeconds() + 4 * elapsed > budget) break;
    }
  } finally {
    proto.clone = clone;
  }
  return { move: best, depth: reached };
}

// Small seeded PRNG for --random.
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function main() {
  const opt = parseArgs(process.argv.slice(2));
  try {
    fs.unlinkSync('output.txt');
  } catch {
    // none there
  }
  let text;
  try {
    text = fs.readFileSync('input.txt', 'utf8');
  } catch (e) {
    die(2, `cannot read input.txt: ${e.message}`);
  }
  let input;
  try {
    input = parseInput(text);
  } catch (e) {
    die(2, `malformed input.txt: ${e.message}`);
  }
  const game = EnglishDraughts.setup(engineData(input.pieces, input.colour));
  const moves = game.moves;
  if (moves.length === 0) die(1, `no legal move for ${input.colour}`);

  let move;
  let how;
  if (opt.random !== undefined) {
    move = moves[Math.floor(mulberry32(opt.random)() * moves.length)];
    how = `random (seed ${opt.random})`;
  } else if (moves.length === 1) {
    move = moves[0];
    how = 'only move';
  } else {
    const cap = 0.9 * input.seconds;
    const budget = Math.min(cap, opt.time ?? (input.mode === 'SINGLE' ? 0.5 * input.seconds : input.seconds / 30));
    const r = await searchMove(game, opt.depth, budget, opt.verbose);
    move = r.move;
    how = `alpha-beta depth ${r.depth}/${opt.depth}, budget ${budget.toFixed(2)} s`;
  }
  const { text: out, extended } = moveText(input, move);
  if (extended > 0) process.stderr.write(`rapid-draughts agent: jump path continued ${extended} more jump(s) past rapid-draughts' end (it never lands on the start square)\n`);
  fs.writeFileSync('output.txt', out);
  if (opt.verbose) process.stderr.write(`${how}; ${cpuSeconds().toFixed(3)} s cpu in all\n${out}`);
}

main().catch((e) => die(3, `internal error: ${e.stack ?? e}`));
