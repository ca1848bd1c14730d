"""duel.play and duel.arena: spec agents and Python functions as agents,
refereed by Duel's match loop."""

import json
import random
import threading
import time

import pytest

import duel
from conftest import cli, cli_error


def test_play_two_specs_matches_the_cli():
    """Deterministic agents: the same game as `duel play --json`."""
    got = duel.play("kcell:n=3,k=15", "alphabeta:depth=3", "engine:depth=2")
    r = cli("play", "kcell:n=3,k=15", "--white", "alphabeta:depth=3", "--black",
            "engine:depth=2", "--json", "-q")
    assert r.returncode == 0, r.stderr
    want = json.loads(r.stdout)
    d = got.to_dict()
    for key in ("game", "start", "players", "final", "payoff", "ending", "reason"):
        assert d[key] == want[key], key
    assert [m["move"] for m in d["moves"]] == [m["move"] for m in want["moves"]]
    assert got.moves == [m["move"] for m in want["moves"]]
    assert got.players == ["alphabeta:depth=3", "engine:depth=2"]
    assert got.final_state.is_terminal()
    assert got.payoff == got.final_state.utility()
    assert got.winner == (None if got.payoff == 0 else 1 if got.payoff > 0 else 2)


def test_checkers_black_moves_first():
    got = duel.play("checkers", "first", "random:seed=2", max_turns=3)
    assert got.players == ["random:seed=2", "first"]  # Player 1 is Black
    assert got.ending == "turn-limit" and got.payoff == 0
    assert len(got.moves) == 6


def test_max_turns_means_what_the_cli_means():
    """COMP 472: max_turns is the game's m, a cap its rules know (RULES.md
    §2: a draw when turn m is complete); elsewhere the referee's cap. The
    same game as `duel play --max-turns`."""
    got = duel.play("minichess-comp472", "alphabeta:depth=2", "alphabeta:depth=2", max_turns=2)
    r = cli("play", "minichess-comp472", "--white", "alphabeta:depth=2", "--black",
            "alphabeta:depth=2", "--max-turns", "2", "--json", "-q")
    assert r.returncode == 0, r.stderr
    want = json.loads(r.stdout)
    d = got.to_dict()
    for key in ("game", "final", "payoff", "ending", "reason"):
        assert d[key] == want[key], key
    assert got.moves == [m["move"] for m in want["moves"]]
    assert len(got.moves) == 4 and got.ending == "rules" and got.payoff == 0
    assert got.final_state.is_terminal()
    with pytest.raises(ValueError) as e:
        duel.play("minichess-comp472", "first", "first", max_turns=10001)
    assert str(e.value) == "play(): max_turns=10001 is out of range 0..10000"


def test_python_function_as_an_agent():
    seen = []

    def mine(state):
        seen.append(state.to_move)
        return random.Random(len(seen)).choice(state.actions())

    got = duel.play(duel.load("nqueens:n=6,variant=2"), mine, "alphabeta:depth=2")
    assert seen and set(seen) == {1}
    assert got.players[0] == "python:mine"
    assert got.ending == "rules"
    # Replaying the record through the State API reaches the same end.
    s = duel.load("nqueens:n=6,variant=2").initial_state()
    for m in got.moves:
        s = s.result(m)
    assert s == got.final_state


def test_two_python_agents_and_a_start_position():
    start = duel.load("kcell:n=2,k=7").initial_state()
    start = start.result(start.actions()[0])
    moves = []

    def first(state):
        return state.actions()[0]

    got = duel.play(start, first, first, on_move=lambda s, m: moves.append((s, m)))
    assert got.start == start.text
    assert [m for _s, m in moves] == got.moves
    assert moves[-1][0] == got.final_state


def test_illegal_move_from_a_function_loses():
    got = duel.play("gardner", lambda s: "a1a5", "first")
    assert got.ending == "abandoned" and got.payoff == -1 and got.winner == 2
    assert "illegal move" in got.reason and "a1a5" in got.reason
    got = duel.play("gardner", "first", lambda s: 42)
    assert got.payoff == 1 and "instead of a move (text or a duel.Move)" in got.reason


def test_exception_in_an_agent_propagates():
    def broken(state):
        raise KeyError("my bug")

    with pytest.raises(KeyError, match="my bug"):
        duel.play("checkers", broken, "engine:depth=2")
    with pytest.raises(KeyError, match="my bug"):
        duel.arena("kcell:n=2,k=7", [broken, "first"], games=4, concurrency=2)


def test_exception_in_on_move_stops_the_game_at_once():
    """The game ends before the next move is asked for. Before, two spec
    agents played on to the end of the game (here 0.25 s a move for tens of
    moves) and the exception came after."""
    calls = []

    def on_move(state, move):
        calls.append(move)
        raise KeyError("stop here")

    started = time.monotonic()
    with pytest.raises(KeyError, match="stop here"):
        duel.play("gardner", "engine:time=0.25", "engine:time=0.25", on_move=on_move)
    assert len(calls) == 1
    assert time.monotonic() - started < 2.0


def test_python_agent_can_search():
    """A function that calls duel.search (the usual way to build an agent on
    the engine) inside a match."""

    def searcher(state):
        return duel.search(state, depth=2, hash=16).move

    got = duel.play("minichess-comp472", searcher, "random", max_turns=5)
    assert got.players[0] == "python:searcher"
    assert len(got.moves) <= 10


def test_play_runs_without_the_gil():
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(1)
            done.wait(0.001)

    t = threading.Thread(target=count)
    t.start()
    try:
        duel.play("gardner", "engine:time=0.1", "engine:time=0.1", max_turns=3)
    finally:
        done.set()
        t.join()
    assert len(ticks) >= 50


