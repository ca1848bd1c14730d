#!/usr/bin/python3
"""Make a file of balanced 5x5 chess openings, judged by Fairy-Stockfish.

Plays PLIES random legal moves from the start (legal moves from
Fairy-Stockfish's `go perft 1`, so the list does not depend on Duel's own
rules code), asks Fairy-Stockfish for a `go depth D` score, and keeps the
position when the score is within +/-MARGIN centipawns for the side to move
and no earlier kept line reached it. Writes one FEN a line, with a comment
line above each giving the moves and the score: the format `duel arena
--openings FILE` reads. Seeded, so the same arguments give the same file.

Usage: scripts/balanced-openings.py [--variant gardner] [--count 50]
         [--plies 4] [--depth 14] [--margin 40] [--seed 1] [--variants INI]
"""
import argparse
import random
import sys

from fairy_uci import FAIRY, Fairy


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="gardner")
    ap.add_argument("--variants", help="Fairy-Stockfish variants.ini (cs3243, comp472)")
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--plies", type=int, default=4)
    ap.add_argument("--depth", type=int, default=14)
    ap.add_argument("--margin", type=int, default=40, help="centipawns")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    try:
        engine = Fairy(args.variant, args.variants)
    except FileNotFoundError:
        print(f"error: {FAIRY} is not installed (apt-get install fairy-stockfish)", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    seen: set[str] = set()
    kept = 0
    tries = 0
    print(f"# {args.count} {args.variant} openings: {args.plies} random plies, "
          f"|Fairy-Stockfish depth {args.depth} score| <= {args.margin} cp, seed {args.seed}")
    while kept < args.count and tries < 50 * args.count:
        tries += 1
        history: list[str] = []
        for _ in range(args.plies):
            legal = engine.moves(history)
            if not legal:
                break
            history.append(rng.choice(legal))
        if len(history) < args.plies or not engine.moves(history):
            continue
        fen = engine.fen(history)
        key = " ".join(fen.split()[:2])
        if key in seen:
            continue
        score = engine.score(history, args.depth)
        if score is None or score[0] != "cp":  # a mate is not balanced
            continue
        cp = score[1]
        if abs(cp) > args.margin:
            continue
        seen.add(key)
        kept += 1
        print(f"# {' '.join(history)}: {cp:+d} cp")
        print(fen, flush=True)
    engine.close()
    if kept < args.count:
        print(f"warning: only {kept} balanced openings in {tries} tries", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
