"""Game records in PGN (the 5x5 chess games) and PDN (checkers), read and
written as python-chess's ``chess.pgn`` does (docs/python.md, "Game records").

    >>> import duel.pgn
    >>> with open("docs/experiments/strength/gardner-vs-fairy-stockfish.pgn") as f:
    ...     record = duel.pgn.read_game(f)
    >>> record.headers["White"], record.result, len(record.moves)
    >>> record.end().end_cause
    >>> print(record)                      # PGN again, by the C++ writer

The parsing and writing are the C++ ones ``duel play --pgn/--pdn`` and
``duel arena`` use (``_duel._read_records``, ``_duel._write_record``); this
module only splits streams into games and holds the results.
"""

from __future__ import annotations

import os
import weakref
from typing import IO, Iterable, Iterator, Mapping, Optional, Union

from . import _duel
from ._duel import Game, MatchResult, Move, State

__all__ = ["GameRecord", "from_board", "from_match", "read_game", "read_games", "write"]

GameArg = Union[Game, str, None]

# A line read past the end of a game from a stream that cannot seek back (a
# pipe): given back to the next read_game on the same stream.
_pending: "weakref.WeakKeyDictionary[IO[str], str]" = weakref.WeakKeyDictionary()


def _take_pending(handle: IO[str]) -> str:
    try:
        return _pending.pop(handle, "")
    except TypeError:  # a stream without weak references never had a line kept
        return ""


class GameRecord:
    """One game of a PGN or PDN text: headers, start, moves and result.

    Attributes: ``headers`` (a dict of the tags in file order), ``start``
    (the duel.State it starts from: [FEN] or the game's start), ``moves``
    (duel.Move objects, each legal in turn), ``result`` ("1-0", "0-1",
    "1/2-1/2" or "*"; Player 1 first: White in chess, Black in checkers).
    ``str(record)`` is the record written by the C++ writer.
    """

    def __init__(self, headers: Mapping[str, str], start: State, moves: Iterable[Move],
                 result: str) -> None:
        self.headers: dict[str, str] = dict(headers)
        self.start: State = start
        self.moves: list[Move] = list(moves)
        self.result: str = result

    @property
    def game(self) -> Game:
        """The game the record is played in (its rule set and draw limit)."""
        return self.start.game

    def mainline_moves(self) -> list[Move]:
        """The moves played, in order (python-chess's name; the same as ``moves``)."""
        return list(self.moves)

    def board(self):
        """A duel.Board at the start position (python-chess's game.board()); push
        mainline_moves() on it to replay the game."""
        from .board import Board
        return Board(self.start)

    def end(self) -> State:
        """The position after the last move."""
        state = self.start
        for move in self.moves:
            state = state.result(move)
        return state

    def __str__(self) -> str:
        return write(self.start, self.moves, headers=self.headers, result=self.result)

    def __repr__(self) -> str:
        return (f"<duel.pgn.GameRecord {self.start.game.name}: "
                f"{len(self.moves)} moves, {self.result}>")


def _records(text: str, game: GameArg) -> list[GameRecord]:
    return [GameRecord(dict(tags), start, moves, result)
            for tags, start, moves, result in _duel._read_records(text, game)]


def read_games(source: Union[IO[str], str, os.PathLike], *, game: GameArg = None
               ) -> Iterator[GameRecord]:
    """Every game of a PGN or PDN text, a text stream or a file path.

    The format is the game's when ``game`` (a duel.Game or spec) is given,
    else PDN when a ``[GameType "21"]`` tag says so, else PGN with each game's
    rule set from its ``[Variant]`` (gardner without one). Raises ValueError
    with the C++ parser's message ("game 2, ply 14: ...") for bad text.
    """
    if isinstance(source, os.PathLike):
        with open(source, encoding="utf-8") as handle:
            text = handle.read()
    elif isinstance(source, str):
        text = source
    else:
        text = _take_pending(source) + source.read()
    return iter(_records(text, game))


def read_game(handle: IO[str], *, game: GameArg = None) -> Optional[GameRecord]:
    """The next game of a text stream, or None at its end (python-chess's
    ``chess.pgn.read_game``).

    A game's movetext ends at a blank line (as PGN export and ``duel
    play``/``duel arena`` write them) or at a tag line; the stream is left at
    the next game. ``game`` and errors as in read_games.
    """
    lines: list[str] = []
    in_moves = False
    depth = 0  # '{' comments open at the end of the lines so far
    pending = _take_pending(handle) or None
    while True:
        where = None
        if pending is not None:
            line, pending = pending, None
        else:
            where = handle.tell() if handle.seekable() else None
            line = handle.readline()
        if not line:
            break
        stripped = line.strip()
        if depth == 0 and in_moves and (not stripped or stripped.startswith("[")):
            if stripped:  # the next game's tags: give the line back
                if where is not None:
                    handle.seek(where)
                else:
                    _pending[handle] = line
            break
        lines.append(line)
        if depth == 0 and stripped and not stripped.startswith(("[", "%", ";")):
            in_moves = True
        depth = max(0, depth + line.count("{") - line.count("}"))
    text = "".join(lines)
    if not text.strip():
        return None
    records = _records(text, game)
    return records[0] if records else None


def write(start: State, moves: Iterable[Union[Move, str]], *,
          headers: Optional[Mapping[str, str]] = None, result: Optional[str] = None) -> str:
    """The game as PGN (the chess games) or PDN (checkers) text, by the C++ writer
    ``duel play`` uses.

    ``moves``: each legal in turn from ``start``, in any form State.result
    reads. ``headers``: tags in order (PGN: the seven-tag roster first, "?"
    where missing; Result, Variant, SetUp, FEN and PDN's GameType are the
    writer's own). ``result``: "1-0", "0-1", "1/2-1/2" or "*"; by default
    from the end position's utility (Player 1 first), "*" when not over.
    Raises ValueError for a game with neither format, an illegal move or an
    unknown result.
    """
    return _duel._write_record(start, list(moves), result, list((headers or {}).items()))


def from_board(board, headers: Optional[Mapping[str, str]] = None) -> GameRecord:
    """The record of a duel.Board's game: its start, its move stack and its result()
    (python-chess's chess.pgn.Game.from_board)."""
    return GameRecord(headers or {}, board.root().state, board.move_stack, board.result())


def from_match(match: MatchResult) -> GameRecord:
    """The record of a finished duel.play game (its MatchResult.pgn(), read back)."""
    records = _records(match.pgn(), match.game)
    return records[0]