def test_arena_round_robin():
    agents = ["alphabeta:depth=3", "random", "first"]
    res = duel.arena("kcell:n=2,k=7", agents, games=4, seed=1, openings=1)
    # The schedule, seeds and openings of `duel arena`: the same standings.
    r = cli("arena", "kcell:n=2,k=7", *[x for a in agents for x in ("--agent", a)], "--games",
            "4", "--seed", "1", "--openings", "1", "--json")
    assert r.returncode == 0, r.stderr
    want = json.loads(r.stdout)["standings"]
    assert [(s.name, s.wins, s.draws, s.losses) for s in res.standings] == [
        (w["agent"], w["wins"], w["draws"], w["losses"]) for w in want
    ]
    assert [s.name for s in res.standings] == ["alphabeta:depth=3", "random", "first"]
    assert len(res.games) == 12
    assert all(s.games == 8 for s in res.standings)
    assert sum(s.wins for s in res.standings) == sum(s.losses for s in res.standings)
    assert res.elo is None  # more than two agents
    for g in res.games:
        assert sorted(g.players) in ([0, 1], [0, 2], [1, 2])


def test_arena_two_agents_with_python_and_threads():
    def greedy_first(state):
        return state.actions()[-1]

    res = duel.arena("nqueens:n=5,variant=2", [greedy_first, "engine:depth=4"], games=6,
                     concurrency=2, openings=1, seed=3)
    a, b = res.standings
    assert a.name == "python:greedy_first"
    assert a.games == b.games == 6
    assert (a.wins, a.draws, a.losses) == (b.losses, b.draws, b.wins)
    assert 0 <= a.score <= 1


def after_option(message: str, option: str) -> str:
    """A CLI message without the option it names ("--white: ...")."""
    assert message.startswith(option + ": "), message
    return message[len(option) + 2:]


def test_bad_agents_and_options():
    """A bad agent spec reads as the CLI's message for it; the argument is
    named as Python names it, never by a CLI flag."""
    want = after_option(cli_error("play", "gardner", "--white", "engine:depth=x", "--black",
                                  "first"), "--white")
    with pytest.raises(ValueError) as e:
        duel.play("gardner", "engine:depth=x", "first")
    assert str(e.value) == "play(): white: " + want
    want = after_option(cli_error("play", "gardner", "--white", "first", "--black", "nobody"),
                        "--black")
    with pytest.raises(ValueError) as e:
        duel.play("gardner", "first", "nobody")
    assert str(e.value) == "play(): black: " + want
    cli_error("play", "gardner", "--white", "first", "--black", "first", "--timeout", "-1")
    with pytest.raises(ValueError) as e:
        duel.play("gardner", "first", "first", timeout=-1)
    assert str(e.value) == "play(): timeout=-1 must be 0 or more"
    with pytest.raises(ValueError) as e:
        duel.play("gardner", "first", "first", max_turns=-1)
    assert str(e.value) == "play(): max_turns=-1 is out of range 0..2147483647"
    want = after_option(cli_error("arena", "gardner", "--agent", "first", "--agent", "exec:cmd=x"),
                        "--agent")
    with pytest.raises(ValueError) as e:
        duel.arena("gardner", ["first", "exec:cmd=x"])
    assert str(e.value) == "arena(): agents: " + want
    cli_error("arena", "gardner", "--agent", "first", "--agent", "human")
    with pytest.raises(ValueError) as e:
        duel.arena("gardner", ["first", "human"])
    assert str(e.value) == "arena(): the arena plays programs only, not human"
    cli_error("arena", "gardner", "--agent", "first")
    with pytest.raises(ValueError) as e:
        duel.arena("gardner", ["first"])
    assert str(e.value) == "arena(): give at least two agents"
    # The ranges are the CLI's (arena::check_tournament_limits).
    for kwargs, args, message in [
        (dict(games=0), ["--games", "0"], "games=0 is out of range 1..1000000"),
        (dict(openings=41), ["--openings", "41"], "openings=41 is out of range 0..40"),
        (dict(concurrency=257), ["--concurrency", "257"],
         "concurrency=257 is out of range 1..256"),
    ]:
        cli_error("arena", "kcell", "--agent", "first", "--agent", "random", *args)
        with pytest.raises(ValueError) as e:
            duel.arena("kcell", ["first", "random"], **kwargs)
        assert str(e.value) == "arena(): " + message
    with pytest.raises(ValueError, match="unknown game"):
        duel.play("chess", "first", "first")
    with pytest.raises(TypeError):
        duel.play("gardner", 3, "first")


def test_fit_ratings_is_the_tournaments_joint_fit():
    """Two players, 22.5 of 30 for the first: ratings averaging 0, their difference
    near the score's 400 log10(22.5 / 7.5) = 190.8 Elo (a little less: the prior's
    draw each against the mean); no game, no rating; bad input is a ValueError."""
    games = [(0, 1, 1.0)] * 20 + [(0, 1, 0.5)] * 5 + [(0, 1, 0.0)] * 5
    (a, margin_a), (b, _), (c, margin_c) = duel.fit_ratings(3, games)
    assert abs(a + b) < 1e-9
    assert 150 < a - b < 190.9
    assert margin_a > 50
    assert c is None and margin_c is None
    with pytest.raises(ValueError, match="out of range"):
        duel.fit_ratings(2, [(0, 2, 1.0)])
    with pytest.raises(ValueError, match="score"):
        duel.fit_ratings(2, [(0, 1, 2.0)])
