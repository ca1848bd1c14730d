"""duel.Board as a python-chess user writes it, and duel.svg (docs/python.md, "Boards").

Expected values are drawn by hand from the rules (docs/rules/*.md) unless a
comment names another source.
"""

import os
import pathlib
import pickle

import pytest

import duel
from conftest import GAME_SPECS

GOLDEN = pathlib.Path(__file__).resolve().parent / "data" / "golden"

# White: Ra1, Ke1; Black: Ke5 with pawns d4, e4. 1. Ra5 is mate along the
# fifth rank: d5 is attacked, d4 and e4 hold Black's own pawns.
MATE_IN_ONE = "4k/3pp/5/5/R3K w - - 0 1"


# Step 1. The 5x5 chess games.
def test_gardner_session():
    b = duel.Board("gardner")
    # Fairy-Stockfish `go perft 1` for gardner: 7 (docs/rules/minichess.md's perft table).
    assert len(b.legal_moves) == 7 and b.legal_moves.count() == 7
    assert "Nc3" in b.legal_moves and "b1c3" in b.legal_moves and "Nd4" not in b.legal_moves
    assert b.turn == 1 and b.turn_name == "White" and b.result() == "*"
    assert b.piece_at("b1").symbol() == "N" and b.piece_at(1).piece_type == "knight"
    assert b["e5"].symbol() == "k" and b["e5"].color == "Black" and b["c3"] is None
    move = b.push_san("Nc3")
    assert move == "b1c3" and move.san == "Nc3" and b.peek() == move
    assert b.piece_at("c3").unicode_symbol() == "♘" and b.piece_at("b1") is None
    assert b.turn_name == "Black" and b.ply() == 1
    b.push("bxc3")  # Black's b-pawn takes the knight
    assert b.piece_at("c3").symbol() == "p"
    assert [m.text for m in b.move_stack] == ["b1c3", "b4c3"]
    assert b.pop() == "b4c3" and b.pop() == "b1c3" and b.ply() == 0
    assert b == duel.Board("gardner")
    with pytest.raises(IndexError):
        b.pop()
    with pytest.raises(ValueError, match="Nd4 is not legal here"):
        b.push_san("Nd4")
    assert b.ply() == 0  # an illegal move changes nothing


def test_check_and_mate():
    b = duel.Board("gardner", MATE_IN_ONE)
    assert not b.is_check() and not b.is_game_over()
    assert b.san("a1a5") == "Ra5#"
    b.push_san("Ra5")
    assert b.is_check() and b.is_checkmate() and b.is_game_over() and not b.is_stalemate()
    assert b.result() == "1-0" and b.legal_moves.count() == 0
    o = b.outcome()
    assert (o.winner, o.winner_name, o.termination, o.payoff) == (1, "White", "checkmate", 1)
    assert str(o) == "1-0 White wins by checkmate"  # as `duel play` writes it
    b.pop()
    assert b.outcome() is None and b.result() == "*"


def test_copy_root_variation():
    b = duel.Board("gardner")
    for san in ("Nc3", "bxc3", "dxc3"):
        b.push_san(san)
    c = b.copy()
    c.pop()
    assert b.ply() == 3 and c.ply() == 2
    assert b.copy(stack=False).ply() == 0 and b.copy(stack=False).state == b.state
    assert b.root() == duel.Board("gardner")
    assert duel.Board("gardner").variation_san(["b1c3", "b4c3", "d2c3"]) == "1. Nc3 bxc3 2. dxc3"
    assert b.variation_san(["d4c3", "b2c3"]) == "2... dxc3 3. bxc3"  # FEN's move number


def test_rule_sets_and_repr():
    b = duel.Board("gardner-cs3243")
    b.push(((("b", 0), ("c", 2))))  # seed 000's tuple for b1c3
    assert b.piece_at("c3").symbol() == "N"
    assert eval(repr(b), {"duel": duel}) == b
    assert str(b) == b.state.render()


# Step 2. Checkers: Black (Player 1) moves first, squares numbered 1..32.
def test_checkers_session():
    b = duel.Board("checkers")
    assert len(b.legal_moves) == 7  # OEIS A133046: perft(1) = 7
    assert b.turn_name == "Black" and b.piece_at(11).symbol() == "b" and b[22].symbol() == "w"
    assert b.piece_at(11).piece_type == "man" and b.piece_at(15) is None
    b.push("11-15")
    assert b.piece_at(15).player == 1 and b.piece_at(11) is None and b.turn_name == "White"
    assert not b.is_check() and b.result() == "*"
    assert b.pop() == "11-15" and b.piece_at(11).symbol() == "b"


