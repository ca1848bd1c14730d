# h09-threads-py -- hostile561 fixture: a student who starts threads by the
# thousand.
#
# On every move: starts 3,000 threads (each waits on one event), says how
# many started, releases them and plays as s01-first-py.
# Expected in a box: thread creation fails past the process/thread limit
# (128); it loses that move, reason process-limit, detail "process limit
# 128".
#
# Run it only through `duel referee` / `duel tournament`, in a box.
import os
import sys
import threading

sys.dont_write_bytecode = True  # leave no __pycache__ in the folder
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# s01-first-py's move generator and this class's kit, copied beside this
# file when the test builds the class (tests/python/test_hostile_class.py).
from first_move import *  # noqa: E402,F401,F403
from hostile_kit import *  # noqa: E402,F401,F403


def attack():
    mark("threads")
    release = threading.Event()
    started = 0
    try:
        for _ in range(3000):
            threading.Thread(target=release.wait, daemon=True).start()
            started += 1
    except (RuntimeError, OSError) as e:
        say("thread", started + 1, "refused:", e)
    say("threads started", started)
    release.set()


if __name__ == "__main__":
    run(attack)
