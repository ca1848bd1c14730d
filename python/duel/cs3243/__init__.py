"""Seed 000 (NUS CS3243, Project 3): Duel's engine as the hand-out's
``studentAgent(gameboard)``, and the hand-out's board and move forms.

The hand-out's autograder calls ``studentAgent(gameboard)`` from a file
``AB.py``. ``gameboard`` is a dict from squares to pieces::

    {('a', 0): ('Rook', 'White'), ('b', 0): ('Knight', 'White'), ...,
     ('e', 4): ('King', 'Black')}

with files ``'a'``..``'e'`` and rows ``0``..``4``, row 0 being White's back
rank (RULES.md §1b: seed square (x, y) is file x, rank y + 1, so ``('b', 0)``
is b1). Piece names are ``King, Queen, Rook, Bishop, Knight, Pawn``, colours
``White, Black``. The answer is a move ``((x1, y1), (x2, y2))``, e.g.
``(('b', 0), ('c', 2))`` for the knight's b1c3: the same form
``tuple_text`` writes and ``parse_move`` reads on the C++ side.

A drop-in ``AB.py`` is one line (with ``build/python`` on ``PYTHONPATH``)::

    from duel.cs3243 import studentAgent

The gameboard says neither whose turn it is nor what came before. As in the
hand-out ("your White Queen at a0"), the student's agent plays White, so
``studentAgent`` moves White. The no-progress clock (a draw after 50 plies
without a change in the number of pieces) is not on the board either: it
starts at 0, except that when the board follows from this module's previous
answer by one Black move, the clock carries on from there.

``python3 -m duel.cs3243 grade AB.py`` grades any such file against the
hand-out's five opponents (``duel.cs3243.grader``; docs/python.md);
``python3 -m duel.cs3243 match A.py B.py --out DIR`` plays two such files
against each other, Black's shown its positions mirrored (``duel.cs3243.match``).
"""

from __future__ import annotations

import threading
from typing import Dict, Mapping, Optional, Tuple

import duel

__all__ = [
    "COLOURS",
    "FILES",
    "GAME_SPEC",
    "Gameboard",
    "MOVE_TIME",
    "Move",
    "PIECES",
    "ROWS",
    "Square",
    "TIME_LIMIT",
    "gameboard_to_fen",
    "gameboard_to_state",
    "move_to_tuple",
    "state_to_gameboard",
    "king_capture",
    "studentAgent",
    "tuple_to_move",
]

#: The game spec of the hand-out's rule set (RULES.md §1b).
GAME_SPEC = "gardner-cs3243"
#: Column letters, left to right (files a-e).
FILES = "abcde"
#: Row numbers, White's back rank first (rank = row + 1).
ROWS = range(5)
#: The hand-out's piece names and their FEN letters (White's, upper case).
PIECES: Dict[str, str] = {
    "King": "K",
    "Queen": "Q",
    "Rook": "R",
    "Bishop": "B",
    "Knight": "N",
    "Pawn": "P",
}
#: The hand-out's colours, the side that moves first first.
COLOURS = ("White", "Black")

#: Seconds a move the grader allows (``grade --time-limit``). The hand-out
#: gives no per-move figure (only CodePost's 30 s for a whole submission and
#: "compared to our solution's benchmark"), so this is RULES.md §1b's
#: "within a second a move".
TIME_LIMIT = 1.0
#: Seconds ``studentAgent`` lets the engine search: under a third of TIME_LIMIT, the
#: rest is a margin for building the position and the engine's own overrun.
MOVE_TIME = 0.3
# The engine's transposition table for one move, MB (allocated per search).
_HASH_MB = 16

#: A square of the hand-out: (file letter, row 0..4).
Square = Tuple[str, int]
#: A move of the hand-out: (from square, to square).
Move = Tuple[Square, Square]
#: The hand-out's board: square -> (piece name, colour).
Gameboard = Dict[Square, Tuple[str, str]]

_LETTER_NAME = {letter.lower(): name for name, letter in PIECES.items()}


def _square_text(square: object) -> str:
    """Algebraic name ('b1') of a hand-out square; ValueError when not one."""
    if (
        not isinstance(square, (tuple, list))
        or len(square) != 2
        or not isinstance(square[0], str)
        or len(square[0]) != 1
        or square[0] not in FILES
        or not isinstance(square[1], int)
        or isinstance(square[1], bool)
        or square[1] not in ROWS
    ):
        raise ValueError(
            f"{_short(square)} is not a square like ('a', 0): a file 'a'..'e' and a row 0..4"
        )
    return f"{square[0]}{square[1] + 1}"


