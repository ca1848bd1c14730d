"""A whole class graded in one run: a folder of submissions, one row per student.

``python3 -m duel.cs3243 class SUBMISSIONS --out DIR`` grades every
submission as ``grade`` grades one file, and writes ``DIR/grades.csv`` and
``DIR/grades.md`` (one row per student, sorted by student) from the journal
``DIR/grades.jsonl`` (one JSON line per student, written as each is graded).
Run again with the same ``--out``, it grades only the students the journal
lacks: an interrupted run resumes, and nothing graded is lost.

A submission is an entry of SUBMISSIONS named by the student:

- a folder (``A0123456X/``) holding the file ``AB.py`` (the hand-out's name;
  at any depth, exactly one);
- a zip (``A0123456X.zip``) holding exactly one ``AB.py`` (other Python
  files are an error: the hand-out submits AB.py alone); it is extracted to
  ``DIR/work/<student>/AB.py``, member by member, never outside it.

Other entries (loose files, hidden ones) are skipped. A submission that
cannot be graded (no AB.py, two of them, a broken zip, a file without
studentAgent) gets a row with marks 0 and the reason in one line.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import pathlib
import zipfile
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from .grader import OPPONENTS, GradeResult, Opponent, StudentFileError, grade_file

__all__ = ["Submission", "find_submissions", "grade_class", "write_tables"]

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
    """The AB.py to grade: found in the folder, or extracted from the zip to
    work/<student>/AB.py. Raises ValueError with a one-line reason."""
    if sub.entry.is_dir():
        found = sorted(p for p in sub.entry.rglob(SUBMITTED_NAME) if p.is_file())
        if not found:
            raise ValueError(f"no {SUBMITTED_NAME} in the folder")
        if len(found) > 1:
            names = ", ".join(str(p.relative_to(sub.entry)) for p in found)
            raise ValueError(f"{len(found)} files named {SUBMITTED_NAME} ({names}); give one")
        return found[0]
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
            target = work / _safe_name(sub.student) / SUBMITTED_NAME
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(z.read(python[0]))
            return target
    except zipfile.BadZipFile as e:
        raise ValueError(f"not a zip file ({e})") from None


def _safe_name(student: str) -> str:
    """A folder name for the student's work copy: no separators or dots in front."""
    name = "".join(c if c.isalnum() or c in "-_" else "_" for c in student)
    return name or "_"


def _row(student: str, result: Optional[GradeResult], error: str,
         opponents: Sequence[Opponent]) -> Dict[str, object]:
    """One student's journal line."""
    row: Dict[str, object] = {"student": student, "error": error}
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


def _journal(path: pathlib.Path) -> Iterator[Dict[str, object]]:
    """The journal's complete lines (a line cut short by an interruption is left out)."""
    if not path.exists():
        return
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict) and "student" in row:
            yield row


def grade_class(folder: pathlib.Path, out: pathlib.Path, *,
                opponents: Sequence[Opponent] = OPPONENTS,
                on_student: Optional[Callable[[Dict[str, object]], object]] = None,
                **options: object) -> List[Dict[str, object]]:
    """Grades every submission the journal out/grades.jsonl lacks, writes the tables,
    and returns every row (sorted by student). `options` go to grade_file."""
    submissions = find_submissions(folder)
    out.mkdir(parents=True, exist_ok=True)
    journal = out / "grades.jsonl"
    done = {str(r["student"]) for r in _journal(journal)}
    for sub in submissions:
        if sub.student in done:
            continue
        try:
            path = _submitted_file(sub, out / "work")
            row = _row(sub.student, grade_file(path, opponents=opponents, **options), "",
                       opponents)
        except (ValueError, OSError) as e:  # StudentFileError is a ValueError
            message = " ".join(str(e).split())
            if isinstance(e, StudentFileError):
                message = message.split(": ", 1)[-1]
            row = _row(sub.student, None, message, opponents)
        with journal.open("a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")
        done.add(sub.student)
        if on_student is not None:
            on_student(row)
    rows = sorted(_journal(journal), key=lambda r: str(r["student"]))
    write_tables(rows, out, opponents)
    return rows


def write_tables(rows: Sequence[Dict[str, object]], out: pathlib.Path,
                 opponents: Sequence[Opponent] = OPPONENTS) -> Tuple[pathlib.Path, pathlib.Path]:
    """out/grades.csv and out/grades.md: student, marks, the W-D-L against each
    opponent, notes or the error."""
    header = ["student", "marks", "max_marks"] + [o.spec for o in opponents] + ["remarks"]

    def cells(row: Dict[str, object]) -> List[str]:
        results = row.get("opponents") or {}
        wdl = []
        for o in opponents:
            r = results.get(o.spec) if isinstance(results, dict) else None
            wdl.append(f"{r['wins']}-{r['draws']}-{r['losses']}" if r else "")
        remarks = str(row.get("error") or "; ".join(map(str, row.get("notes") or [])))
        return [str(row["student"]), f"{float(row['marks']):.2f}", str(row["max_marks"])] + wdl + [
            remarks]

    csv_path = out / "grades.csv"
    with csv_path.open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for row in rows:
            w.writerow(cells(row))
    md_path = out / "grades.md"
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in rows:
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells(row)) + " |")
    md_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return csv_path, md_path
