"""Bad input raises ValueError with the message the CLI prints (after
"duel: ") for the same bad spec, position, move or search option."""

import pytest

import duel
from conftest import GAME_SPECS, cli, cli_error

BAD_SPECS = [
    "foo",
    "nqueens:n=99",
    "nqueens:n=abc",
    "nqueens:variant=3",
    "nqueens:x=1",
    "nqueens:=3",
    "nqueens:n",
    "kcell:n=3,k=5",
    "gardner:draw-plies=-1",
    "minichess-comp472:max-turns=x",
    "checkers:foo=1",
]


@pytest.mark.parametrize("spec", BAD_SPECS)
def test_bad_spec(spec):
    want = cli_error("search", spec, "--depth", "1")
    with pytest.raises(ValueError) as e:
        duel.load(spec)
    assert str(e.value) == want


def bad_texts(state):
    text = state.text
    return ["xyz", text[:-1], text + "/x", text.replace(".", "Q", 1) + "?", "1 2 3"]


@pytest.mark.parametrize("spec", GAME_SPECS)
def test_bad_position(spec):
    game = duel.load(spec)
    for bad in bad_texts(game.initial_state()):
        r = cli("search", spec, "--fen", bad, "--depth", "1", "--hash", "1")
        if r.returncode == 0:
            # Some changes still spell a position (e.g. a FEN without its
            # counters); then Python must read it too.
            assert game.from_text(bad).text
            continue
        want = cli_error("search", spec, "--fen", bad, "--depth", "1", "--hash", "1")
        with pytest.raises(ValueError) as e:
            game.from_text(bad)
        assert str(e.value) == want
        with pytest.raises(ValueError) as e:
            game.initial_state().from_text(bad)
        assert str(e.value) == want


BAD_MOVES = ["zz", "0,0", "99", "a1a5", "e2e4", "a9a8", "1-2", "pass", "-1", "9,9", "b1c3q"]


@pytest.mark.parametrize("spec", GAME_SPECS)
def test_bad_move(spec):
    """The message `duel play` shows a person who types the move."""
    state = duel.load(spec).initial_state()
    legal = set(state.actions())
    checked = 0
    for move in BAD_MOVES:
        try:
            state.result(move)
            continue  # a legal move in this game
        except ValueError as e:
            message = str(e)
        # The person moves first: in checkers that is Black.
        first, second = ("--black", "--white") if spec == "checkers" else ("--white", "--black")
        r = cli("play", spec, first, "human", second, "first", "-q", stdin=f"{move}\nquit\n")
        assert r.returncode == 0, r.stderr
        assert f"illegal move: {message}\n" in r.stdout, (move, r.stdout)
        assert move not in legal
        checked += 1
    assert checked >= 5


# Limits out of range: the CLI refuses the option (CLI11's words), Python
# the keyword, with the same range (registry::check_search_limits).
BAD_LIMITS = [
    (dict(depth=999), ["--depth", "999"], "depth=999 is out of range 0..510"),
    (dict(depth=-1), ["--depth", "-1"], "depth=-1 is out of range 0..510"),
    (dict(time=-1), ["--time", "-1"], "time=-1 must be 0 or more"),
    (dict(time=-0.5), ["--time", "-0.5"], "time=-0.5 must be 0 or more"),
    (dict(hash=0), ["--hash", "0"], "hash=0 is out of range 1..16384"),
    (dict(hash=20000), ["--hash", "20000"], "hash=20000 is out of range 1..16384"),
]

# Names the CLI and Python take alike: the same message.
BAD_NAMES = [
    (dict(algo="mcts", depth=1), ["--algo", "mcts", "--depth", "1"]),
    (dict(eval="e9", depth=1), ["--eval", "e9", "--depth", "1"]),
    (dict(algo="minimax", eval="nope", depth=1), ["--algo", "minimax", "--eval", "nope", "--depth", "1"]),
]

SEARCH_SPECS = ["gardner", "nqueens:n=8,variant=2", "kcell:n=3,k=15", "checkers"]


@pytest.mark.parametrize("spec", SEARCH_SPECS)
@pytest.mark.parametrize("kwargs,args,message", BAD_LIMITS)
def test_bad_search_limits(spec, kwargs, args, message):
    cli_error("search", spec, *args)  # exit status 2, one line
    with pytest.raises(ValueError) as e:
        duel.search(duel.load(spec).initial_state(), **kwargs)
    assert str(e.value) == "search(): " + message


@pytest.mark.parametrize("spec", SEARCH_SPECS)
@pytest.mark.parametrize("kwargs,args", BAD_NAMES)
def test_bad_search_names(spec, kwargs, args):
    want = cli_error("search", spec, *args)
    with pytest.raises(ValueError) as e:
        duel.search(duel.load(spec).initial_state(), **kwargs)
    assert str(e.value) == want


def test_utility_before_the_end():
    with pytest.raises(ValueError, match="not terminal"):
        duel.load("checkers").initial_state().utility()


def test_wrong_types_are_type_errors():
    state = duel.load("checkers").initial_state()
    with pytest.raises(TypeError):
        state.result(3)
    with pytest.raises(TypeError):
        duel.search("checkers", depth=1)
    with pytest.raises(TypeError):
        duel.search(state, 3)  # options are keyword-only
