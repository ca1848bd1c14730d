"""`duel.Board`: a game being played, in the manner of python-chess's chess.Board.

Why beside `duel.State`: a State is a value (result() returns a new one),
which suits search code; people who script games in Python reach for
python-chess's mutable board with push/pop, a move stack, `legal_moves`,
`is_check()`, `result()` and `piece_at`. A Board keeps the States it went
through, so pop() is exact (repetition history included) and every question
is answered by the current State. Names are python-chess's where the concept
is the same; docs/python.md ("Boards") lists what each game family has.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional, Union

from . import _duel
from .drawing import svg

# A piece's kind by its cell text (State.cells), per family.
_CHESS_KINDS = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen", "k": "king"}
_UNICODE = {"K": "♔", "Q": "♕", "R": "♖", "B": "♗", "N": "♘", "P": "♙",
            "k": "♚", "q": "♛", "r": "♜", "b": "♝", "n": "♞", "p": "♟",
            "b_man": "⛂", "B_king": "⛃", "w_man": "⛀", "W_king": "⛁"}


@dataclass(frozen=True)
class Piece:
    """A piece on a square: its kind, its owner (1 moves first) and the owner's name.

    `piece_type` is 'pawn' ... 'king' in the chess games, 'man' or 'king' in
    checkers, 'queen' in N-Queens (a queen is no player's: `player` is None),
    'piece' in KCell. `symbol()` is the letter the game writes: FEN letters
    (White upper case), checkers b/B/w/W, 'Q', KCell '1'/'2'.
    """

    piece_type: str
    player: Optional[int]
    color: Optional[str]
    letter: str

    def symbol(self) -> str:
        """The letter the game writes for it ('N', 'p', 'b', 'W', 'Q', '1')."""
        return self.letter

    def unicode_symbol(self) -> str:
        """The chess or draughts figurine, else the symbol."""
        if self.piece_type in ("man", "king") and self.letter in "bBwW":
            return _UNICODE[f"{self.letter}_{self.piece_type}"]
        return _UNICODE.get(self.letter, self.letter)

    def __str__(self) -> str:
        return self.letter


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended (python-chess's chess.Outcome).

    `termination` is the game's own reason (State.end_cause: 'checkmate',
    'threefold repetition', ...); `winner` 1, 2 or None for a draw;
    `winner_name` the side as the game names it; `payoff` the points from
    Player 1's view (N-Queens variant 1b: +-k); `text` (and str()) the
    result as `duel play` writes it ('1-0 White wins by checkmate').
    """

    termination: str
    winner: Optional[int]
    winner_name: Optional[str]
    loser_name: Optional[str]
    payoff: int
    text: str

    def result(self) -> str:
        """'1-0', '0-1' or '1/2-1/2': the first player's score first (PGN and PDN)."""
        return "1-0" if self.winner == 1 else "0-1" if self.winner == 2 else "1/2-1/2"

    def __str__(self) -> str:
        """The result as `duel play` writes it: '1-0 White wins by checkmate'."""
        return self.text


def _piece_of(family: str, letter: str, sides: list) -> Optional[Piece]:
    if not letter:
        return None
    if family == "chess":
        player = 1 if letter.isupper() else 2
        return Piece(_CHESS_KINDS[letter.lower()], player, sides[player - 1], letter)
    if family == "checkers":
        player = 1 if letter.lower() == "b" else 2  # Black moves first
        return Piece("king" if letter.isupper() else "man", player, sides[player - 1], letter)
    if family == "nqueens":
        return Piece("queen", None, None, letter)
    player = int(letter)
    return Piece("piece", player, sides[player - 1], letter)


class LegalMoves:
    """The legal moves of a Board's position (python-chess's board.legal_moves).

    Iterates duel.Move values; `in` takes a move as State.result does (text,
    SAN, a duel.Move, a seed-000 tuple); len() and count() count them.
    In gardner-cs3243 and minichess-comp472 these are the rules' pseudo-legal
    moves (docs/python.md, "Moves").
    """

    def __init__(self, state):
        self._state = state

    def __iter__(self) -> Iterator:
        return iter(self._state.moves())

    def __len__(self) -> int:
        return len(self._state.actions())

    def count(self) -> int:
        """How many legal moves there are."""
        return len(self)

    def __bool__(self) -> bool:
        return len(self) > 0

    def __contains__(self, move) -> bool:
        try:
            self._state.parse(move)
        except (ValueError, TypeError):
            return False
        return True

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(m.san or m.text for m in self)})>"


