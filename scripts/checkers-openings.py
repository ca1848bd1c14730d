#!/usr/bin/python3
"""Write the checkers openings of the strength matches: COUNT of the distinct
positions after PLIES plies from the start, drawn at random with SEED, one
PDN FEN a line (without a draw clock), sorted by text.

  PYTHONPATH=build/python scripts/checkers-openings.py [--plies 4] [--count 100]
      [--seed 1] [--out docs/experiments/strength/checkers-openings.txt]

Each opening is played twice in a match, colours swapped (`duel arena
--openings FILE`), so a lopsided one costs both sides alike. The draw uses
Python's own seeded generator over the sorted list and no search, so the
file is the same on every run, whatever Duel's build.
"""
import argparse
import random
import sys


def die(message: str) -> None:
    print(f"checkers-openings: {message}", file=sys.stderr)
    sys.exit(2)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--plies", type=int, default=4)
    p.add_argument("--count", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out")
    a = p.parse_args()
    if not 1 <= a.plies <= 8 or a.count < 1:
        die("--plies 1..8, --count >= 1")
    try:
        import duel
    except ImportError as e:
        die(f"needs the duel module (PYTHONPATH=build/python): {e}")
    game = duel.load("checkers")
    # A position without its draw clock: each game of a match starts its own.
    level = {game.initial_state().fen.split()[0]}
    for _ in range(a.plies):
        level = {s.result(m).fen.split()[0] for s in map(game.from_text, level)
                 for m in s.actions() if not s.is_terminal()}
    ordered = sorted(level)
    if a.count > len(ordered):
        die(f"--count {a.count}: only {len(ordered)} positions after {a.plies} plies")
    chosen = sorted(random.Random(a.seed).sample(ordered, a.count))
    text = "".join(f"{fen}\n" for fen in chosen)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    print(f"checkers-openings: {len(ordered)} positions after {a.plies} plies, "
          f"{len(chosen)} written", file=sys.stderr)


if __name__ == "__main__":
    main()
