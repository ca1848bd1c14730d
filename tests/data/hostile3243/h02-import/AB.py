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
# The move choice (the plain mover's) and the class's kit, copied beside
# this file by the test.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plain_mover import *  # noqa: E402,F401,F403
from hostile_kit import *  # noqa: E402,F401,F403

HERE = os.path.dirname(os.path.abspath(__file__))


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




def studentAgent(gameboard):  # noqa: N802 - the hand-out's name
    """The hand-out's interface: Duel's engine if it could be imported, else the
    plain mover's move."""
    if ENGINE is not None:
        return ENGINE(gameboard)
    return choose(gameboard)
