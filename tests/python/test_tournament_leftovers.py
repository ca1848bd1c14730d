"""SIGKILL of `duel tournament` (cs3243 and csci561) leaves no process of it
behind: not the grader, not the students' programs, not what they started.

Each test starts `duel tournament` with an environment variable of its own
(every descendant inherits it, and /proc/PID/environ shows it), waits until
a student's program is really running (it writes a marker file, and has
started a child of its own), kills `duel` with SIGKILL and then watches
/proc until no process carrying the variable is left, at most 10 s.
"""

import os
import pathlib
import signal
import subprocess
import time
import uuid

from conftest import duel_bin

# A student's program that, once running, starts a child that would sleep for
# five minutes, writes the marker (the child's pid) and sleeps too.
HANG = """
import os, subprocess, sys, time
child = subprocess.Popen(["sleep", "300"])
marker = os.environ["DUEL_TEST_MARKER"]
with open(marker + ".tmp", "w") as f:
    f.write(str(child.pid))
os.replace(marker + ".tmp", marker)
time.sleep(300)
"""


def tree(variable):
    """The pids of the live processes whose environment holds `variable`."""
    out = []
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            env = (entry / "environ").read_bytes()
        except OSError:  # gone, or not ours
            continue
        if variable.encode() in env.split(b"\0"):
            out.append(int(entry.name))
    return out


def wait_for(predicate, seconds, what):
    """Polls `predicate` until it is true; fails after `seconds`."""
    end = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < end, f"not within {seconds} s: {what}"
        time.sleep(0.05)


def kill_and_check(args, marker, tmp_path):
    """Starts `duel ARGS`, waits for the marker, SIGKILLs duel, then waits for
    its whole tree to be gone."""
    variable = f"DUEL_TEST_TREE={uuid.uuid4().hex}"
    env = dict(os.environ, DUEL_TEST_MARKER=str(marker))
    env[variable.split("=")[0]] = variable.split("=")[1]
    log = (tmp_path / "duel.log").open("w")
    duel = subprocess.Popen([duel_bin(), *map(str, args)], env=env, stdout=log,
                            stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: marker.exists() or duel.poll() is not None, 120,
                 "the student's program to start")
        assert duel.poll() is None, (tmp_path / "duel.log").read_text()
        grandchild = int(marker.read_text())
        assert grandchild in tree(variable), "the program's own child carries the variable"
        assert len(tree(variable)) >= 3, tree(variable)  # duel, its grader or referee, more
    finally:
        duel.send_signal(signal.SIGKILL)
        duel.wait()
        log.close()
    # Bounded: the processes must go by themselves, within 10 s.
    end = time.monotonic() + 10
    while tree(variable) and time.monotonic() < end:
        time.sleep(0.05)
    left = tree(variable)
    for pid in left:  # do not leave them to the next test
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert not left, [pathlib.Path(f"/proc/{p}/cmdline").read_bytes() for p in left
                      if pathlib.Path(f"/proc/{p}").exists()]


def test_sigkill_of_a_cs3243_grading_leaves_nothing(tmp_path):
    """Two students graded at once (the grader's two pool workers, each with a
    student's process, and its child)."""
    subs = tmp_path / "subs"
    for student in ("A0000001X", "A0000002Y"):
        (subs / student).mkdir(parents=True)
        # The program runs at import, as a student's top-level code would.
        (subs / student / "AB.py").write_text(
            HANG + "\ndef studentAgent(gameboard):\n    return None\n")
    marker = tmp_path / "started"
    kill_and_check(["tournament", "cs3243", subs, "--out", tmp_path / "out", "--games", "1",
                    "--concurrency", "2", "--quiet"], marker, tmp_path)


def test_sigkill_of_a_csci561_grading_leaves_nothing(tmp_path):
    """A CSCI-561 class of one student whose homework.py runs long and has a
    child: the referee's agent process and the child go with duel."""
    subs = tmp_path / "class"
    (subs / "s01-hang-py").mkdir(parents=True)
    (subs / "s01-hang-py" / "homework.py").write_text(HANG)
    marker = tmp_path / "started"
    kill_and_check(["tournament", "csci561", subs, "--out", tmp_path / "out", "--quiet"],
                   marker, tmp_path)
