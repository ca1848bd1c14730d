"""Two students' ``AB.py`` files against each other (seed 000, NUS CS3243
Project 3): the games a course ladder rates.

``python3 -m duel.cs3243 match A.py B.py --out DIR`` runs it from the command
line (``duel/cs3243/__main__.py``); ``match_files`` and ``write_results`` from
Python.

How a match goes (grader.py's rules wherever the two agree):

- ``games`` games (2 by default) of gardner-cs3243, colours alternating:
  game ``i`` (from 0) has A as White when ``i`` is even, B when it is odd.
- The hand-out's ``studentAgent(gameboard)`` is told no side and always
  moves White (grader.py). So Black's player is shown the position
  *mirrored*: ranks flipped (rank r becomes rank 6 - r, files unchanged) and
  colours swapped, which makes it White moving up the board; its answer
  ``((x1, y1), (x2, y2))`` goes back through the same mirror (rows y become
  4 - y) before it is checked against the real position's moves and played.
  The CS3243 rules have no castling, no en passant, no double step and no
  promotion, and none of their rules tells the colours apart but the
  direction pawns move in, so the mirror is exact: the mirrored position's
  moves are the real one's, one to one (tests/python/test_cs3243_match.py).
- Each player's file runs as the grader runs one (``_Student`` in a child
  process from child.py): in ``duel box`` (``sandbox=False``: unboxed) with a
  private folder holding a copy of its own file alone, so neither child sees
  the other's file; each with its own memory limit, configuration copy and
  kill-at-the-deadline. Everything that loses a game in grading (an
  exception, an answer of another form, an illegal move, the time limit, the
  memory limit, a hang, a crash) loses it here, with the grader's reason
  text; a move that leaves the mover's king attacked loses by the rules. The
  reason of an illegal move is written in the frame the player was shown.
- A file that cannot be loaded (its import raises, or it defines no
  studentAgent) loses every game with that reason, unplayed (no moves). When
  both cannot, White's failure comes first (White would have moved first):
  White loses.
- Seeds as the grader's: game ``i`` is ``duel.play(seed=seed * 1000 + i)``
  with both children's ``random`` seeded the same way before it, in
  interpreters with a fixed hash seed; a rerun with the same seed is the
  same run (up to timing).
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import json
import os
import pathlib
import shutil
import tempfile
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import duel

from . import GAME_SPEC, TIME_LIMIT
from .child import HANG_SECONDS, MEMORY_MIB, MEMORY_RANGE, _GRACE, _Run, box_binary
from .grader import _Student, _check_options, _rules_reason, _student_file

__all__ = [
    "MatchGame",
    "MatchResult",
    "match_files",
    "mirror_move",
    "mirror_state",
    "mirror_text",
    "pgn_text",
    "player_names",
    "write_results",
]

#: PGN's [Variant] for the CS3243 rules (Fairy-Stockfish's name, as `duel play --pgn`).
PGN_VARIANT = "cs3243"
#: PGN §9.8.1's Termination for each duel.play ending (play/pgn_record.hpp's).
_TERMINATION = {"rules": "normal", "timeout": "time forfeit", "illegal-move": "rules infraction",
                "abandoned": "abandoned", "turn-limit": "adjudication"}


# --- the mirror ---------------------------------------------------------------


def mirror_text(text: str) -> str:
    """A gardner-cs3243 position's text with the ranks flipped and the colours
    swapped (the side to move too): White to move becomes Black to move and the
    other way round; the clocks stay. ValueError for castling rights or an en
    passant square, which no CS3243 position has and no mirror would keep."""
    fields = text.split()
    if len(fields) != 6 or fields[2] != "-" or fields[3] != "-" or fields[1] not in ("w", "b"):
        raise ValueError(f"not a CS3243 position to mirror: {text!r}")
    fields[0] = "/".join(rank.swapcase() for rank in reversed(fields[0].split("/")))
    fields[1] = "b" if fields[1] == "w" else "w"
    return " ".join(fields)


def mirror_state(state: duel.State) -> duel.State:
    """The mirrored position (mirror_text) as a State of the same game."""
    return state.game.from_text(mirror_text(state.text))


def mirror_move(move: str) -> str:
    """A move's UCI text through the mirror: each square's rank r becomes 6 - r on a
    5x5 board ('b4c3' <-> 'b2c3'); its own inverse."""
    if len(move) != 4 or move[1] not in "12345" or move[3] not in "12345":
        raise ValueError(f"{move!r} is not a 5x5 move like 'b1c3'")
    return f"{move[0]}{6 - int(move[1])}{move[2]}{6 - int(move[3])}"


class _Player(_Student):
    """One side of the match: a student's file in its child, as the grader runs it,
    shown every position as White to move (Black's mirrored)."""

    def __init__(self, name: str, run: _Run, time_limit: float, hang: float) -> None:
        super().__init__(None, run.path, time_limit, hang, run.config, run)
        self.name = name
        self.mirrored = False
        self.__name__ = "studentAgent"  # duel.play's name for a callable

    def shown(self, state: duel.State) -> duel.State:
        self.mirrored = state.to_move == 2
        return mirror_state(state) if self.mirrored else state

    def played(self, move: str) -> str:
        return mirror_move(move) if self.mirrored else move

    def new_game(self, seed: int) -> None:
        super().new_game(seed)
        ready = self.child.ready if self.child is not None else None
        if self.import_error and ready is not None and "no_agent" in ready and self.path:
            # As grading words it ("AB.py: defines no studentAgent(gameboard)").
            self.import_error = f"{self.path.name}: {self.import_error}"


# --- records --------------------------------------------------------------------


@dataclasses.dataclass
class MatchGame:
    """One game of a match."""

    game: int
    """Its number, from 0."""
    white: str
    """White's player name."""
    black: str
    """Black's player name."""
    winner: Optional[str]
    """The winner's name, None for a draw."""
    result: str
    """'1-0', '0-1' or '1/2-1/2'."""
    reason: str
    """Why it ended, in the grader's words."""
    plies: int
    """Moves played (both sides')."""
    moves: List[str]
    """The moves played, UCI, White's first, in the real position's frame."""
    pgn: str
    """The game as PGN text."""

    def to_dict(self) -> Dict[str, object]:
        """The game as a JSON-ready dict."""
        return dataclasses.asdict(self)


@dataclasses.dataclass
class MatchResult:
    """A whole match."""

    players: Tuple[str, str]
    """A's and B's names."""
    games: List[MatchGame]
    """The games, in order."""
    seed: int
    """The run's seed."""
    time_limit: float
    """Seconds a move (0 = none)."""
    sandbox: bool
    """Whether the files ran in ``duel box``."""
    memory: Optional[int]
    """Each box's memory limit, MiB (None unboxed)."""

    @property
    def score(self) -> Tuple[float, float]:
        """A's and B's points: 1 a win, 1/2 a draw."""
        points = [0.0, 0.0]
        for g in self.games:
            for k, name in enumerate(self.players):
                points[k] += 1.0 if g.winner == name else 0.5 if g.winner is None else 0.0
        return points[0], points[1]

    def to_dict(self) -> Dict[str, object]:
        """The match as results.json holds it."""
        return {
            "kind": "match",
            "players": list(self.players),
            "games": [g.to_dict() for g in self.games],
            "score": list(self.score),
            "game": GAME_SPEC,
            "seed": self.seed,
            "time_limit": self.time_limit,
            "sandbox": self.sandbox,
            "memory": self.memory,
        }

    def summary(self) -> str:
        """One line: the score and the games' results."""
        a, b = self.players
        sa, sb = self.score
        won = [sum(g.winner == name for g in self.games) for name in self.players]
        drawn = sum(g.winner is None for g in self.games)
        return (f"cs3243 match: {a} {sa:g} - {sb:g} {b} over {len(self.games)} games"
                f" ({won[0]} won by {a}, {won[1]} by {b}, {drawn} drawn)")


# --- PGN ------------------------------------------------------------------------


def _tag_value(text: str) -> str:
    """A PGN tag's value: quotes and backslashes escaped, on one line (core/text.hpp)."""
    return "".join("\\" + c if c in '"\\' else " " if c in "\r\n" else c for c in text)


def _comment_units(text: str) -> List[str]:
    """A comment's words as movetext units: the whole `{...}` when it fits a line,
    else word by word (minichess/pgn.cpp's comment_units)."""
    words = "".join(" " if c in "{}" else c for c in text).split()
    if not words:
        return []
    words[0] = "{" + words[0]
    words[-1] += "}"
    whole = " ".join(words)
    return [whole] if len(whole) <= 79 else words


def pgn_text(moves: Sequence[str], result: str, tags: Sequence[Tuple[str, str]],
             comment: str = "") -> str:
    """The game from gardner-cs3243's start as PGN, as `duel play --pgn` writes one
    (docs/rules/minichess.md): the seven-tag roster (`tags` give its values, '?'
    where they do not), [Variant "cs3243"], the other `tags`; SAN movetext in
    lines of at most 79 characters, `comment` before the result."""
    given = dict(tags)
    roster = [("Event", "?"), ("Site", "?"), ("Date", "????.??.??"), ("Round", "?"),
              ("White", "?"), ("Black", "?")]
    lines = [f'[{k} "{_tag_value(given.get(k, unknown))}"]' for k, unknown in roster]
    lines += [f'[Result "{result}"]', f'[Variant "{PGN_VARIANT}"]']
    computed = {k for k, _ in roster} | {"Result", "Variant", "SetUp", "FEN"}
    lines += [f'[{k} "{_tag_value(v)}"]' for k, v in tags if k not in computed]
    out = "\n".join(lines) + "\n\n"
    line = ""

    def put(word: str) -> None:
        nonlocal out, line
        if line and len(line) + 1 + len(word) > 79:
            out += line + "\n"
            line = ""
        line += (" " if line else "") + word

    state = duel.load(GAME_SPEC).initial_state()
    for i, move in enumerate(moves):
        san = state.san(move)
        number = state.text.split()[5]
        if state.to_move == 1:
            put(f"{number}. {san}")
        elif i == 0:
            put(f"{number}... {san}")
        else:
            put(san)
        state = state.result(move)
    for unit in _comment_units(comment):
        put(unit)
    put(result)
    return out + line + "\n"


# --- the match ------------------------------------------------------------------


def player_names(a: "str | pathlib.Path", b: "str | pathlib.Path") -> Tuple[str, str]:
    """The default names: each file's folder's name ('A0123456X' for
    A0123456X/AB.py); when those are the same, folder/file ('subs/A.py' ...).
    ValueError when the two are still the same (the same file twice)."""
    pa, pb = pathlib.Path(a).resolve(), pathlib.Path(b).resolve()
    names = (pa.parent.name or str(pa.parent), pb.parent.name or str(pb.parent))
    if names[0] == names[1]:
        names = (f"{names[0]}/{pa.name}", f"{names[1]}/{pb.name}")
    if names[0] == names[1]:
        raise ValueError(f"both players would be named {names[0]!r}: give them names (--names)")
    return names


def _private_copy(path: pathlib.Path) -> Tuple[pathlib.Path, pathlib.Path]:
    """A fresh private folder holding a copy of the file alone (for an unboxed
    player: its working folder, where the other's file is not); (folder, copy)."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="duel-cs3243-match-")).resolve()
    copy = folder / path.name
    shutil.copyfile(path, copy)
    return folder, copy


def _result_token(winner: Optional[int]) -> str:
    """PGN's result for duel.play's winner (1 White, 2 Black, None a draw)."""
    return "1-0" if winner == 1 else "0-1" if winner == 2 else "1/2-1/2"


def match_files(a: "str | pathlib.Path", b: "str | pathlib.Path", *,
                names: Optional[Tuple[str, str]] = None, games: int = 2, seed: int = 0,
                time_limit: float = TIME_LIMIT, sandbox: bool = True, memory: int = MEMORY_MIB,
                config: Optional[bytes] = None, hang: float = HANG_SECONDS,
                on_game: Optional[Callable[[MatchGame], object]] = None) -> MatchResult:
    """Plays `games` games between the studentAgent of file `a` and of file `b`
    (module docstring), `time_limit` seconds a move (0 = none), each file in its own
    child in ``duel box`` with a memory limit of `memory` MiB (``sandbox=False``:
    unboxed, as this user) and a copy of `config` (default the course's file) in
    sys.argv[1]. names: the players' names (default player_names). on_game: called
    with each MatchGame as it finishes.

    Raises StudentFileError (a ValueError) when a file is missing, ValueError for
    options out of range or names that are the same, and SandboxError when the
    files are to be boxed and cannot be.
    """
    pa, pb = _student_file(a), _student_file(b)
    _check_options(games, time_limit)
    if sandbox and not MEMORY_RANGE[0] <= memory <= MEMORY_RANGE[1]:
        raise ValueError(f"the memory limit must be from {MEMORY_RANGE[0]} to {MEMORY_RANGE[1]}"
                         f" MiB, not {memory}")
    if names is None:
        names = player_names(pa, pb)
    elif len(names) != 2 or not all(names) or names[0] == names[1]:
        raise ValueError(f"the players need two different names, not {list(names)!r}")
    duel_bin = box_binary() if sandbox else None
    folders: List[pathlib.Path] = []
    runs: List[_Run] = []
    players: List[_Player] = []
    records: List[MatchGame] = []
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y.%m.%d")
    try:
        for path, name in ((pa, names[0]), (pb, names[1])):
            if duel_bin is not None:
                # As grade_file in a box: a private folder with a copy of the file alone.
                run = _Run(path, config, duel_bin, memory, None)
            else:
                folder, copy = _private_copy(path)
                folders.append(folder)
                run = _Run(copy, config, None, memory, folder)
            runs.append(run)
            players.append(_Player(name, run, time_limit, hang))
        for i in range(games):
            game_seed = seed * 1000 + i
            white, black = (players[0], players[1]) if i % 2 == 0 else (players[1], players[0])
            for p in (white, black):
                p.new_game(game_seed)
            moves: List[str] = []
            winner: Optional[int]
            if white.import_error or black.import_error:
                loser = white if white.import_error else black
                winner = 2 if loser is white else 1
                reason, ending = loser.import_error, "abandoned"
            else:
                played = duel.play(GAME_SPEC, white, black, seed=game_seed)
                winner, ending, moves = played.winner, played.ending, list(played.moves)
                # The loser's own failure (grader.py's words), else the rules' end.
                failed = black.reason if winner == 1 else white.reason if winner == 2 else ""
                reason = failed or _rules_reason(played)
            result = _result_token(winner)
            tags = [("Event", "duel.cs3243 match"), ("Date", date), ("Round", str(i + 1)),
                    ("White", white.name), ("Black", black.name),
                    ("Termination", _TERMINATION.get(ending, "unterminated"))]
            record = MatchGame(
                game=i, white=white.name, black=black.name,
                winner=None if winner is None else (white if winner == 1 else black).name,
                result=result, reason=reason, plies=len(moves), moves=moves,
                pgn=pgn_text(moves, result, tags, reason))
            records.append(record)
            if on_game is not None:
                on_game(record)
    finally:
        for p in players:
            p.end_game(_GRACE)  # each child and all it started
        for run in runs:
            run.close()
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)
    return MatchResult((names[0], names[1]), records, seed, time_limit, sandbox,
                       memory if sandbox else None)


def write_results(result: MatchResult, out: "str | pathlib.Path") -> pathlib.Path:
    """Writes OUT/results.json (made with its folders if missing) atomically: a
    temporary file in OUT, flushed to disk, renamed over it. Returns its path."""
    folder = pathlib.Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "results.json"
    fd, tmp = tempfile.mkstemp(prefix=".results.json.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(result.to_dict(), f, indent=2)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return target
