#!/usr/bin/python3
"""Search efficiency of the engine, game by game: the share of beta cut-offs
made by the first move searched (move ordering's quality; perfect ordering
gives 100%) and the effective branching factor (nodes of a depth-D search
over nodes of a depth-(D-1) search, both from an empty table).

Uses `duel search --json`; the positions are those of `duel bench`.
Usage: scripts/search-efficiency.py [--duel build/bin/duel]
"""
import argparse
import json
import pathlib
import subprocess
import sys

# (game spec, position or None for the start, depth)
CASES = [
    ("gardner", None, 9),
    ("gardner", "rnb1k/1pp1p/pP2p/2qPQ/RNB1K w - - 0 7", 8),
    ("gardner-cs3243", None, 9),
    ("minichess-comp472", None, 8),
    ("checkers", None, 13),
    ("checkers", "B:W13,20,23,25,26,28,29,30,31,32:B1,2,3,4,5,6,8,11,16,21 2", 12),
    ("kcell:n=4,k=20", None, 16),
    ("nqueens:n=16,variant=2", None, 5),
]


def search(duel: str, game: str, state: str | None, depth: int) -> dict:
    cmd = [duel, "search", game, "--depth", str(depth), "--json"]
    if state:
        cmd += ["--state", state]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main() -> int:
    root = pathlib.Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duel", default=str(root / "build" / "bin" / "duel"))
    args = ap.parse_args()
    print("| game | position | depth | nodes | first-move cut-offs | EBF (D vs D-1) |")
    print("|---|---|---:|---:|---:|---:|")
    for game, state, depth in CASES:
        r = search(args.duel, game, state, depth)
        prev = search(args.duel, game, state, depth - 1)
        share = 100.0 * r["first_move_cutoffs"] / r["cutoffs"] if r["cutoffs"] else 0.0
        ebf = r["nodes"] / prev["nodes"] if prev["nodes"] else 0.0
        print(f"| {game} | {'start' if not state else state} | {depth} | {r['nodes']} "
              f"| {share:.1f}% | {ebf:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
