"""The hand-out's grading of ``studentAgent`` (seed 000, NUS CS3243 Project 3):
a student's file against the five reference opponents, 10 games each, and
the rubric's marks out of 10.

``python3 -m duel.cs3243 grade AB.py`` runs it from the command line
(``duel/cs3243/__main__.py``); ``grade_file`` and ``grade_agent`` from Python.

How a game goes (the choices where the hand-out is silent are marked):

- The student's agent plays White in every game: the hand-out's
  ``studentAgent(gameboard)`` is told no side and its sample answer moves
  "your White Queen", so White is the student's side. White moves first.
- The opponent is Duel's agent spec of the same name (RULES.md §1b's
  reference opponents: ``first``, ``random``, ``greedy``, ``smart``,
  ``minimax4``), refereed by ``duel.play`` under the gardner-cs3243 rules.
- Each move, the student's function gets a fresh gameboard dict and must
  return ``((x1, y1), (x2, y2))`` naming a move in the position's actions
  (pseudo-legal moves; one that leaves its own king attacked is playable
  and loses by the rules). An exception, an answer of another form, a move
  that is not legal, or an answer after the time limit loses the game; the
  reason says which.
- The time limit is per move, ``TIME_LIMIT`` (1 s) by default: the hand-out
  names no per-move figure (its CodePost limit is 30 s for a whole
  submission, and local grading compares times with "our solution's
  benchmark" plus buffers), so RULES.md §1b's "within a second a move"
  stands in.
- The student's code runs in a child process (``_child.py``, started and ended
  by child.py), never in the
  grader's: a call still running at the time limit and a second (at
  ``HANG_SECONDS`` without a limit) is killed with everything it started,
  that game is lost with the reason, and the next game starts a fresh
  child. Otherwise the module stays imported from game to game.
- A student's file runs in a box (``duel box``, docs/box.md): its own user,
  no capabilities, no network but a loopback of its own, its own processes
  (the grader's are not there to signal, trace or read), a cleared
  environment, the system's folders read-only, and of the machine's other
  folders only its private work folder (read-write: a copy of the file, or
  in a class the student's private copy, classroom.py) and a read-only
  folder holding ``_child.py`` and the configuration file. Duel's own
  package is not there (``import duel`` fails). The box's memory limit
  (``MEMORY_MIB``) is the whole tree's; a call that hits it loses the game
  with the limit as its reason. Killing ``duel box`` (SIGKILL) ends all it
  ran. ``sandbox=False`` (``--no-sandbox``) runs the child unboxed, as the
  grader's own user in the file's folder, and it dies with the grader
  (``_child.die_with_parent``); the results say which (``sandbox``).
- The time of a move is the grader's own: wall time from writing the
  request to reading the answer (``time.monotonic``), as the hand-out's
  graders measured "the time taken for the execution of your code"; the
  child reports none, so nothing the student's code does to its own clocks
  or pipes changes it.
- ``sys.argv[1]`` names a private copy of the course's configuration file
  (``CONFIG_FILE``, RULES.md §6b), or of the one ``config`` gives: students
  parse it at import.
- Whatever the student's code prints goes nowhere, at the file-descriptor
  level (the child's fds 0, 1 and 2 are /dev/null once it has taken its
  protocol's pipes), as the hand-out's autograder "disabled any printing".
- Seeds: game ``i`` (from 0) against an opponent is played with
  ``duel.play(seed=seed * 1000 + i)`` and the child's ``random`` seeded the
  same way before it; a file runs in an interpreter with ``PYTHONHASHSEED``
  fixed (``PYTHON_HASH_SEED``), so a choice that follows a set's order
  repeats too. A run with the same ``--seed`` is the same run (up to the
  student's and the engine's timing). A function given to ``grade_agent``
  runs in a fork of the caller, with the caller's hash seed.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import io
import pathlib
import re
import tempfile
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import duel

from . import COLOURS, GAME_SPEC, TIME_LIMIT, _child, state_to_gameboard, tuple_to_move
from .child import (BOX_PYTHON, CONFIG_FILE, HANG_SECONDS, MEMORY_MIB, MEMORY_RANGE,
                    PYTHON_HASH_SEED, SandboxError, _Child, _GRACE, _Run, box_binary,
                    duel_binary)

__all__ = [
    "ALLOWED_IMPORTS",
    "CONFIG_FILE",
    "BOX_PYTHON",
    "HANG_SECONDS",
    "MEMORY_MIB",
    "OPPONENTS",
    "PYTHON_HASH_SEED",
    "GameRecord",
    "GradeResult",
    "Opponent",
    "OpponentResult",
    "SandboxError",
    "StudentFileError",
    "box_binary",
    "duel_binary",
    "grade_agent",
    "foreign_imports",
    "grade_file",
    "load_student",
]


@dataclasses.dataclass(frozen=True)
class Opponent:
    """One test case of the hand-out's rubric."""

    spec: str
    """Duel's agent spec (README's agent table)."""
    name: str
    """The hand-out's name for it."""
    needed: float
    """The win-or-draw rate for full credit (0..1)."""
    marks: int
    """Marks for full credit."""


