"""hostile3243 h06: takes 4 GiB (tests/data/hostile3243/README.md).

Every move allocates and touches 4 GiB, 64 MiB at a time, before it plays
the plain mover's move. In a box the memory limit stops it: the game is
lost with the limit as its reason at the first move, and the next game
starts a fresh process that does the same. It says how far it got in
attack.log in its own folder (as far as it gets to write it).
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def say(text):
    """Notes what the attack found or did in attack.log, in its own folder only."""
    try:
        with open(os.path.join(HERE, "attack.log"), "a", encoding="utf-8") as f:
            f.write(f"h3243 {text}\n")
    except OSError:
        pass


def ancestors():
    """The grader's processes above this one, nearest first: its parents up to the
    first whose command line does not name duel (so never the test runner, a
    shell or pid 1)."""
    out, pid = [], os.getppid()
    while pid > 1 and len(out) < 12 and "duel" in " ".join(proc_words(pid, "cmdline")):
        out.append(pid)
        try:
            with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return out


def proc_words(pid, what):
    """/proc/PID/cmdline or environ as a list of text, [] when unreadable."""
    try:
        with open(f"/proc/{pid}/{what}", "rb") as f:
            return [os.fsdecode(w) for w in f.read().split(b"\0") if w]
    except OSError:
        return []


CHUNK = 64 << 20
TOTAL = 4 << 30


def hog():
    """4 GiB of written memory, 64 MiB at a time."""
    held = []
    say("memory taking 4 GiB")
    while len(held) * CHUNK < TOTAL:
        held.append(bytearray(b"\x01") * CHUNK)  # written, not just reserved
    say(f"memory HELD {len(held) * CHUNK >> 20} MiB")
    return len(held)


# The move choice: the plain mover's, copied beside this file by the test.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plain_mover import *  # noqa: E402,F401,F403


def studentAgent(gameboard):  # noqa: N802 - the hand-out's name
    """The hand-out's interface: 4 GiB first, then the plain mover's move."""
    hog()
    return choose(gameboard)
