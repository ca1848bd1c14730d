# h05-daemon-py -- hostile561 fixture: a student who leaves daemons.
#
# In its first milliseconds, on every move (and from calibrate.py, before
# any move): a double fork and setsid; the daemon (comm "h561-daemon")
# lives up to 120 s and every 50 ms SIGSTOPs every process of the run it can
# find: its parents (the referee, `duel tournament`) and whatever works
# under the folders above its own (the opponent, the reference agent, which
# then loses on time or is killed). The program itself then plays.
# Expected in a box: the daemon sees only its own pid namespace and dies
# with its move (or with the calibrate run); the program plays exactly as
# s01-first-py, the reference is never stopped, and no process of it is
# left after the run.
#
# Run it only through `duel referee` / `duel tournament`, in a box.
import os
import signal
import sys
import time

sys.dont_write_bytecode = True  # leave no __pycache__ in the folder
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# s01-first-py's move generator and this class's kit, copied beside this
# file when the test builds the class (tests/python/test_hostile_class.py).
from first_move import *  # noqa: E402,F401,F403
from hostile_kit import *  # noqa: E402,F401,F403


def stopper(roots, parents, seconds):
    me = os.getpid()
    stopped = set()
    end = time.time() + seconds
    while time.time() < end:
        for pid in parents + folders_under(roots):
            if pid in stopped or pid == me:
                continue
            if (read("/proc/%d/comm" % pid) or b"").startswith(MARK.encode()):
                continue  # its own kind
            words = cmdline(pid)
            if not words:
                continue
            try:
                os.kill(pid, signal.SIGSTOP)
                stopped.add(pid)
                say("daemon stopped", pid, words[:3])
            except OSError:
                pass
        time.sleep(0.05)


def start_daemon():
    """Returns in the program at once; the daemon never returns."""
    parents = ancestors()
    if daemonize("daemon"):
        try:
            found = discover()
            stopper(found["tasks"] + found["out"], parents, 120)
        finally:
            os._exit(0)
    say("daemon started; parents", parents)


def attack():
    mark("daemon")
    start_daemon()


if __name__ == "__main__":
    run(attack)