# The hand-out's "Grading Rubrics (Total: 10 marks)": winning or drawing
# against the Dummy Agent 100% of the time (1m), the Random Agent 100% (1m),
# the Greedy Agent 90% (2m), the Smart Agent 90% (2m), the Minimax Agent 80%
# (4m); "Partial credits will be given and scaled proportionally based on
# your Agent's performance"; "your agent will play against each different
# agent for 10 iterations".
OPPONENTS: Tuple[Opponent, ...] = (
    Opponent("first", "Dummy", 1.0, 1),
    Opponent("random", "Random", 1.0, 1),
    Opponent("greedy", "Greedy", 0.9, 2),
    Opponent("smart", "Smart", 0.9, 2),
    Opponent("minimax4", "Minimax", 0.8, 4),
)


class StudentFileError(ValueError):
    """The student's file cannot be graded: missing, not a file, or no callable
    studentAgent. (An exception while importing it is graded instead: every game
    lost.)"""


@dataclasses.dataclass
class GameRecord:
    """One graded game."""

    opponent: str
    """The opponent's spec."""
    index: int
    """The game's number against this opponent, from 0."""
    outcome: str
    """'win', 'draw' or 'loss', the student's view."""
    reason: str
    """Why the game ended, in words."""
    moves: List[str]
    """The moves played, UCI, White's first."""
    student_seconds: float
    """The student's total thinking time: the grader's wall time from each request
    written to its answer read."""
    slowest_move: float
    """The student's longest move, seconds (measured as student_seconds)."""

    def to_dict(self) -> Dict[str, object]:
        """The record as a JSON-ready dict."""
        return dataclasses.asdict(self)


@dataclasses.dataclass
class OpponentResult:
    """The games against one opponent and their marks."""

    opponent: Opponent
    """The test case."""
    games: List[GameRecord]
    """The games, in order."""

    @property
    def wins(self) -> int:
        """Games won."""
        return sum(g.outcome == "win" for g in self.games)

    @property
    def draws(self) -> int:
        """Games drawn."""
        return sum(g.outcome == "draw" for g in self.games)

    @property
    def losses(self) -> int:
        """Games lost."""
        return sum(g.outcome == "loss" for g in self.games)

    @property
    def rate(self) -> float:
        """The win-or-draw rate, 0..1 (0 with no games)."""
        return (self.wins + self.draws) / len(self.games) if self.games else 0.0

    @property
    def passed(self) -> bool:
        """The rate reaches the hand-out's bar for full credit."""
        return bool(self.games) and self.rate >= self.opponent.needed - 1e-9

    @property
    def marks(self) -> float:
        """Full marks at the bar; below it scaled in proportion (rate / bar), rounded to
        hundredths (the hand-out: "scaled proportionally based on your Agent's
        performance")."""
        if self.passed:
            return float(self.opponent.marks)
        return round(self.opponent.marks * self.rate / self.opponent.needed, 2)

    def to_dict(self) -> Dict[str, object]:
        """The result as a JSON-ready dict."""
        return {
            "opponent": self.opponent.spec,
            "name": self.opponent.name,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "rate": self.rate,
            "needed": self.opponent.needed,
            "passed": self.passed,
            "marks": self.marks,
            "max_marks": self.opponent.marks,
            "games": [g.to_dict() for g in self.games],
        }


