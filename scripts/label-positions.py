#!/usr/bin/python3
"""Score positions by Fairy-Stockfish's search, as targets for scripts/train-net.py.

Reads the positions `duel tune --positions-out` writes (one JSON object a
line with a "fen"), has Fairy-Stockfish search each to a fixed depth, and
writes the same rows with "score" replaced by its score in centipawns from
White's view; the old score is kept as "own_score". A mate counts as
+-MATE_CP. The positions are split between --jobs processes in contiguous
slices (a game's positions stay together, so the hash table carries over);
the output keeps the input's order and is written only when all are scored.

  scripts/label-positions.py --in P.jsonl --out Q.jsonl --variant gardner
      [--depth 12] [--jobs 2] [--variants variants.ini]

docs/net.md ("Fairy-Stockfish's scores as targets") says why and what it gave.
"""
import argparse
import concurrent.futures
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fairy_uci import FAIRY, Fairy  # noqa: E402

MATE_CP = 10000


def die(message: str) -> None:
    """Bad input: one line on stderr, exit status 2."""
    print(f"label-positions: {message}", file=sys.stderr)
    sys.exit(2)


def read(path: str) -> list[dict]:
    rows = []
    try:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    j = json.loads(line)
                    fen = j["fen"]
                    parts = fen.split()
                    if len(parts) < 2 or parts[1] not in ("w", "b"):
                        raise ValueError(f"not a FEN: {fen!r}")
                except (ValueError, KeyError, TypeError, AttributeError) as e:
                    die(f"--in {path} line {n}: {e}")
                rows.append(j)
    except OSError as e:
        die(f"--in: cannot read {path}: {e.strerror}")
    return rows


def white_score(fen: str, score: tuple[str, int] | None) -> float:
    """Fairy-Stockfish's (kind, value), side to move's view, as White's centipawns."""
    if score is None:
        raise RuntimeError(f"{FAIRY} gave no score for {fen!r}")
    kind, value = score
    cp = float(value) if kind == "cp" else float(MATE_CP if value > 0 else -MATE_CP)
    return cp if fen.split()[1] == "w" else -cp


def label(fens: list[str], variant: str, variants: str | None, depth: int) -> list[float]:
    fairy = Fairy(variant, variants, hash_mb=64)
    try:
        scores = []
        for fen in fens:
            # Fairy-Stockfish reads a malformed FEN as some other position:
            # its own FEN of what it read must show the same board.
            if fairy.fen([], fen).split()[0] != fen.split()[0]:
                raise RuntimeError(f"not a {variant} position: {fen!r}")
            scores.append(white_score(fen, fairy.score([], depth, fen)))
        return scores
    finally:
        fairy.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--in", dest="inp", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--variant", required=True)
    p.add_argument("--variants")
    p.add_argument("--depth", type=int, default=12)
    p.add_argument("--jobs", type=int, default=2)
    a = p.parse_args()
    if not 1 <= a.depth <= 64 or not 1 <= a.jobs <= 64:
        die("--depth 1..64, --jobs 1..64")
    if not os.access(FAIRY, os.X_OK):
        die(f"{FAIRY} is missing (apt-get install fairy-stockfish)")
    rows = read(a.inp)
    if not rows:
        die(f"--in {a.inp}: no positions")
    fens = [r["fen"] for r in rows]
    cuts = [k * len(fens) // a.jobs for k in range(a.jobs + 1)]
    try:
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
            parts = pool.map(label, [fens[cuts[k]:cuts[k + 1]] for k in range(a.jobs)],
                             [a.variant] * a.jobs, [a.variants] * a.jobs, [a.depth] * a.jobs)
            scores = [s for part in parts for s in part]
    except (RuntimeError, OSError) as e:  # Fairy-Stockfish stopped or refused a position
        die(str(e))
    tmp = a.out + ".part"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            for j, s in zip(rows, scores):
                if "score" in j:
                    j["own_score"] = j["score"]
                j["score"] = s
                f.write(json.dumps(j, sort_keys=True, separators=(",", ":")) + "\n")
        os.replace(tmp, a.out)
    except OSError as e:
        die(f"--out {a.out}: {e.strerror}")
    print(f"label-positions: {len(rows)} positions scored at depth {a.depth}", file=sys.stderr)


if __name__ == "__main__":
    main()
