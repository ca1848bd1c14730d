// Shared helpers: square numbering between rapid-draughts and Duel / seed 003.
//
// rapid-draughts' 1D "position" p (0..31) is the standard checkers square
// number minus one: p = 0 is b8, 3 is h8, 4 is a7, 31 is g1. Its DARK side
// starts on positions 0-11 (ranks 6-8, the top) and moves first, so DARK is
// our Black and LIGHT is our White. The bitboard bit of each position is not
// exported, so it is derived here from the public API (one piece per bit,
// read back through the 1D board) and checked to be a bijection.
import { DraughtsPlayer } from 'rapid-draughts';
import { EnglishDraughts } from 'rapid-draughts/english';

export const FILES = 'abcdefgh';

// Position p (0..31) -> { row (0 = top = rank 8), col (0 = file a) }.
export function posToRowCol(p) {
  const row = Math.floor(p / 4);
  const col = 2 * (p % 4) + (row % 2 === 0 ? 1 : 0);
  return { row, col };
}

// (row, col) -> position, or -1 on a light square.
export function rowColToPos(row, col) {
  if (row < 0 || row > 7 || col < 0 || col > 7) return -1;
  if ((row + col) % 2 === 0) return -1; // a8 (row 0, col 0) is light
  return row * 4 + Math.floor(col / 2);
}

export function posName(p) {
  const { row, col } = posToRowCol(p);
  return `${FILES[col]}${8 - row}`;
}

// POS_BIT[p] = the bitboard bit (a uint32 number) of position p.
export const POS_BIT = (() => {
  const out = new Array(32).fill(-1);
  for (let k = 0; k < 32; k++) {
    const bit = 2 ** k;
    const game = EnglishDraughts.setup({ board: { light: bit, dark: 0, king: 0 } });
    const squares = game.board.filter((s) => s.piece);
    if (squares.length !== 1) throw new Error(`rapid-draughts: bit ${k} is not one square`);
    const p = squares[0].position;
    const idx = game.board.indexOf(squares[0]);
    const { row, col } = posToRowCol(p);
    if (idx !== row * 8 + col) throw new Error(`rapid-draughts: position ${p} is not at ${row},${col}`);
    out[p] = bit;
  }
  if (out.includes(-1)) throw new Error('rapid-draughts: square mapping is not a bijection');
  return out;
})();

export const BIT_POS = new Map(POS_BIT.map((bit, p) => [bit, p]));

// Positions of the set bits of a bitboard, ascending.
export function bitsToPositions(bb) {
  const out = [];
  for (let p = 0; p < 32; p++) if ((bb & POS_BIT[p]) >>> 0) out.push(p);
  return out;
}

// { black: [{p, king}], white: [...], toMove: 'BLACK'|'WHITE' } -> engine data.
export function engineData(pieces, toMove) {
  let light = 0;
  let dark = 0;
  let king = 0;
  for (const { p, king: k, black } of pieces) {
    if (black) dark = (dark | POS_BIT[p]) >>> 0;
    else light = (light | POS_BIT[p]) >>> 0;
    if (k) king = (king | POS_BIT[p]) >>> 0;
  }
  return {
    player: toMove === 'BLACK' ? DraughtsPlayer.DARK : DraughtsPlayer.LIGHT,
    board: { light, dark, king },
    stats: { sinceCapture: 0, sinceNonKingAdvance: 0 },
  };
}

// PDN FEN as Duel writes it: `B:W21,22,K30:B1-12` (side to move first; squares
// 1-32, K for kings, ranges allowed). Returns { pieces, toMove }.
export function parseFen(text) {
  const fields = text.trim().split(':');
  if (fields.length !== 3) throw new Error(`FEN '${text}': expected three fields like 'B:W21,22:B1,2'`);
  const side = fields[0].toUpperCase();
  if (side !== 'B' && side !== 'W') throw new Error(`FEN '${text}': side to move must be B or W`);
  const pieces = [];
  const seen = new Set();
  for (const field of fields.slice(1)) {
    const colour = field[0]?.toUpperCase();
    if (colour !== 'B' && colour !== 'W') throw new Error(`FEN '${text}': field '${field}' must start with W or B`);
    for (let item of field.slice(1).split(',')) {
      item = item.trim();
      if (item === '') continue;
      let k = false;
      if (item[0] === 'K' || item[0] === 'k') {
        k = true;
        item = item.slice(1);
      }
      const m = /^(\d+)(?:-(\d+))?$/.exec(item);
      if (!m) throw new Error(`FEN '${text}': '${item}' is not a square 1-32`);
      const lo = Number(m[1]);
      const hi = m[2] === undefined ? lo : Number(m[2]);
      if (lo < 1 || hi > 32 || lo > hi) throw new Error(`FEN '${text}': '${item}' is not a square 1-32`);
      for (let sq = lo; sq <= hi; sq++) {
        if (seen.has(sq)) throw new Error(`FEN '${text}': two pieces on square ${sq}`);
        seen.add(sq);
        pieces.push({ p: sq - 1, king: k, black: colour === 'B' });
      }
    }
  }
  return { pieces, toMove: side === 'B' ? 'BLACK' : 'WHITE' };
}