def _short(value: object, width: int = 60) -> str:
    """repr(value) cut to `width` characters, on one line."""
    text = " ".join(repr(value).split())
    return text if len(text) <= width else text[: width - 3] + "..."


def gameboard_to_fen(gameboard: Mapping[Square, Tuple[str, str]], *, to_move: str = "White",
                     clock: int = 0) -> str:
    """The FEN of a hand-out gameboard with `to_move` ('White' or 'Black') to move and
    `clock` plies since the number of pieces last changed.

    Checks only the form (squares, names, colours); gameboard_to_state also checks the
    position (one king each, no pawn on its own back rank). Raises ValueError with a
    one-line message.
    """
    if not isinstance(gameboard, Mapping):
        raise ValueError(f"a gameboard is a dict of squares to pieces, not {type(gameboard).__name__}")
    if to_move not in COLOURS:
        raise ValueError(f"to_move must be 'White' or 'Black', not {_short(to_move)}")
    if not isinstance(clock, int) or isinstance(clock, bool) or not 0 <= clock <= 255:
        raise ValueError(f"clock must be a whole number 0..255, not {_short(clock)}")
    board = [["" for _ in FILES] for _ in ROWS]
    for square, piece in gameboard.items():
        name = _square_text(square)
        if (
            not isinstance(piece, (tuple, list))
            or len(piece) != 2
            or not isinstance(piece[0], str)
            or not isinstance(piece[1], str)
            or piece[0] not in PIECES
            or piece[1] not in COLOURS
        ):
            raise ValueError(
                f"the piece on {_short(square)} is {_short(piece)}, not like ('Queen', 'White'):"
                " King, Queen, Rook, Bishop, Knight or Pawn, and White or Black"
            )
        letter = PIECES[piece[0]]
        board[int(name[1]) - 1][FILES.index(name[0])] = letter if piece[1] == "White" else letter.lower()
    ranks = []
    for row in reversed(ROWS):
        text, empty = "", 0
        for cell in board[row]:
            if not cell:
                empty += 1
                continue
            if empty:
                text += str(empty)
            text, empty = text + cell, 0
        ranks.append(text + (str(empty) if empty else ""))
    return f"{'/'.join(ranks)} {'w' if to_move == 'White' else 'b'} - - {clock} 1"


def gameboard_to_state(gameboard: Mapping[Square, Tuple[str, str]], *, to_move: str = "White",
                       clock: int = 0) -> duel.State:
    """The gardner-cs3243 State of a hand-out gameboard, `to_move` to move (White by
    default, as the hand-out's studentAgent), `clock` plies since the number of pieces
    last changed.

    Raises ValueError with a one-line message when the gameboard is not a position
    (wrong form, not one king each, a pawn on its own back rank, ...).
    """
    fen = gameboard_to_fen(gameboard, to_move=to_move, clock=clock)
    try:
        return duel.load(GAME_SPEC).from_text(fen)
    except ValueError as e:
        raise ValueError(f"the gameboard is not a position: {e}") from None


def state_to_gameboard(state: duel.State) -> Gameboard:
    """The hand-out's gameboard of a gardner-cs3243 (or any 5x5 chess) state: a new dict
    {(file, row): (piece name, colour)}, row 0 = White's back rank. The side to move and
    the clocks are not part of it."""
    placement = state.text.split()[0]
    ranks = placement.split("/")
    if len(ranks) != len(ROWS):
        raise ValueError(f"not a 5x5 chess position: {state.text}")
    out: Gameboard = {}
    for i, rank in enumerate(ranks):
        row = len(ROWS) - 1 - i
        col = 0
        for c in rank:
            if c.isdigit():
                col += int(c)
                continue
            out[(FILES[col], row)] = (_LETTER_NAME[c.lower()], "White" if c.isupper() else "Black")
            col += 1
    return out


def move_to_tuple(move: str) -> Move:
    """The hand-out's form of a move in UCI: 'b1c3' -> (('b', 0), ('c', 2)).

    Raises ValueError when `move` is not a 5x5 board move (a promotion letter, which
    gardner-cs3243 never has, is refused)."""
    if (
        not isinstance(move, str)
        or len(move) != 4
        or move[0] not in FILES
        or move[2] not in FILES
        or move[1] not in "12345"
        or move[3] not in "12345"
    ):
        raise ValueError(f"{_short(move)} is not a move like 'b1c3'")
    return ((move[0], int(move[1]) - 1), (move[2], int(move[3]) - 1))


