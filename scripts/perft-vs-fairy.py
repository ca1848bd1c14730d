#!/usr/bin/python3
"""Cross-check minichess perft (split by first move) against Fairy-Stockfish.

Runs the MinichessFairy tests of build/bin/duel_tests (tests/minichess/
fairy_test.cpp), which play seeded random games in gardner, gardner-cs3243
and minichess-comp472 and compare `divide` with `go perft` on every position
reached. Exits 0 with a note when /usr/games/fairy-stockfish is absent.

Usage: scripts/perft-vs-fairy.py [--games N] [--depth D]
"""
import argparse
import os
import pathlib
import subprocess
import sys

FAIRY = "/usr/games/fairy-stockfish"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="random games per rule set")
    parser.add_argument("--depth", type=int, default=4, help="perft depth per position")
    args = parser.parse_args()
    if not os.path.exists(FAIRY):
        print(f"skipped: {FAIRY} is not installed (apt-get install fairy-stockfish)")
        return 0
    root = pathlib.Path(__file__).resolve().parent.parent
    tests = root / "build" / "bin" / "duel_tests"
    if not tests.exists():
        print(f"error: {tests} not built", file=sys.stderr)
        return 2
    env = dict(os.environ, DUEL_FAIRY_GAMES=str(args.games), DUEL_FAIRY_DEPTH=str(args.depth))
    return subprocess.call([str(tests), "--gtest_filter=MinichessFairy*"], env=env)


if __name__ == "__main__":
    sys.exit(main())
