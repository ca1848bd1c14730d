#!/usr/bin/env node
// perft with rapid-draughts' move generator: `node perft.mjs DEPTH [--fen FEN] [--divide]`,
// or `node perft.mjs DEPTH --batch < FENS`: one count a line for each FEN line
// on stdin (the correctness sweep's many positions in one process).
// Counts every move the library lists (each jump path its own move, as OEIS
// A133046 and `duel perft checkers` do), bulk-counting at the last ply.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { EnglishDraughtsEngineFactory } from 'rapid-draughts/english';
import { engineData, parseFen, bitsToPositions, BIT_POS } from './board.mjs';

function usage(msg) {
  if (msg) process.stderr.write(`perft: ${msg}\n`);
  process.stderr.write('usage: node perft.mjs DEPTH [--fen FEN] [--divide] | DEPTH --batch < FENS\n');
  process.exit(2);
}

const args = process.argv.slice(2);
let depth;
let fen;
let divide = false;
let batch = false;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--fen' || a === '--state') {
    if (i + 1 >= args.length) usage(`${a} needs a value`);
    fen = args[++i];
  } else if (a === '--divide') divide = true;
  else if (a === '--batch') batch = true;
  else if (a === '-h' || a === '--help') usage();
  else if (depth === undefined && /^\d+$/.test(a)) depth = Number(a);
  else usage(`unexpected '${a}'`);
}
if (depth === undefined || depth < 1 || depth > 64) usage('DEPTH must be 1..64');

if (batch && (fen || divide)) usage('--batch reads its positions from stdin, without --fen or --divide');

function setup(text) {
  const f = parseFen(text);
  return EnglishDraughtsEngineFactory.setup(engineData(f.pieces, f.toMove));
}

let engine;
try {
  engine = fen ? setup(fen) : EnglishDraughtsEngineFactory.setup();
} catch (e) {
  usage(e.message);
}

function perft(e, d) {
  const moves = e.moves;
  if (d === 1) return moves.length;
  let n = 0;
  for (const m of moves) {
    const c = e.clone();
    c.move(m);
    n += perft(c, d - 1);
  }
  return n;
}

function moveName(m) {
  const from = BIT_POS.get(m.origin) + 1;
  const to = BIT_POS.get(m.destination) + 1;
  if (!m.captures) return `${from}-${to}`;
  return `${from}x${to} (captures ${bitsToPositions(m.captures).map((p) => p + 1).join(',')})`;
}

if (batch) {
  const lines = readFileSync(0, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const out = [];
  for (const line of lines) {
    let e;
    try {
      e = setup(line);
    } catch (err) {
      usage(`line ${out.length + 1}: ${err.message}`);
    }
    out.push(String(perft(e, depth)));
  }
  process.stdout.write(out.length ? out.join('\n') + '\n' : '');
  process.exit(0);
}

const t0 = performance.now();
let total = 0;
if (divide) {
  for (const m of engine.moves) {
    let n = 1;
    if (depth > 1) {
      const c = engine.clone();
      c.move(m);
      n = perft(c, depth - 1);
    }
    console.log(`${moveName(m)}: ${n}`);
    total += n;
  }
} else {
  total = perft(engine, depth);
}
const secs = (performance.now() - t0) / 1000;
console.log(total);
console.log(`perft rapid-draughts depth ${depth}: ${total} in ${secs.toFixed(3)} s (${(total / secs / 1e6).toFixed(2)} M/s)`);
