"""duel.search: the same answers and statistics as `duel search --json`,
the algorithms against each other, the GIL released, progress callbacks."""

import threading
import time

import pytest

import duel
from conftest import GAME_SPECS, cli_json, random_states

# The CLI's JSON keys that a search at a fixed depth reproduces exactly.
SAME_KEYS = [
    "game",
    "state",
    "algo",
    "best",
    "value",
    "exact",
    "complete",
    "depth",
    "pv",
    "nodes",
    "nodes_by_depth",
    "interior",
    "leaves",
    "branching_factor",
    "cutoffs",
    "first_move_cutoffs",
    "cutoffs_by_depth_left",
    "first_move_cutoffs_by_depth_left",
    "table_move_cutoffs",
    "table_move_first_cutoffs",
    "tt_hits",
]

DEPTHS = {"nqueens": 3, "kcell": 4, "checkers": 4}  # chess: 3


def compare_with_cli(state, algo, depth, eval_name=None, seed=0, ordering=True):
    args = ["search", state.spec, "--fen", state.text, "--algo", algo, "--depth", str(depth)]
    args += ["--hash", "16", "--seed", str(seed)]
    if eval_name:
        args += ["--eval", eval_name]
    if not ordering:
        args += ["--no-ordering"]
    want = cli_json(*args)
    got = duel.search(state, algo=algo, depth=depth, eval=eval_name, seed=seed, hash=16,
                      ordering=ordering)
    d = got.to_dict()
    for key in SAME_KEYS:
        assert d[key] == want[key], (key, args)
    assert got.move == (None if want["best"] == "none" else want["best"])
    assert got.value == want["value"]
    assert got.pv == want["pv"]
    assert got.nodes_by_depth == want["nodes_by_depth"]
    return got


@pytest.mark.parametrize("spec", GAME_SPECS)
@pytest.mark.parametrize("algo", ["minimax", "alphabeta", "engine"])
def test_search_agrees_with_cli(spec, algo):
    game = duel.load(spec)
    depth = DEPTHS.get(game.name, 3)
    if algo == "minimax":
        depth = min(depth, 3)
    states = random_states(spec, seed=5, max_plies=10)
    for _move, state in (states[0], states[-1]):
        got = compare_with_cli(state, algo, depth)
        assert sum(got.nodes_by_depth) == got.nodes
        if got.move is not None:
            assert got.pv and got.pv[0] == got.move
            assert got.move in state.actions()


@pytest.mark.parametrize("spec", ["gardner", "checkers"])
def test_engine_ordering_agrees_with_cli(spec):
    """ordering=False is the CLI's --no-ordering: the same tree, and another
    tree than the default's."""
    state = duel.load(spec).initial_state()
    default = compare_with_cli(state, "engine", 6)
    unordered = compare_with_cli(state, "engine", 6, ordering=False)
    assert unordered.nodes != default.nodes


@pytest.mark.parametrize("spec", ["gardner", "kcell:n=3,k=15", "checkers"])
def test_every_heuristic_agrees_with_cli(spec):
    game = duel.load(spec)
    for h in game.heuristics:
        got = compare_with_cli(game.initial_state(), "alphabeta", 2, eval_name=h, seed=3)
        assert got.eval == h


@pytest.mark.parametrize(
    "spec", ["nqueens:n=5,variant=1a", "nqueens:n=5,variant=1b", "nqueens:n=5,variant=2",
             "kcell:n=2,k=7", "kcell:n=2,k=9"]
)
def test_minimax_equals_alphabeta_and_engine_when_solved(spec):
    """To the end of the game all three find the game-theoretic value, and
    alpha-beta visits no more nodes than minimax."""
    for _move, state in random_states(spec, seed=1, max_plies=4)[:3]:
        mm = duel.search(state, algo="minimax")
        ab = duel.search(state, algo="alphabeta")
        en = duel.search(state, algo="engine", hash=16)
        assert mm.exact and ab.exact and en.exact
        assert mm.value == ab.value == en.value
        assert mm.raw_value == ab.raw_value == en.raw_value
        assert ab.nodes <= mm.nodes
        assert mm.plies_to_end == en.plies_to_end  # None for a draw


@pytest.mark.parametrize("spec", ["gardner", "checkers", "nqueens:n=7,variant=2"])
def test_minimax_equals_alphabeta_at_a_cut_off(spec):
    for _move, state in random_states(spec, seed=2, max_plies=6)[::3]:
        mm = duel.search(state, algo="minimax", depth=3)
        ab = duel.search(state, algo="alphabeta", depth=3)
        assert mm.raw_value == ab.raw_value
        assert ab.nodes <= mm.nodes


