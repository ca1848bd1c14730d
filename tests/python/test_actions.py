"""pyspiel-style integer actions and observation tensors (docs/python.md,
"Actions and observations"): every id names one move, and the encodings
and planes are the documented ones."""

import random

import numpy as np
import pytest

import duel
from conftest import GAME_SPECS


def random_states(spec, games, seed):
    """Every state of `games` random playouts of `spec`, the end included."""
    rng = random.Random(seed)
    start = duel.load(spec).initial_state()
    for _ in range(games):
        s = start
        yield s
        while not s.is_terminal():
            s = s.result(rng.choice(s.moves()))
            yield s


def check_ids(s, n):
    moves = s.moves()
    ids = [s.action_id(m) for m in moves]
    assert len(set(ids)) == len(ids), s.text  # distinct moves, distinct ids
    assert all(0 <= i < n for i in ids)
    assert s.legal_action_ids() == sorted(ids)
    for m, i in zip(moves, ids):
        assert s.move_of(i) == m  # the very move meant, never another
    return len(moves)


@pytest.mark.parametrize("spec", GAME_SPECS)
def test_ids_name_exactly_the_legal_moves(spec):
    game = duel.load(spec)
    n = game.num_distinct_actions
    moves = 0
    for s in random_states(spec, 30, seed=1):
        moves += check_ids(s, n)
        obs = s.observation()
        assert obs.dtype == np.float32 and obs.shape == game.observation_shape
    assert moves > 0


def random_checkers_boards(count, seed):
    """Random placements, mostly kings (the long and looping jump paths are
    theirs): a few pieces of the side to move among many of the other."""
    rng = random.Random(seed)
    game = duel.load("checkers")
    while count > 0:
        squares = rng.sample(range(1, 33), rng.randint(4, 13))
        split = rng.randint(1, 3)
        mine, theirs = squares[:split], squares[split:]
        text = "B:W{}:B{}".format(",".join(f"K{q}" for q in theirs),
                                  ",".join(f"K{q}" for q in mine))
        if not theirs:
            continue
        yield game.from_text(text)
        count -= 1


def test_checkers_ids_over_many_positions():
    # Every legal move checked both ways in 1,000 random games (about 65,000
    # positions) and 20,000 random king positions.
    n = duel.load("checkers").num_distinct_actions
    lengths = {}
    states = [*random_states("checkers", 1000, seed=7), *random_checkers_boards(20000, seed=8)]
    for s in states:
        check_ids(s, n)
        for m in s.moves():
            lengths[m.text.count("x")] = lengths.get(m.text.count("x"), 0) + 1
    # Paths of 3 and more jumps (where ends alone stop naming a path) were
    # among them, and some of 5+.
    assert lengths.get(3, 0) > 100 and max(lengths) >= 5, lengths


def checkers_square(number):
    """(row, col) of a standard square 1..32 as drawn: row 0 at the top
    (square 1 is b8), docs/rules/checkers.md."""
    i = number - 1
    row = i // 4
    return row, 2 * (i % 4) + (1 if row % 2 == 0 else 0)


def checkers_jump_paths():
    """Every jump path (from, directions) in the documented order, found
    here from the board's geometry alone: from square 1..32, depth first,
    directions 0 up-left, 1 up-right, 2 down-left, 3 down-right, a path
    before its extensions, no jumped square twice."""
    at = {checkers_square(n): n for n in range(1, 33)}
    deltas = [(-1, -1), (-1, 1), (1, -1), (1, 1)]
    paths = []

    def walk(start, sq, jumped, dirs):
        r, c = checkers_square(sq)
        for d, (dr, dc) in enumerate(deltas):
            over, land = at.get((r + dr, c + dc)), at.get((r + 2 * dr, c + 2 * dc))
            if over is None or land is None or over in jumped:
                continue
            paths.append((start, tuple(dirs + [d])))
            walk(start, land, jumped | {over}, dirs + [d])

    for start in range(1, 33):
        walk(start, start, frozenset(), [])
    return paths


def test_checkers_encoding_as_documented():
    paths = checkers_jump_paths()
    # 32 squares x 4 directions of steps, then one id a jump path.
    assert duel.load("checkers").num_distinct_actions == 128 + len(paths)
    s = duel.load("checkers").initial_state()
    # 11-15: square 11 (f6, row 2) down-left (2) to 15 (e5): 4*(11-1) + 2.
    assert s.action_id("11-15") == 42
    # A king on 1 with White men on 6 and 15 (drawn by hand): the jump
    # 1x10x19 goes down-right (3) twice: path (1, (3, 3)).
    k = duel.load("checkers").from_text("B:W6,15:BK1")
    assert [m.text for m in k.moves()] == ["1x10x19"]
    assert k.action_id("1x10x19") == 128 + paths.index((1, (3, 3)))
    with pytest.raises(ValueError, match=r"^move_of\(\): action 42 is not a legal move here"):
        k.move_of(42)


