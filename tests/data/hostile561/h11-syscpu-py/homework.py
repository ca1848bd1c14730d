# h11-syscpu-py -- hostile561 fixture: a student who burns system CPU.
#
# On every move: reads /dev/zero 1 MiB at a time (the kernel clears the
# buffer: system time, hardly any user time) until it has used 1.5 x its
# time left + 0.5 s of system CPU (os.stat in a loop if /dev/zero is not
# there), then plays as s01-first-py. The course charged user time only, so
# without a cap such a move costs a tick while holding a core.
# Expected in a box: system CPU past the move's clock loses that move on
# time (reason time).
#
# Run it only through `duel referee` / `duel tournament`, in a box.
import os
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the folder
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# s01-first-py's move generator and this class's kit, copied beside this
# file when the test builds the class (tests/python/test_hostile_class.py).
from first_move import *  # noqa: E402,F401,F403
from hostile_kit import *  # noqa: E402,F401,F403


def attack():
    mark("syscpu")
    seconds = read_input()[2]
    goal = seconds * 1.5 + 0.5
    buf = bytearray(1 << 20)
    try:
        zero = open("/dev/zero", "rb", buffering=0)
    except OSError:
        zero = None
    start = os.times()
    while os.times().system - start.system < goal:
        if zero is not None:
            zero.readinto(buf)
        else:
            os.stat(".")
    now = os.times()
    say("system CPU used", round(now.system - start.system, 3), "user",
        round(now.user - start.user, 3), "time left", seconds)


if __name__ == "__main__":
    run(attack)
