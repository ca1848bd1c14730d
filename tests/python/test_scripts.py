"""The measurement scripts that talk to Fairy-Stockfish: scripts/fairy_uci.py
(one UCI process), scripts/fs-judge.py (an engine spec's moves judged by
Fairy-Stockfish) and scripts/label-positions.py (training positions scored by
Fairy-Stockfish). They are run by hand (docs/engine.md), so these tests keep
their plumbing honest: the moves and positions Fairy-Stockfish reports agree
with Duel's own rules, a judged loss is Fairy-Stockfish's best score less its
score for the move the spec chose, in the positions' order, and bad input is
one line and exit status 2.

Fairy-Stockfish is a Debian package that .ci/run installs; without it the
tests that need it are skipped.
"""

import json
import os
import pathlib
import subprocess
import sys

import pytest

import duel
from conftest import ROOT, cli, duel_bin, random_states

SCRIPTS = ROOT / "scripts"
JUDGE = SCRIPTS / "fs-judge.py"
LABEL = SCRIPTS / "label-positions.py"
sys.path.insert(0, str(SCRIPTS))
from fairy_uci import FAIRY, Fairy  # noqa: E402

needs_fairy = pytest.mark.skipif(not os.access(FAIRY, os.X_OK),
                                 reason="fairy-stockfish is not installed")


def random_line(seed: int, plies: int) -> tuple[list[str], "duel.State"]:
    """The moves of a seeded random gardner game (conftest's) and the state they reach."""
    states = random_states("gardner", seed, plies)
    return [move for move, _ in states[1:]], states[-1][1]


def judge(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(JUDGE), *args], capture_output=True, text=True,
                          timeout=300)


def write_positions(path: pathlib.Path, rows: list[dict]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return str(path)


@needs_fairy
def test_fairy_moves_and_fen_agree_with_duel():
    fairy = Fairy("gardner")
    try:
        for seed in range(8):
            moves, state = random_line(seed, 2 + seed * 3)
            if state.is_terminal():
                continue
            assert fairy.fen(moves) == state.text
            assert fairy.moves(moves) == sorted(state.actions())
            assert fairy.moves([], state.text) == sorted(state.actions())
    finally:
        fairy.close()


@needs_fairy
def test_a_judged_loss_is_the_best_score_less_the_chosen_moves(tmp_path):
    # One position a run and one job, so both Fairy-Stockfish processes
    # start from an empty table and search the same tree. White to move in
    # one, Black in the other: the spec must play the side to move.
    for seed, plies in ((1, 8), (3, 7)):
        moves, state = random_line(seed, plies)
        searched = cli("search", "gardner", "--state", state.text, "--depth", "3", "--json")
        assert searched.returncode == 0, searched.stderr
        chosen = json.loads(searched.stdout)["best"]  # what `engine:depth=3` plays
        fairy = Fairy("gardner", hash_mb=64)
        try:
            kind, value = fairy.score(moves, 6, duel.load("gardner").initial_state().text, chosen)
        finally:
            fairy.close()
        assert kind == "cp", "a random 8-ply line is not expected to be mated"
        best = value + 150  # the file's best score: the loss must be 150
        start = duel.load("gardner").initial_state().text
        positions = write_positions(tmp_path / f"p{seed}.jsonl", [
            {"start": start, "moves": moves, "fen": state.text, "best": best}])
        out = tmp_path / f"l{seed}.json"
        r = judge("score", "--positions", positions, "--spec", "engine:depth=3",
                  "--duel", duel_bin(), "--depth", "6", "--jobs", "1",
                  "--cache", str(tmp_path / f"c{seed}.json"), "--out", str(out))
        assert r.returncode == 0, r.stderr
        assert json.loads(out.read_text()) == [150]
        cache = json.loads((tmp_path / f"c{seed}.json").read_text())
        assert cache == {f"{state.text}|{chosen}": value}


@needs_fairy
def test_losses_keep_the_positions_order_and_the_cap(tmp_path):
    start = duel.load("gardner").initial_state().text
    rows = []
    for seed, best in ((3, 100000), (4, -100000), (5, 100000), (6, -100000), (7, 100000)):
        moves, state = random_line(seed, 6)
        rows.append({"start": start, "moves": moves, "fen": state.text, "best": best})
    positions = write_positions(tmp_path / "p.jsonl", rows)
    cache = str(tmp_path / "c.json")
    args = ["score", "--positions", positions, "--spec", "first", "--duel", duel_bin(),
            "--depth", "4", "--cap", "300", "--cache", cache]
    r = judge(*args, "--jobs", "2", "--out", str(tmp_path / "a.json"))
    assert r.returncode == 0, r.stderr
    # A best score far above any move's loses the cap; far below, nothing.
    assert json.loads((tmp_path / "a.json").read_text()) == [300, 0, 300, 0, 300]
    assert "5 positions, mean loss 180.0 cp, 3 moves losing 60 cp or more" in r.stdout
    # From the cache alone, compared with itself: nothing differs.
    r = judge(*args, "--jobs", "1", "--against", str(tmp_path / "a.json"))
    assert r.returncode == 0, r.stderr
    assert "+0.0 +/- 0.0 cp (standard error), 0 positions differ" in r.stdout


def one_line_exit_2(r: subprocess.CompletedProcess, *words: str,
                    prefix: str = "fs-judge: ") -> None:
    assert r.returncode == 2, r
    assert r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith(prefix)
    for w in words:
        assert w in r.stderr


def test_judge_bad_input_is_one_line_and_status_2(tmp_path):
    good = write_positions(tmp_path / "p.jsonl", [
        {"start": duel.load("gardner").initial_state().text, "moves": [],
         "fen": duel.load("gardner").initial_state().text, "best": 0}])
    one_line_exit_2(judge("score", "--positions", good, "--spec", "first",
                          "--duel", str(tmp_path / "no-such-duel")), "--duel", "no such program")
    if not os.access(FAIRY, os.X_OK):
        return  # the remaining checks run once Duel and Fairy-Stockfish are both there
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    base = ["score", "--spec", "first", "--duel", duel_bin(), "--cache", str(tmp_path / "c.json")]
    one_line_exit_2(judge(*base, "--positions", str(bad)), "--positions")
    wrong = write_positions(tmp_path / "w.jsonl", [{"fen": "x"}])
    one_line_exit_2(judge(*base, "--positions", wrong), "not a position")
    one_line_exit_2(judge(*base, "--positions", good, "--jobs", "0"), "--jobs 0")
    one_line_exit_2(judge(*base, "--positions", good, "--spec", "engine:nodes=-3"),
                    "duel play failed")
    other = tmp_path / "two.json"
    other.write_text("[1, 2]")
    one_line_exit_2(judge(*base, "--positions", good, "--depth", "2", "--against", str(other)),
                    "has 2 positions, not 1")


def label(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(LABEL), *args], capture_output=True, text=True,
                          timeout=300)


