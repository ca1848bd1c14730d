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
- The student's code runs in a child process (``_child.py``), never in the
  grader's: a call still running at the time limit and a second (at
  ``HANG_SECONDS`` without a limit) is killed with everything it started,
  that game is lost with the reason, and the next game starts a fresh
  child. Otherwise the module stays imported from game to game. The child
  runs in the file's folder (a class's student gets a private copy of
  theirs, classroom.py) and dies with the grader (``_child.die_with_parent``).
- ``sys.argv[1]`` names a private copy of the course's configuration file
  (``CONFIG_FILE``, RULES.md §6b), or of the one ``config`` gives: students
  parse it at import.
- Whatever the student's code prints goes nowhere, at the file-descriptor
  level (the child's fds 0, 1 and 2 are /dev/null), as the hand-out's
  autograder "disabled any printing".
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
import json
import os
import pathlib
import re
import select
import signal
import subprocess
import sys
import tempfile
import time
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import duel

from . import COLOURS, GAME_SPEC, TIME_LIMIT, _child, state_to_gameboard, tuple_to_move

__all__ = [
    "ALLOWED_IMPORTS",
    "CONFIG_FILE",
    "HANG_SECONDS",
    "OPPONENTS",
    "PYTHON_HASH_SEED",
    "GameRecord",
    "GradeResult",
    "Opponent",
    "OpponentResult",
    "StudentFileError",
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

#: Seconds after which a call to the student's function that has not returned
#: is killed when there is no time limit (with one, at the limit and a second's
#: grace), and the longest an import may take: that game is lost, the next one
#: starts in a fresh process.
HANG_SECONDS = 30.0

#: The hash seed of the child interpreter a student's file runs in, so that
#: the order of a set (and a choice made from it) is the same in every run.
PYTHON_HASH_SEED = "0"

#: The course's configuration file, shipped byte for byte beside this module
#: (RULES.md §6b; its SOURCE note cites tanyjnaaman/CS3243@cbb975b:project3/
#: config.txt): rows, columns, then the enemy's and own pieces as
#: ``[Piece,square]`` lines. A copy of it (or of the file ``--config`` names) is
#: what the student's code finds in sys.argv[1]; students' AB.py files parse it
#: at import, so a file in another format fails them before a move.
CONFIG_FILE = pathlib.Path(__file__).with_name("config.txt")


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
    """The student's total thinking time."""
    slowest_move: float
    """The student's longest move, seconds."""

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
        }

    def table(self) -> str:
        """The rubric table as the grade command prints it (several lines)."""
        lines = [
            f"CS3243 Project 3 (seed 000): {self.student}",
            f"{self.games_per_opponent} games per opponent, student plays White,"
            f" {self.time_limit:g} s a move, seed {self.seed}",
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


class _Child:
    """A child process running the student's function (``_child.py``): started
    for the first game, killed (with everything it started) when a call passes
    its deadline, and started again for the next game; ended after the last."""

    def __init__(self, agent: Optional[Callable[..., object]], path: Optional[pathlib.Path],
                 deadline: float, config: pathlib.Path) -> None:
        r1, w1 = os.pipe()
        r2, w2 = os.pipe()
        self.pid = 0
        self.proc: Optional[subprocess.Popen] = None
        parent = os.getpid()
        if agent is None and path is not None:
            # A file: a fresh interpreter with a fixed hash seed, its fds 0-2 /dev/null.
            env = dict(os.environ, PYTHONHASHSEED=PYTHON_HASH_SEED)
            self.proc = subprocess.Popen(
                [sys.executable, str(pathlib.Path(__file__).with_name("_child.py")),
                 str(path.resolve()), str(r1), str(w2), str(config), str(parent)],
                pass_fds=(r1, w2), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, env=env, cwd=str(path.resolve().parent),
                start_new_session=True)
            self.pid = self.proc.pid
        else:
            # A function: a fork of this process (its hash seed is this one's).
            pid = os.fork()
            if pid == 0:  # pragma: no cover - the child
                try:
                    os.setsid()
                    _child.die_with_parent(parent)
                    os.close(w1)
                    os.close(r2)
                    null = os.open(os.devnull, os.O_RDWR)
                    for fd in (0, 1, 2):
                        os.dup2(null, fd)
                    sys.argv = [sys.argv[0], str(config)]
                    _child.serve(agent, "", r1, w2, path)
                finally:
                    os._exit(0)
            self.pid = pid
        os.close(r1)
        os.close(w2)
        self.write = os.fdopen(w1, "w", encoding="utf-8", buffering=1)
        self.read_fd = r2
        self.buffer = b""
        self.deadline = deadline
        self.ready = self.receive(HANG_SECONDS)

    def receive(self, seconds: float) -> Optional[dict]:
        """The child's next message, or None when it has not come within `seconds`
        (or the child died)."""
        end = time.monotonic() + seconds
        while b"\n" not in self.buffer:
            left = end - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.read_fd], [], [], left)
            if not ready:
                return None
            chunk = os.read(self.read_fd, 65536)
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        try:
            return json.loads(line)
        except ValueError:
            return None

    def ask(self, request: dict, seconds: float) -> Optional[dict]:
        """One request and its answer; None when there was none in time."""
        try:
            self.write.write(json.dumps(request) + "\n")
            self.write.flush()
        except OSError:
            return None
        return self.receive(seconds)

    def kill(self) -> None:
        """Ends the child and its whole session; waits for it."""
        with contextlib.suppress(OSError):
            self.write.close()
        with contextlib.suppress(OSError):
            os.close(self.read_fd)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(self.pid, signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait()
        else:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self.pid, 0)


