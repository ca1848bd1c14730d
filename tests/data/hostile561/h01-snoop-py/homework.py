# h01-snoop-py -- hostile561 fixture: a student who snoops.
#
# On every move (and in calibrate.py, once, before any move and uncharged)
# it reads what its parents give away: their command lines and environment
# variables in /proc (the teacher's secrets), the class folder (every other
# student's code), --out (the journal, the prepared copies in OUT/agents),
# the --positions file (the hidden single moves), the folder above the class
# folder, /root and /home. All it found goes where the teacher's tools keep
# it: its stdout (stdout.log), stderr, loot.txt and playdata.txt in its
# folder (calibration.txt in calibrate.py).
# Expected in a box: it finds nothing of the run (its parents are not in its
# /proc, the folders are not in its file system, its environment holds only
# PATH, HOME, LANG) and plays exactly as s01-first-py.
#
# Run it only through `duel referee` / `duel tournament`, in a box.
import json
import os
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the folder
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# s01-first-py's move generator and this class's kit, copied beside this
# file when the test builds the class (tests/python/test_hostile_class.py).
from first_move import *  # noqa: E402,F401,F403
from hostile_kit import *  # noqa: E402,F401,F403

TEXT = (".py", ".cpp", ".java", ".txt", ".jsonl", ".csv", ".json", ".md", "")


def walk(root, depth, out, budget):
    """Files under `root`, `depth` folders deep, read into `out`."""
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return
    out["ls " + root] = names[:200]
    for name in names:
        if len(out) > budget or name.startswith("h0") or name.startswith("h1"):
            continue  # the class's hostile folders, this one included
        path = os.path.join(root, name)
        if os.path.isdir(path):
            if depth > 0:
                walk(path, depth - 1, out, budget)
        elif os.path.splitext(name)[1] in TEXT:
            data = read(path, 16384)
            if data is not None:
                out[path] = data.decode("utf-8", "replace")


def loot():
    found = discover()
    got = {"found": found, "own environment": dict(os.environ)}
    for pid in ancestors():
        got["cmdline %d" % pid] = cmdline(pid)
        env = read("/proc/%d/environ" % pid)
        if env:
            got["environ %d" % pid] = [e.decode("utf-8", "replace") for e in env.split(b"\0") if e]
    files = {}
    for path in found["positions"]:
        data = read(path)
        if data is not None:
            files[path] = data.decode("utf-8", "replace")
    for path in found["programs"]:
        walk(os.path.dirname(path), 0, files, 400)
    for path in found["class"]:
        walk(path, 1, files, 400)
        walk(os.path.dirname(path), 0, files, 400)  # beside the class folder
    for path in found["out"]:
        walk(path, 0, files, 400)
        walk(os.path.join(path, "agents"), 1, files, 400)
    for path in ("/root", "/home"):
        walk(path, 0, files, 400)
    got["files"] = files
    return json.dumps(got, sort_keys=True)[:1 << 20]


def attack():
    mark("snoop")
    text = loot()
    say("loot", text[:200000])
    try:
        sys.stderr.write(text[:200000] + "\n")
    except Exception:
        pass
    for name in ("loot.txt", "playdata.txt"):
        try:
            with open(name, "w") as f:
                f.write(text)
        except OSError:
            pass


if __name__ == "__main__":
    run(attack)