@needs_fairy
def test_labels_are_fairys_scores_from_whites_view_in_the_files_order(tmp_path):
    start = duel.load("gardner").initial_state().text
    rows = [{"fen": "4k/5/5/5/QK3 w - - 0 1", "result": 1.0, "score": -55.0},  # a queen up
            {"fen": "4k/5/5/5/QK3 b - - 0 1", "result": 1.0},  # the same, Black to move
            {"fen": "k4/2K2/5/5/1Q3 w - - 0 1", "result": 1.0},  # White mates in 1 (Qb5)
            {"fen": "K4/2k2/5/5/1q3 b - - 0 1", "result": 0.0},  # Black mates in 1 (Qb5)
            {"fen": start, "result": 0.5, "held_out": True}]
    rows += [{"fen": state.text, "result": 0.5} for _, state in random_states("gardner", 5, 12)
             if not state.is_terminal()]
    src, out = write_positions(tmp_path / "p.jsonl", rows), tmp_path / "q.jsonl"
    r = label("--in", src, "--out", str(out), "--variant", "gardner", "--depth", "6",
              "--jobs", "3")
    assert r.returncode == 0, r.stderr
    got = [json.loads(line) for line in out.read_text().splitlines()]
    assert [g["fen"] for g in got] == [x["fen"] for x in rows]
    assert got[0]["own_score"] == -55.0 and "own_score" not in got[1]
    assert got[0]["score"] > 300 and got[1]["score"] > 300
    assert got[2]["score"] == 10000 and got[3]["score"] == -10000
    assert got[4]["held_out"] is True and got[4]["result"] == 0.5
    fairy = Fairy("gardner", hash_mb=64)
    try:
        for g in got[5:]:
            kind, value = fairy.score([], 6, g["fen"])
            if kind == "mate":
                value = 10000 if value > 0 else -10000
            white = value if g["fen"].split()[1] == "w" else -value
            # A fresh hash table can change a score a little, not its sense.
            assert abs(g["score"] - white) <= 150, (g, white)
    finally:
        fairy.close()


def test_label_bad_input_is_one_line_and_status_2(tmp_path):
    prefix = "label-positions: "
    base = ["--out", str(tmp_path / "q.jsonl"), "--variant", "gardner"]
    one_line_exit_2(label("--in", str(tmp_path / "missing.jsonl"), *base, "--depth", "0"),
                    "--depth", prefix=prefix)
    if not os.access(FAIRY, os.X_OK):
        return  # the remaining checks need Fairy-Stockfish
    one_line_exit_2(label("--in", str(tmp_path / "missing.jsonl"), *base), "cannot read",
                    prefix=prefix)
    bad = tmp_path / "bad.jsonl"
    for content, words in [("{not json\n", ["line 1"]),
                           ('{"result": 1}\n', ["line 1"]),
                           ('{"fen": "rnbqk/ppppp/5/PPPPP/RNBQK x"}\n', ["not a FEN"]),
                           ('{"fen": "zzzzz/ppppp/5/PPPPP/RNBQK w - - 0 1"}\n',
                            ["not a gardner position"]),
                           ("\n", ["no positions"])]:
        bad.write_text(content)
        one_line_exit_2(label("--in", str(bad), *base), *words, prefix=prefix)
    assert not (tmp_path / "q.jsonl").exists()