@dataclasses.dataclass
class GradeResult:
    """A whole grading run."""

    student: str
    """The graded file (or the function's name)."""
    games_per_opponent: int
    """Games against each opponent."""
    time_limit: float
    """Seconds a move."""
    seed: int
    """The run's seed."""
    results: List[OpponentResult]
    """One per opponent, in the rubric's order."""
    notes: List[str] = dataclasses.field(default_factory=list)
    """What the grader reports beside the marks (imports outside the hand-out's list)."""
    sandbox: bool = False
    """Whether the student's code ran in ``duel box`` (a file, unless --no-sandbox)."""
    memory: Optional[int] = None
    """The box's memory limit, MiB (None unboxed)."""

    @property
    def marks(self) -> float:
        """The total, out of max_marks."""
        return round(sum(r.marks for r in self.results), 2)

    @property
    def max_marks(self) -> int:
        """The rubric's total for the opponents played (10 for all five)."""
        return sum(r.opponent.marks for r in self.results)

    def to_dict(self) -> Dict[str, object]:
        """The run as a JSON-ready dict (what ``grade --json`` prints)."""
        return {
            "student": self.student,
            "game": GAME_SPEC,
            "games_per_opponent": self.games_per_opponent,
            "time_limit": self.time_limit,
            "seed": self.seed,
            "marks": self.marks,
            "max_marks": self.max_marks,
            "opponents": [r.to_dict() for r in self.results],
            "notes": list(self.notes),
            "sandbox": self.sandbox,
            "memory": self.memory,
        }

    def table(self) -> str:
        """The rubric table as the grade command prints it (several lines)."""
        lines = [
            f"CS3243 Project 3 (seed 000): {self.student}",
            f"{self.games_per_opponent} games per opponent, student plays White,"
            f" {self.time_limit:g} s a move, seed {self.seed}",
            "sandbox: " + (f"true (duel box, memory limit {self.memory} MiB)" if self.sandbox
                           else "false"),
            "",
            f"{'opponent':<10} {'agent':<8} {'W':>3} {'D':>3} {'L':>3}  {'win-or-draw':>11}"
            f"  {'needed':>6}  {'result':<6}  {'marks':>5}",
        ]
        for r in self.results:
            lines.append(
                f"{r.opponent.spec:<10} {r.opponent.name:<8} {r.wins:>3} {r.draws:>3}"
                f" {r.losses:>3}  {r.rate:>11.0%}  {r.opponent.needed:>6.0%}"
                f"  {'pass' if r.passed else 'FAIL':<6}  {r.marks:>5.2f}/{r.opponent.marks}"
            )
        lines.append(f"{'total':<59}{self.marks:>5.2f}/{self.max_marks}")
        if self.notes:
            lines += [""] + [f"Note: {n}" for n in self.notes]
        lost = [(r.opponent.spec, g) for r in self.results for g in r.games if g.outcome == "loss"]
        if lost:
            lines += ["", "Games lost:"]
            for spec, g in lost:
                lines.append(f"  {spec} game {g.index + 1} ({len(g.moves)} plies): {g.reason}")
        return "\n".join(lines)


def _student_file(path: "str | pathlib.Path") -> pathlib.Path:
    """The path, or StudentFileError when it is missing or not a file."""
    p = pathlib.Path(path)
    if not p.exists():
        raise StudentFileError(f"{p}: no such file")
    if not p.is_file():
        raise StudentFileError(f"{p}: not a file")
    return p


def load_student(path: "str | pathlib.Path") -> Tuple[Optional[Callable[..., object]], str]:
    """Imports the student's file and returns (studentAgent, "") or, when importing it
    raised, (None, the error in one line).

    Raises StudentFileError (a ValueError) when the file is missing or defines no
    callable studentAgent.
    """
    p = _student_file(path)
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        agent, error, no_agent = _child.import_student(p)
    if no_agent:
        raise StudentFileError(f"{p}: {error}")
    return agent, error


_exception_text = _child.exception_text


