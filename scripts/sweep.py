#!/usr/bin/python3
"""Correctness sweep: perft and engine values against outside oracles.

Runs three groups of build/bin/duel_tests with thousands of positions from
seeded random games, and prints the positions compared and the disagreements
of each game:

  fairy   perft split by first move against Fairy-Stockfish, every 5x5 chess
          rule set (tests/minichess/fairy_test.cpp; DUEL_FAIRY_GAMES/DEPTH);
  rapid   checkers perft against the rapid-draughts driver
          (tests/checkers/rapid_perft_test.cpp; DUEL_RAPID_GAMES/DEPTH;
          positions whose tree holds the driver's known quirk, a jump
          landing back on its start square, are counted apart);
  oracle  the engine against plain minimax on every game: fixed depth with
          the selective parts off, exact values near the end with everything
          on, small N-Queens and KCell instances solved
          (tests/search/oracle_sweep_test.cpp; DUEL_SWEEP_POSITIONS).

A part whose outside tool is missing is skipped with a message. Exit status
1 on any disagreement, 2 when the tests are not built.

Usage: scripts/sweep.py [--parts fairy,rapid,oracle] [--fairy-games N]
       [--fairy-depth D] [--rapid-games N] [--rapid-depth D] [--playouts N]
       [--build DIR]
"""
import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

FAIRY = "/usr/games/fairy-stockfish"
ROOT = pathlib.Path(__file__).resolve().parent.parent
RAPID = ROOT / "tests" / "tools" / "rapid-draughts"

# Each test of a part and the game it checks.
GAMES = {
    "MinichessFairy.Gardner": "gardner",
    "MinichessFairy.Cs3243": "gardner-cs3243",
    "MinichessFairy.Comp472": "minichess-comp472",
    "CheckersRapidPerft.RandomGamesAgree": "checkers",
    "OracleSweep.Gardner": "gardner (depth 4)",
    "OracleSweep.Cs3243": "gardner-cs3243 (depth 4)",
    "OracleSweep.Comp472": "minichess-comp472 (depth 4)",
    "OracleSweep.Checkers": "checkers (depth 5)",
    "OracleSweep.NQueens": "nqueens n=6, 1a/1b/2 (depth 4)",
    "OracleSweep.KCell": "kcell n=3 k=15 (depth 4)",
    "OracleSweep.SolvedNQueens": "nqueens n=5,6,7 (solved)",
    "OracleSweep.SolvedKCell": "kcell n=2..4, k=6..10 (solved)",
}


def missing_tool(part: str) -> str:
    """Why `part` cannot run here, or an empty string."""
    if part == "fairy" and not os.path.exists(FAIRY):
        return f"{FAIRY} is not installed (apt-get install fairy-stockfish)"
    if part == "rapid":
        if shutil.which("node") is None:
            return "node is not installed (bash scripts/setup-node.sh)"
        if not (RAPID / "node_modules" / "rapid-draughts").exists():
            return "rapid-draughts is not installed (bash scripts/setup-node.sh)"
    return ""


def run_part(tests: pathlib.Path, gtest_filter: str, env: dict) -> list:
    """Runs one filter of duel_tests; returns its tests from the JSON report."""
    with tempfile.TemporaryDirectory() as tmp:
        report = pathlib.Path(tmp) / "report.json"
        subprocess.call(
            [str(tests), f"--gtest_filter={gtest_filter}", f"--gtest_output=json:{report}"],
            env=dict(os.environ, **env),
            stdout=subprocess.DEVNULL,
        )
        if not report.exists():
            return []
        data = json.loads(report.read_text())
    return [t for suite in data.get("testsuites", []) for t in suite.get("testsuite", [])]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="fairy,rapid,oracle")
    parser.add_argument("--fairy-games", type=int, default=150, help="random games per rule set")
    parser.add_argument("--fairy-depth", type=int, default=3)
    parser.add_argument("--rapid-games", type=int, default=100, help="random checkers games")
    parser.add_argument("--rapid-depth", type=int, default=4)
    parser.add_argument("--playouts", type=int, default=2000, help="oracle: playouts per game")
    parser.add_argument("--build", default=str(ROOT / "build"), help="build tree")
    args = parser.parse_args()
    parts = [p for p in args.parts.split(",") if p]
    for p in parts:
        if p not in ("fairy", "rapid", "oracle"):
            print(f"sweep: unknown part '{p}' (known: fairy, rapid, oracle)", file=sys.stderr)
            return 2
    for name, value in (("--fairy-games", args.fairy_games), ("--fairy-depth", args.fairy_depth),
                        ("--rapid-games", args.rapid_games), ("--rapid-depth", args.rapid_depth),
                        ("--playouts", args.playouts)):
        if value < 1:
            print(f"sweep: {name} must be at least 1 (got {value})", file=sys.stderr)
            return 2
    tests = pathlib.Path(args.build) / "bin" / "duel_tests"
    if not tests.exists():
        print(f"sweep: {tests} is not built (cmake --build {args.build} --target duel_tests)",
              file=sys.stderr)
        return 2

    plan = {
        "fairy": ("MinichessFairy.*", {"DUEL_FAIRY_GAMES": str(args.fairy_games),
                                       "DUEL_FAIRY_DEPTH": str(args.fairy_depth)}),
        "rapid": ("CheckersRapidPerft.*", {"DUEL_RAPID_GAMES": str(args.rapid_games),
                                           "DUEL_RAPID_DEPTH": str(args.rapid_depth)}),
        "oracle": ("OracleSweep.*", {"DUEL_SWEEP_POSITIONS": str(args.playouts)}),
    }
    disagreements = 0
    print(f"{'part':<7} {'game':<34} {'positions':>9} {'exact':>6} {'quirks':>6} "
          f"{'failures':>8} {'seconds':>8}")
    for part in parts:
        why = missing_tool(part)
        if why:
            print(f"{part:<7} skipped: {why}")
            continue
        gtest_filter, env = plan[part]
        start = time.monotonic()
        results = run_part(tests, gtest_filter, env)
        if not results:
            print(f"{part:<7} error: {tests} ran no test for {gtest_filter}")
            disagreements += 1
            continue
        for t in results:
            name = f"{t.get('classname', '')}.{t['name']}"
            failures = t.get("failures", [])
            disagreements += len(failures)
            skipped = t.get("result") == "SKIPPED"
            print(f"{part:<7} {GAMES.get(name, name):<34} {t.get('positions', '-'):>9} "
                  f"{t.get('exact', '-'):>6} {t.get('quirks', '-'):>6} "
                  f"{'skipped' if skipped else len(failures):>8} {float(t.get('time', '0s')[:-1]):>8.1f}")
            if t.get("quirk_examples"):
                print("    known quirk at: " + t["quirk_examples"])
            for f in failures[:5]:
                print("    " + f.get("failure", "").replace("\n", "\n    "))
        print(f"{part:<7} done in {time.monotonic() - start:.0f} s")
    print("disagreements:", disagreements)
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
