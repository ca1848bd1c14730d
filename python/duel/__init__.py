"""Duel from Python: two-player board games, their states and Duel's searches.

    >>> import duel
    >>> game = duel.load("nqueens:n=8,variant=2")
    >>> state = game.initial_state()
    >>> r = duel.search(state, depth=3)
    >>> state = state.result(r.move)
    >>> duel.play(game, "engine:time=0.1", lambda s: s.actions()[0]).reason

The compiled part is the extension `duel._duel` (built by the project's
CMake); this package re-exports it. See docs/python.md.
"""

from ._duel import (
    ArenaGame,
    ArenaResult,
    Game,
    GameInfo,
    MatchResult,
    Move,
    SearchProgress,
    SearchResult,
    Standing,
    State,
    __version__,
    arena,
    fit_ratings,
    games,
    load,
    play,
    search,
    sprt_llr,
)
from .board import Board, LegalMoves, Outcome, Piece, match_board, match_html, match_san
from .drawing import Svg, svg

# In Jupyter and IPython a position shows as its board, a game as its moves
# in SAN and its last position (python-chess does the same).
State._repr_svg_ = lambda self: str(svg(self))
MatchResult.board = match_board
MatchResult.san = property(match_san)
MatchResult._repr_html_ = match_html
del match_board, match_html, match_san

__all__ = [
    "ArenaGame",
    "ArenaResult",
    "Board",
    "Game",
    "GameInfo",
    "LegalMoves",
    "MatchResult",
    "Move",
    "Outcome",
    "Piece",
    "SearchProgress",
    "SearchResult",
    "Standing",
    "State",
    "Svg",
    "__version__",
    "arena",
    "fit_ratings",
    "games",
    "load",
    "play",
    "search",
    "sprt_llr",
    "svg",
]
