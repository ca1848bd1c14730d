"""A hostile CS3243 class graded in the box: every attack fails, and each
hostile AB.py loses only what the course says it loses.

tests/data/hostile3243/ holds one AB.py for each thing a submission did when
the grader ran students' code with the teacher's rights (its README has the
table). This module grades a class of two honest students
(tests/python/data/cs3243's random_agent.py and config_agent.py) and those
files with `python3 -m duel.cs3243 class` (in `duel box`, the default), and
checks from outside:

- the class folder is byte for byte unchanged;
- the journal holds exactly the planned students, once each, nothing
  forged; results.json, results.csv, grades.md and index.html say what the
  journal says and are not written to after the run;
- the test's TCP listeners (127.0.0.1 and ::1) accepted nothing;
- no process of theirs is left (none names the test's folder or h3243);
- the honest students' marks and games equal those of the same class where
  each hostile AB.py is the plain mover it otherwise is
  (tests/data/hostile3243/plain_mover.py, under the same name), and so do
  the games of the hostile files whose attack only attacks;
- the file that lies about its time loses every game on time at its first
  move, and the one that takes 4 GiB loses every game with the memory
  limit as its reason;
- what each attack managed, as it wrote it in its own folder: nothing.

Skipped, with `duel box --check`'s reason, only on a machine that cannot
box programs; the tests of the refusal and of `--no-sandbox` run anywhere.
"""

import hashlib
import json
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading

import pytest

import duel
from conftest import ROOT, box_check, digest_tree, duel_bin

DATA = ROOT / "tests" / "python" / "data" / "cs3243"
HOSTILE3243 = ROOT / "tests" / "data" / "hostile3243"
PLAIN = HOSTILE3243 / "plain_mover.py"
HONEST = {"A0000001H": "random_agent.py", "A0000002H": "config_agent.py"}
HOSTILE = tuple(sorted(p.name for p in HOSTILE3243.iterdir() if p.is_dir()))
# Files whose attack, when it fails, leaves the plain mover's games.
PLAYS = ("h01-rewrite", "h02-import", "h03-grader", "h05-network")
LIAR, HOG = "h04-time", "h06-memory"
MARK = "h3243"
MEMORY = 512  # MiB: h06 takes 4 GiB
TIME_LIMIT = 0.5  # h04 sleeps 1.2 s a move (the grader kills a call at 1.5 s)
GRADING = ["--games", "2", "--opponent", "first", "--opponent", "random",
           "--time-limit", str(TIME_LIMIT), "--memory", str(MEMORY), "--concurrency", "2"]
RUN_LIMIT = 240  # seconds a grading may take before the test stops it


