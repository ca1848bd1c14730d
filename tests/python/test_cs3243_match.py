"""duel.cs3243 match: two students' AB.py files against each other
(`python3 -m duel.cs3243 match A.py B.py --out DIR`), Black's player shown the
position mirrored (duel/cs3243/match.py)."""

import importlib.util
import json
import re
import subprocess
import sys

import pytest

import duel
import duel.cs3243 as cs
from duel.cs3243 import match
from conftest import ROOT, duel_bin, random_states

DATA = ROOT / "tests" / "python" / "data" / "cs3243"
SPEC = "gardner-cs3243"

# random_agent.py's own move generator (no duel package: the box has none), playing
# its first pseudo-legal move in sorted order: deterministic, and weak.
FIRST_AGENT = (DATA / "random_agent.py").read_text().replace(
    "return random.choice(moves(gameboard))", "return moves(gameboard)[0]")


def run_match(*args, timeout=300):
    """`python3 -m duel.cs3243 match ARGS` from the repository's top."""
    return subprocess.run([sys.executable, "-m", "duel.cs3243", "match", *map(str, args)],
                          cwd=ROOT, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def box_args():
    """[] where this machine can box students' files (the match's default), else
    ['--no-sandbox']: the games are the same either way."""
    r = subprocess.run([duel_bin(), "box", "--check"], capture_output=True, text=True,
                       timeout=60)
    return [] if r.returncode == 0 else ["--no-sandbox"]


def player(tmp_path, name, source):
    """tmp_path/NAME/AB.py holding `source`: a student named by its folder."""
    folder = tmp_path / name
    folder.mkdir()
    (folder / "AB.py").write_text(source)
    return folder / "AB.py"


def played(out, *args, box=()):
    """Runs the match into `out`; (stdout's one line, results.json)."""
    r = run_match(*args, "--out", out, *box)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 1, r.stdout
    assert sorted(p.name for p in out.iterdir()) == ["results.json"]  # no temp file left
    return lines[0], json.loads((out / "results.json").read_text())


def pgn_sans(pgn):
    """The SAN moves of a PGN game's movetext (comments, numbers and result left out)."""
    text = re.sub(r"\{[^}]*\}", " ", pgn.split("\n\n", 1)[1])
    return [w for w in text.split()
            if not re.fullmatch(r"\d+\.(\.\.)?|1-0|0-1|1/2-1/2|\*", w)]


def check_game(g):
    """A game record's own consistency: its result, winner, moves and PGN agree."""
    assert set(g) == {"game", "white", "black", "winner", "result", "reason", "plies", "moves",
                      "pgn"}
    assert g["result"] == {g["white"]: "1-0", g["black"]: "0-1", None: "1/2-1/2"}[g["winner"]]
    assert g["plies"] == len(g["moves"]) and g["reason"]
    state = duel.load(SPEC).initial_state()
    for m in g["moves"]:
        state = state.result(m)  # every move legal in the real position
    tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', g["pgn"], re.M))
    assert (tags["White"], tags["Black"], tags["Result"], tags["Round"]) == (
        g["white"], g["black"], g["result"], str(g["game"] + 1))
    assert tags["Variant"] == "cs3243" and g["pgn"].rstrip().endswith(g["result"])
    again = duel.load(SPEC).initial_state()
    for san, uci in zip(pgn_sans(g["pgn"]), g["moves"], strict=True):
        assert again.parse(san) == uci, (san, uci)
        again = again.result(san)
    assert max(len(line) for line in g["pgn"].splitlines()) <= 79
    return state


# --- the mirror ---------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_the_mirror_maps_moves_one_to_one(seed):
    """Black's position mirrored is White to move, and its moves (Duel's own move
    generation) map back through the mirror one to one onto the real position's."""
    checked = 0
    states = [s for k in range(6) for _m, s in random_states(SPEC, 300 + 10 * seed + k, 80)]
    for state in states:
        if state.is_terminal():
            continue
        shown = match.mirror_state(state)
        assert shown.to_move == 3 - state.to_move
        assert match.mirror_state(shown) == state  # its own inverse
        board = cs.state_to_gameboard(state)
        assert cs.state_to_gameboard(shown) == {
            (f, 4 - r): (piece, "White" if colour == "Black" else "Black")
            for (f, r), (piece, colour) in board.items()}
        mapped = [match.mirror_move(m) for m in shown.actions()]
        assert len(set(mapped)) == len(mapped) == len(state.actions())
        assert sorted(mapped) == sorted(state.actions())
        for m in shown.actions():
            real = state.result(match.mirror_move(m))
            there = shown.result(m)
            # The same position after it, mirrored (the move number aside), and the same end.
            assert match.mirror_text(real.text).split()[:5] == there.text.split()[:5]
            assert real.is_terminal() == there.is_terminal()
            if real.is_terminal():
                assert real.utility() == -there.utility()
        checked += state.to_move == 2
    assert checked >= 6  # Black to move in every game's positions but a lost start


def test_mirror_move_and_text():
    assert match.mirror_move("b4c3") == "b2c3" and match.mirror_move("b2c3") == "b4c3"
    start = duel.load(SPEC).initial_state()
    # White's start mirrored is Black's start seen from Black's side: the same pieces.
    assert match.mirror_text(start.text) == "rnbqk/ppppp/5/PPPPP/RNBQK b - - 0 1"
    black = start.result("c2c3")
    assert black.text == "rnbqk/ppppp/2P2/PP1PP/RNBQK b - - 1 1"
    assert match.mirror_text(black.text) == "rnbqk/pp1pp/2p2/PPPPP/RNBQK w - - 1 1"
    with pytest.raises(ValueError):
        match.mirror_text("rnbqk/ppppp/5/PPPPP/RNBQK w K - 0 1")


@pytest.mark.parametrize("text, mirrored", [
    ("P2k1/1p3/5/2P2/K3p w - - 3 9", "k3P/2p2/5/1P3/p2K1 b - - 3 9"),
    ("P2k1/1p3/5/2P2/K3p b - - 3 9", "k3P/2p2/5/1P3/p2K1 w - - 3 9"),
])
def test_the_mirror_keeps_pawns_on_the_far_rank(text, mirrored):
    """No promotion in CS3243: a pawn on its far rank stays a pawn, and mirrored it is
    the other colour's pawn on that colour's far rank, with the same (no) moves."""
    state = duel.load(SPEC).from_text(text)
    shown = match.mirror_state(state)
    assert shown.text == mirrored
    assert sorted(match.mirror_move(m) for m in shown.actions()) == sorted(state.actions())


# --- matches -------------------------------------------------------------------


def test_two_agents_play_with_colours_alternating(tmp_path, box_args):
    a = player(tmp_path, "alice", FIRST_AGENT)
    b = player(tmp_path, "bob", (DATA / "random_agent.py").read_text())
    line, d = played(tmp_path / "out", a, b, "--games", "2", "--seed", "4", box=box_args)
    assert list(d)[:4] == ["kind", "players", "games", "score"]
    assert d["kind"] == "match" and d["players"] == ["alice", "bob"]
    assert d["game"] == SPEC and d["seed"] == 4 and d["sandbox"] == (not box_args)
    assert [(g["game"], g["white"], g["black"]) for g in d["games"]] == [
        (0, "alice", "bob"), (1, "bob", "alice")]
    points = {"alice": 0.0, "bob": 0.0}
    for g in d["games"]:
        final = check_game(g)
        # Neither agent's answer was refused: each game was played to its end by the rules.
        assert "studentAgent" not in g["reason"], g
        assert final.is_terminal()
        assert g["result"] == {1: "1-0", 0: "1/2-1/2", -1: "0-1"}[final.utility()]
        for name in points:
            points[name] += 1.0 if g["winner"] == name else 0.5 if g["winner"] is None else 0.0
    assert d["score"] == [points["alice"], points["bob"]] and sum(d["score"]) == 2
    assert line.startswith(f"cs3243 match: alice {points['alice']:g} - {points['bob']:g} bob")

    # As Black, alice was shown the mirrored board and her answer mirrored back: each of
    # her moves in game 1 is her own function's on the mirrored position.
    spec = importlib.util.spec_from_file_location("first_agent", a)
    first = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(first)
    state = duel.load(SPEC).initial_state()
    blacks = 0
    for m in d["games"][1]["moves"]:
        if state.to_move == 2:
            shown = cs.state_to_gameboard(match.mirror_state(state))
            assert match.mirror_move(cs.tuple_to_move(first.studentAgent(shown))) == m
            blacks += 1
        state = state.result(m)
    assert blacks >= 1


def test_a_rerun_with_the_same_seed_is_the_same_run(tmp_path, box_args):
    a = player(tmp_path, "alice", (DATA / "random_agent.py").read_text())
    b = player(tmp_path, "bob", (DATA / "random_agent.py").read_text())
    runs = [played(tmp_path / f"out{k}", a, b, "--seed", "9", box=box_args)[1] for k in range(2)]
    assert [[g["moves"] for g in r["games"]] for r in runs] == [
        [g["moves"] for g in runs[0]["games"]]] * 2
    assert [g["reason"] for g in runs[0]["games"]] == [g["reason"] for g in runs[1]["games"]]
    assert runs[0]["score"] == runs[1]["score"]
    assert all(g["moves"] for g in runs[0]["games"])


@pytest.mark.parametrize("source, reason", [
    ("def studentAgent(gameboard):\n    return 1 // 0\n",
     "studentAgent raised ZeroDivisionError: integer division or modulo by zero (AB.py line 2)"),
    ("import os\ndef studentAgent(gameboard):\n    os._exit(3)\n",
     "studentAgent ended the agent's process (exit status 3)"),
    ("def studentAgent(:\n", "importing AB.py raised SyntaxError"),
    ("x = 1\n", "AB.py: defines no studentAgent(gameboard)"),
])
def test_a_crashing_file_loses_every_game_with_its_reason(tmp_path, box_args, source, reason):
    a = player(tmp_path, "alice", FIRST_AGENT)
    b = player(tmp_path, "crash", source)
    line, d = played(tmp_path / "out", a, b, "--names", "alice,crasher", box=box_args)
    assert d["players"] == ["alice", "crasher"] and d["score"] == [2.0, 0.0]
    assert [(g["white"], g["winner"]) for g in d["games"]] == [
        ("alice", "alice"), ("crasher", "alice")]
    for g in d["games"]:
        check_game(g)
        assert g["reason"].startswith(reason), g
        assert "Termination \"abandoned\"" in g["pgn"]
    # The crasher as White fails at its first move, as Black after alice's first.
    assert [g["plies"] for g in d["games"]] == ([1, 0] if reason.startswith("studentAgent")
                                                else [0, 0])
    assert line.startswith("cs3243 match: alice 2 - 0 crasher")


def test_a_players_box_does_not_show_the_other_file(tmp_path, box_args):
    """Each child runs in its own box with a copy of its own file alone: the other's
    file is neither at its path nor anywhere of the box's /tmp."""
    if box_args:
        pytest.skip("this machine cannot box programs (duel box --check)")
    b = player(tmp_path, "bob", "# SECRET-OF-BOB\n" + FIRST_AGENT)
    # alice's own file must not hold the secret it looks for: she builds it.
    snoop = (
        "import glob, os\n"
        f"OTHER = {str(b)!r}\n"
        "def studentAgent(gameboard):\n"
        "    seen = [OTHER] if os.path.exists(OTHER) else []\n"
        "    for f in glob.glob('/tmp/**/*.py', recursive=True) + glob.glob('/**/AB.py'):\n"
        "        try:\n"
        "            if 'SECRET-OF-' + 'BOB' in open(f).read():\n"
        "                seen.append(f)\n"
        "        except OSError:\n"
        "            pass\n"
        "    if seen:\n"
        "        raise RuntimeError('SAW ' + ' '.join(seen))\n"
        "    return moves(gameboard)[0]\n")
    a = player(tmp_path, "alice", FIRST_AGENT.split("def studentAgent")[0] + snoop)
    _line, d = played(tmp_path / "out", a, b)
    for g in d["games"]:
        assert "SAW" not in g["reason"], g["reason"]
        assert g["plies"] > 1


@pytest.mark.parametrize("args, message", [
    (["--games", "0"], "--games must be at least 1, not 0"),
    (["--names", "solo"], "--names must be two different names"),
    (["--names", "x,x"], "--names must be two different names"),
    (["--memory", "64", "--no-sandbox"], "--memory is the box's limit"),
])
def test_bad_arguments(tmp_path, args, message):
    a = player(tmp_path, "alice", FIRST_AGENT)
    r = run_match(a, a, "--out", tmp_path / "out", *args)
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("duel.cs3243: " + message), r.stderr
    assert not (tmp_path / "out").exists()


def test_bad_files(tmp_path):
    a = player(tmp_path, "alice", FIRST_AGENT)
    for args, message in [
        ([a, tmp_path / "nobody" / "AB.py"], "no such file"),
        ([a, a], "both players would be named 'alice/AB.py'"),
        ([a], "the following arguments are required: B, --out"),
    ]:
        r = run_match(*args, *(["--out", tmp_path / "out"] if len(args) == 2 else []))
        assert r.returncode == 2 and r.stdout == "", r
        lines = r.stderr.splitlines()
        assert len(lines) == 1 and message in lines[0], r.stderr
    (tmp_path / "file").write_text("")
    r = run_match(a, a, "--names", "p,q", "--out", tmp_path / "file")
    assert r.returncode == 2 and "not a folder" in r.stderr
