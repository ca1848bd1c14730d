"""Games and states: the AIMA interface, moves and positions as text both
ways, for every game and rule set, checked against themselves and the CLI."""

import pickle

import pytest

import duel
from conftest import GAME_SPECS, cli, random_states


def test_games_lists_every_game():
    names = [g.name for g in duel.games()]
    assert names == [
        "nqueens",
        "kcell",
        "gardner",
        "gardner-cs3243",
        "minichess-comp472",
        "checkers",
    ]
    for info in duel.games():
        game = duel.load(info.example)
        assert game.name == info.name
        assert game.heuristics == info.heuristics
        assert info.about


def test_load_gives_canonical_spec():
    game = duel.load("nqueens:variant=2,n=8")
    assert game.spec == "nqueens:n=8,variant=2"
    assert game.name == "nqueens"
    assert game.heuristics == ["mobility", "random"]
    assert duel.load(game.spec) == game
    assert eval(repr(game), {"duel": duel}) == game


def test_start_state_interface():
    state = duel.load("nqueens:n=4,variant=1a").initial_state()
    assert state.to_move == 1
    assert state.actions() == ["1,1", "2,1", "3,1", "4,1"]
    assert not state.is_terminal()
    with pytest.raises(ValueError, match="not terminal"):
        state.utility()
    after = state.result("2,1")
    assert after.to_move == 2
    assert after != state
    assert state.actions() == ["1,1", "2,1", "3,1", "4,1"]  # result() left it as it was
    assert str(after) == after.render()
    assert after.game == duel.load("nqueens:n=4,variant=1a")
    assert after.spec == "nqueens:n=4,variant=1a"


def test_a_game_to_its_end():
    # 4x4, variant 1a (column forced): after 2,1 only 4,2 is free in column
    # 2, then only 1,3 in column 3 and 3,4 in column 4. The board is full with
    # Player 1 to move, and the player to move with no square loses.
    state = duel.load("nqueens:n=4,variant=1a").initial_state()
    state = state.result("2,1")
    assert state.actions() == ["4,2"]
    state = state.result("4,2").result("1,3")
    assert state.to_move == 2
    assert state.actions() == ["3,4"]
    end = state.result("3,4")
    assert end.is_terminal()
    assert end.actions() == []
    assert end.utility() == -1
    with pytest.raises(ValueError, match="the game is over"):
        end.result("1,1")


@pytest.mark.parametrize("spec", GAME_SPECS)
def test_round_trips_over_random_games(spec):
    """Every action's text parses back to the same move (the same result);
    every position's text reads back to the same position, key and moves;
    states pickle; terminal utilities are zero-sum payoffs."""
    game = duel.load(spec)
    for seed in range(3):
        states = random_states(spec, seed)
        for i, (_move, state) in enumerate(states):
            again = game.from_text(state.text)
            assert again.text == state.text
            assert again == state and hash(again) == hash(state)
            assert again.key == state.key
            assert again.to_move == state.to_move
            assert again.actions() == state.actions()
            assert state.fen == state.text
            assert state.from_text(state.text) == state
            assert pickle.loads(pickle.dumps(state)) == state
            assert eval(repr(state), {"duel": duel}) == state
            actions = state.actions()
            assert len(set(actions)) == len(actions), "two moves with one text"
            for a in actions:
                assert state.result(a).to_move in (1, 2)
            # The recorded moves' texts replay the game through the same
            # positions: each text parsed back to its move.
            if i + 1 < len(states):
                nxt_move, nxt = states[i + 1]
                assert state.result(nxt_move) == nxt
        last = states[-1][1]
        if last.is_terminal():
            assert last.actions() == []
            assert isinstance(last.utility(), int)
            assert abs(last.utility()) <= 32


@pytest.mark.parametrize("spec", GAME_SPECS)
def test_actions_match_cli_perft_divide(spec):
    """The legal moves Python lists are the first moves `duel perft --divide`
    counts, at the start and in the middle of a random game."""
    states = random_states(spec, seed=11, max_plies=12)
    for _move, state in (states[0], states[len(states) // 2]):
        if state.is_terminal():
            continue
        r = cli("perft", spec, "1", "--divide", "--fen", state.text)
        assert r.returncode == 0, r.stderr
        divided = [line.split(":")[0] for line in r.stdout.splitlines() if ": " in line]
        assert sorted(divided) == sorted(state.actions())


def test_other_move_forms_are_read():
    # COMP 472 reads its own coordinates as well as UCI; both give one state.
    start = duel.load("minichess-comp472").initial_state()
    uci = start.actions()[0]
    assert start.result(uci) == start.result(uci.upper())


def test_states_are_values_and_hashable():
    game = duel.load("kcell:n=2,k=7")
    a = game.initial_state()
    b = game.from_text(a.text)
    assert a == b and len({a, b}) == 1
    assert a != a.result(a.actions()[0])
    assert pickle.loads(pickle.dumps(game)) == game