def grade(*args, env=None, timeout=RUN_LIMIT):
    """`python3 -m duel.cs3243 ARGS` from the repository's top; on a hang kills its
    process group and fails."""
    proc = subprocess.Popen([sys.executable, "-m", "duel.cs3243", *map(str, args)], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        for sig in (signal.SIGCONT, signal.SIGKILL):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                pass
        out, err = proc.communicate()
        pytest.fail(f"the grading still ran after {timeout} s (stopped by an attack?)\n{err}")
    return proc.returncode, out, err


class Listeners:
    """TCP on 127.0.0.1 and ::1 at one port (h05 reads it from port.txt): records
    every connection."""

    def __init__(self):
        self.got = []
        self.sockets = []
        first = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        first.bind(("127.0.0.1", 0))
        self.port = first.getsockname()[1]
        self.sockets.append(first)
        try:
            six = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
            six.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            six.bind(("::1", self.port))
            self.sockets.append(six)
        except OSError:
            pass  # no IPv6 loopback here
        self.stop = threading.Event()
        self.threads = []
        for s in self.sockets:
            s.listen(8)
            s.settimeout(0.2)
            t = threading.Thread(target=self._accept, args=(s,), daemon=True)
            t.start()
            self.threads.append(t)

    def _accept(self, s):
        while not self.stop.is_set():
            try:
                conn, peer = s.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(1.0)
                try:
                    data = conn.recv(65536)
                except OSError:
                    data = b""
            self.got.append((peer, data[:200]))

    def close(self):
        self.stop.set()
        for t in self.threads:
            t.join(timeout=5)
        for s in self.sockets:
            s.close()


def leftovers(root):
    """Processes whose command line names `root` or h3243, or whose name starts with it."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                words = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
            with open(f"/proc/{entry}/comm", encoding="utf-8") as f:
                comm = f.read().strip()
        except OSError:
            continue
        if str(root) in words or MARK in words or comm.startswith(MARK):
            found.append(f"{entry} {comm}: {words[:200]}")
    return found


def journal_rows(out):
    """(header, rows) of OUT/journal.jsonl."""
    lines = (out / "journal.jsonl").read_text(encoding="utf-8").splitlines()
    return json.loads(lines[0])["tournament"], [json.loads(line) for line in lines[1:]]


def games_of(row):
    """A journal row's games: (opponent, index, outcome, reason, moves)."""
    return [(o["opponent"], g["index"], g["outcome"], g["reason"], g["moves"])
            for o in row["result"]["opponents"] for g in o["games"]]


def package_folders():
    """Folders from which `import duel` gives this test's Duel (what h02 tries)."""
    here = pathlib.Path(duel.__file__).resolve().parent.parent
    return [str(p) for p in dict.fromkeys([here, ROOT / "build" / "python", ROOT / "python"])]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The hostile class and its plain twin, graded; what the checks need."""
    box_check()
    root = tmp_path_factory.mktemp("hostile3243")
    plain, subs = root / "plain", root / "subs"
    for student, source in HONEST.items():
        for folder in (plain, subs):
            (folder / student).mkdir(parents=True)
            shutil.copyfile(DATA / source, folder / student / "AB.py")
    for name in HOSTILE:
        (plain / name).mkdir()
        shutil.copyfile(PLAIN, plain / name / "AB.py")
        shutil.copytree(HOSTILE3243 / name, subs / name)
        # Its move choice, imported from beside it (the plain mover).
        shutil.copyfile(PLAIN, subs / name / "plain_mover.py")
        shutil.copyfile(HOSTILE3243 / "hostile_kit.py", subs / name / "hostile_kit.py")
    listeners = Listeners()
    (subs / "h05-network" / "port.txt").write_text(f"{listeners.port}\n")
    (subs / "h02-import" / "paths.txt").write_text("\n".join(package_folders()) + "\n")
    before = digest_tree(subs)
    status, _, err = grade("class", plain, "--out", root / "plain-out", "--quiet", *GRADING)
    assert status == 0, err
    try:
        status, out, err = grade("class", subs, "--out", root / "out", "--quiet", *GRADING)
    finally:
        listeners.close()
    assert status == 0, err
    outputs = {name: (root / "out" / name).read_bytes()
               for name in ("results.json", "results.csv", "grades.md", "index.html",
                            "journal.jsonl")}
    return {"root": root, "subs": subs, "out": root / "out", "plain_out": root / "plain-out",
            "before": before, "listeners": listeners, "outputs": outputs, "stdout": out}


def log_of(graded, name):
    """What the hostile file `name` wrote in attack.log in its own folder."""
    path = graded["out"] / "work" / name / "attack.log"
    return path.read_text(encoding="utf-8") if path.exists() else ""


def test_the_class_folder_is_unchanged(graded):
    assert digest_tree(graded["subs"]) == graded["before"]


def test_the_journal_holds_exactly_the_planned_students(graded):
    header, rows = journal_rows(graded["out"])
    assert header["sandbox"] is True and header["memory"] == MEMORY, header
    assert sorted(r["student"] for r in rows) == sorted([*HONEST, *HOSTILE]), rows
    assert all("forged" not in r and r["error"] == "" for r in rows), rows
    text = graded["outputs"]["journal.jsonl"].decode()
    assert MARK + "-forged" not in text


def test_the_results_are_the_journals_and_stay_so(graded):
    _, rows = journal_rows(graded["out"])
    doc = json.loads(graded["outputs"]["results.json"])
    assert doc["sandbox"] is True and doc["memory"] == MEMORY
    assert {s["name"]: s["points"] for s in doc["students"]} == {
        r["student"]: r["marks"] for r in rows}
    md = graded["outputs"]["grades.md"].decode()
    assert md.startswith(f"sandbox: true (each student's code ran in duel box, memory limit"
                         f" {MEMORY} MiB)\n"), md
    for name, data in graded["outputs"].items():
        assert b"h3243-forged" not in data, name
    # Nothing rewrites them after the run (h03's daemon would, every 0.2 s).
    threading.Event().wait(1.0)
    for name, data in graded["outputs"].items():
        assert (graded["out"] / name).read_bytes() == data, name


def test_honest_students_and_plain_attackers_play_as_without_the_attacks(graded):
    _, rows = journal_rows(graded["out"])
    _, plain = journal_rows(graded["plain_out"])
    by, twin = {r["student"]: r for r in rows}, {r["student"]: r for r in plain}
    for student in [*HONEST, *PLAYS]:
        assert by[student]["marks"] == twin[student]["marks"], student
        assert games_of(by[student]) == games_of(twin[student]), student
    assert any(by[s]["marks"] > 0 for s in HONEST)  # the comparison means something


def test_the_time_liar_loses_every_game_on_time(graded):
    """The child's clocks were frozen and it wrote its own answer with 0.01 s; the
    grader's clock saw 1.2 s."""
    _, rows = journal_rows(graded["out"])
    row = next(r for r in rows if r["student"] == LIAR)
    assert row["marks"] == 0, row
    for o in row["result"]["opponents"]:
        for g in o["games"]:
            assert g["outcome"] == "loss" and g["moves"] == [], g
            took = re.fullmatch(
                rf"studentAgent took (\d+\.\d\d) s, over the {TIME_LIMIT:g} s limit", g["reason"])
            assert took and float(took[1]) >= 1.15, g
            assert g["slowest_move"] >= 1.15, g
    log = log_of(graded, LIAR)
    assert "time forged answer: WRITTEN" in log, log  # the lie was told, and not believed


def test_the_memory_hog_loses_every_game_at_the_limit(graded):
    _, rows = journal_rows(graded["out"])
    row = next(r for r in rows if r["student"] == HOG)
    for o in row["result"]["opponents"]:
        for g in o["games"]:
            assert g["outcome"] == "loss" and g["moves"] == [], g
            assert f"memory limit {MEMORY} MiB" in g["reason"], g
    assert "memory HELD" not in log_of(graded, HOG)


def test_duels_package_cannot_be_imported(graded):
    """h02 tried `import duel` as it is and from every folder that holds it outside
    the box (where those folders do give Duel's engine): every try failed."""
    for folder in package_folders():
        r = subprocess.run(["/usr/bin/python3", "-c",
                            f"import sys; sys.path.insert(0, {folder!r}); import duel; duel.load"],
                           capture_output=True, env={"PATH": "/usr/bin:/bin"}, timeout=60)
        if r.returncode == 0:
            break
    else:
        pytest.fail(f"no folder of {package_folders()} gives Duel outside the box either")
    log = log_of(graded, "h02-import")
    tries = [line for line in log.splitlines() if "import duel" in line]
    assert any("as it is: failed" in line for line in tries), log
    assert any(f"from {folder}: failed" in line for line in tries), log
    assert "ENGINE" not in log and "without the engine" not in log, log


def test_the_network_reached_nothing(graded):
    # Only how many: what would arrive is the grader's environment.
    assert len(graded["listeners"].got) == 0, f"{len(graded['listeners'].got)} connections"
    log = log_of(graded, "h05-network")
    assert f"127.0.0.1 {graded['listeners'].port}: failed" in log, log
    assert "CONNECTED" not in log, log


def test_the_grader_was_not_reached(graded):
    log = log_of(graded, "h03-grader")
    assert "grader targets" in log, log
    for achieved in ("ATTACHED", "OPENED", "FORGED", "SENT"):
        assert achieved not in log, log
    assert not (graded["out"] / "work" / "h03-grader" / "h3243-injected.txt").exists()


def test_no_other_students_file_was_rewritten(graded):
    log = log_of(graded, "h01-rewrite")
    assert "rewrite rewrote 0:" in log and "rewrite planted []" in log, log
    for student in [*HONEST, *HOSTILE]:
        assert (graded["out"] / "work" / student / "AB.py").read_bytes() == (
            graded["subs"] / student / "AB.py").read_bytes(), student


def test_nothing_of_theirs_is_left(graded):
    assert leftovers(graded["root"]) == []
    planted = [str(p) for p in graded["root"].rglob(MARK + "-*")]
    assert planted == [], planted


def test_every_hostile_file_plays_the_plain_mover():
    """Each hostile AB.py takes its move choice from the plain mover (copied beside
    it, with the class's kit) and has none of its own, so the plain class is what each
    would play without its attack."""
    assert len(HOSTILE) == 6, HOSTILE
    for name in HOSTILE:
        text = (HOSTILE3243 / name / "AB.py").read_text(encoding="utf-8")
        assert "from plain_mover import *" in text, name
        assert "def choose(" not in text and "def moves(" not in text, name


# --- the box's refusal, --no-sandbox, and Duel's adapter in the box -------------------


def test_without_a_box_the_grader_refuses_in_one_line(tmp_path):
    """No duel binary, or `duel box --check` failing: one line, status 2, nothing
    graded; --no-sandbox grades unboxed and the results say so."""
    subs = tmp_path / "subs"
    (subs / "A1").mkdir(parents=True)
    shutil.copyfile(DATA / "random_agent.py", subs / "A1" / "AB.py")
    no_box = tmp_path / "duel"
    no_box.write_text("#!/bin/sh\necho 'duel: box: cannot box: the test says so' >&2\nexit 2\n")
    no_box.chmod(0o755)
    for binary, words in ((tmp_path / "missing", "is not an executable"),
                          (no_box, "box: cannot box: the test says so")):
        env = dict(os.environ, DUEL_BIN=str(binary))
        for command in (["class", subs, "--out", tmp_path / "out"],
                        ["grade", DATA / "random_agent.py"]):
            status, out, err = grade(*command, "--games", "1", env=env, timeout=120)
            assert status == 2 and out == "", (status, out, err)
            assert err.count("\n") == 1 and err.startswith("duel.cs3243: ") and words in err, err
            assert "--no-sandbox" in err, err
        assert not (tmp_path / "out").exists()
    env = dict(os.environ, DUEL_BIN=str(no_box))
    status, _, err = grade("class", subs, "--out", tmp_path / "out", "--games", "1",
                           "--opponent", "first", "--no-sandbox", "--quiet", env=env,
                           timeout=120)
    assert status == 0, err
    header, _ = journal_rows(tmp_path / "out")
    assert header["sandbox"] is False and "memory" not in header, header
    assert json.loads((tmp_path / "out" / "results.json").read_text())["sandbox"] is False
    assert (tmp_path / "out" / "grades.md").read_text().startswith("sandbox: false\n")
    status, out, err = grade("grade", DATA / "random_agent.py", "--games", "1", "--opponent",
                             "first", "--no-sandbox", "--json", env=env, timeout=120)
    assert status == 0 and json.loads(out)["sandbox"] is False, err
    status, _, err = grade("grade", DATA / "random_agent.py", "--no-sandbox", "--memory", "512",
                           env=env, timeout=60)
    assert status == 2 and "--memory" in err, err


def test_out_inside_the_class_folder_is_refused(tmp_path):
    (tmp_path / "A1").mkdir()
    shutil.copyfile(DATA / "random_agent.py", tmp_path / "A1" / "AB.py")
    status, _, err = grade("class", tmp_path, "--out", tmp_path / "graded", "--no-sandbox",
                           timeout=60)
    assert status == 2 and err.count("\n") == 1 and "is in the class folder" in err, err


def test_duels_adapter_and_a_file_without_student_agent_in_the_box(tmp_path):
    """In the box Duel's one-line adapter is a file whose import raises (its games all
    lost with that reason), and a file without studentAgent is still refused."""
    box_check()
    status, out, err = grade("grade", DATA / "engine_agent.py", "--games", "1", "--opponent",
                             "first", "--json", timeout=120)
    assert status == 0, err
    d = json.loads(out)
    assert d["sandbox"] is True and d["memory"] == 2048 and d["marks"] == 0, d
    reason = d["opponents"][0]["games"][0]["reason"]
    assert reason.startswith("importing engine_agent.py raised ModuleNotFoundError: No module"
                             " named 'duel'"), reason
    f = tmp_path / "AB.py"
    f.write_text("import os\nHERE = os.getcwd()\n")
    status, out, err = grade("grade", f, timeout=120)
    assert status == 2 and err == f"duel.cs3243: {f}: defines no studentAgent(gameboard)\n", err
