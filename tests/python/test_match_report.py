"""scripts/match-report.py: the engine's results in a `duel arena --records`
file, its draws and losses sorted by what the two sides reported, and two
runs of the same openings compared game by game (docs/STRENGTH.md, "Reading
a match"). The expected numbers are counted by hand from the records below.
"""

import json
import subprocess
import sys

from conftest import ROOT, duel_bin
from test_scripts import one_line_exit_2

REPORT = ROOT / "scripts" / "match-report.py"
PAWN = 50 / 100000  # a pawn in points, the 5x5 chess games' scale
S1 = "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1"
S2 = "rnbqk/pppp1/4p/PPPPP/RNBQK w - - 0 2"
ENGINE, OTHER = "engine:time=0.1", "uci:cmd=fs"


def game(start, players, payoff, final, values):
    """A record: `values` are (player, pawns from the first player's view)."""
    return {"start": start, "players": players, "payoff": payoff, "final": final,
            "moves": [{"player": p, "move": "a2a3", "value": v * PAWN} for p, v in values]}


def run_a():
    return [
        # The engine, White, loses: the opponent reports 2 pawns for itself at
        # ply 1, where the engine had said level.
        game(S1, [ENGINE, OTHER], -1, "5/5/5/5/5 w - - 3 20", [(1, 0.0), (2, -2.0), (1, -3.0)]),
        # A draw by the 50-move rule's clock.
        game(S1, [OTHER, ENGINE], 0, "k4/5/5/5/4K w - - 100 80", [(1, 0.1), (2, 0.0)]),
        # A draw before the clock, the engine 2 and 1.2 pawns ahead in its last two reports.
        game(S2, [ENGINE, OTHER], 0, "k4/5/5/5/4K w - - 10 30", [(1, 2.0), (2, 0.0), (1, 1.2)]),
        # The engine, Black, loses: it said White was 2 pawns better (ply 1)
        # before the opponent reported 1.6 pawns for itself (ply 2).
        game(S2, [OTHER, ENGINE], 1, "5/5/5/5/5 b - - 0 20", [(1, 1.0), (2, 2.0), (1, 1.6)]),
    ]


def write(path, games):
    path.write_text("".join(json.dumps(g) + "\n" for g in games))
    return str(path)


def report(*args):
    return subprocess.run([sys.executable, str(REPORT), *args], capture_output=True, text=True,
                          timeout=120)


def test_results_draws_and_losses_as_counted_by_hand(tmp_path):
    r = report(write(tmp_path / "a.jsonl", run_a()))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].endswith("4 games, +0 =2 -2, score 25.0%")
    assert "  draws by the draw clock: 1" in lines
    assert "  draws before the clock, the engine ahead by 1+ pawns: 1" in lines
    assert not any("level" in line or "behind by 1+ pawns:" in line for line in lines)
    assert lines[-1] == ("  losses where the opponent reported 1.5+ pawns: 2 of 2, median ply "
                         "1.5; the engine already 1+ behind by its own count in 1")
    # The opponent's view: it won both losses and drew the rest.
    r = report(write(tmp_path / "a.jsonl", run_a()), "--agent", "uci")
    assert r.stdout.splitlines()[0].endswith("4 games, +2 =2 -0, score 75.0%")


def test_two_runs_are_paired_by_opening_and_colour(tmp_path):
    b = run_a()
    b[0]["payoff"] = 1  # the first game won instead of lost; the rest as in run A
    b.reverse()  # the order of the games in the file does not matter
    r = report(write(tmp_path / "a.jsonl", run_a()), write(tmp_path / "b.jsonl", b))
    assert r.returncode == 0, r.stderr
    # One pair of four went from 0 to 1 point: +25 points, standard error
    # stdev(1, 0, 0, 0) / sqrt(4) = 0.5 / 2 = 25 points.
    assert r.stdout.splitlines()[-1].endswith(
        "against " + str(tmp_path / "a.jsonl") + ": 4 games paired, 1 changed, "
        "score +25.00 +/- 25.00 points")


def test_openings_sum_both_colours_over_every_run(tmp_path):
    b = run_a()
    b[0]["payoff"] = 1  # S1 with White: lost in run A, won here
    r = report(write(tmp_path / "a.jsonl", run_a()), write(tmp_path / "b.jsonl", b),
               "--openings", "1")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    # S1: first -1 and +1, second 0 and 0: even. S2: first two draws,
    # second two losses: -1, the worst and the only one below even.
    assert lines[-2] == "openings: 2; the engine's two colours together below even in 1, above in 0"
    assert lines[-1] == f"  -1.00 {S2}: first +0.00 (2 games), second -1.00 (2 games)"
    one_line_exit_2(report(write(tmp_path / "a.jsonl", run_a()), "--openings", "-1"),
                    "--openings must be 0 or more", prefix="match-report: ")


def test_reads_what_the_arena_writes(tmp_path):
    records = tmp_path / "arena.jsonl"
    subprocess.run([duel_bin(), "arena", "gardner", "--agent", "engine:depth=1",
                    "--agent", "first", "--games", "2", "--records", str(records)],
                   check=True, capture_output=True, timeout=120)
    r = report(str(records), str(records))
    assert r.returncode == 0, r.stderr
    assert "2 games, +" in r.stdout
    assert r.stdout.splitlines()[-1].endswith(
        "2 games paired, 0 changed, score +0.00 +/- 0.00 points")


def test_bad_input_is_one_line_and_status_2(tmp_path):
    prefix = "match-report: "
    one_line_exit_2(report(str(tmp_path / "none.jsonl")), "none.jsonl", prefix=prefix)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    one_line_exit_2(report(str(bad)), "bad.jsonl:1", "not a game record", prefix=prefix)
    unsigned = run_a()[:1]
    unsigned[0]["moves"][0]["value"] = "x"
    one_line_exit_2(report(write(tmp_path / "u.jsonl", unsigned)), "u.jsonl:1",
                    "not a game record", prefix=prefix)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    one_line_exit_2(report(str(empty)), "no games", prefix=prefix)
    good = write(tmp_path / "a.jsonl", run_a())
    one_line_exit_2(report(good, "--agent", "nobody"), "0 players start with 'nobody'",
                    prefix=prefix)
    one_line_exit_2(report(good, "--agent", ""), "2 players start with ''", prefix=prefix)
    one_line_exit_2(report(good, "--pawn", "0"), "must be above 0", prefix=prefix)
    one_line_exit_2(report(good, "--ahead", "x"), "--ahead", prefix=prefix)
    other = write(tmp_path / "o.jsonl", [game("5/5/5/5/5 w - - 0 1", [ENGINE, OTHER], 0,
                                              "5/5/5/5/5 w - - 0 1", [])])
    one_line_exit_2(report(good, other), "fewer than two games in common", prefix=prefix)
