"""The CS3243 grader hands students' AB.py the course's configuration file
(RULES.md §6b) in sys.argv[1], or the one `--config` names, and runs each
student's code in a private copy of the student's folder."""

import hashlib
import json
import os
import subprocess
import sys

from duel.cs3243 import grader
from conftest import ROOT, duel_bin

DATA = ROOT / "tests" / "python" / "data" / "cs3243"

# sha256 of tanyjnaaman/CS3243@cbb975b:project3/config.txt (458 bytes), the
# course's file RULES.md §6b names, computed from the commit's blob.
COURSE_CONFIG_SHA256 = "51f71969de97ea8284efe961b2a7d0fc7cfea55a549e9f0f1dda0af427f7b7d5"

# The configuration Duel handed out before it shipped the course's (a format of
# its own): an AB.py written for the course's format must refuse it.
OTHER_FORMAT = """Rows:5
Cols:5
Pieces (piece, colour, square; row 0 is White's back rank):
Rook,White,a0 Knight,White,b0 Bishop,White,c0 Queen,White,d0 King,White,e0
"""


def tournament(*args, timeout=300):
    """`duel tournament cs3243 ARGS`, completed (text)."""
    return subprocess.run([duel_bin(), "tournament", "cs3243", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout)


def one_student(tmp_path, source):
    """A class folder with one student, A0000001X, whose AB.py is `source`."""
    subs = tmp_path / "subs"
    (subs / "A0000001X").mkdir(parents=True)
    (subs / "A0000001X" / "AB.py").write_text(source)
    return subs


def test_the_course_file_is_shipped_byte_for_byte():
    """The package's config.txt is the course's file, in the source tree and in the
    package as built (the build copies it), with the note citing where it is from."""
    shipped = grader.CONFIG_FILE.read_bytes()
    assert hashlib.sha256(shipped).hexdigest() == COURSE_CONFIG_SHA256
    assert shipped == (ROOT / "python" / "duel" / "cs3243" / "config.txt").read_bytes()
    assert "tanyjnaaman/CS3243@cbb975b:project3/config.txt" in (
        grader.CONFIG_FILE.with_name("SOURCE").read_text())


def test_an_ab_py_that_parses_the_course_file_at_import_plays_and_scores(tmp_path):
    """The test AB.py parses sys.argv[1] at import and fails on any other format:
    graded by `duel tournament cs3243` it imports, plays legal moves and scores;
    with `--config` naming a file in another format its import error is every
    game's reason and it scores 0."""
    subs = one_student(tmp_path, (DATA / "config_agent.py").read_text())
    out = tmp_path / "out"
    r = tournament(subs, "--out", out, "--games", "1", "--quiet")
    assert r.returncode == 0, r.stderr
    student = json.loads((out / "results.json").read_text())["students"][0]
    assert student["points"] > 0, student
    reasons = " ".join(g["reason"] for g in student["lost"])
    assert "importing" not in reasons and "illegal" not in reasons, student["lost"]

    other = tmp_path / "other.txt"
    other.write_text(OTHER_FORMAT)
    out2 = tmp_path / "out2"
    r = tournament(subs, "--out", out2, "--games", "1", "--quiet", "--config", other)
    assert r.returncode == 0, r.stderr
    student = json.loads((out2 / "results.json").read_text())["students"][0]
    assert student["points"] == 0, student
    assert len(student["lost"]) == 5, student["lost"]  # one game each of five opponents
    for game in student["lost"]:
        assert game["reason"].startswith(
            "importing AB.py raised ValueError: config: expected 'Number of Enemy"), game
    header = json.loads((out2 / "journal.jsonl").read_text().splitlines()[0])
    assert header["tournament"]["config"] == hashlib.sha256(other.read_bytes()).hexdigest()


def test_grade_takes_config_too(tmp_path):
    """`python3 -m duel.cs3243 grade --config FILE` hands FILE's copy to the file."""
    other = tmp_path / "other.txt"
    other.write_text(OTHER_FORMAT)
    f = DATA / "config_agent.py"
    for extra, importing in (([], False), (["--config", other], True)):
        r = subprocess.run([sys.executable, "-m", "duel.cs3243", "grade", f, "--games", "1",
                            "--opponent", "first", "--json", *extra], cwd=ROOT,
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
        reasons = [g["reason"] for g in json.loads(r.stdout)["opponents"][0]["games"]]
        assert any("importing config_agent.py raised" in x for x in reasons) == importing, reasons


def test_a_config_that_cannot_be_read_is_one_line_and_status_2(tmp_path):
    """A missing file or a folder given to --config: one line, exit status 2, from
    the tournament command and from the Python grader's CLI."""
    subs = one_student(tmp_path, (DATA / "config_agent.py").read_text())
    missing = tmp_path / "missing.txt"
    r = tournament(subs, "--out", tmp_path / "out", "--config", missing)
    assert r.returncode == 2 and r.stdout == "", r
    assert r.stderr == f"duel: tournament: --config {missing}: cannot read it" \
                       " (No such file or directory)\n", r.stderr
    assert not (tmp_path / "out").exists()
    r = tournament(subs, "--out", tmp_path / "out", "--config", tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "not a file" in r.stderr, r.stderr
    # Another course has no configuration file to give.
    r = subprocess.run([duel_bin(), "tournament", "csci561", str(subs), "--out",
                        str(tmp_path / "out"), "--config", str(DATA / "config_agent.py")],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stderr == (
        "duel: tournament: --config is cs3243's (AB.py's sys.argv[1])\n"), r.stderr
    for command in (["grade", DATA / "config_agent.py"], ["class", subs, "--out", tmp_path]):
        r = subprocess.run([sys.executable, "-m", "duel.cs3243", *map(str, command),
                            "--config", str(missing)], cwd=ROOT, capture_output=True,
                           text=True, timeout=60)
        assert r.returncode == 2 and r.stdout == "", r
        assert r.stderr == (f"duel.cs3243: --config {missing}: cannot read it"
                            " (No such file or directory)\n"), r.stderr


def test_each_student_runs_in_a_private_copy_of_the_folder(tmp_path):
    """A student's code that writes in its working directory at import writes in
    its own copy (OUT/work/STUDENT/), never in the class folder, and finds its
    own files beside AB.py there."""
    source = ("import os\n"
              "HELPER = open('notes.txt').read()\n"
              "open('written.txt', 'w').write(os.getcwd())\n"
              + (DATA / "config_agent.py").read_text())
    subs = one_student(tmp_path, source)
    (subs / "A0000001X" / "notes.txt").write_text("the student's own file")
    before = sorted(p.name for p in (subs / "A0000001X").iterdir())
    out = tmp_path / "out"
    r = subprocess.run([sys.executable, "-m", "duel.cs3243", "class", subs, "--out", out,
                        "--games", "1", "--opponent", "first", "--quiet"], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    row = json.loads((out / "journal.jsonl").read_text().splitlines()[1])
    assert "importing" not in json.dumps(row), row
    assert sorted(p.name for p in (subs / "A0000001X").iterdir()) == before
    written = out / "work" / "A0000001X" / "written.txt"
    assert os.path.samefile(written.read_text(), out / "work" / "A0000001X")
