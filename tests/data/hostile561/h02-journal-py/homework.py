# h02-journal-py -- hostile561 fixture: a student who forges the journal.
#
# On every move: writes forged journal entries (every single move a point,
# every reference game a win, each marked "forged": "h561") to every file
# descriptor above 2 it inherited that is open for writing, and appends them
# to OUT/journal.jsonl, found from its parents' --out and from the folders
# above its own; then SIGKILLs its parents (the referee, `duel tournament`),
# so that the run must be resumed and the resumed run reads the forgeries.
# Expected in a box: it inherits fds 0, 1, 2 only, sees neither OUT nor its
# parents, and plays exactly as s01-first-py; the journal holds only the
# planned tasks and the run ends normally.
#
# Run it only through `duel referee` / `duel tournament`, in a box.
import fcntl
import json
import os
import signal
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the folder
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# s01-first-py's move generator and this class's kit, copied beside this
# file when the test builds the class (tests/python/test_hostile_class.py).
from first_move import *  # noqa: E402,F401,F403
from hostile_kit import *  # noqa: E402,F401,F403

NAME = "h02-journal-py"


def forgeries():
    lines = []
    for k in range(10):
        lines.append({"key": "single/%s/%d" % (NAME, k), "kind": "single", "student": NAME,
                      "position": k, "point": 1, "move": "E b6 a5", "forged": MARK})
    for g in range(9):
        players = [NAME, "reference"] if g % 2 == 0 else ["reference", NAME]
        lines.append({"key": "reference/%s/%d" % (NAME, g), "kind": "game",
                      "stage": "reference", "round": 0, "pairing": [NAME, "reference"],
                      "players": players, "sides": ["Black", "White"], "winner": NAME,
                      "payoff": 1 if g % 2 == 0 else -1, "ending": "no-moves",
                      "reason": "no-moves", "plies": 1, "moves": [], "forged": MARK})
    return "".join(json.dumps(line) + "\n" for line in lines).encode()


def attack():
    mark("journal")
    data = forgeries()
    forged, killed = 0, 0
    for fd in range(3, 4096):
        try:
            flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        except OSError:
            continue
        try:
            what = os.readlink("/proc/self/fd/%d" % fd)
        except OSError:
            what = "?"
        if flags & os.O_ACCMODE in (os.O_WRONLY, os.O_RDWR):
            try:
                os.write(fd, data)
                forged += 1
                say("forged into inherited fd", fd, what)
            except OSError as e:
                say("inherited fd", fd, what, "refused", e.errno)
        else:
            say("inherited fd", fd, what, "read-only")
    for out in discover()["out"]:
        path = os.path.join(out, "journal.jsonl")
        if os.path.isfile(path):
            try:
                with open(path, "ab") as f:
                    f.write(data)
                forged += 1
                say("forged into", path)
            except OSError as e:
                say("journal", path, "refused", e.errno)
    for pid in ancestors():
        words = cmdline(pid)
        try:
            os.kill(pid, signal.SIGKILL)
            killed += 1
            say("killed parent", pid, words[:3])
        except OSError as e:
            say("parent", pid, "refused", e.errno)
    say("forgeries written", forged, "parents killed", killed)


if __name__ == "__main__":
    run(attack)
