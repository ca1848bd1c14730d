#!/usr/bin/python3
"""How one engine's games of `duel arena --records` went, and what changed
between two runs of the same openings (docs/STRENGTH.md, "Reading a match").

For each records file: the engine's wins, draws and losses; its draws split
into those the draw clock ended and those that ended before it (threefold
repetition or stalemate), by what the engine itself reported in its last two
moves (ahead or behind by at least --ahead pawns, or level); and for its
losses, how many plies in the opponent first reported --lost pawns for
itself, and whether the engine's own last report before then already said
it was behind. Values are read as the arena records them, in points from the
first player's view; --pawn says what a pawn is in points (the 5x5 chess
games: 50 / 100000).

With more than one file, every later file is compared with the first game
by game: games are paired by their start position and the engine's colour
(and their order among games with both the same), and the report gives how
many of the pairs changed their result and the mean change of the engine's
score with its standard error. Both engines of such a match are close to
deterministic, so pairing removes the games that no change touches.

With --openings N, all files together: the engine's mean score from each
start position with each colour (a win 1, a draw 0, a loss -1), and the N
start positions where the sum of the two is lowest. Against a strong,
nearly deterministic opponent the same few openings decide most runs.

Usage: match-report.py RUN.jsonl [OTHER.jsonl ...] [--agent PREFIX] [--openings N]
"""

import argparse
import json
import math
import statistics
import sys
from collections import Counter


class BadInput(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:
        """A wrong option: one line on stderr, exit status 2 (argparse adds the usage)."""
        print(f"match-report: {message}", file=sys.stderr)
        sys.exit(2)


def load(path: str, prefix: str) -> list[dict]:
    """The games of `path` from the view of the player whose spec starts with `prefix`."""
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as e:
        raise BadInput(f"{path}: {e.strerror}") from e
    games = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            players, payoff = record["players"], record["payoff"]
            start, final = record["start"], record["final"]
            # (ply, player, value from the first player's view) of each report
            reports = [(ply, m["player"], float(m["value"]))
                       for ply, m in enumerate(record["moves"]) if "value" in m]
            ours = [i + 1 for i, spec in enumerate(players) if spec.startswith(prefix)]
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError) as e:
            raise BadInput(
                f"{path}:{number}: not a game record of duel arena --records ({e})") from e
        if len(ours) != 1:
            raise BadInput(f"{path}:{number}: {len(ours)} players start with '{prefix}' "
                           f"({', '.join(players)}); name one with --agent")
        side = ours[0]
        sign = 1 if side == 1 else -1
        # Each report from the engine's view (the opponent's negated to its own below).
        games.append({"key": (start, side), "score": sign * payoff, "final": final,
                      "side": side,
                      "reports": [(ply, p, sign * v) for ply, p, v in reports]})
    if not games:
        raise BadInput(f"{path}: no games")
    return games


def clock_ran_out(final: str) -> bool:
    """Whether a 5x5 chess FEN's draw clock reached the 50-move rule's 100 plies."""
    fields = final.split()
    return len(fields) >= 5 and fields[4].isdigit() and int(fields[4]) >= 100


def summary(path: str, games: list[dict], pawn: float, ahead: float, lost: float) -> None:
    w = sum(g["score"] > 0 for g in games)
    l = sum(g["score"] < 0 for g in games)
    d = len(games) - w - l
    print(f"{path}: {len(games)} games, +{w} ={d} -{l}, score {(w + d / 2) / len(games):.1%}")
    kinds = Counter()
    for g in games:
        if g["score"] != 0:
            continue
        if clock_ran_out(g["final"]):
            kinds["by the draw clock"] += 1
            continue
        ours = [v for _, p, v in g["reports"] if p == g["side"]]
        last = [v / pawn for v in ours[-2:]]
        if last and min(last) >= ahead:
            kinds[f"before the clock, the engine ahead by {ahead:g}+ pawns"] += 1
        elif last and max(last) <= -ahead:
            kinds[f"before the clock, the engine behind by {ahead:g}+ pawns"] += 1
        else:
            kinds["before the clock, level"] += 1
    for kind, n in sorted(kinds.items()):
        print(f"  draws {kind}: {n}")
    plies, foreseen = [], 0
    for g in games:
        if g["score"] >= 0:
            continue
        turn = next((ply for ply, p, v in g["reports"] if p != g["side"] and -v / pawn >= lost),
                    None)
        if turn is None:
            continue
        plies.append(turn)
        before = [v for ply, p, v in g["reports"] if p == g["side"] and ply < turn]
        if before and before[-1] / pawn <= -ahead:
            foreseen += 1
    if l:
        median = f", median ply {statistics.median(plies):g}" if plies else ""
        print(f"  losses where the opponent reported {lost:g}+ pawns: {len(plies)} of {l}"
              f"{median}; the engine already {ahead:g}+ behind by its own count in {foreseen}")


