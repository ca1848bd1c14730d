# h04-signals-py -- hostile561 fixture: a student who signals and traces.
#
# On every move: every process it can find above it (its parents: the
# referee, `duel tournament`) or working under the folders above its own
# (the opponent, the reference agent, the rest of the run) gets
# PTRACE_ATTACH (through ctypes), SIGSTOP and SIGKILL. Never pid 1, never
# kill(-1).
# Expected in a box: its own pid namespace holds nothing but its own
# processes, so it finds no target; it plays exactly as s01-first-py and
# the run ends normally.
#
# Run it only through `duel referee` / `duel tournament`, in a box.
import ctypes
import os
import signal
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the folder
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# s01-first-py's move generator and this class's kit, copied beside this
# file when the test builds the class (tests/python/test_hostile_class.py).
from first_move import *  # noqa: E402,F401,F403
from hostile_kit import *  # noqa: E402,F401,F403

PTRACE_ATTACH = 16


def attack():
    mark("signals")
    found = discover()
    targets = folders_under(found["tasks"] + found["out"])
    libc = ctypes.CDLL(None, use_errno=True)
    libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
    say("targets", targets)
    for pid in targets:
        words = cmdline(pid)[:3]
        if libc.ptrace(PTRACE_ATTACH, pid, None, None) == 0:
            say("ptrace attached", pid, words)
        else:
            say("ptrace", pid, "refused", ctypes.get_errno())
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            try:
                os.kill(pid, sig)
                say("signal", int(sig), "to", pid, "delivered", words)
            except OSError as e:
                say("signal", int(sig), "to", pid, "refused", e.errno)


if __name__ == "__main__":
    run(attack)
