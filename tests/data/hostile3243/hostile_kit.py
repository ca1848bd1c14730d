"""hostile3243's kit: what the hostile AB.py files share (their notes, the
grader's processes above them), copied beside each by the test."""

import os

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

