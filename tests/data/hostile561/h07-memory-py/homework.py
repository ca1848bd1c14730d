# h07-memory-py -- hostile561 fixture: a student who takes memory.
#
# Once per folder (so on its first move in a game, and in each single
# move): allocates and touches 4 GiB, 64 MiB at a time, saying how far it
# got; then frees it and plays as s01-first-py.
# Expected in a box: killed when it passes the memory limit (the test gives
# the class 512 MiB): it loses that move, reason memory-limit, detail
# "memory limit 512 MiB".
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
    mark("memory")
    if os.path.exists("h561-memory-done"):
        return
    open("h561-memory-done", "w").close()
    chunks = []
    for i in range(64):
        chunks.append(bytearray(b"\x01") * (64 << 20))  # touched, page by page
        say("allocated MiB", (i + 1) * 64)
    del chunks


if __name__ == "__main__":
    run(attack)
