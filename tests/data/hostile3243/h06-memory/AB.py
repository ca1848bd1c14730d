"""hostile3243 h06: takes 4 GiB (tests/data/hostile3243/README.md).

Every move allocates and touches 4 GiB, 64 MiB at a time, before it plays
the plain mover's move. In a box the memory limit stops it: the game is
lost with the limit as its reason at the first move, and the next game
starts a fresh process that does the same. It says how far it got in
attack.log in its own folder (as far as it gets to write it).
"""

import os
import sys
# The move choice (the plain mover's) and the class's kit, copied beside
# this file by the test.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plain_mover import *  # noqa: E402,F401,F403
from hostile_kit import *  # noqa: E402,F401,F403

HERE = os.path.dirname(os.path.abspath(__file__))


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




def studentAgent(gameboard):  # noqa: N802 - the hand-out's name
    """The hand-out's interface: 4 GiB first, then the plain mover's move."""
    hog()
    return choose(gameboard)
