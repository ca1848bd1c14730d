"""``python3 -m duel.cs3243 grade AB.py [--games 10] [--seed S] [--time-limit T] [--config F] [--memory MIB] [--no-sandbox] [--json]``:
the hand-out's grading of a student's ``studentAgent`` (duel.cs3243.grader).
``class SUBMISSIONS --out DIR`` grades a folder of them (duel.cs3243.classroom);
``match A.py B.py --out DIR [--games 2] [--names A,B]`` plays two files against
each other, colours alternating, and writes DIR/results.json (duel.cs3243.match).

Prints the rubric table (win-or-draw rate against each of the five opponents,
pass/fail against the hand-out's bar, marks out of 10) and the reason of every
game lost; ``--json`` prints the whole run as JSON instead. The student's code
runs in ``duel box`` (``--no-sandbox``: unboxed). Exit status 0 once graded
(whatever the marks), 2 with a one-line message for bad input (a missing
file, a file without studentAgent, a bad option) or when this machine cannot
box and ``--no-sandbox`` was not given.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys
import time
from typing import Dict, List, NoReturn, Optional

from . import TIME_LIMIT
from .classroom import find_submissions, grade_class
from .grader import (MEMORY_MIB, MEMORY_RANGE, OPPONENTS, GameRecord, Opponent, SandboxError,
                     StudentFileError, grade_file)
from .match import match_files, write_results

PROG = "python3 -m duel.cs3243"


class _Parser(argparse.ArgumentParser):
    """argparse with the package's one-line errors: 'duel.cs3243: message', status 2."""

    def error(self, message: str) -> NoReturn:
        """Prints the message on one line and exits with status 2."""
        self.exit(2, f"duel.cs3243: {message}\n")


def _add_grading_options(p: argparse.ArgumentParser) -> None:
    """The options `grade` and `class` share: how each student is graded."""
    p.add_argument("--games", type=int, default=10, metavar="N",
                   help="games against each opponent (default 10, the hand-out's)")
    p.add_argument("--opponent", action="append", choices=[o.spec for o in OPPONENTS],
                   help="play only this opponent (repeatable; default all five)")
    _add_run_options(p)


def _add_run_options(p: argparse.ArgumentParser) -> None:
    """The options `grade`, `class` and `match` share: how a student's file runs."""
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="seed for the opponents and Python's random (default 0)")
    p.add_argument("--time-limit", type=float, default=TIME_LIMIT, metavar="T",
                   help=f"seconds a move, over it loses (default {TIME_LIMIT:g}; 0 = none)")
    p.add_argument("--config", metavar="FILE",
                   help="the configuration file the student's code gets a copy of in "
                        "sys.argv[1] (default the course's, RULES.md §6b)")
    p.add_argument("--memory", type=int, metavar="MIB",
                   help=f"memory limit of a student's box, MiB (default {MEMORY_MIB})")
    p.add_argument("--no-sandbox", action="store_true",
                   help="run students' code unboxed, as this user, with this machine's "
                        "folders and network (the results say sandbox: false)")


def _parser() -> argparse.ArgumentParser:
    """The command line."""
    p = _Parser(prog=PROG, description="Seed 000 (NUS CS3243 Project 3) tools.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    g = sub.add_parser(
        "grade",
        help="grade a file defining studentAgent(gameboard)",
        description=(
            "Plays the file's studentAgent (as White) against the hand-out's five opponents "
            f"({', '.join(o.spec for o in OPPONENTS)}) and prints the rubric's marks out of 10."
        ),
    )
    g.add_argument("file", help="a Python file defining studentAgent(gameboard), e.g. AB.py")
    _add_grading_options(g)
    g.add_argument("--json", action="store_true", help="print the result as JSON")
    g.add_argument("-v", "--verbose", action="store_true",
                   help="each game's outcome on stderr as it ends")
    c = sub.add_parser(
        "class",
        help="grade a folder of submissions, one row per student",
        description=(
            "Grades every submission in SUBMISSIONS (a folder A0123456X/ holding AB.py, or "
            "A0123456X.zip holding AB.py) as `grade` does, each student's code in duel box "
            "with a private copy of its own folder, and writes OUT/results.json, "
            "results.csv, index.html and grades.md; OUT/journal.jsonl is the journal: run "
            "the same command again to resume."
        ),
    )
    c.add_argument("submissions", help="the folder of submissions")
    c.add_argument("--out", required=True, metavar="DIR", help="where the tables and journal go")
    c.add_argument("--concurrency", type=int, default=1, metavar="N",
                   help="students graded at once, each in its own process (default 1)")
    c.add_argument("--quiet", action="store_true", help="no progress on stderr")
    _add_grading_options(c)
    m = sub.add_parser(
        "match",
        help="play two files defining studentAgent(gameboard) against each other",
        description=(
            "Plays N games between the studentAgent of A and of B, colours alternating (A "
            "is White in games 0, 2, ...), Black's player shown the position mirrored so "
            "that it moves White as the hand-out's interface does; each file runs in its "
            "own box as `grade` runs one. Writes OUT/results.json and prints the score."
        ),
    )
    m.add_argument("file_a", metavar="A", help="the first player's file, e.g. alice/AB.py")
    m.add_argument("file_b", metavar="B", help="the second player's file, e.g. bob/AB.py")
    m.add_argument("--out", required=True, metavar="DIR", help="where results.json goes")
    m.add_argument("--games", type=int, default=2, metavar="N",
                   help="games in all, colours alternating (default 2)")
    m.add_argument("--names", metavar="NAME_A,NAME_B",
                   help="the players' names (default each file's folder's name)")
    _add_run_options(m)
    return p


