# f07-forkbomb-py -- class561 fixture: a BOUNDED fork bomb.
#
# Why it exists: tests that the referee charges and kills a whole process
# tree.  The program forks a binary tree of busy-looping processes,
# numbered 1..MAX_PROCS in heap order (process k forks 2k and 2k+1 when they
# are <= MAX_PROCS), so there are never more than MAX_PROCS processes in all
# (the main one included).  Every process busy-loops and exits by itself
# LIFETIME seconds after the main process started, so even a referee that
# kills nothing cannot take the machine down for long.  It never writes
# output.txt.
# Expected: loses every game on its first move, reason time (CPU of the
# whole tree; killed -- the wall clock -- is also acceptable), and no
# process of it is left afterwards.
#
# Run: python3 homework.py
import os
import time

MAX_PROCS = 200
LIFETIME = 60.0


def busy(deadline):
    x = 0
    while time.monotonic() < deadline:
        for _ in range(20000):
            x += 1


def node(k, deadline):
    for child in (2 * k, 2 * k + 1):
        if child <= MAX_PROCS and time.monotonic() < deadline:
            try:
                pid = os.fork()
            except OSError:
                continue  # out of processes: just do not grow
            if pid == 0:
                try:
                    node(child, deadline)
                finally:
                    os._exit(0)
    busy(deadline)


if __name__ == "__main__":
    node(1, time.monotonic() + LIFETIME)