class _Student:
    """The student's function as a duel.play agent: gameboard in, tuple out, every
    failure turned into a recorded reason and a lost game. The function runs in a
    child process (``_Child``), a file's in its box (``run``)."""

    def __init__(self, agent: Optional[Callable[..., object]], path: Optional[pathlib.Path],
                 time_limit: float, hang: float, config: pathlib.Path,
                 run: Optional[_Run] = None) -> None:
        self.agent = agent
        self.path = path
        self.run = run
        self.time_limit = time_limit
        # A call is killed at the time limit and a second's grace (the call lost
        # either way), or at `hang` seconds when there is no limit.
        self.hang = min(hang, time_limit + 1.0) if time_limit > 0 else hang
        self.child: Optional[_Child] = None
        self.config = config  # the copy of the configuration file: sys.argv[1]
        self.import_error = ""
        self.reason = ""
        self.seconds = 0.0
        self.slowest = 0.0

    def _memory_note(self, text: str) -> str:
        """`text` with the box's memory limit named when it is a MemoryError in a box
        (where the limit is an address-space one, the child sees it as that)."""
        if self.child is not None and self.child.boxed and self.run is not None and (
                text.startswith("MemoryError") or "raised MemoryError" in text):
            return f"{text} (memory limit {self.run.memory} MiB)"
        return text

    def new_game(self, seed: int) -> None:
        """The next game: the child (started if there is none: the first game, or
        the last call was killed) with its `random` seeded with `seed`; forgets
        the previous game's failure and times. The student's module stays
        imported from game to game, as in one interpreter."""
        self.reason, self.seconds, self.slowest = "", 0.0, 0.0
        if self.child is not None:
            if self.child.ask({"op": "seed", "seed": seed}, HANG_SECONDS)[0] is not None:
                return
            self.end_game()
        self.import_error = ""
        self.child = _Child(self.agent, self.path, self.config, self.run)
        ready = self.child.ready
        name = self.path.name if self.path else "the agent"
        if ready is None:
            self.import_error = self.child.silence(
                f"importing {name}", f"did not finish within {HANG_SECONDS:g} s")
        elif "import_error" in ready or "no_agent" in ready:
            self.import_error = self._memory_note(
                str(ready.get("import_error") or ready.get("no_agent"))[:300])
        elif self.child.ask({"op": "seed", "seed": seed}, HANG_SECONDS)[0] is None:
            self.import_error = self.child.silence("the agent's process",
                                                   "did not answer")

    def end_game(self, grace: float = 0.0) -> None:
        """Kills the game's child, if any (after `grace` seconds to end by itself once
        its requests are closed: Child.kill)."""
        if self.child is not None:
            self.child.kill(grace)
            self.child = None

    def shown(self, state: duel.State) -> duel.State:
        """The position the student's function is shown: the state itself (White to
        move). match.py's Black player overrides it with the mirrored position."""
        return state

    def played(self, move: str) -> str:
        """The game's move for the student's answer `move` (UCI, in the shown
        position's frame): itself here; match.py's Black player mirrors it back."""
        return move

    def __call__(self, state: duel.State) -> Optional[str]:
        if self.import_error or self.child is None:
            self.reason = self.import_error or "the agent's process is gone"
            return None
        shown = self.shown(state)
        board = [[f, r, piece, colour]
                 for (f, r), (piece, colour) in state_to_gameboard(shown).items()]
        # The grader's own clock, from the request written to the answer read: the
        # child's report of its time, if it sent one, is not read.
        reply, took = self.child.ask({"op": "move", "board": board}, self.hang)
        self.seconds += took
        self.slowest = max(self.slowest, took)
        if reply is None:
            self.reason = self.child.silence(
                "studentAgent", f"did not return within {self.hang:g} s (killed)")
            self.end_game()  # killed: the next game starts a fresh one
            return None
        if "raised" in reply:
            raised = str(reply["raised"])[:300]
            self.reason = f"studentAgent raised {self._memory_note(raised)}"
            return None
        if "garbage" in reply:
            self.reason = f"studentAgent returned garbage: {str(reply['garbage'])[:200]}"
            return None
        if self.time_limit > 0 and took > self.time_limit:
            self.reason = f"studentAgent took {took:.2f} s, over the {self.time_limit:g} s limit"
            return None
        try:
            answer = _tuples(reply.get("answer"))
            move = tuple_to_move(answer)
        except RecursionError:
            self.reason = "studentAgent returned garbage: lists nested too deep"
            return None
        except ValueError as e:
            self.reason = f"studentAgent returned garbage: {e}"
            return None
        played = self.played(move)
        if played not in state.actions():
            try:  # why, in the frame of the board the student was shown
                shown.result(move)
                why = "not a move here"
            except ValueError as e:
                why = str(e)
            self.reason = (f"studentAgent returned {answer!r}, an illegal move:"
                           f" {_handout_squares(why)}")
            return None
        return played


