# h10-diskout-py -- hostile561 fixture: a student who writes outside its
# folder.
#
# Once per folder: writes 1.5 GB in files of 192 MiB (under the 256 MiB
# file-size limit) into /tmp, /var/tmp, /dev/shm and the folders above its
# own (the task's folder, OUT/games, OUT), each file named h561-diskout-*,
# moving to the next place when one refuses; says where it wrote; then
# plays as s01-first-py.
# Expected in a box: nothing lands in the real /tmp, /var/tmp, /dev/shm or
# any folder above its own (they are read-only, absent, or private to the
# move and gone with it); whatever its private /tmp holds is bounded by the
# move's limits. It plays as s01-first-py unless a limit stops it
# (memory-limit or disk-limit on that move).
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

TOTAL = 1536 << 20
FILE = 192 << 20


def attack():
    mark("diskout")
    if os.path.exists("h561-diskout-done"):
        return
    open("h561-diskout-done", "w").close()
    here = os.getcwd()
    places = ["/tmp", "/var/tmp", "/dev/shm", os.path.dirname(here),
              os.path.dirname(os.path.dirname(here)),
              os.path.dirname(os.path.dirname(os.path.dirname(here)))]
    chunk = b"h561" * (4 << 20)  # 16 MiB of data, never sparse
    written = 0
    for place in places:
        n, wrote_here = 0, 0
        while written < TOTAL:
            path = os.path.join(place, "h561-diskout-%d-%d.bin" % (os.getpid(), n))
            try:
                with open(path, "wb") as f:
                    size = 0
                    while size < FILE and written < TOTAL:
                        f.write(chunk)
                        size += len(chunk)
                        written += len(chunk)
                        wrote_here += len(chunk)
            except OSError as e:
                say("write", path, "refused", e.errno)
                break
            n += 1
        say("wrote MiB", wrote_here >> 20, "in", place)
        if written >= TOTAL:
            break
    say("wrote MiB in all", written >> 20)


if __name__ == "__main__":
    run(attack)
