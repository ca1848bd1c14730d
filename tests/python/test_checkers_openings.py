"""scripts/checkers-openings.py, which writes the openings of the checkers
strength matches (docs/STRENGTH.md): the committed file is what the script
writes, every line is a position after 4 plies from the start, and bad
arguments are one line and exit status 2."""

import subprocess
import sys

import duel
from conftest import ROOT

SCRIPT = ROOT / "scripts" / "checkers-openings.py"
COMMITTED = ROOT / "docs" / "experiments" / "strength" / "checkers-openings.txt"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=300)


def test_the_committed_openings_are_the_scripts_and_four_plies_deep():
    r = run()
    assert r.returncode == 0, r.stderr
    assert r.stdout == COMMITTED.read_text()
    lines = r.stdout.splitlines()
    assert len(lines) == 100 == len(set(lines))
    # Every position after 4 plies, by a search of the tree written here
    # (A133046 counts 1469 paths of 4 plies, so there are at most that many).
    game = duel.load("checkers")
    level = [game.initial_state()]
    for _ in range(4):
        level = [s.result(m) for s in level for m in s.actions()]
    assert len(level) == 1469
    reachable = {s.text.split()[0] for s in level}
    assert set(lines) <= reachable
    assert "805 positions after 4 plies" in r.stderr


def test_bad_arguments_are_one_line():
    for args in (["--plies", "0"], ["--count", "0"], ["--count", "100000"]):
        r = run(*args)
        assert r.returncode == 2 and r.stderr.count("\n") == 1, (args, r.stderr)
