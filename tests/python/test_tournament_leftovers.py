"""SIGKILL of `duel tournament` (cs3243 and csci561) leaves no process of it
behind: not the grader, not the students' programs, not what they started.

Each test starts `duel tournament` with an environment variable of its own
(Duel's own processes inherit it, and /proc/PID/environ shows it), and gives
the student's program a token of its own: the program names itself by it
(its comm) and starts a child whose command line holds it, since a boxed
program's environment is cleared and its folder is all it can write. The
test waits until the program is really running (it writes a marker file
named by the token into its own folder, found under --out, and has started
its child), kills `duel` with SIGKILL and then watches /proc until no
process is left that carries the variable, the token (comm or command line)
or a working folder under the test's folder, at most 10 s.
"""

import os
import pathlib
import signal
import subprocess
import time
import uuid

from conftest import duel_bin

# A student's program that, once running, names itself TOKEN, starts a child
# that would sleep for five minutes (SLEEP, a number of seconds unique to the
# test, is in its command line), writes the marker started-TOKEN into its own
# folder (and beside its code) and sleeps too.
HANG = """
import ctypes, os, subprocess, time
ctypes.CDLL(None).prctl(15, ctypes.c_char_p(b"TOKEN"), 0, 0, 0)
child = subprocess.Popen(["sleep", "SLEEP"])
for folder in {os.getcwd(), os.path.dirname(os.path.abspath(__file__))}:
    try:
        with open(os.path.join(folder, "started-TOKEN.tmp"), "w") as f:
            f.write(str(child.pid))
        os.replace(os.path.join(folder, "started-TOKEN.tmp"),
                   os.path.join(folder, "started-TOKEN"))
    except OSError:
        pass
time.sleep(300)
"""


class Marks:
    """What identifies the test's processes: the environment variable Duel's
    own processes inherit, the program's token (its comm), the child's
    sleep argument, a working folder under the test's folder."""

    def __init__(self, tmp_path):
        self.variable = f"DUEL_TEST_TREE={uuid.uuid4().hex}"
        self.token = "lt" + uuid.uuid4().hex[:12]  # a comm holds 15 characters
        self.sleep = "300.%09d" % (uuid.uuid4().int % 10**9)
        self.root = str(tmp_path)

    def program(self):
        return HANG.replace("TOKEN", self.token).replace("SLEEP", self.sleep)


def tree(marks):
    """The live processes carrying one of `marks`: pid -> what matched."""
    out = {}
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        found = []
        try:
            if marks.variable.encode() in (entry / "environ").read_bytes().split(b"\0"):
                found.append("variable")
        except OSError:  # gone, or not readable
            pass
        try:
            if (entry / "comm").read_text().strip() == marks.token:
                found.append("token")
            if marks.sleep.encode() in (entry / "cmdline").read_bytes().split(b"\0"):
                found.append("sleep")
            cwd = os.readlink(entry / "cwd")
            if cwd == marks.root or cwd.startswith(marks.root + "/"):
                found.append("cwd")
        except OSError:
            pass
        if found:
            out[int(entry.name)] = found
    return out


def wait_for(predicate, seconds, what):
    """Polls `predicate` until it is true; fails after `seconds`."""
    end = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < end, f"not within {seconds} s: {what}"
        time.sleep(0.05)


def kill_and_check(args, marks, out, tmp_path):
    """Starts `duel ARGS`, waits for the program's marker under `out`,
    SIGKILLs duel, then waits for its whole tree to be gone."""
    name, value = marks.variable.split("=")
    env = dict(os.environ, **{name: value})
    log = (tmp_path / "duel.log").open("w")
    duel = subprocess.Popen([duel_bin(), *map(str, args)], env=env, stdout=log,
                            stderr=subprocess.STDOUT)

    def started():
        return out.is_dir() and next(out.rglob("started-" + marks.token), None) is not None

    try:
        wait_for(lambda: started() or duel.poll() is not None, 120,
                 "the student's program to start")
        assert duel.poll() is None, (tmp_path / "duel.log").read_text()
        wait_for(lambda: any("sleep" in m for m in tree(marks).values()), 10,
                 "the program's child to be seen by its command line")
        seen = tree(marks)
        assert any("token" in m for m in seen.values()), seen  # the program itself
        assert duel.pid in seen and "variable" in seen[duel.pid], seen
        assert len(seen) >= 3, seen  # duel, the program, its child, more
    finally:
        duel.send_signal(signal.SIGKILL)
        duel.wait()
        log.close()
    # Bounded: the processes must go by themselves, within 10 s.
    end = time.monotonic() + 10
    while tree(marks) and time.monotonic() < end:
        time.sleep(0.05)
    left = tree(marks)
    for pid in left:  # do not leave them to the next test
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert not left, {p: (m, pathlib.Path(f"/proc/{p}/cmdline").read_bytes()) for p, m in
                      left.items() if pathlib.Path(f"/proc/{p}").exists()}


def test_sigkill_of_a_cs3243_grading_leaves_nothing(tmp_path):
    """Two students graded at once (the grader's two pool workers, each with a
    student's process, and its child)."""
    subs = tmp_path / "subs"
    marks = Marks(tmp_path)
    for student in ("A0000001X", "A0000002Y"):
        (subs / student).mkdir(parents=True)
        # The program runs at import, as a student's top-level code would.
        (subs / student / "AB.py").write_text(
            marks.program() + "\ndef studentAgent(gameboard):\n    return None\n")
    out = tmp_path / "out"
    kill_and_check(["tournament", "cs3243", subs, "--out", out, "--games", "1",
                    "--concurrency", "2", "--quiet"], marks, out, tmp_path)


def test_sigkill_of_a_csci561_grading_leaves_nothing(tmp_path):
    """A CSCI-561 class of one student whose homework.py runs long and has a
    child: the referee's agent process and the child go with duel."""
    subs = tmp_path / "class"
    marks = Marks(tmp_path)
    (subs / "s01-hang-py").mkdir(parents=True)
    (subs / "s01-hang-py" / "homework.py").write_text(marks.program())
    out = tmp_path / "out"
    kill_and_check(["tournament", "csci561", subs, "--out", out, "--quiet"], marks, out,
                   tmp_path)
