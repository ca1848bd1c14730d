"""Shared helpers for the Python package's tests.

CTest runs these with PYTHONPATH at the built package and DUEL_BIN at the
built CLI (tests/CMakeLists.txt), so the module can be compared with the
binary of the same build.
"""

import hashlib
import json
import os
import pathlib
import random
import subprocess

import pytest

import duel

ROOT = pathlib.Path(__file__).resolve().parents[2]

# One spec per game and rule set, small enough for exhaustive checks.
GAME_SPECS = [
    "nqueens:n=6,variant=1a",
    "nqueens:n=6,variant=1b",
    "nqueens:n=6,variant=2",
    "kcell:n=2,k=7",
    "kcell:n=3,k=15",
    "gardner",
    "gardner-cs3243",
    "minichess-comp472",
    "checkers",
]


def duel_bin() -> str:
    path = os.environ.get("DUEL_BIN", str(ROOT / "build" / "bin" / "duel"))
    if not os.path.exists(path):
        pytest.skip(f"no duel binary at {path} (set DUEL_BIN)")
    return path


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """Runs the built `duel` with `args`; the completed process (text)."""
    return subprocess.run(
        [duel_bin(), *args], input=stdin, capture_output=True, text=True, timeout=300
    )


def cli_json(*args: str) -> dict:
    r = cli(*args, "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def cli_error(*args: str, stdin: str = "") -> str:
    """The one-line message of a CLI run that must fail with status 2,
    without the "duel: " prefix."""
    r = cli(*args, stdin=stdin)
    assert r.returncode == 2, (args, r.stdout, r.stderr)
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("duel: "), r.stderr
    return lines[0][len("duel: "):]


def random_states(spec: str, seed: int, max_plies: int = 400):
    """The states of one seeded random game of `spec`, start to end (or
    `max_plies`), each with the move text that led to it (None for the start)."""
    rng = random.Random(seed)
    state = duel.load(spec).initial_state()
    out = [(None, state)]
    for _ in range(max_plies):
        moves = state.actions()
        if not moves:
            break
        move = rng.choice(moves)
        state = state.result(move)
        out.append((move, state))
    return out


def box_check():
    """Skips the test when this machine cannot box (with duel box --check's line)."""
    r = subprocess.run([duel_bin(), "box", "--check"], capture_output=True, text=True,
                       timeout=60)
    if r.returncode != 0:
        said = r.stderr.strip() or r.stdout.strip() or f"exit status {r.returncode}"
        pytest.skip(f"this machine cannot box programs (duel box --check: {said})")


def digest_tree(root):
    """Every file and folder under `root`: relative path -> SHA-256 (or 'dir')."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        if path.is_symlink():
            out[rel] = "link " + os.readlink(path)
        elif path.is_dir():
            out[rel] = "dir"
        else:
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