def main(argv: Optional[List[str]] = None) -> int:
    """Runs the command line `argv` (default sys.argv[1:]); returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, not {args.games}")
    if not args.time_limit >= 0:
        parser.error(f"--time-limit must be 0 or more seconds, not {args.time_limit:g}")
    chosen = getattr(args, "opponent", None)
    opponents = [o for o in OPPONENTS if not chosen or o.spec in chosen]
    if args.memory is not None and args.no_sandbox:
        parser.error("--memory is the box's limit; with --no-sandbox there is none")
    if args.memory is not None and not MEMORY_RANGE[0] <= args.memory <= MEMORY_RANGE[1]:
        parser.error(f"--memory must be from {MEMORY_RANGE[0]} to {MEMORY_RANGE[1]} MiB,"
                     f" not {args.memory}")
    args.memory = MEMORY_MIB if args.memory is None else args.memory
    args.config_text = None
    if args.config is not None:
        try:
            args.config_text = pathlib.Path(args.config).read_bytes()
        except OSError as e:
            parser.error(f"--config {args.config}: cannot read it ({e.strerror or e})")
    if args.command == "class":
        return _run_class(parser, args, opponents)
    if args.command == "match":
        return _run_match(parser, args)

    def progress(record: GameRecord) -> None:
        if args.verbose:
            print(f"{record.opponent} game {record.index + 1}: {record.outcome}"
                  f" ({len(record.moves)} plies, {record.student_seconds:.1f} s): {record.reason}",
                  file=sys.stderr, flush=True)

    try:
        result = grade_file(args.file, games=args.games, seed=args.seed,
                            time_limit=args.time_limit, opponents=opponents, on_game=progress,
                            config=args.config_text, sandbox=not args.no_sandbox,
                            memory=args.memory)
    except (StudentFileError, SandboxError) as e:
        parser.error(str(e))
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(result.table())
    return 0


def _run_class(parser: argparse.ArgumentParser, args: argparse.Namespace,
               opponents: List[Opponent]) -> int:
    """`class`: the whole folder, a line on stderr as each student is graded."""
    folder = pathlib.Path(args.submissions)
    if not folder.is_dir():
        parser.error(f"{folder}: not a folder of submissions")
    out = pathlib.Path(args.out)
    if out.exists() and not out.is_dir():
        parser.error(f"--out {out}: not a folder")
    if not 1 <= args.concurrency <= 256:
        parser.error(f"--concurrency must be from 1 to 256, not {args.concurrency}")
    started = time.monotonic()
    total = len(find_submissions(folder))
    graded = 0

    def progress(row: Dict[str, object]) -> None:
        nonlocal graded
        graded += 1
        if args.quiet:
            return
        what = row["error"] or f"{float(row['marks']):.2f}/{row['max_marks']}"
        elapsed = time.monotonic() - started
        print(f"{row['student']}: {what}  [{graded} this run, {elapsed:.0f} s]",
              file=sys.stderr, flush=True)

    try:
        rows = grade_class(folder, out, opponents=opponents, on_student=progress,
                           concurrency=args.concurrency, games=args.games, seed=args.seed,
                           time_limit=args.time_limit, config=args.config_text,
                           sandbox=not args.no_sandbox, memory=args.memory)
    except (ValueError, SandboxError) as e:  # JournalError, --out in the class folder
        parser.error(" ".join(str(e).split()))
    print(f"cs3243 grading: {total} students, {graded} graded now, "
          f"{len(rows) - graded} from the journal")
    for s in json.loads((out / "results.json").read_text(encoding="utf-8"))["standings"]:
        elo = "" if s["elo"] is None else f"  Elo {s['elo']:g}"
        print(f"{s['rank']:>3}. {s['name']:<24} {float(s['points']):>6.2f}{elo}")
    print(f"results: {out}/results.json, results.csv, index.html, grades.md, journal.jsonl")
    return 0


def _run_match(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """`match`: the games, OUT/results.json, the one-line score on stdout."""
    out = pathlib.Path(args.out)
    if out.exists() and not out.is_dir():
        parser.error(f"--out {out}: not a folder")
    names = None
    if args.names is not None:
        names = tuple(n.strip() for n in args.names.split(","))
        if len(names) != 2 or not all(names) or names[0] == names[1]:
            parser.error(f"--names must be two different names, NAME_A,NAME_B, not {args.names!r}")
    for f in (args.file_a, args.file_b):
        if not pathlib.Path(f).is_file():
            parser.error(f"{f}: {'not a file' if pathlib.Path(f).exists() else 'no such file'}")
    try:
        out.mkdir(parents=True, exist_ok=True)  # before the games: a bad --out fails now
    except OSError as e:
        parser.error(f"--out {out}: cannot make the folder ({e.strerror or e})")
    try:
        result = match_files(args.file_a, args.file_b, names=names, games=args.games,
                             seed=args.seed, time_limit=args.time_limit,
                             sandbox=not args.no_sandbox, memory=args.memory,
                             config=args.config_text)
    except (ValueError, SandboxError) as e:  # StudentFileError, names that are the same
        parser.error(" ".join(str(e).split()))
    try:
        path = write_results(result, out)
    except OSError as e:
        parser.error(f"--out {out}: cannot write results.json ({e.strerror or e})")
    print(f"{result.summary()}; results: {path}")
    return 0


if __name__ == "__main__":
    try:
        status = main()
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`... | head`): quietly, as other Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 0
    sys.exit(status)