def paired(base: list[dict], other: list[dict]) -> tuple[int, int, float, float]:
    """Pairs, changed pairs, and the mean change of the score (0..1 a game) with its error."""
    def keyed(games):
        seen, out = Counter(), {}
        for g in games:
            seen[g["key"]] += 1
            out[(*g["key"], seen[g["key"]])] = g["score"]
        return out
    a, b = keyed(base), keyed(other)
    diffs = [(b[k] - a[k]) / 2 for k in a if k in b]
    if len(diffs) < 2:
        raise BadInput("fewer than two games in common: are these runs of the same openings?")
    mean = sum(diffs) / len(diffs)
    error = statistics.stdev(diffs) / math.sqrt(len(diffs))
    return len(diffs), sum(x != 0 for x in diffs), mean, error


def by_opening(runs: list[tuple[str, list[dict]]], worst: int) -> None:
    """The engine's mean score by start position and colour over every run."""
    scores: dict[str, dict[int, list[int]]] = {}
    for _, games in runs:
        for g in games:
            start, side = g["key"]
            scores.setdefault(start, {1: [], 2: []})[side].append(g["score"])
    def mean(xs: list[int]) -> float:
        return sum(xs) / len(xs) if xs else 0.0
    rows = sorted((mean(by[1]) + mean(by[2]), start, by) for start, by in scores.items())
    below = sum(total < 0 for total, _, _ in rows)
    above = sum(total > 0 for total, _, _ in rows)
    print(f"openings: {len(rows)}; the engine's two colours together below even in {below}, "
          f"above in {above}")
    for total, start, by in rows[:worst]:
        print(f"  {total:+.2f} {start}: first {mean(by[1]):+.2f} ({len(by[1])} games), "
              f"second {mean(by[2]):+.2f} ({len(by[2])} games)")


def main() -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", help="duel arena --records files (JSON lines)")
    parser.add_argument("--agent", default="engine", help="the engine's spec begins so")
    parser.add_argument("--pawn", type=float, default=50 / 100000, help="a pawn in points")
    parser.add_argument("--ahead", type=float, default=1.0, help="pawns that count as ahead")
    parser.add_argument("--lost", type=float, default=1.5, help="pawns that count as lost")
    parser.add_argument("--openings", type=int, default=0, metavar="N",
                        help="list the N start positions where the engine scored least")
    args = parser.parse_args()
    try:
        if args.pawn <= 0 or args.ahead <= 0 or args.lost <= 0:
            raise BadInput("--pawn, --ahead and --lost must be above 0")
        if args.openings < 0:
            raise BadInput("--openings must be 0 or more")
        runs = [(path, load(path, args.agent)) for path in args.records]
        for path, games in runs:
            summary(path, games, args.pawn, args.ahead, args.lost)
        for path, games in runs[1:]:
            n, changed, mean, error = paired(runs[0][1], games)
            print(f"{path} against {runs[0][0]}: {n} games paired, {changed} changed, "
                  f"score {mean * 100:+.2f} +/- {error * 100:.2f} points")
        if args.openings > 0:
            by_opening(runs, args.openings)
    except BadInput as e:
        print(f"match-report: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