def _handout_squares(text: str) -> str:
    """Squares and moves in a message as the hand-out writes them: 'a1a5' becomes
    (('a', 0), ('a', 4)) and a1 becomes ('a', 0) (row 0 is White's back rank)."""
    text = re.sub(r"'([a-e])([1-5])([a-e])([1-5])[qrbn]?'",
                  lambda m: f"(('{m[1]}', {int(m[2]) - 1}), ('{m[3]}', {int(m[4]) - 1}))", text)
    return re.sub(r"\b([a-e])([1-5])\b", lambda m: f"('{m[1]}', {int(m[2]) - 1})", text)


#: The hand-out's "Allowed Libraries" (its "operators" is the module operator).
ALLOWED_IMPORTS = frozenset({
    "sys", "queue", "collections", "heapq", "array", "copy", "enum", "string", "numbers",
    "math", "decimal", "fractions", "random", "itertools", "functools", "operator", "types",
    "typing", "__future__"})


def foreign_imports(path: pathlib.Path) -> List[str]:
    """The imports of the file outside the hand-out's allowed libraries, as 'numpy (line
    3)', in the file's order; empty when it cannot be parsed (its import then fails)."""
    try:
        tree = ast.parse(path.read_bytes(), filename=str(path))
    except (SyntaxError, ValueError, OSError):
        return []
    out = []
    for node in ast.walk(tree):
        names: List[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        for name in names:
            top = name.split(".")[0]
            if top not in ALLOWED_IMPORTS:
                out.append((node.lineno, f"{name} (line {node.lineno})"))
    return [text for _, text in sorted(out)]


def _tuples(x: object) -> object:
    """The child's lists back as the tuples the student returned."""
    if isinstance(x, list):
        return tuple(_tuples(v) for v in x)
    return x


def _rules_reason(match: duel.MatchResult) -> str:
    """Why a game ended by the rules, in the hand-out's words (RULES.md §1b)."""
    final = match.final_state
    clock = int(final.text.split()[4])
    if match.winner is None:
        if clock >= 50:
            return f"draw: {clock} plies without a change in the number of pieces"
        return "draw: the side to move has no move at all"
    loser = COLOURS[2 - match.winner]
    winner = COLOURS[match.winner - 1]
    if final.to_move == 3 - match.winner:
        why = f"{loser} has no move that keeps its king safe (checkmate or out of valid moves)"
    else:
        why = f"{loser}'s move left its own king attacked (king capture)"
    return f"{winner} wins: {why}"


def grade_agent(
    agent: Optional[Callable[..., object]],
    *,
    games: int = 10,
    seed: int = 0,
    time_limit: float = TIME_LIMIT,
    opponents: Sequence[Opponent] = OPPONENTS,
    name: Optional[str] = None,
    path: Optional[pathlib.Path] = None,
    import_error: str = "",
    hang: float = HANG_SECONDS,
    on_game: Optional[Callable[[GameRecord], object]] = None,
    config: Optional[bytes] = None,
) -> GradeResult:
    """Grades a function studentAgent(gameboard) -> ((x1, y1), (x2, y2)): `games` games
    as White against each of `opponents`, `time_limit` seconds a move (0 = none). The
    function runs in a fork of this process, unboxed (it is the caller's own code);
    a student's file is grade_file's.

    import_error: when not empty, every game is lost with it as the reason (a file that
    could not be imported). on_game: called with each GameRecord as it finishes.
    config: the text of the configuration file the student's code finds a copy of in
    sys.argv[1] (default the course's, CONFIG_FILE). path: with no `agent`, the file
    whose studentAgent is graded, unboxed (grade_file boxes it).
    """
    _check_options(games, time_limit)
    if agent is None and path is None:
        raise ValueError("grade_agent needs a function (or a path)")
    run = _Run(pathlib.Path(path), config, None, MEMORY_MIB, None) if agent is None else None
    config_dir = _config_copy(config) if run is None else None
    config_path = run.config if run is not None else pathlib.Path(config_dir.name, "config.txt")
    student = _Student(agent, run.path if run is not None else path, time_limit, hang,
                       config_path, run)
    try:
        results = _play_all(student, games, seed, opponents, import_error, on_game)
    finally:
        if run is not None:
            run.close()
        if config_dir is not None:
            config_dir.cleanup()
    return GradeResult(name or getattr(agent, "__name__", "studentAgent"), games, time_limit,
                       seed, results)


def _check_options(games: int, time_limit: float) -> None:
    """ValueError for a number of games or a time limit out of range."""
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if not time_limit >= 0:
        raise ValueError(f"the time limit must be 0 or more seconds, not {time_limit:g}")


def _play_all(student: _Student, games: int, seed: int, opponents: Sequence[Opponent],
              import_error: str, on_game: Optional[Callable[[GameRecord], object]]
              ) -> List[OpponentResult]:
    """The student's games against each opponent, in order; its child ended after."""
    student.__name__ = "studentAgent"  # type: ignore[attr-defined]  # duel.play's name for it
    results = []
    try:
        for opp in opponents:
            records: List[GameRecord] = []
            for i in range(games):
                game_seed = seed * 1000 + i
                if import_error:
                    record = GameRecord(opp.spec, i, "loss", import_error, [], 0.0, 0.0)
                else:
                    student.new_game(game_seed)
                    match = duel.play(GAME_SPEC, student, opp.spec, seed=game_seed)
                    if match.winner == 1:
                        outcome = "win"
                    elif match.winner is None:
                        outcome = "draw"
                    else:
                        outcome = "loss"
                    reason = student.reason or _rules_reason(match)
                    record = GameRecord(opp.spec, i, outcome, reason, list(match.moves),
                                        round(student.seconds, 3), round(student.slowest, 3))
                records.append(record)
                if on_game is not None:
                    on_game(record)
            results.append(OpponentResult(opp, records))
    finally:
        student.end_game(_GRACE)  # the child and all it started
    return results


def _config_copy(config: Optional[bytes]) -> "tempfile.TemporaryDirectory[str]":
    """A private folder holding config.txt: `config`, or the course's file."""
    folder = tempfile.TemporaryDirectory(prefix="duel-cs3243-")
    text = CONFIG_FILE.read_bytes() if config is None else config
    pathlib.Path(folder.name, "config.txt").write_bytes(text)
    return folder


def grade_file(path: "str | pathlib.Path", *, sandbox: bool = True, memory: int = MEMORY_MIB,
               work: "str | pathlib.Path | None" = None, games: int = 10, seed: int = 0,
               time_limit: float = TIME_LIMIT, opponents: Sequence[Opponent] = OPPONENTS,
               hang: float = HANG_SECONDS, on_game: Optional[Callable[[GameRecord], object]] = None,
               config: Optional[bytes] = None) -> GradeResult:
    """Grades the studentAgent of the student's file as grade_agent does (games, seed,
    time_limit, opponents, hang, on_game, config), run in a child interpreter with a
    fixed hash seed, one a game, started in ``duel box`` with a memory limit of
    `memory` MiB (``sandbox=False``: unboxed, as the grader's user). The child's
    folder is `work` (which must hold the file: a class's private copy of the
    student's folder), else, boxed, a fresh private folder with a copy of the file
    alone, else the file's own folder. A file whose import raises loses every game
    with that reason.

    Raises StudentFileError (a ValueError) when the file is missing or has no
    studentAgent, and SandboxError when it is to be boxed and cannot be.
    """
    p = _student_file(path)
    _check_options(games, time_limit)
    folder = None if work is None else pathlib.Path(work).resolve()
    if folder is not None and folder not in p.resolve().parents:
        raise ValueError(f"{p}: not in its work folder {folder}")
    if sandbox and not MEMORY_RANGE[0] <= memory <= MEMORY_RANGE[1]:
        raise ValueError(f"the memory limit must be from {MEMORY_RANGE[0]} to {MEMORY_RANGE[1]}"
                         f" MiB, not {memory}")
    duel_bin = box_binary() if sandbox else None
    run = _Run(p, config, duel_bin, memory, folder)
    try:
        probe = _Child(None, run.path, run.config, run)
        ready = probe.ready
        probe.kill(_GRACE)
        if ready is not None and "no_agent" in ready:
            raise StudentFileError(f"{p}: {str(ready['no_agent'])[:200]}")
        student = _Student(None, run.path, time_limit, hang, run.config, run)
        results = _play_all(student, games, seed, opponents, "", on_game)
    finally:
        run.close()
    result = GradeResult(str(p), games, time_limit, seed, results, sandbox=sandbox,
                         memory=memory if sandbox else None)
    foreign = foreign_imports(p)
    if foreign:
        result.notes.append("imports outside the hand-out's allowed libraries: "
                            + ", ".join(foreign))
    return result
