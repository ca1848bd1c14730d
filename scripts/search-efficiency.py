#!/usr/bin/python3
"""Search efficiency of the engine, game by game: the share of beta cut-offs
made by the first move searched (move ordering's quality; perfect ordering
gives 100%), the same at nodes one ply above the horizon and at nodes where
the transposition table gave a move or did not, and the effective branching
factor (nodes of a depth-D search over nodes of a depth-(D-1) search, both
from an empty table).

Uses `duel search --json`; the positions are those of `duel bench`.
Usage: scripts/search-efficiency.py [--duel build/bin/duel] [--set SWITCHES]
(--set: the engine's switches, as `duel search --set`, e.g. chist=1,osee=1)
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


def search(duel: str, game: str, state: str | None, depth: int, switches: str) -> dict:
    cmd = [duel, "search", game, "--depth", str(depth), "--json"]
    if state:
        cmd += ["--state", state]
    if switches:
        cmd += ["--set", switches]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        lines = run.stderr.strip().splitlines()
        print(lines[-1] if lines else f"duel search failed with status {run.returncode}",
              file=sys.stderr)
        sys.exit(2)
    return json.loads(run.stdout)


def pct(part: int, whole: int) -> str:
    """A share as the table prints it ("-" where there is nothing to share)."""
    return f"{100.0 * part / whole:.1f}%" if whole else "-"


def main() -> int:
    root = pathlib.Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duel", default=str(root / "build" / "bin" / "duel"))
    ap.add_argument("--set", default="", help="engine switches, as duel search --set")
    args = ap.parse_args()
    print("| game | position | depth | nodes | first-move cut-offs | at depth 1 "
          "| where the table gave a move | elsewhere | EBF (D vs D-1) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for game, state, depth in CASES:
        r = search(args.duel, game, state, depth, args.set)
        prev = search(args.duel, game, state, depth - 1, args.set)
        share = pct(r["first_move_cutoffs"], r["cutoffs"])
        by_depth, first = r["cutoffs_by_depth_left"], r["first_move_cutoffs_by_depth_left"]
        at_one = pct(first[1], by_depth[1]) if len(by_depth) > 1 else "-"
        table = pct(r["table_move_first_cutoffs"], r["table_move_cutoffs"])
        rest = pct(r["first_move_cutoffs"] - r["table_move_first_cutoffs"],
                   r["cutoffs"] - r["table_move_cutoffs"])
        ebf = r["nodes"] / prev["nodes"] if prev["nodes"] else 0.0
        print(f"| {game} | {'start' if not state else state} | {depth} | {r['nodes']} "
              f"| {share} | {at_one} | {table} | {rest} | {ebf:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