def tuple_to_move(move: object) -> str:
    """UCI text of a move in the hand-out's form: (('b', 0), ('c', 2)) -> 'b1c3'.

    Tuples or lists are read; files must be lower-case 'a'..'e' and rows int 0..4 (the
    hand-out's gameboard keys). Raises ValueError with a one-line message otherwise.
    Whether the move is legal is the state's business (State.result / actions())."""
    if not isinstance(move, (tuple, list)) or len(move) != 2:
        raise ValueError(f"{_short(move)} is not a move like (('a', 1), ('a', 2))")
    return _square_text(move[0]) + _square_text(move[1])


# The position after studentAgent's previous answer, to carry the no-progress
# clock into the next call when the board follows from it.
_last_lock = threading.Lock()
_last_after: Optional[duel.State] = None


def _continue_from(state: duel.State) -> duel.State:
    """`state` (White to move, clock 0) with the clock of the game it continues, when it
    follows from the previous answer by one Black move; else `state` itself."""
    with _last_lock:
        prev = _last_after
    if prev is None or prev.is_terminal():
        return state
    board = state.text.split()[0]
    for move in prev.actions():
        after = prev.result(move)
        if after.text.split()[0] == board and after.to_move == 1:
            return after
    return state


_STEPS = {
    "Knight": ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)),
    "King": ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)),
}
_SLIDES = {
    "Rook": ((1, 0), (-1, 0), (0, 1), (0, -1)),
    "Bishop": ((1, 1), (1, -1), (-1, 1), (-1, -1)),
    "Queen": ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)),
}
_VALUE = {"Pawn": 1, "Knight": 3, "Bishop": 3, "Rook": 5, "Queen": 9, "King": 100}


def king_capture(gameboard: Mapping[Square, Tuple[str, str]], colour: str = "White") -> Optional[Move]:
    """The move of `colour` that takes the enemy king, when the enemy left it attacked
    (RULES.md §1b: the hand-out's Figures 8-10, a king capture), by the least valuable
    attacker; None when the king is not attacked (or there is none)."""
    enemy = COLOURS[1 - COLOURS.index(colour)]
    king = next((sq for sq, p in gameboard.items() if tuple(p) == ("King", enemy)), None)
    if king is None:
        return None
    kf, kr = FILES.index(king[0]), king[1]
    forward = 1 if colour == "White" else -1
    best: Optional[Tuple[int, Move]] = None
    for (f, r), (piece, side) in gameboard.items():
        if side != colour:
            continue
        x, y = FILES.index(f), r
        dx, dy = kf - x, kr - y
        hits = False
        if piece == "Pawn":
            hits = dy == forward and abs(dx) == 1
        elif piece in _STEPS:
            hits = (dx, dy) in _STEPS[piece]
        else:
            for sx, sy in _SLIDES[piece]:
                cx, cy = x + sx, y + sy
                while 0 <= cx < 5 and 0 <= cy < 5:
                    if (cx, cy) == (kf, kr):
                        hits = True
                        break
                    if (FILES[cx], cy) in gameboard:
                        break
                    cx, cy = cx + sx, cy + sy
                if hits:
                    break
        if hits and (best is None or _VALUE[piece] < best[0]):
            best = (_VALUE[piece], ((f, r), king))
    return best[1] if best else None


def studentAgent(gameboard: Mapping[Square, Tuple[str, str]]) -> Move:  # noqa: N802 (the hand-out's name)
    """White's move on a hand-out gameboard, chosen by Duel's engine in MOVE_TIME seconds:
    ``((x1, y1), (x2, y2))``, e.g. (('b', 0), ('c', 2)) for b1c3.

    White is to move (the hand-out's student plays White). When Black's king is
    attacked (Black's last move left it so), the move takes it (RULES.md §1b,
    king capture). Otherwise the engine searches the gardner-cs3243 position with
    ``duel.search(algo="engine")``.
    Raises ValueError with a one-line message when the gameboard is not a position or
    White has no move (the game is over).
    """
    global _last_after
    state = _continue_from(gameboard_to_state(gameboard))
    if state.is_terminal():
        capture = king_capture(gameboard)
        if capture is not None:
            # RULES.md §1b (Figures 8-10): Black left its king attacked; take it.
            return capture
        raise ValueError(f"the game is over, White has no move: {state.text}")
    result = duel.search(state, time=MOVE_TIME, algo="engine", hash=_HASH_MB)
    move = result.move if result.move is not None else state.actions()[0]
    with _last_lock:
        _last_after = state.result(move)
    return move_to_tuple(move)