class Board:
    """A game in progress: a start position and the moves pushed since.

        >>> import duel
        >>> b = duel.Board("gardner")
        >>> b.push_san("Nc3")
        >>> b.piece_at("c3")
        Piece(piece_type='knight', player=1, color='White', letter='N')
        >>> b.pop()
        duel.Move('b1c3')

    `Board(game, position=None)`: `game` is a spec ('gardner', 'checkers',
    'nqueens:n=8', ...), a duel.Game or a duel.State (that position is the
    start); `position` a start position as text (FEN in the chess games).
    """

    def __init__(self, game: Union[str, "_duel.Game", "_duel.State"] = "gardner",
                 position: Optional[str] = None):
        if isinstance(game, _duel.State):
            start = game if position is None else game.from_text(position)
        elif isinstance(game, (str, _duel.Game)):
            g = _duel.load(game) if isinstance(game, str) else game
            start = g.initial_state() if position is None else g.from_text(position)
        else:
            raise TypeError(f"Board(): a game spec, duel.Game or duel.State, got "
                            f"{type(game).__name__}")
        self._states = [start]
        self.move_stack: list = []

    # Step 1. The position and its questions.
    @property
    def state(self):
        """The current position as a duel.State (a value; searches take it)."""
        return self._states[-1]

    @property
    def game(self):
        """The duel.Game being played."""
        return self.state.game

    @property
    def turn(self) -> int:
        """The player to move: 1 (moves first) or 2."""
        return self.state.to_move

    @property
    def turn_name(self) -> str:
        """The side to move as the game names it ('White', 'Black', 'Player 1')."""
        return self.state.side_names[self.turn - 1]

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves here: iterate them, test `move in board.legal_moves`, count them."""
        return LegalMoves(self.state)

    def is_legal(self, move) -> bool:
        """True when `move` (any form push takes) is legal here."""
        return move in self.legal_moves

    def fen(self) -> str:
        """The position as one line of text (FEN in the chess games; State.text)."""
        return self.state.text

    def ply(self) -> int:
        """Moves pushed since the start position."""
        return len(self.move_stack)

    def is_check(self) -> bool:
        """The side to move's king is attacked (chess games; False in the others)."""
        return self.state.is_check()

    def is_game_over(self) -> bool:
        """True when the game is over, by any of its rules."""
        return self.state.is_terminal()

    def is_checkmate(self) -> bool:
        """Over, the side to move in check and lost (chess games)."""
        return self.state.is_terminal() and self.state.end_cause == "checkmate"

    def is_stalemate(self) -> bool:
        """Over by stalemate (gardner; the other rule sets end otherwise)."""
        return self.state.is_terminal() and self.state.end_cause == "stalemate"

    def is_repetition(self) -> bool:
        """Over by repetition (the chess games' threefold, checkers' rule)."""
        return self.state.is_terminal() and "repetition" in self.state.end_cause

    def outcome(self) -> Optional[Outcome]:
        """How the game ended, or None while it goes on."""
        s = self.state
        if not s.is_terminal():
            return None
        payoff = s.utility()
        winner = 1 if payoff > 0 else 2 if payoff < 0 else None
        names = s.side_names
        return Outcome(s.end_cause, winner, names[winner - 1] if winner else None,
                       names[2 - winner] if winner else None, payoff, s.result_text)

    def result(self) -> str:
        """'1-0', '0-1', '1/2-1/2', or '*' while the game goes on.

        The first player's score comes first, as PGN (White) and PDN (Black,
        who moves first in checkers) write it; in N-Queens and KCell '1-0' is
        a win for Player 1.
        """
        o = self.outcome()
        return "*" if o is None else o.result()

    # Step 2. Squares and pieces.
    def _family(self) -> str:
        from .drawing import _family
        return _family(self.state)

    def piece_at(self, square) -> Optional[Piece]:
        """The piece on `square`, or None: 'b1' or 0..24 (a1 = 0) in the chess games,
        1..32 in checkers, (row, col) from 1 in N-Queens, 1..k in KCell."""
        return self._pieces_at([square], self.state.cells())[0]

    def _pieces_at(self, squares, cells) -> list:
        family, s = self._family(), self.state
        return [_piece_of(family, cells[r][c], s.side_names)
                for r, c in map(s.cell_of, squares)]

    def __getitem__(self, square) -> Optional[Piece]:
        """board[square] is board.piece_at(square)."""
        return self.piece_at(square)

    @property
    def squares(self) -> list:
        """Every square's name, in the order piece_at counts them."""
        family, s = self._family(), self.state
        cells = s.cells()
        rows, cols = len(cells), len(cells[0])
        if family == "chess":
            return [f"{chr(ord('a') + f)}{r + 1}" for r in range(rows) for f in range(cols)]
        if family == "checkers":
            return list(range(1, 33))
        if family == "nqueens":
            return [(r, c) for r in range(1, rows + 1) for c in range(1, cols + 1)]
        return list(range(1, cols + 1))

    def piece_map(self) -> dict:
        """{square: Piece} for every occupied square."""
        squares = self.squares
        pieces = self._pieces_at(squares, self.state.cells())  # the board read once
        return {sq: p for sq, p in zip(squares, pieces) if p is not None}

    # Step 3. Moves: push, pop, the stack.
    def push(self, move) -> None:
        """Plays `move` (text in any notation the game reads, SAN too, a duel.Move, or a
        seed-000 tuple). ValueError with the CLI's message when it is not legal."""
        parsed = self.state.parse(move)
        self._states.append(self.state.result(parsed))
        self.move_stack.append(parsed)

    def push_san(self, san: str):
        """Plays a move given in SAN ('Nc3', 'exd5', 'e5=Q') and returns it."""
        if not isinstance(san, str):
            raise TypeError(f"push_san(): SAN is text, got {type(san).__name__}")
        self.push(san)
        return self.move_stack[-1]

    def push_uci(self, uci: str):
        """Plays a move in the game's own text ('b1c3', '11-15', '4,4') and returns it."""
        return self.push_san(uci)

    def pop(self):
        """Takes back the last move and returns it (IndexError at the start)."""
        if not self.move_stack:
            raise IndexError("pop from a Board with no moves")
        self._states.pop()
        return self.move_stack.pop()

    def peek(self):
        """The last move (IndexError at the start)."""
        if not self.move_stack:
            raise IndexError("peek at a Board with no moves")
        return self.move_stack[-1]

    def last_move_cells(self) -> list:
        """The cells (row, col) the last move touched, as drawn; [] at the start."""
        if not self.move_stack:
            return []
        return self._states[-2].move_cells(self.move_stack[-1])

    def san(self, move) -> str:
        """The move's SAN in the chess games, its text elsewhere."""
        m = self.state.parse(move)
        return m.san or m.text

    def variation_san(self, moves) -> str:
        """Moves played in turn from here, numbered as PGN writes them: '1. Nc3 e4 2. ...'."""
        s, out = self.state, []
        fields = s.text.split()
        if self._family() == "chess" and len(fields) == 6 and fields[5].isdigit():
            number = int(fields[5])  # FEN's fullmove number
        else:
            number = self.ply() // 2 + 1
        for i, mv in enumerate(moves):
            m = s.parse(mv)
            if s.to_move == 1:
                out.append(f"{number}. {m.san or m.text}")
            else:
                out.append(f"{number}... {m.san or m.text}" if i == 0 else (m.san or m.text))
                number += 1
            s = s.result(m)
        return " ".join(out)

    def root(self) -> "Board":
        """A Board at this one's start position, no moves."""
        return Board(self._states[0])

    def copy(self, *, stack: bool = True) -> "Board":
        """An independent Board; stack=False keeps only the current position."""
        b = Board(self._states[0] if stack else self.state)
        if stack:
            b._states = list(self._states)
            b.move_stack = list(self.move_stack)
        return b

    def search(self, **options):
        """duel.search of the current position (the same keyword arguments)."""
        return _duel.search(self.state, **options)

    # Step 4. How it shows.
    def _repr_svg_(self) -> str:
        return str(svg(self))

    def __str__(self) -> str:
        return self.state.render()

    def __repr__(self) -> str:
        return f"duel.Board({self.state.spec!r}, {self.fen()!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Board) and self.state == other.state

    __hash__ = None  # a Board changes: unhashable, as python-chess's


# Step 5. A finished duel.play game, as a notebook shows it.
def match_board(match) -> Board:
    """MatchResult.board(): the game replayed on a Board (its move stack)."""
    b = Board(match.game, match.start)
    for m in match.moves:
        b.push(m)
    return b


def match_san(match) -> str:
    """MatchResult.san: the moves numbered, in SAN in the chess games."""
    return Board(match.game, match.start).variation_san(match.moves)


def match_html(match) -> str:
    """MatchResult's picture in a notebook: who played, the result, the moves, the board."""
    from html import escape
    b = match_board(match)
    o = b.outcome()
    head = f"{escape(match.players[0])} vs {escape(match.players[1])}"
    result = f"{o.result()} {escape(match.reason)}" if o else escape(match.reason)
    return (f"<div><b>{head}</b>: {result}<br><code>{escape(match_san(match))}</code><br>"
            f"{svg(b, size=240)}</div>")


__all__ = ["Board", "LegalMoves", "Outcome", "Piece"]
