"""A whole class graded in one run: a folder of submissions, one row per student.

``python3 -m duel.cs3243 class SUBMISSIONS --out DIR`` (and ``duel tournament
cs3243 SUBMISSIONS --out DIR``, which runs it) grades every submission as
``grade`` grades one file, N students at once (``--concurrency``), and writes
the files every ``duel tournament`` writes (report.py): ``results.json``,
``results.csv``, ``index.html``, and ``grades.md`` in the hand-out's terms,
all from the journal ``journal.jsonl`` (a line naming the grading, then one
JSON line per student, written as each is graded). Run again with the same
``--out`` and options, it grades only the students the journal lacks: an
interrupted run resumes, and nothing graded is lost.

Why a student, not a game, is the journal's unit: the student's module
stays imported from game to game (as in the hand-out's autograder), so a
student's games are one run of it; resuming in the middle would give the
rest of them a fresh module.

A submission is an entry of SUBMISSIONS named by the student:

- a folder (``A0123456X/``) holding the file ``AB.py`` (the hand-out's name;
  at any depth, exactly one); the folder is copied to ``DIR/work/<student>/``
  (afresh for each grading) and the copy is graded, its ``AB.py``'s folder
  the working directory: a student's code that writes files writes them in
  its own copy, never in the class folder beside the next student's. In a
  box (the default, grader.py) that copy is the only folder of the machine's
  the code can see besides the system's and the grader's read-only helper:
  neither the class folder, nor DIR, nor another student's copy is there;
- a zip (``A0123456X.zip``) holding exactly one ``AB.py`` (other Python
  files are an error: the hand-out submits AB.py alone); it is extracted to
  ``DIR/work/<student>/AB.py``, member by member, never outside it.

Other entries (loose files, hidden ones) are skipped. A submission that
cannot be graded (no AB.py, two of them, a broken zip, a file without
studentAgent) gets a row with marks 0 and the reason in one line.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import json
import hashlib
import multiprocessing
import os
import pathlib
import shutil
import zipfile
from typing import Callable, Dict, Iterator, List, Optional, Sequence

from ._child import die_with_parent
from .grader import (CONFIG_FILE, MEMORY_MIB, OPPONENTS, GradeResult, Opponent,
                     StudentFileError, box_binary, grade_file)
from .report import write_reports

__all__ = ["JournalError", "Submission", "find_submissions", "grade_class"]

#: The file a student submits (the hand-out: "upload your python file AB.py (do
#: NOT rename the file)").
SUBMITTED_NAME = "AB.py"


@dataclasses.dataclass
class Submission:
    """One student's entry of the submissions folder."""

    student: str
    """The entry's name without .zip, as text (undecodable bytes replaced)."""
    entry: pathlib.Path
    """The folder or zip."""


def _student_name(path: pathlib.Path) -> str:
    """The entry's name as printable text: a file name that is not UTF-8 keeps
    its readable part and shows the rest as U+FFFD."""
    raw = path.name[:-4] if path.name.lower().endswith(".zip") else path.name
    return raw.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def find_submissions(folder: pathlib.Path) -> List[Submission]:
    """The folder's submissions (folders and zips), sorted by student."""
    if not folder.is_dir():
        raise ValueError(f"{folder}: not a folder of submissions")
    out = []
    for entry in folder.iterdir():
        if entry.name.startswith("."):
            continue
        if entry.is_dir() or (entry.is_file() and entry.name.lower().endswith(".zip")):
            out.append(Submission(_student_name(entry), entry))
    return sorted(out, key=lambda s: s.student)


