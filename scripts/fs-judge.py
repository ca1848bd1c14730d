#!/usr/bin/python3
"""Judge an engine's moves by Fairy-Stockfish, on positions where Duel went wrong.

A faster, opponent-shaped measure than a 200-game match (docs/engine.md,
"Judged by Fairy-Stockfish"): matches of Duel against itself measured gains
that did not carry over to Fairy-Stockfish, so changes meant to close that
gap are first scored here, by the opponent's own judgement.

  positions  From `duel arena --records` files of Duel against
             Fairy-Stockfish: every position of a game Duel lost where Duel
             was to move and Fairy-Stockfish's depth-D score was within
             +/-WINDOW centipawns. Writes one JSON object a line: the game's
             start, the moves to the position, its FEN, Fairy-Stockfish's
             best score there and what Duel played.
  score      For each position, the move an engine spec chooses (through
             `duel play --state FEN --max-turns 1`, so any build can be
             judged) and its loss: Fairy-Stockfish's best score minus its
             score for that move (`go depth D searchmoves M`), capped at CAP
             centipawns. Prints the mean loss and how many moves lose 60 or
             more. Fairy-Stockfish's scores are cached in a JSON file, so a
             second spec costs only the moves it chooses differently.

Usage:
  scripts/fs-judge.py positions --records R.jsonl [--records ...] --out P.jsonl
  scripts/fs-judge.py score --positions P.jsonl --spec engine:nodes=50000,hash=8
      [--duel build/bin/duel] [--cache fs-judge-cache.json] [--jobs 2]
      [--out LOSSES.json] [--against LOSSES.json]

--out keeps each position's loss; --against compares with such a file of
another spec or build, position by position: the mean difference and its
standard error (a paired comparison, much tighter than the two means).

Scores are Fairy-Stockfish's centipawns, from the side to move's view; a
mate counts as 30000 less its distance, so the cap keeps one mated line from
outweighing hundreds of positions.
"""
import argparse
import concurrent.futures
import json
import math
import os
import subprocess
import sys

from fairy_uci import FAIRY, Fairy

MATE = 30000


def die(message: str) -> None:
    """Bad input or a missing tool: one line on stderr, exit status 2."""
    print(f"fs-judge: {message}", file=sys.stderr)
    sys.exit(2)


def centipawns(fairy: Fairy, start: str, moves: list[str], depth: int,
               only: str | None = None) -> int:
    """Fairy-Stockfish's score in centipawns, a mate as MATE less its distance."""
    score = fairy.score(moves, depth, start, only)
    if score is None:
        return 0
    kind, v = score
    if kind == "mate":
        return (MATE - abs(v)) * (1 if v > 0 else -1)
    return v


def load_json_lines(path: str, what: str) -> list:
    try:
        with open(path) as f:
            return [json.loads(line) for line in f if line.strip()]
    except (OSError, json.JSONDecodeError) as e:
        die(f"{what} {path}: {e}")


def load_json(path: str, what: str):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        die(f"{what} {path}: {e}")


def duel_side(record: dict) -> int | None:
    for i, name in enumerate(record["players"]):
        if name.startswith("engine"):
            return i + 1
    return None


def cmd_positions(args) -> None:
    if not os.access(FAIRY, os.X_OK):
        die(f"{FAIRY} is missing (apt-get install fairy-stockfish)")
    games = [g for path in args.records for g in load_json_lines(path, "--records")]
    fairy = Fairy(args.variant, hash_mb=64)
    out = open(args.out, "w")
    kept = 0
    for g in games:
        if not isinstance(g, dict) or not all(k in g for k in ("players", "payoff", "start", "moves")):
            die("--records: a line is not a `duel arena --records` game")
        side = duel_side(g)
        if side is None:
            continue
        payoff = g["payoff"] if side == 1 else -g["payoff"]
        if payoff >= 0:
            continue
        played = [m["move"] for m in g["moves"]]
        for k, m in enumerate(g["moves"]):
            if m["player"] != side:
                continue
            best = centipawns(fairy, g["start"], played[:k], args.depth)
            if abs(best) >= args.window:
                continue
            out.write(json.dumps({"start": g["start"], "moves": played[:k],
                                  "fen": fairy.fen(played[:k], g["start"]),
                                  "best": best, "played": played[k]}) + "\n")
            kept += 1
    fairy.close()
    out.close()
    print(f"{kept} positions written to {args.out}")