class _Student:
    """The student's function as a duel.play agent: gameboard in, tuple out, every
    failure turned into a recorded reason and a lost game. The function runs in a
    child process (``_Child``)."""

    def __init__(self, agent: Optional[Callable[..., object]], path: Optional[pathlib.Path],
                 time_limit: float, hang: float, config: pathlib.Path) -> None:
        self.agent = agent
        self.path = path
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

    def new_game(self, seed: int) -> None:
        """The next game: the child (started if there is none: the first game, or
        the last call was killed) with its `random` seeded with `seed`; forgets
        the previous game's failure and times. The student's module stays
        imported from game to game, as in one interpreter."""
        self.reason, self.seconds, self.slowest = "", 0.0, 0.0
        if self.child is not None:
            if self.child.ask({"op": "seed", "seed": seed}, HANG_SECONDS) is not None:
                return
            self.end_game()
        self.import_error = ""
        self.child = _Child(self.agent, self.path, self.hang, self.config)
        ready = self.child.ready
        if ready is None:
            self.import_error = (f"importing {self.path.name if self.path else 'the agent'}"
                                 f" did not finish within {HANG_SECONDS:g} s")
        elif "import_error" in ready or "no_agent" in ready:
            self.import_error = str(ready.get("import_error") or ready.get("no_agent"))
        elif self.child.ask({"op": "seed", "seed": seed}, HANG_SECONDS) is None:
            self.import_error = "the agent's process did not answer"

    def end_game(self) -> None:
        """Kills the game's child, if any."""
        if self.child is not None:
            self.child.kill()
            self.child = None

    def __call__(self, state: duel.State) -> Optional[str]:
        if self.import_error or self.child is None:
            self.reason = self.import_error or "the agent's process is gone"
            return None
        board = [[f, r, piece, colour]
                 for (f, r), (piece, colour) in state_to_gameboard(state).items()]
        start = time.perf_counter()
        reply = self.child.ask({"op": "move", "board": board}, self.hang)
        took = time.perf_counter() - start
        if reply is not None:
            took = float(reply.get("seconds", took))
        self.seconds += took
        self.slowest = max(self.slowest, took)
        if reply is None:
            self.end_game()  # killed: the next game starts a fresh one
            self.reason = f"studentAgent did not return within {self.hang:g} s (killed)"
            return None
        if "raised" in reply:
            self.reason = f"studentAgent raised {reply['raised']}"
            return None
        if "garbage" in reply:
            self.reason = f"studentAgent returned garbage: {reply['garbage']}"
            return None
        if self.time_limit > 0 and took > self.time_limit:
            self.reason = f"studentAgent took {took:.2f} s, over the {self.time_limit:g} s limit"
            return None
        answer = _tuples(reply.get("answer"))
        try:
            move = tuple_to_move(answer)
        except ValueError as e:
            self.reason = f"studentAgent returned garbage: {e}"
            return None
        if move not in state.actions():
            try:
                state.result(move)
                why = "not a move here"
            except ValueError as e:
                why = str(e)
            self.reason = (f"studentAgent returned {answer!r}, an illegal move:"
                           f" {_handout_squares(why)}")
            return None
        return move


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
    as White against each of `opponents`, `time_limit` seconds a move (0 = none).

    import_error: when not empty, every game is lost with it as the reason (a file that
    could not be imported). on_game: called with each GameRecord as it finishes.
    config: the text of the configuration file the student's code finds a copy of in
    sys.argv[1] (default the course's, CONFIG_FILE).
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if time_limit < 0:
        raise ValueError(f"the time limit must be 0 or more seconds, not {time_limit:g}")
    config_dir = _config_copy(config)
    student = _Student(agent, path, time_limit, hang, pathlib.Path(config_dir.name, "config.txt"))
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
        student.end_game()  # the child and all it started
        config_dir.cleanup()
    return GradeResult(name or getattr(agent, "__name__", "studentAgent"), games, time_limit,
                       seed, results)


def _config_copy(config: Optional[bytes]) -> "tempfile.TemporaryDirectory[str]":
    """A private folder holding config.txt: `config`, or the course's file."""
    folder = tempfile.TemporaryDirectory(prefix="duel-cs3243-")
    text = CONFIG_FILE.read_bytes() if config is None else config
    pathlib.Path(folder.name, "config.txt").write_bytes(text)
    return folder


def grade_file(path: "str | pathlib.Path", **options: object) -> GradeResult:
    """Grades the studentAgent of the student's file (grade_agent, with `options`), run
    in a child interpreter with a fixed hash seed, one a game. A file whose import
    raises loses every game with that reason.

    Raises StudentFileError (a ValueError) when the file is missing or has no
    studentAgent.
    """
    p = _student_file(path)
    config = options.get("config")
    with _config_copy(config if isinstance(config, bytes) else None) as folder:
        probe = _Child(None, p, HANG_SECONDS, pathlib.Path(folder, "config.txt"))
        ready = probe.ready
        probe.kill()
    if ready is not None and "no_agent" in ready:
        raise StudentFileError(f"{p}: {ready['no_agent']}")
    result = grade_agent(None, name=str(p), path=p, **options)  # type: ignore[arg-type]
    foreign = foreign_imports(p)
    if foreign:
        result.notes.append("imports outside the hand-out's allowed libraries: "
                            + ", ".join(foreign))
    return result
