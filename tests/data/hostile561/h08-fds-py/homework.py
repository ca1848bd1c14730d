# h08-fds-py -- hostile561 fixture: a student who opens files by the
# thousand.
#
# On every move: raises its open-files limit as far as it may, opens 20,000
# file descriptors (dup of stdout), says how many it got, closes them and
# plays as s01-first-py.
# Expected in a box: it gets fewer than 512 (the box's open-files limit,
# which it cannot raise) and plays exactly as s01-first-py.
#
# Run it only through `duel referee` / `duel tournament`, in a box.
import os
import resource
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the folder
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# s01-first-py's move generator and this class's kit, copied beside this
# file when the test builds the class (tests/python/test_hostile_class.py).
from first_move import *  # noqa: E402,F401,F403
from hostile_kit import *  # noqa: E402,F401,F403


def attack():
    mark("fds")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    for want in (1 << 20, 65536, hard):
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, want))
            break
        except (ValueError, OSError):
            continue
    fds = []
    try:
        while len(fds) < 20000:
            fds.append(os.dup(1))
    except OSError as e:
        say("dup refused", e.errno)
    say("fds opened", len(fds), "limit", resource.getrlimit(resource.RLIMIT_NOFILE))
    for fd in fds:
        os.close(fd)


if __name__ == "__main__":
    run(attack)