def _submitted_file(sub: Submission, work: pathlib.Path) -> pathlib.Path:
    """The AB.py to grade, in the student's private folder work/<student>/: a
    fresh copy of the submitted folder, or AB.py extracted from the zip. Raises
    ValueError with a one-line reason."""
    private = work / _safe_name(sub.student)
    if private.is_symlink() or private.is_file():
        private.unlink()
    elif private.is_dir():
        shutil.rmtree(private)
    if sub.entry.is_dir():
        found = sorted(p for p in sub.entry.rglob(SUBMITTED_NAME) if p.is_file())
        if not found:
            raise ValueError(f"no {SUBMITTED_NAME} in the folder")
        if len(found) > 1:
            names = ", ".join(str(p.relative_to(sub.entry)) for p in found)
            raise ValueError(f"{len(found)} files named {SUBMITTED_NAME} ({names}); give one")
        # Links are copied as links (a link out of the folder is not followed);
        # FIFOs, sockets and devices are left out (reading one could block).
        shutil.copytree(sub.entry, private, symlinks=True, ignore=_special_files)
        copy = private / found[0].relative_to(sub.entry)
        if copy.is_symlink():  # AB.py itself: its text, so that it runs in the copy
            copy.unlink()
            shutil.copyfile(found[0], copy)
        return copy
    try:
        with zipfile.ZipFile(sub.entry) as z:
            members = [m for m in z.infolist()
                       if not m.is_dir() and not m.filename.startswith("__MACOSX/")]
            python = [m for m in members if m.filename.lower().endswith(".py")]
            if len(python) != 1 or pathlib.PurePosixPath(python[0].filename).name != SUBMITTED_NAME:
                names = ", ".join(m.filename for m in python) or "none"
                raise ValueError(f"the zip holds {len(python)} Python files ({names});"
                                 f" the hand-out submits {SUBMITTED_NAME} alone")
            if python[0].file_size > 10 * 1024 * 1024:
                raise ValueError(f"{SUBMITTED_NAME} in the zip is over 10 MB")
            target = private / SUBMITTED_NAME
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(z.read(python[0]))
            return target
    except zipfile.BadZipFile as e:
        raise ValueError(f"not a zip file ({e})") from None


def _special_files(folder: str, names: List[str]) -> List[str]:
    """The names in `folder` that are neither files, folders nor links."""
    def special(name: str) -> bool:
        path = os.path.join(folder, name)
        return not (os.path.islink(path) or os.path.isfile(path) or os.path.isdir(path))
    return [n for n in names if special(n)]


def _safe_name(student: str) -> str:
    """A folder name for the student's work copy: no separators or dots in front."""
    name = "".join(c if c.isalnum() or c in "-_" else "_" for c in student)
    return name or "_"


class JournalError(ValueError):
    """DIR holds the journal of another grading (other options)."""


def _row(student: str, result: Optional[GradeResult], error: str,
         opponents: Sequence[Opponent]) -> Dict[str, object]:
    """One student's journal line."""
    row: Dict[str, object] = {"key": f"student/{student}", "kind": "student",
                              "student": student, "error": error}
    if result is None:
        row.update({"marks": 0.0, "max_marks": sum(o.marks for o in opponents), "opponents": {},
                    "notes": []})
        return row
    row.update({
        "marks": result.marks,
        "max_marks": result.max_marks,
        "opponents": {r.opponent.spec: {"wins": r.wins, "draws": r.draws, "losses": r.losses,
                                        "marks": r.marks} for r in result.results},
        "notes": list(result.notes),
        "result": result.to_dict(),
    })
    return row


def _journal(path: pathlib.Path, header: Dict[str, object]) -> Iterator[Dict[str, object]]:
    """The journal's complete lines (a line cut short by an interruption is left out).
    Raises JournalError when its first line names another grading."""
    if not path.exists():
        return
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if number == 0:
            if not isinstance(row, dict) or row.get("tournament") != header:
                raise JournalError(
                    f"{path} is the journal of another tournament "
                    f"({json.dumps(row.get('tournament') if isinstance(row, dict) else row)});"
                    " give the same options to resume it, or another --out")
            continue
        if isinstance(row, dict) and "student" in row:
            yield row


