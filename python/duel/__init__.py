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

__all__ = [
    "ArenaGame",
    "ArenaResult",
    "Game",
    "GameInfo",
    "MatchResult",
    "Move",
    "SearchProgress",
    "SearchResult",
    "Standing",
    "State",
    "__version__",
    "arena",
    "fit_ratings",
    "games",
    "load",
    "play",
    "search",
    "sprt_llr",
]