def test_checkers_forced_jump():
    # Black man on 15, White man on 19, 24 empty: the jump 15x24 is the only move.
    b = duel.Board("checkers", "B:W19:B15")
    assert [m.text for m in b.legal_moves] == ["15x24"]
    b.push("15x24")
    assert b.piece_at(19) is None and b.piece_at(24).symbol() == "b"
    assert b.result() == "1-0"  # White has no piece left: Black, the first player, wins
    assert b.pop() == "15x24" and b.piece_at(19).symbol() == "w"


def test_checkers_result_first_player_first():
    # Black to move with no piece left to move: White (Player 2) has won: 0-1, as PDN writes it.
    b = duel.Board("checkers", "B:W18:B")
    assert b.is_game_over() and b.result() == "0-1" and b.outcome().winner_name == "White"


# Step 3. N-Queens and KCell, in their own terms.
def test_nqueens_session():
    b = duel.Board("nqueens:n=3,variant=2")
    assert len(b.legal_moves) == 9 and b.piece_at((2, 2)) is None
    b.push("2,2")  # the centre queen attacks every other square of a 3x3 board
    assert b.piece_at((2, 2)).piece_type == "queen" and b[(2, 2)].player is None
    assert b.is_game_over() and b.result() == "1-0" and b.outcome().winner_name == "Player 1"
    assert str(b.outcome()) == "Player 1 wins: Player 2 has no square left for a queen"
    assert len(b.state.marks()) == 8
    with pytest.raises(ValueError, match="not a square"):
        b.piece_at((4, 1))


def test_kcell_session():
    b = duel.Board("kcell:n=3,k=9")
    assert [sq for sq, p in b.piece_map().items() if p.player == 1] == [1, 2, 3]
    assert [sq for sq, p in b.piece_map().items() if p.player == 2] == [7, 8, 9]
    # Cell 1's piece can neither step (2 is full) nor jump (3 is full); 2 jumps 3 to 4; 3 steps.
    assert sorted(m.text for m in b.legal_moves) == ["2", "3"]
    b.push("3")
    assert b.piece_at(4).player == 1 and b.piece_at(3) is None and b.turn_name == "Player 2"


@pytest.mark.parametrize("spec", GAME_SPECS)
def test_every_square_answers(spec):
    b = duel.Board(spec)
    cells = b.state.cells()
    assert len(b.squares) == sum(1 for row in cells for _ in row) or b.game.name == "checkers"
    assert len(b.piece_map()) == sum(1 for row in cells for c in row if c)


# Step 4. Pictures.
def test_svg_golden():
    b = duel.Board("gardner", MATE_IN_ONE)
    b.push_san("Ra5")
    got = str(duel.svg(b, size=300, arrows=[("e1", "e2", "#2f6f8f")]))
    path = GOLDEN / "gardner-mate.svg"
    if os.environ.get("DUEL_UPDATE_GOLDEN"):
        path.write_text(got)
    assert got == path.read_text()
    assert b._repr_svg_() == str(duel.svg(b))
    assert "url(#check)" in got  # the mated king is marked


def test_svg_for_every_family_and_bad_input():
    for spec in GAME_SPECS:
        s = duel.load(spec).initial_state()
        picture = s._repr_svg_()
        assert picture.startswith("<svg") and picture.endswith("</svg>")
    state = duel.load("checkers").initial_state()
    assert "<line" in duel.svg(state, arrows=["11-15"])
    assert "<line" not in duel.svg(state, arrows=[], flipped=True)
    with pytest.raises(ValueError, match="size=0"):
        duel.svg(state, size=0)
    with pytest.raises(TypeError):
        duel.svg("checkers")
    with pytest.raises(ValueError, match="not a square"):
        duel.svg(state, arrows=[(0, 40)])


def test_match_result_in_san():
    r = duel.play("gardner", "engine:depth=2", "alphabeta:depth=2")
    board = r.board()
    assert board.state == r.final_state and board.ply() == len(r.moves)
    assert r.san.startswith("1. ") and all(m in r.san for m in ("2.",))
    html = r._repr_html_()
    assert "<svg" in html and r.players[0] in html


def test_board_pickles_through_states():
    b = duel.Board("gardner")
    b.push_san("Nc3")
    assert pickle.loads(pickle.dumps(b.state)) == b.state


def test_board_to_pgn_and_back():
    import duel.pgn
    b = duel.Board("gardner", MATE_IN_ONE)
    b.push_san("Ra5")
    text = str(duel.pgn.from_board(b, {"White": "me", "Black": "you"}))
    assert "1. Ra5# 1-0" in text and '[White "me"]' in text  # PGN's export form
    record = duel.pgn.read_game(__import__("io").StringIO(text))
    replay = record.board()
    for move in record.mainline_moves():
        replay.push(move)
    assert replay == b and replay.result() == record.result == "1-0"