def choose(duel: str, game: str, spec: str, fen: str) -> str:
    # The spec plays the side to move; the other side ("first", no search)
    # only ends the turn.
    white, black = (spec, "first") if fen.split()[1] == "w" else ("first", spec)
    r = subprocess.run([duel, "play", game, "--state", fen, "--white", white, "--black", black,
                        "--max-turns", "1", "--json", "-q"], capture_output=True, text=True)
    if r.returncode != 0:
        die(f"duel play failed: {r.stderr.strip()}")
    return json.loads(r.stdout)["moves"][0]["move"]


def judge_part(args, positions: list[dict], cache: dict) -> tuple[list[int], dict]:
    fairy = None
    losses = []
    new = {}
    for p in positions:
        move = choose(args.duel, args.variant, args.spec, p["fen"])
        key = f"{p['fen']}|{move}"
        if key not in cache and key not in new:
            fairy = fairy or Fairy(args.variant, hash_mb=64)
            new[key] = centipawns(fairy, p["start"], p["moves"], args.depth, move)
        got = cache.get(key, new.get(key))
        losses.append(min(args.cap, max(0, p["best"] - got)))
    if fairy:
        fairy.close()
    return losses, new


def cmd_score(args) -> None:
    if not os.access(args.duel, os.X_OK):
        die(f"--duel {args.duel}: no such program (build Duel first)")
    if not os.access(FAIRY, os.X_OK):
        die(f"{FAIRY} is missing (apt-get install fairy-stockfish)")
    if args.jobs < 1:
        die(f"--jobs {args.jobs}: give at least 1")
    positions = load_json_lines(args.positions, "--positions")
    if not positions:
        die(f"--positions {args.positions}: no positions")
    keys = ("start", "moves", "fen", "best")
    if not all(isinstance(p, dict) and all(k in p for k in keys) for p in positions):
        die(f"--positions {args.positions}: a line is not a position of `fs-judge.py positions`")
    choose(args.duel, args.variant, args.spec, positions[0]["fen"])  # a bad spec fails here, once
    cache = load_json(args.cache, "--cache") if os.path.exists(args.cache) else {}
    parts = [positions[i::args.jobs] for i in range(args.jobs)]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda part: judge_part(args, part, cache), parts))
    for _, new in results:
        cache.update(new)
    with open(args.cache + ".tmp", "w") as f:
        json.dump(cache, f)
    os.replace(args.cache + ".tmp", args.cache)
    # Back in the positions' order (the parts interleave them).
    ordered = [0] * len(positions)
    for i, (part, _) in enumerate(results):
        ordered[i::args.jobs] = part
    mean = sum(ordered) / len(ordered)
    bad = sum(1 for x in ordered if x >= 60)
    print(f"{args.spec}: {len(ordered)} positions, mean loss {mean:.1f} cp, "
          f"{bad} moves losing 60 cp or more")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(ordered, f)
    if args.against:
        base = load_json(args.against, "--against")
        if len(base) != len(ordered):
            die(f"{args.against} has {len(base)} positions, not {len(ordered)}")
        d = [x - y for x, y in zip(ordered, base)]
        m = sum(d) / len(d)
        se = math.sqrt(sum((v - m) ** 2 for v in d) / (len(d) - 1) / len(d))
        changed = sum(1 for v in d if v != 0)
        print(f"against {args.against}: {m:+.1f} +/- {se:.1f} cp (standard error), "
              f"{changed} positions differ")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("positions")
    p.add_argument("--records", action="append", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--depth", type=int, default=20)
    p.add_argument("--window", type=int, default=400)
    p.add_argument("--variant", default="gardner")
    s = sub.add_parser("score")
    s.add_argument("--positions", required=True)
    s.add_argument("--spec", required=True)
    s.add_argument("--duel", default="build/bin/duel")
    s.add_argument("--cache", default="fs-judge-cache.json")
    s.add_argument("--depth", type=int, default=20)
    s.add_argument("--cap", type=int, default=400)
    s.add_argument("--jobs", type=int, default=2)
    s.add_argument("--variant", default="gardner")
    s.add_argument("--out")
    s.add_argument("--against")
    args = ap.parse_args()
    try:
        if args.cmd == "positions":
            cmd_positions(args)
        else:
            cmd_score(args)
    except RuntimeError as e:  # Fairy-Stockfish stopped answering
        die(str(e))


if __name__ == "__main__":
    main()