def _grade_one(sub: Submission, work: pathlib.Path, opponents: Sequence[Opponent],
               options: Dict[str, object]) -> Dict[str, object]:
    """One student's journal line: graded, or why it could not be. The student's code
    runs in its private copy, work/<student>/ (grade_file's `work`). A SandboxError
    (a box that would not start) is not the student's: it stops the grading."""
    try:
        path = _submitted_file(sub, work)
        result = grade_file(path, opponents=opponents, work=work / _safe_name(sub.student),
                            **options)  # type: ignore[arg-type]
        return _row(sub.student, result, "", opponents)
    except (ValueError, OSError) as e:  # StudentFileError is a ValueError
        message = " ".join(str(e).split())
        if isinstance(e, StudentFileError):
            message = message.split(": ", 1)[-1]
        return _row(sub.student, None, message, opponents)


def grade_class(folder: pathlib.Path, out: pathlib.Path, *,
                opponents: Sequence[Opponent] = OPPONENTS,
                on_student: Optional[Callable[[Dict[str, object]], object]] = None,
                concurrency: int = 1, sandbox: bool = True, memory: int = MEMORY_MIB,
                **options: object) -> List[Dict[str, object]]:
    """Grades every submission the journal out/journal.jsonl lacks, `concurrency`
    students at once (each in its own process), each student's code in ``duel box``
    with `memory` MiB (``sandbox=False``: unboxed), writes the reports, and returns
    every row (sorted by student). `options` go to grade_file (games, seed,
    time_limit, config). Raises JournalError for another grading's journal,
    ValueError when `out` lies in the class folder (the students' copies would be
    part of it), and SandboxError (before grading anyone) when boxing is
    asked for and this machine cannot box."""
    submissions = find_submissions(folder)
    if out.resolve() == folder.resolve() or folder.resolve() in out.resolve().parents:
        raise ValueError(f"--out {out} is in the class folder {folder}: give a folder"
                         " outside it (the students' copies must not be part of it)")
    if sandbox:
        box_binary()  # SandboxError with the line saying what is missing
    options = dict(options, sandbox=sandbox, memory=memory)
    out.mkdir(parents=True, exist_ok=True)
    journal = out / "journal.jsonl"
    header: Dict[str, object] = {
        "course": "cs3243", "format": "grading",
        "games": options.get("games", 10), "seed": options.get("seed", 0),
        "time_limit": options.get("time_limit"), "opponents": [o.spec for o in opponents],
        "sandbox": sandbox}
    if sandbox:
        header["memory"] = memory
    config = options.get("config")
    if isinstance(config, bytes) and config != CONFIG_FILE.read_bytes():
        # Another configuration file is another grading (the course's is named by none).
        header["config"] = hashlib.sha256(config).hexdigest()
    done = {str(r["student"]) for r in _journal(journal, header)}
    if not journal.exists():
        journal.write_text(json.dumps({"tournament": header}) + "\n", encoding="utf-8")
    todo = [sub for sub in submissions if sub.student not in done]

    def record(row: Dict[str, object]) -> None:
        with journal.open("a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")
        if on_student is not None:
            on_student(row)

    if concurrency <= 1 or len(todo) <= 1:
        for sub in todo:
            record(_grade_one(sub, out / "work", opponents, options))
    else:
        # Processes, not threads: each student's games then use a core of their own.
        # Each worker dies with this process (SIGKILL of it leaves none behind).
        context = multiprocessing.get_context("fork")
        with concurrent.futures.ProcessPoolExecutor(max_workers=concurrency,
                                                    mp_context=context,
                                                    initializer=die_with_parent,
                                                    initargs=(os.getpid(),)) as pool:
            futures = [pool.submit(_grade_one, sub, out / "work", opponents, options)
                       for sub in todo]
            for future in concurrent.futures.as_completed(futures):
                record(future.result())
    rows = sorted(_journal(journal, header), key=lambda r: str(r["student"]))
    write_reports(rows, out, opponents, header)
    return rows
