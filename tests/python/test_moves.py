"""Moves the way python-chess users give and read them: SAN in and out, seed 000's
tuples, duel.Move objects; why a game ended; help() naming Python types."""

import pydoc

import pytest

import duel
from duel.cs3243 import move_to_tuple

# PGN standard §8.2.3 (SAN) applied to Gardner's start (RULES.md §1): the knight
# on b1 reaches a3 and c3, the pawns step one square.
GARDNER = duel.load("gardner")


def test_san_in_and_out():
    s = GARDNER.initial_state()
    assert s.san("b1c3") == "Nc3"
    assert s.san("Nc3") == "Nc3"
    assert s.result("Nc3") == s.result("b1c3")
    assert sorted(m.san for m in s.moves()) == sorted(
        ["a3", "b3", "c3", "d3", "e3", "Na3", "Nc3"])


def test_san_marks_check_and_mate():
    # RULES.md §1a: checkmate wins. Qb3-b4 mates the king on a5 (b4 is guarded by c3).
    s = GARDNER.from_text("k4/5/1QK2/5/5 w - - 0 1")
    assert s.san("b3b4") == "Qb4#"
    after = s.result("Qb4#")
    assert after.is_terminal() and after.end_cause == "checkmate"
    assert s.san("b3b5") == "Qb5+"


def test_san_errors_are_one_line():
    s = GARDNER.initial_state()
    for bad, words in [("Nd3", "no knight"), ("Ke9", "leaves the board"), ("O-O", "castling"),
                       ("xyz", "not a move")]:
        with pytest.raises(ValueError, match=words) as e:
            s.result(bad)
        assert "\n" not in str(e.value)
    with pytest.raises(ValueError, match="chess games"):
        duel.load("checkers").initial_state().san("11-15")


def test_move_objects():
    s = GARDNER.initial_state()
    moves = s.moves()
    assert [m.text for m in moves] == s.actions()
    m = s.parse("Nc3")
    assert (m.text, m.san, m.from_square, m.to_square, m.promotion) == (
        "b1c3", "Nc3", "b1", "c3", None)
    assert m == "b1c3" and m in moves and str(m) == "b1c3"
    assert hash(m) == hash(s.parse("b1c3"))
    assert s.result(m) == s.result("b1c3")
    # A promotion names its piece (RULES.md §1a: Q, R, B or N).
    p = GARDNER.from_text("k4/3P1/5/5/4K w - - 0 1").parse("d4d5q")
    assert (p.san, p.promotion) == ("d5=Q+", "q")
    # Checkers squares are PDN numbers (seed 003; 9-13 is one of Black's openings).
    c = duel.load("checkers").initial_state().parse("9-13")
    assert (c.from_square, c.to_square, c.san) == ("9", "13", None)
    n = duel.load("nqueens:n=4").initial_state().moves()[0]
    assert n.from_square is None and n.san is None


def test_cs3243_tuple_form():
    # RULES.md §1b: an agent returns ((x1, y1), (x2, y2)), rows from 0 (White's back rank).
    cs = duel.load("gardner-cs3243").initial_state()
    assert cs.result((("b", 0), ("c", 2))) == cs.result("b1c3")
    assert cs.result([["b", 0], ["c", 2]]) == cs.result("b1c3")
    assert cs.parse((("a", 1), ("a", 2))).text == "a2a3"
    for bad in [(("b", 0),), ("b", 0, "c", 2), (("b", True), ("c", 2)), (("bb", 0), ("c", 2))]:
        with pytest.raises(ValueError, match="not a move like"):
            cs.result(bad)
    with pytest.raises(TypeError, match="a move is text"):
        cs.result(42)
    with pytest.raises(TypeError, match="a move is text, or a duel.Move"):
        duel.load("checkers").initial_state().result((("b", 0), ("c", 2)))


def test_actions_are_pseudo_legal_where_the_rules_say():
    # RULES.md §1b: the action list is every pseudo-legal move; one that leaves the
    # king attacked loses. The white king on a1 in check from c3 may step into b2.
    cs = duel.load("gardner-cs3243").from_text("k4/5/2q2/5/K4 w - - 0 1")
    assert "a1b2" in cs.actions()
    lost = cs.result("a1b2")
    assert lost.is_terminal() and lost.utility() == -1
    assert lost.end_cause == "White left its own king attacked"
    # RULES.md §1a: standard rules list legal moves only.
    assert "a1b2" not in GARDNER.from_text("k4/5/2q2/5/K4 w - - 0 1").actions()


def test_a_finished_game_names_its_cause():
    # RULES.md §2: capturing the king wins; the 10-turn rule draws.
    comp = duel.load("minichess-comp472")
    assert comp.from_text("k4/Q4/5/5/4K w - - 0 1").result("a4a5").end_cause == \
        "Black's king captured"
    assert comp.from_text("k4/5/5/5/4K w - - 20 1").end_cause == "10 turns without a capture"
    # RULES.md §1a: the 50-move rule.
    assert GARDNER.from_text("k4/5/5/5/4K w - - 100 1").end_cause == "50-move rule"
    assert GARDNER.initial_state().end_cause == ""
    mate = GARDNER.from_text("k4/5/1QK2/5/5 w - - 0 1")
    r = duel.play(mate, "engine:depth=3", "engine:depth=3")
    assert r.reason == "White wins: checkmate" and r.ending == "rules"


def test_agents_may_answer_with_moves_and_tuples():
    cs = duel.load("gardner-cs3243")
    r = duel.play(cs, lambda s: s.moves()[0], lambda s: move_to_tuple(s.actions()[-1]),
                  max_turns=2)
    assert r.ending == "turn-limit" and len(r.moves) == 4
    r = duel.play(cs, lambda s: 3.5, "random")
    assert r.winner == 2 and "instead of a move" in r.reason


def test_help_names_python_types():
    text = pydoc.render_doc(duel, renderer=pydoc.plaintext)
    assert "duel::" not in text and "std::" not in text
    assert "-> duel._duel.State" in text and "-> duel._duel.Game" in text