def test_chess_encoding_as_documented():
    game = duel.load("gardner")
    assert game.num_distinct_actions == 25 * 25 * 5
    s = game.initial_state()
    # b1c3: b1 = 1, c3 = 2 + 5*2 = 12 (square = (rank-1)*5 + file), no
    # promotion: (1*25 + 12)*5 = 185.
    assert s.action_id("b1c3") == 185
    assert s.move_of(185) == "b1c3"
    # A White pawn on a4 with a5 empty (drawn by hand): a4a5 promotes to
    # q, r, b, n = indices 1..4 after (15*25 + 20)*5 = 1975.
    p = game.from_text("4k/P4/5/5/4K w - - 0 1")
    ids = {m.text: p.action_id(m) for m in p.moves() if m.from_square == "a4"}
    assert ids == {"a4a5q": 1976, "a4a5r": 1977, "a4a5b": 1978, "a4a5n": 1979}
    with pytest.raises(ValueError, match=r"^move_of\(\): action 3125 is out of range 0\.\.3124"):
        s.move_of(3125)
    with pytest.raises(ValueError):
        s.action_id("b1b2")  # not a legal move: the CLI's message


def test_small_games_encodings_as_documented():
    q = duel.load("nqueens:n=8,variant=2")
    assert q.num_distinct_actions == 64
    # ROW,COL 4,4: (4-1)*8 + (4-1).
    assert q.initial_state().action_id("4,4") == 27
    k = duel.load("kcell:n=3,k=15")
    assert k.num_distinct_actions == 16
    # The start [ooo_________xxx]: the o on 3 steps, the o on 2 jumps over
    # it (docs/rules/kcell.md); ids cell - 1.
    assert k.initial_state().legal_action_ids() == [1, 2]
    # A stuck o with x free to move must pass (docs/rules/kcell.md): id k.
    stuck = duel.load("kcell:n=1,k=3").from_text("[_ox] o")
    assert stuck.actions() == ["-1"] and stuck.legal_action_ids() == [3]


def test_terminal_states_have_no_ids():
    s = duel.load("nqueens:n=2,variant=2").initial_state().result("1,1")
    assert s.is_terminal() and s.legal_action_ids() == []
    with pytest.raises(ValueError, match="is not a legal move here"):
        s.move_of(0)


def test_chess_planes_of_the_start():
    game = duel.load("gardner")
    assert game.observation_shape == (15, 5, 5)
    obs = game.initial_state().observation()
    # Gardner's start rnbqk/ppppp/5/PPPPP/RNBQK (RULES.md §1), rank 1 at
    # row 0: White knight b1 on plane 1 at [0, 1]; Black king e5 on plane 11
    # at [4, 4]; White pawns fill row 1, Black pawns row 3.
    assert obs[1, 0, 1] == 1 and obs[1].sum() == 1
    assert obs[11, 4, 4] == 1 and obs[11].sum() == 1
    assert obs[0, 1].tolist() == [1] * 5 and obs[6, 3].tolist() == [1] * 5
    assert obs[:12].sum() == 20
    assert (obs[12] == 1).all()  # White to move
    assert (obs[13] == 0).all() and (obs[14] == 0).all()  # clock 0, no turn cap
    after = game.initial_state().result("b1c3").observation()
    assert (after[12] == 0).all() and after[1, 2, 2] == 1
    # The draw clock over its limit: a knight move is no capture or pawn move,
    # so Gardner's clock is 1 of 100 (RULES.md §1a: 100 plies).
    assert after[13, 0, 0] == pytest.approx(1 / 100)


def test_checkers_planes_of_the_start():
    obs = duel.load("checkers").initial_state().observation()
    # Black men on 1-12 (rows 0-2), White men on 21-32 (rows 5-7),
    # docs/rules/checkers.md; square 1 is b8 at [0, 1].
    assert obs[0, 0, 1] == 1 and obs[0].sum() == 12 and obs[0, 3:].sum() == 0
    assert obs[2].sum() == 12 and obs[2, :5].sum() == 0
    assert obs[1].sum() == 0 and obs[3].sum() == 0  # no kings
    assert (obs[4] == 1).all()  # Black (Player 1) to move
    assert obs[0, 0, 0] == 0  # a8 is a light square


def test_small_games_planes():
    # n=4 with a queen on 1,1 (by hand): row 1, column 1 and the diagonal are
    # taken, 9 - 3 = 6 squares stay free; Player 2 to move.
    obs = duel.load("nqueens:n=4,variant=2").initial_state().result("1,1").observation()
    assert obs.shape == (3, 4, 4)
    assert obs[0, 0, 0] == 1 and obs[0].sum() == 1
    assert obs[1].sum() == 6 and obs[1, 1, 1] == 0 and obs[1, 1, 2] == 1
    assert (obs[2] == 0).all()
    # kcell:n=2,k=7's start [oo___xx] o (docs/rules/kcell.md).
    obs = duel.load("kcell:n=2,k=7").initial_state().observation()
    assert obs[0, 0].tolist() == [1, 1, 0, 0, 0, 0, 0]
    assert obs[1, 0].tolist() == [0, 0, 0, 0, 0, 1, 1]
    assert (obs[2] == 1).all()


def test_comp472_turn_cap_plane():
    # COMP 472's cap m (RULES.md §2, default 100 turns): after White's and
    # Black's first moves one turn of 100 is played.
    s = duel.load("minichess-comp472").initial_state()
    s = s.result(s.moves()[0])
    s = s.result(s.moves()[0])
    assert s.observation()[14, 0, 0] == pytest.approx(1 / 100)
