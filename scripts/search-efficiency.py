#!/usr/bin/python3
"""Search efficiency of the engine, game by game: the share of beta cut-offs
made by the first move searched (move ordering's quality; perfect ordering
gives 100%), the same at nodes one ply above the horizon and at nodes where
the transposition table gave a move or did not, and the effective branching
factor (nodes of a depth-D search over nodes of a depth-(D-1) search, both
from an empty table).

Uses `duel search --json`; the positions are those of `duel bench`.
Usage: scripts/search-efficiency.py [--duel build/bin/duel]

With --positions FILE (one position a line, `#` comments) the same shares
summed over every position of one game at one depth, each from an empty
table, once for each --duel given (two builds of the engine, say), so
ordering changes are compared on positions from play rather than on a few
start positions: a higher first-move share is worth little if the trees to
the same depth grow (the last column: the geometric mean over the positions
of each one's nodes over the first build's).
Usage: scripts/search-efficiency.py --positions FILE --game gardner --depth 15
           [--duel OLD/bin/duel] [--duel NEW/bin/duel] ...
"""
import argparse
import json
import math
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
    try:
        run = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        print(f"cannot run {duel}: {e.strerror}", file=sys.stderr)
        sys.exit(2)
    if run.returncode != 0:
        lines = run.stderr.strip().splitlines()
        print(lines[-1] if lines else f"duel search failed with status {run.returncode}",
              file=sys.stderr)
        sys.exit(2)
    return json.loads(run.stdout)


def pct(part: int, whole: int) -> str:
    """A share as the table prints it ("-" where there is nothing to share)."""
    return f"{100.0 * part / whole:.1f}%" if whole else "-"


def over_positions(duels: list[str], game: str, depth: int, path: str) -> int:
    """The shares summed over a file of positions, one row for each build."""
    try:
        with open(path, encoding="utf-8") as f:
            states = [ln.strip() for ln in f if ln.strip() and not ln.lstrip().startswith("#")]
    except OSError as e:
        print(f"cannot read {path}: {e.strerror}", file=sys.stderr)
        return 2
    if not states:
        print(f"{path}: no positions", file=sys.stderr)
        return 2
    base: list[int] = []
    print(f"{game}, {len(states)} positions of {path}, depth {depth}, each from an empty table:")
    print()
    print("| duel | nodes | seconds | first-move cut-offs | at depth 1 "
          "| where the table gave a move | elsewhere | nodes against the first row |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for duel in duels:
        total = {"nodes": 0, "seconds": 0.0, "cutoffs": 0, "first_move_cutoffs": 0,
                 "table_move_cutoffs": 0, "table_move_first_cutoffs": 0}
        at_one = [0, 0]
        log_ratio = 0.0
        for i, state in enumerate(states):
            r = search(duel, game, state, depth)
            for key in total:
                total[key] += r[key]
            by_depth, first = r["cutoffs_by_depth_left"], r["first_move_cutoffs_by_depth_left"]
            if len(by_depth) > 1:
                at_one[0] += first[1]
                at_one[1] += by_depth[1]
            nodes = max(r["nodes"], 1)
            if len(base) < len(states):
                base.append(nodes)
            log_ratio += math.log(nodes / base[i])
        table = pct(total["table_move_first_cutoffs"], total["table_move_cutoffs"])
        rest = pct(total["first_move_cutoffs"] - total["table_move_first_cutoffs"],
                   total["cutoffs"] - total["table_move_cutoffs"])
        print(f"| {duel} | {total['nodes']:,} | {total['seconds']:.1f} "
              f"| {pct(total['first_move_cutoffs'], total['cutoffs'])} "
              f"| {pct(at_one[0], at_one[1])} | {table} | {rest} "
              f"| {math.exp(log_ratio / len(states)):.3f} |")
    return 0


def main() -> int:
    root = pathlib.Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duel", action="append",
                    help="the duel binary (default build/bin/duel); "
                         "with --positions, once for each row")
    ap.add_argument("--positions", help="a file of positions, one a line")
    ap.add_argument("--game", default="gardner", help="with --positions: their game")
    ap.add_argument("--depth", type=int, default=15, help="with --positions: the depth")
    args = ap.parse_args()
    duels = args.duel or [str(root / "build" / "bin" / "duel")]
    if args.positions:
        if args.depth < 1:
            print("--depth must be at least 1", file=sys.stderr)
            return 2
        return over_positions(duels, args.game, args.depth, args.positions)
    if len(duels) > 1:
        print("--duel more than once needs --positions", file=sys.stderr)
        return 2
    duel = duels[0]
    print("| game | position | depth | nodes | first-move cut-offs | at depth 1 "
          "| where the table gave a move | elsewhere | EBF (D vs D-1) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for game, state, depth in CASES:
        r = search(duel, game, state, depth)
        prev = search(duel, game, state, depth - 1)
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
