"""duel.cs3243: seed 000's gameboard and move forms, studentAgent, and the
grader (`python3 -m duel.cs3243 grade`) on the sample files in
tests/python/data/cs3243/."""

import importlib
import inspect
import json
import os
import subprocess
import sys
import time

import pytest

import duel
import duel.cs3243 as cs
from duel.cs3243 import grader
from conftest import ROOT, random_states

DATA = ROOT / "tests" / "python" / "data" / "cs3243"
SPEC = "gardner-cs3243"

# The hand-out's start position (its Figure 3) as its gameboard dict.
START = {
    ("a", 0): ("Rook", "White"), ("b", 0): ("Knight", "White"), ("c", 0): ("Bishop", "White"),
    ("d", 0): ("Queen", "White"), ("e", 0): ("King", "White"),
    **{(f, 1): ("Pawn", "White") for f in "abcde"},
    **{(f, 3): ("Pawn", "Black") for f in "abcde"},
    ("a", 4): ("Rook", "Black"), ("b", 4): ("Knight", "Black"), ("c", 4): ("Bishop", "Black"),
    ("d", 4): ("Queen", "Black"), ("e", 4): ("King", "Black"),
}


def grade_cli(*args, timeout=600):
    """Runs `python3 -m duel.cs3243 ARGS` from the repository's top."""
    return subprocess.run([sys.executable, "-m", "duel.cs3243", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def graded_json(path, *args):
    r = grade_cli("grade", path, "--json", *args)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


# --- the gameboard and move forms ------------------------------------------


def test_start_position_both_ways():
    start = duel.load(SPEC).initial_state()
    assert cs.state_to_gameboard(start) == START
    assert cs.gameboard_to_fen(START) == "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1"
    assert cs.gameboard_to_state(START) == start


@pytest.mark.parametrize("seed", range(6))
def test_positions_of_random_games_both_ways(seed):
    for _move, state in random_states(SPEC, seed, max_plies=60):
        board = cs.state_to_gameboard(state)
        placement, side, _c, _e, clock, _n = state.text.split()
        to_move = "White" if side == "w" else "Black"
        fen = cs.gameboard_to_fen(board, to_move=to_move, clock=int(clock))
        assert fen.split()[:2] == [placement, side]
        assert fen.split()[4] == clock
        if state.actions():  # a finished game may lack a king: not a position to set up
            back = cs.gameboard_to_state(board, to_move=to_move, clock=int(clock))
            assert back.text.split()[:5] == state.text.split()[:5]
            assert back.actions() == state.actions()
            assert cs.state_to_gameboard(back) == board


def test_moves_both_ways_as_the_cli_reads_them():
    # tests/minichess/minichess_test.cpp Cs3243TupleMovesBothWays: (('b', 0), ('c', 2)) is b1c3,
    # and the C++ tuple_text is Python's repr of the tuple.
    assert cs.move_to_tuple("b1c3") == (("b", 0), ("c", 2))
    assert repr(cs.move_to_tuple("b1c3")) == "(('b', 0), ('c', 2))"
    assert cs.tuple_to_move((("b", 0), ("c", 2))) == "b1c3"
    assert cs.tuple_to_move([["a", 1], ["a", 2]]) == "a2a3"
    for _move, state in random_states(SPEC, 11, max_plies=40):
        for a in state.actions():
            t = cs.move_to_tuple(a)
            assert cs.tuple_to_move(t) == a
            assert state.result(repr(t)) == state.result(a)  # the C++ parser agrees


@pytest.mark.parametrize("bad", [
    "b1c", "b1c6", "f1f2", "b1c3q", 42, None,
])
def test_move_to_tuple_rejects(bad):
    with pytest.raises(ValueError):
        cs.move_to_tuple(bad)


@pytest.mark.parametrize("bad", [
    "(('b', 0), ('c', 2))", (("b", 0),), (("b", 0), ("c", 5)), (("B", 0), ("c", 2)),
    (("b", "0"), ("c", 2)), (("b", True), ("c", 2)), (("bb", 0), ("c", 2)), None, 7,
])
def test_tuple_to_move_rejects(bad):
    with pytest.raises(ValueError) as e:
        cs.tuple_to_move(bad)
    assert "\n" not in str(e.value)


# --- studentAgent ------------------------------------------------------------


def test_student_agent_answers_legal_moves_in_the_seed_form():
    positions = [START]
    for seed in range(5):
        states = random_states(SPEC, 100 + seed, max_plies=30)
        white = [s for _m, s in states if s.to_move == 1 and s.actions()]
        positions.append(cs.state_to_gameboard(white[-1]))
    for board in positions:
        state = cs.gameboard_to_state(board)
        start = time.perf_counter()
        move = cs.studentAgent(board)
        took = time.perf_counter() - start
        assert isinstance(move, tuple) and len(move) == 2
        for x, y in move:
            assert isinstance(x, str) and x in "abcde"
            assert type(y) is int and 0 <= y <= 4
        assert cs.tuple_to_move(move) in state.actions()
        assert board[move[0]][1] == "White"
        assert took < cs.TIME_LIMIT


def test_student_agent_takes_a_mate_in_one():
    # Black's king on a5 has no safe square (the rook on b4 guards a4 and b5, the queen on c3
    # guards the rook): most White moves leave Black without a safe move and win at once.
    board = {("e", 0): ("King", "White"), ("b", 3): ("Rook", "White"),
             ("c", 2): ("Queen", "White"), ("a", 4): ("King", "Black")}
    state = cs.gameboard_to_state(board)
    after = state.result(cs.tuple_to_move(cs.studentAgent(board)))
    assert after.is_terminal() and after.utility() == 1


def test_student_agent_carries_the_clock_on():
    move = cs.studentAgent(START)
    state = duel.load(SPEC).initial_state().result(cs.tuple_to_move(move))
    quiet = [a for a in state.actions() if len(cs.state_to_gameboard(state.result(a))) == 20]
    after = state.result(quiet[0])
    board = cs.state_to_gameboard(after)
    assert cs._continue_from(cs.gameboard_to_state(board)).text == after.text
    assert after.text.split()[4] == "2"
    # A board that does not follow from the last answer starts at 0.
    assert cs._continue_from(cs.gameboard_to_state(START)).text.split()[4] == "0"


@pytest.mark.parametrize("bad, words", [
    ([], "a gameboard is a dict"),
    ({("f", 0): ("King", "White")}, "is not a square"),
    ({("a", 5): ("King", "White")}, "is not a square"),
    ({"a0": ("King", "White")}, "is not a square"),
    ({("a", 0): ("Kong", "White")}, "not like ('Queen', 'White')"),
    ({("a", 0): ("King", "Red")}, "not like ('Queen', 'White')"),
    ({("a", 0): "King"}, "not like ('Queen', 'White')"),
    ({("a", 0): ("King", "White")}, "Black has 0 kings"),
    ({("a", 0): ("King", "White"), ("b", 0): ("King", "White"), ("e", 4): ("King", "Black")},
     "White has 2 kings"),
    ({("a", 0): ("King", "White"), ("e", 4): ("King", "Black"), ("c", 0): ("Pawn", "White")},
     "own first rank"),
])
def test_bad_gameboards_raise_value_error(bad, words):
    with pytest.raises(ValueError) as e:
        cs.studentAgent(bad)
    message = str(e.value)
    assert words in message and "\n" not in message


def test_finished_game_raises_value_error():
    # White king boxed in a corner by queen and king: no safe move, White has lost.
    board = {("a", 0): ("King", "White"), ("b", 2): ("Queen", "Black"),
             ("c", 1): ("King", "Black")}
    with pytest.raises(ValueError, match="the game is over"):
        cs.studentAgent(board)


def test_everything_public_has_a_docstring():
    command = importlib.import_module("duel.cs3243.__main__")
    assert command.__doc__ and command.main.__doc__
    match = importlib.import_module("duel.cs3243.match")
    for module in (cs, grader, match):
        assert module.__doc__ and module.__doc__.strip()
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                assert obj.__doc__ and obj.__doc__.strip(), name
            if inspect.isclass(obj):
                for member, value in vars(obj).items():
                    if not member.startswith("_") and (inspect.isfunction(value)
                                                       or isinstance(value, property)):
                        assert value.__doc__ and value.__doc__.strip(), f"{name}.{member}"


# --- the grader ----------------------------------------------------------------


def test_grader_on_a_random_agent():
    d = graded_json(DATA / "random_agent.py", "--games", "2", "--seed", "3")
    assert d["max_marks"] == 10 and d["games_per_opponent"] == 2
    assert [o["opponent"] for o in d["opponents"]] == ["first", "random", "greedy", "smart",
                                                       "minimax4"]
    assert d["marks"] < 5
    for o in d["opponents"]:
        assert len(o["games"]) == 2 and o["wins"] + o["draws"] + o["losses"] == 2
        for g in o["games"]:
            # Every game is played to its end by the rules: no answer of the file was refused.
            assert g["moves"], g
            assert "studentAgent" not in g["reason"], g
            final = duel.load(SPEC).initial_state()
            for m in g["moves"]:
                final = final.result(m)
            assert final.is_terminal()
            assert g["outcome"] == {1: "win", 0: "draw", -1: "loss"}[final.utility()]
    # The same seed is the same run.
    again = graded_json(DATA / "random_agent.py", "--games", "2", "--seed", "3")
    assert [g["moves"] for o in again["opponents"] for g in o["games"]] == [
        g["moves"] for o in d["opponents"] for g in o["games"]]


def test_grader_on_a_broken_agent():
    r = grade_cli("grade", DATA / "broken_agent.py", "--games", "2")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "must not reach" not in out + r.stderr
    lines = out.splitlines()
    assert any(line.startswith("total") and line.endswith("0.00/10") for line in lines), out
    assert sum("FAIL" in line for line in lines) == 5
    lost = [line for line in lines if " game " in line]
    assert len(lost) == 10
    raised = "studentAgent raised RuntimeError: my alpha-beta is broken (broken_agent.py line 13)"
    garbage = "studentAgent returned garbage: 'e2e3' is not a move like"
    assert sum(raised in line for line in lost) == 5
    assert sum(garbage in line for line in lost) == 5


def test_grader_on_the_engine_full_run():
    """The must-show: the hand-out's full grading (10 games against each opponent) of a
    file that is Duel's engine: 10/10 marks. Unboxed: the box hides Duel's package from
    students' code (test_hostile_cs3243.py), and this file is Duel's adapter."""
    r = grade_cli("grade", DATA / "engine_agent.py", "--no-sandbox")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "10 games per opponent" in r.stdout
    for spec in ("first", "random", "greedy", "smart", "minimax4"):
        row = next(line for line in lines if line.startswith(spec + " "))
        assert " 10   0   0 " in row and "pass" in row, row
    total = next(line for line in lines if line.startswith("total"))
    assert total.endswith("10.00/10"), r.stdout
    # The adapter is Duel's, which the hand-out's allowed libraries do not list.
    assert lines[-1].startswith("Note: imports outside the hand-out's allowed libraries: duel.cs3243"), r.stdout
    assert "Games lost" not in r.stdout


def test_grader_failures_of_a_function():
    """Each way a studentAgent can fail loses the game, with its reason."""
    def illegal(board):
        return (("a", 0), ("a", 4))

    def slow(board):
        time.sleep(0.2)
        return (("a", 1), ("a", 2))

    def suicidal(board):  # pseudo-legal but leaves the king attacked: lost by the rules
        state = cs.gameboard_to_state(board)
        for a in state.actions():
            after = state.result(a)
            if after.is_terminal() and after.utility() == -1:
                return cs.move_to_tuple(a)
        return cs.move_to_tuple(state.actions()[0])

    def hangs(board):
        time.sleep(1.0)
        return (("a", 1), ("a", 2))

    first = [grader.OPPONENTS[0]]
    r = grader.grade_agent(illegal, games=1, opponents=first)
    assert r.results[0].games[0].reason == (
        "studentAgent returned (('a', 0), ('a', 4)), an illegal move: "
        "move (('a', 0), ('a', 4)): a rook on ('a', 0) cannot move to ('a', 4)")
    r = grader.grade_agent(slow, games=1, opponents=first, time_limit=0.1)
    assert "over the 0.1 s limit" in r.results[0].games[0].reason
    assert r.marks == 0 and r.max_marks == 1
    r = grader.grade_agent(suicidal, games=1, opponents=first)
    g = r.results[0].games[0]
    assert g.outcome == "loss" and "left its own king attacked" in g.reason, g
    r = grader.grade_agent(hangs, games=2, opponents=first, hang=0.2, time_limit=0)
    reasons = [g.reason for g in r.results[0].games]
    # Each game's call is killed at its deadline; the next game starts afresh.
    assert reasons == ["studentAgent did not return within 0.2 s (killed)"] * 2, reasons


def test_a_hung_file_loses_that_game_and_the_grader_goes_on(tmp_path):
    """A call that sleeps far past the limit is killed (the process, not a thread):
    that game is lost with its reason, every other game is played, and the grader's
    own output is intact."""
    f = tmp_path / "AB.py"
    f.write_text(
        "import random, time\n"
        "def studentAgent(gameboard):\n"
        "    first = all(gameboard.get((f, 1)) == ('Pawn', 'White') for f in 'abcde')\n"
        "    if first and random.random() < 0.3:\n"
        "        time.sleep(45)\n"
        "    for (f, r), (piece, colour) in sorted(gameboard.items()):\n"
        "        if colour == 'White' and piece == 'Pawn' and (f, r + 1) not in gameboard:\n"
        "            return ((f, r), (f, r + 1))\n"
        "    raise RuntimeError('no pawn move')\n")
    start = time.monotonic()
    r = grade_cli("grade", f, "--json", "--games", "4", "--opponent", "first", timeout=120)
    took = time.monotonic() - start
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    games = d["opponents"][0]["games"]
    assert len(games) == 4
    killed = [g for g in games if "did not return within" in g["reason"]]
    # Games 2 and 4 hang: random.seed(1) and (3) draw 0.13 and 0.24 first
    # (the grader seeds game i with seed * 1000 + i).
    assert [g["index"] for g in killed] == [1, 3], games
    assert all(g["outcome"] == "loss" for g in killed), games
    assert all(g["outcome"] == "win" or "did not return" not in g["reason"]
               for g in games if g not in killed)
    assert took < 60, took  # killed at the limit and a second, not after 45 s


def test_prints_are_blocked_at_the_file_descriptor(tmp_path):
    f = tmp_path / "AB.py"
    f.write_text(
        "import os, sys\n"
        "os.write(1, b'LOUD fd 1\\n')\n"
        "def studentAgent(gameboard):\n"
        "    print('LOUD print')\n"
        "    os.write(1, b'LOUD fd 1\\n')\n"
        "    os.write(2, b'LOUD fd 2\\n')\n"
        "    return (('a', 1), ('a', 2))\n")
    r = grade_cli("grade", f, "--games", "1", "--opponent", "first", timeout=120)
    assert r.returncode == 0, r.stderr
    assert "LOUD" not in r.stdout and "LOUD" not in r.stderr, (r.stdout, r.stderr)
    assert "total" in r.stdout


def test_the_same_seed_gives_the_same_marks_whatever_pythonhashseed(tmp_path):
    """A student's choice that follows a set's order (which PYTHONHASHSEED decides)
    repeats: the child interpreter's hash seed is fixed."""
    f = tmp_path / "AB.py"
    f.write_text(
        "def studentAgent(gameboard):\n"
        "    moves = set()\n"
        "    for (f, r), (piece, colour) in gameboard.items():\n"
        "        if colour == 'White' and piece == 'Pawn' and (f, r + 1) not in gameboard:\n"
        "            moves.add(str((f, r)))\n"
        "    f, r = eval(next(iter(moves)))\n"
        "    return ((f, r), (f, r + 1))\n")
    runs = []
    for hash_seed in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        r = subprocess.run([sys.executable, "-m", "duel.cs3243", "grade", str(f), "--json",
                            "--games", "2", "--opponent", "random", "--seed", "5"],
                           cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)
        assert r.returncode == 0, r.stderr
        runs.append([g["moves"] for o in json.loads(r.stdout)["opponents"] for g in o["games"]])
    assert runs[0] == runs[1] == runs[2]


def test_rubric_marks():
    # Full marks at the hand-out's bar, scaled in proportion below it.
    def result(spec, wins, draws, losses):
        opp = next(o for o in grader.OPPONENTS if o.spec == spec)
        games = [grader.GameRecord(spec, i, k, "", [], 0.0, 0.0)
                 for i, k in enumerate(["win"] * wins + ["draw"] * draws + ["loss"] * losses)]
        return grader.OpponentResult(opp, games)

    assert [(o.spec, o.needed, o.marks) for o in grader.OPPONENTS] == [
        ("first", 1.0, 1), ("random", 1.0, 1), ("greedy", 0.9, 2), ("smart", 0.9, 2),
        ("minimax4", 0.8, 4)]
    assert result("minimax4", 6, 2, 2).marks == 4 and result("minimax4", 6, 2, 2).passed
    assert result("minimax4", 4, 0, 6).marks == 2.0
    assert result("greedy", 8, 0, 2).marks == round(2 * 0.8 / 0.9, 2)
    assert not result("first", 9, 0, 1).passed and result("first", 9, 0, 1).marks == 0.9


def test_grader_import_error_loses_every_game(tmp_path):
    f = tmp_path / "AB.py"
    f.write_text("import no_such_module_here\n\ndef studentAgent(gameboard):\n    pass\n")
    d = graded_json(f, "--games", "1", "--opponent", "first", "--opponent", "smart")
    assert d["marks"] == 0 and d["max_marks"] == 3
    for o in d["opponents"]:
        assert o["games"][0]["reason"].startswith(
            "importing AB.py raised ModuleNotFoundError: No module named 'no_such_module_here'")


@pytest.mark.parametrize("args, message", [
    (["grade", "no/such/AB.py"], "duel.cs3243: no/such/AB.py: no such file"),
    # Unboxed: in a box conftest.py's `import duel` fails, an import error to grade.
    (["grade", "tests/python/conftest.py", "--no-sandbox"],
     "duel.cs3243: tests/python/conftest.py: defines no studentAgent(gameboard)"),
    (["grade", "tests/python"], "duel.cs3243: tests/python: not a file"),
    (["grade", "tests/python/data/cs3243/engine_agent.py", "--games", "0"],
     "duel.cs3243: --games must be at least 1, not 0"),
    (["grade", "tests/python/data/cs3243/engine_agent.py", "--opponent", "stockfish"],
     "duel.cs3243: argument --opponent: invalid choice"),
    ([], "duel.cs3243: the following arguments are required: COMMAND"),
])
def test_grader_bad_input(args, message):
    r = grade_cli(*args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(message), r.stderr


def test_the_handouts_environment(tmp_path):
    """sys.argv[1] names a readable configuration file (the template opens it);
    imports outside the hand-out's allowed list are reported; `| head` is quiet."""
    f = tmp_path / "AB.py"
    f.write_text(
        "import sys\n"
        "import json\n"
        "from os import path\n"
        "CONFIG = open(sys.argv[1]).read()\n"
        "def studentAgent(gameboard):\n"
        "    assert 'Rows:5' in open(sys.argv[1]).read()\n"
        "    return (('a', 1), ('a', 2))\n")
    d = graded_json(f, "--games", "1", "--opponent", "first")
    assert "raised" not in json.dumps(d), d
    assert d["notes"] == [
        "imports outside the hand-out's allowed libraries: json (line 2), os (line 3)"]
    r = subprocess.run(f"'{sys.executable}' -m duel.cs3243 grade '{f}' --games 1 | head -1",
                       shell=True, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert r.stdout.startswith("CS3243 Project 3"), r.stdout


def test_the_adapter_takes_a_king_left_attacked():
    """RULES.md §1b (the hand-out's Figures 8-10): Black's last move left its king
    attacked, so White takes it instead of the adapter raising."""
    # The pawn on d3, the knight on c3 and the rook on a4 all attack the king
    # on e4: the least valuable attacker takes it.
    board = {("e", 0): ("King", "White"), ("a", 4): ("Rook", "White"),
             ("c", 3): ("Knight", "White"), ("e", 4): ("King", "Black"),
             ("d", 3): ("Pawn", "White")}
    assert cs.king_capture(board) == (("d", 3), ("e", 4))
    assert cs.studentAgent(board) == (("d", 3), ("e", 4))
    del board[("d", 3)]
    assert cs.studentAgent(board) == (("c", 3), ("e", 4))
    del board[("c", 3)]
    assert cs.studentAgent(board) == (("a", 4), ("e", 4))
    # Not attacked: no capture, the engine moves.
    quiet = {("e", 0): ("King", "White"), ("a", 0): ("Rook", "White"), ("c", 4): ("King", "Black")}
    assert cs.king_capture(quiet) is None
    move = cs.studentAgent(quiet)
    state = cs.gameboard_to_state(quiet)
    assert cs.tuple_to_move(move) in state.actions()


def test_a_whole_class(tmp_path):
    """One command grades a folder of submissions (folders and the hand-out's zips),
    two students at once, and writes the files every `duel tournament` writes
    (results.json, results.csv, index.html) and the hand-out's table (grades.md); a
    broken submission gets one clear line and marks 0; a second run resumes from the
    journal and loses nothing; another grading's journal is refused."""
    import zipfile
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "A0000001X").mkdir()
    (subs / "A0000001X" / "AB.py").write_text((DATA / "engine_agent.py").read_text())
    with zipfile.ZipFile(subs / "A0000002Y.zip", "w") as z:
        z.writestr("A0000002Y/AB.py", (DATA / "broken_agent.py").read_text())
    with zipfile.ZipFile(subs / "A0000003Z.zip", "w") as z:
        z.writestr("AB.py", "def studentAgent(b):\n    return None\n")
        z.writestr("helper.py", "")
    (subs / "A0000004W").mkdir()  # no AB.py
    (subs / "notes.txt").write_text("skipped")
    (subs / "bad.zip").write_bytes(b"not a zip")
    odd = os.fsdecode(b"A000000\xff5V")  # a file name that is not UTF-8
    os.mkdir(os.path.join(str(subs), odd))
    (subs / odd / "AB.py").write_text((DATA / "engine_agent.py").read_text())
    out = tmp_path / "out"
    # Unboxed: two students are Duel's adapter, which the box does not let import duel.
    args = ["class", subs, "--out", out, "--games", "1", "--opponent", "first",
            "--concurrency", "2", "--no-sandbox"]
    r = grade_cli(*args, timeout=300)
    assert r.returncode == 0, r.stderr
    lines = (out / "journal.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["tournament"]["course"] == "cs3243"
    by = {row["student"]: row for row in map(json.loads, lines[1:])}
    assert sorted(by) == ["A0000001X", "A0000002Y", "A0000003Z", "A0000004W",
                          "A000000\ufffd5V", "bad"]
    assert by["A0000001X"]["error"] == "" and by["A0000001X"]["max_marks"] == 1
    assert by["A0000001X"]["marks"] == 1.0, by["A0000001X"]  # Duel's adapter beats first
    assert by["A0000002Y"]["marks"] == 0 and by["A0000002Y"]["error"] == ""
    assert by["A0000003Z"]["error"] == ("the zip holds 2 Python files (AB.py, helper.py);"
                                        " the hand-out submits AB.py alone")
    assert by["A0000004W"]["error"] == "no AB.py in the folder"
    assert by["bad"]["error"].startswith("not a zip file")
    assert by["A000000\ufffd5V"]["marks"] == 1.0, by["A000000\ufffd5V"]
    doc = json.loads((out / "results.json").read_text())
    assert doc["course"] == "cs3243" and doc["format"] == "grading"
    top = [s["name"] for s in doc["standings"] if s["rank"] == 1]
    assert sorted(top) == ["A0000001X", "A000000\ufffd5V"], doc["standings"]
    lost = next(s for s in doc["students"] if s["name"] == "A0000002Y")["lost"]
    assert len(lost) == 1 and lost[0]["opponent"] == "first" and lost[0]["reason"], lost
    csv_lines = (out / "results.csv").read_text().splitlines()
    assert csv_lines[0] == "rank,name,points,max_points,first,elo,elo_margin,remarks"
    assert len(csv_lines) == 7
    md = (out / "grades.md").read_text()
    assert "| A0000004W | 0.00 | 1 |  | no AB.py in the folder |" in md, md
    assert "A0000002Y" in (out / "index.html").read_text()
    # Resumed: a student added since is graded, the others are not graded again.
    (subs / "A0000005V").mkdir()
    (subs / "A0000005V" / "AB.py").write_text((DATA / "engine_agent.py").read_text())
    r = grade_cli(*args, timeout=300)
    assert r.returncode == 0, r.stderr
    assert [line.split("  [")[0] for line in r.stderr.splitlines()] == ["A0000005V: 1.00/1"], r.stderr
    assert "7 students, 1 graded now, 6 from the journal" in r.stdout, r.stdout
    assert len((out / "journal.jsonl").read_text().splitlines()) == 8
    # Other options with the same folder: refused, not mixed in.
    r = grade_cli("class", subs, "--out", out, "--games", "2", "--opponent", "first",
                  "--no-sandbox")
    assert r.returncode == 2 and "journal of another tournament" in r.stderr, r.stderr
    # Bad input: one line, status 2.
    r = grade_cli("class", tmp_path / "nowhere", "--out", out)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr


def test_duel_tournament_runs_the_cs3243_grader(tmp_path):
    """`duel tournament cs3243 CLASS --out DIR` is the same grading through the one
    tournament command; options that are not the hand-out's are refused in one line."""
    subs = tmp_path / "subs"
    (subs / "A1").mkdir(parents=True)
    (subs / "A1" / "AB.py").write_text((DATA / "broken_agent.py").read_text())
    out = tmp_path / "out"
    duel_bin = os.environ.get("DUEL_BIN", "build/bin/duel")
    r = subprocess.run([duel_bin, "tournament", "cs3243", str(subs), "--out", str(out),
                        "--games", "1", "--quiet"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    doc = json.loads((out / "results.json").read_text())
    assert [s["name"] for s in doc["students"]] == ["A1"] and doc["students"][0]["points"] == 0
    assert doc["opponents"][4]["spec"] == "minimax4"
    r = subprocess.run([duel_bin, "tournament", "cs3243", str(subs), "--out", str(out),
                        "--format", "swiss"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "graded only" in r.stderr, r.stderr