def test_terminal_state_search():
    end = random_states("kcell:n=2,k=7", seed=4)[-1][1]
    assert end.is_terminal()
    r = duel.search(end, depth=3, hash=16)
    assert r.move is None and r.pv == []
    assert r.exact and r.value == end.utility()
    assert r.to_dict()["best"] == "none"


def test_time_limited_search_stops_in_time():
    state = duel.load("gardner").initial_state()
    start = time.monotonic()
    r = duel.search(state, time=0.3, hash=16)
    elapsed = time.monotonic() - start
    assert r.move in state.actions()
    assert r.depth >= 1
    assert r.seconds <= elapsed
    assert elapsed < 3.0  # generous: other work may share the machine


def test_gil_is_released_while_searching():
    """A Python thread keeps running during a 0.5 s search: with the GIL held
    through the search it could not run at all in that time. (Plain
    alpha-beta to the end of a chess game uses all of its time; the engine
    would stop early, starting no iteration it cannot finish.)"""
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    try:
        time.sleep(0.05)
        begin = time.monotonic()
        r = duel.search(duel.load("gardner").initial_state(), algo="alphabeta", time=0.5)
        end = time.monotonic()
    finally:
        stop.set()
        t.join()
    during = [x for x in ticks if begin + 0.1 < x < end - 0.1]
    assert not r.complete
    assert end - begin >= 0.45
    assert len(during) >= 10, f"the thread ran {len(during)} times during the search"


def test_searches_in_threads_match_sequential_ones():
    states = [s for _m, s in random_states("checkers", seed=8, max_plies=8)[::2]]
    want = [duel.search(s, depth=5, hash=16).to_dict() for s in states]
    got = [None] * len(states)

    def run(i):
        got[i] = duel.search(states[i], depth=5, hash=16).to_dict()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(states))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for a, b in zip(got, want):
        for key in SAME_KEYS:
            assert a[key] == b[key]


def test_progress_reports_each_iteration():
    seen = []
    r = duel.search(duel.load("kcell:n=3,k=15").initial_state(), depth=6, hash=16,
                    progress=seen.append)
    iterations = [p for p in seen if p.depth is not None]
    assert [p.depth for p in iterations] == list(range(1, 7))
    last = iterations[-1]
    assert last.pv == r.pv and last.value == r.value and last.nodes == r.nodes
    assert all(p.seconds >= 0 for p in seen)


def test_progress_ticks_on_nodes():
    # Plain minimax on 8x8 N-Queens (variant 2) to depth 5 visits about 6.5
    # million nodes: the callback hears about them every 2^20.
    seen = []
    r = duel.search(duel.load("nqueens:n=8,variant=2").initial_state(), algo="minimax",
                    depth=5, progress=seen.append)
    ticks = [p for p in seen if p.depth is None]
    assert r.nodes >= 2**22
    assert len(ticks) in (r.nodes // 2**20, (r.nodes - 1) // 2**20)
    assert all(p.nodes % 2**20 == 0 for p in ticks)


class Boom(Exception):
    pass


def test_exception_in_progress_propagates_and_stops_the_search():
    calls = []

    def progress(p):
        calls.append(p)
        raise Boom("stop here")

    start = time.monotonic()
    with pytest.raises(Boom, match="stop here"):
        duel.search(duel.load("gardner").initial_state(), time=20, hash=16, progress=progress)
    assert time.monotonic() - start < 10
    assert len(calls) == 1  # not called again once it raised
    # The module is still usable afterwards.
    assert duel.search(duel.load("kcell:n=2,k=7").initial_state(), depth=2).move


def test_progress_must_be_callable():
    with pytest.raises(TypeError):
        duel.search(duel.load("kcell:n=2,k=7").initial_state(), depth=1, progress=3)


def test_ctrl_c_stops_a_search():
    """SIGINT during a long search raises KeyboardInterrupt in the searching
    program soon after, instead of waiting for the search to end."""
    import os
    import signal
    import subprocess
    import sys

    code = (
        "import duel, sys\n"
        "print('searching', flush=True)\n"
        "duel.search(duel.load('gardner').initial_state(), time=60, hash=16)\n"
    )
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=os.environ.copy())
    assert p.stdout.readline() == "searching\n"
    time.sleep(0.5)
    start = time.monotonic()
    p.send_signal(signal.SIGINT)
    _out, err = p.communicate(timeout=30)
    assert time.monotonic() - start < 10
    assert p.returncode != 0
    assert "KeyboardInterrupt" in err
