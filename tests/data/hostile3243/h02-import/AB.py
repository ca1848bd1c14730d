"""hostile3243 h02: imports Duel's own engine (tests/data/hostile3243/README.md).

A student who knows the grader is Duel tries to play with Duel's engine
(`from duel.cs3243 import studentAgent`, the one-line AB.py that scores 10/10).
At import it tries `import duel` as it is, then with each folder that might
hold the package put first on sys.path: the lines of `paths.txt` beside it
(the test writes the real package's folders there, as a student who knew the
machine would hard-code them), PYTHONPATH of its parents' environments, and
the folders above the grader's helper script (its own command line). Every
try and its outcome goes to attack.log in its own folder; an ImportError is
caught. With the engine it would play the engine's moves; without, the plain
mover's.
"""

import importlib
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


def guesses():
    """Folders that might hold the duel package."""
    out = []
    try:
        with open(os.path.join(HERE, "paths.txt"), encoding="utf-8") as f:
            out += [line.strip() for line in f if line.strip()]
    except OSError:
        pass
    for pid in ancestors():
        for pair in proc_words(pid, "environ"):
            if pair.startswith("PYTHONPATH="):
                out += pair.split("=", 1)[1].split(":")
    for word in proc_words("self", "cmdline")[1:2]:  # the grader's helper script
        folder = os.path.dirname(word)
        for _ in range(4):
            out.append(folder)
            folder = os.path.dirname(folder)
    return [g for g in dict.fromkeys(out) if g]


def try_import(where):
    """duel.cs3243.studentAgent when `import duel` gives Duel's engine, else None."""
    for name in [m for m in sys.modules if m == "duel" or m.startswith("duel.")]:
        del sys.modules[name]
    try:
        duel = importlib.import_module("duel")
    except Exception as e:  # noqa: BLE001 - ImportError, or whatever a half package raises
        say(f"import duel {where}: failed ({type(e).__name__}: {e})")
        return None
    if not hasattr(duel, "load"):
        say(f"import duel {where}: a folder named duel without the engine"
            f" ({list(getattr(duel, '__path__', []))})")
        return None
    try:
        from duel.cs3243 import studentAgent as engine
    except Exception as e:  # noqa: BLE001
        say(f"import duel {where}: ENGINE, but duel.cs3243 failed ({type(e).__name__}: {e})")
        return None
    say(f"import duel {where}: ENGINE from {duel.__file__}")
    return engine


ENGINE = try_import("as it is")
for folder in guesses():
    if ENGINE is not None:
        break
    sys.path.insert(0, folder)
    ENGINE = try_import(f"from {folder}")
    sys.path.remove(folder)


# The move choice: the plain mover's, copied beside this file by the test.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plain_mover import *  # noqa: E402,F401,F403


def studentAgent(gameboard):  # noqa: N802 - the hand-out's name
    """The hand-out's interface: Duel's engine if it could be imported, else the
    plain mover's move."""
    if ENGINE is not None:
        return ENGINE(gameboard)
    return choose(gameboard)
