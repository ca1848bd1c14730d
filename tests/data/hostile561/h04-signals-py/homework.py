# h04-signals-py -- hostile561 fixture: a student who signals and traces.
#
# On every move: every process it can find above it (its parents: the
# referee, `duel tournament`) or working under the folders above its own
# (the opponent, the reference agent, the rest of the run) gets
# PTRACE_ATTACH (through ctypes), SIGSTOP and SIGKILL. Never pid 1, never
# kill(-1).
# Expected in a box: its own pid namespace holds nothing but its own
# processes, so it finds no target; it plays exactly as s01-first-py and
# the run ends normally.
#
# Run it only through `duel referee` / `duel tournament`, in a box.
import ctypes
import os
import signal
import sys

# ---- checkers move generation (shared by this class's Python agents) ----
# Board: board[r][c], r = 0 is the top line of input.txt (rank 8), c = 0 is
# file a.  'b'/'w' men, 'B'/'W' kings, '.' empty.  Black men move down
# (r + 1), White men up (r - 1).  A move is (path, captured): path is the
# list of (r, c) squares visited, captured the list of jumped squares (empty
# for a simple move).  Captured pieces stay on the board until the move ends
# (a piece is never jumped twice); a man that reaches the far row is crowned
# and the move ends there.

KING_DIRS = [(-1, -1), (-1, 1), (1, -1), (1, 1)]


def read_input(path="input.txt"):
    with open(path) as f:
        lines = [line.strip() for line in f if line.strip()]
    mode = lines[0].upper()
    side = "b" if lines[1].upper() == "BLACK" else "w"
    seconds = float(lines[2])
    board = [list(row) for row in lines[3:11]]
    return mode, side, seconds, board


def other(side):
    return "w" if side == "b" else "b"


def piece_dirs(p):
    if p.isupper():
        return KING_DIRS
    return [(1, -1), (1, 1)] if p == "b" else [(-1, -1), (-1, 1)]


def crown_row(p):
    return 7 if p == "b" else 0


def _jumps(board, r, c, p, path, caps, out):
    enemy = other(p.lower())
    more = False
    for dr, dc in piece_dirs(p):
        mr, mc, tr, tc = r + dr, c + dc, r + 2 * dr, c + 2 * dc
        if not (0 <= tr < 8 and 0 <= tc < 8):
            continue
        if board[mr][mc].lower() != enemy or (mr, mc) in caps:
            continue
        if board[tr][tc] != ".":
            continue
        more = True
        path2, caps2 = path + [(tr, tc)], caps + [(mr, mc)]
        if p.islower() and tr == crown_row(p):
            out.append((path2, caps2))  # crowned: the move ends here
        else:
            _jumps(board, tr, tc, p, path2, caps2, out)
    if not more and caps:
        out.append((path, caps))


def legal_moves(board, side):
    """All legal moves of `side`, in a fixed order: squares top-left to
    bottom-right, directions up-left, up-right, down-left, down-right.
    Jumps only when there is one (captures are compulsory)."""
    jumps, steps = [], []
    for r in range(8):
        for c in range(8):
            p = board[r][c]
            if p == "." or p.lower() != side:
                continue
            board[r][c] = "."  # the piece leaves its square
            _jumps(board, r, c, p, [(r, c)], [], jumps)
            board[r][c] = p
            for dr, dc in piece_dirs(p):
                tr, tc = r + dr, c + dc
                if 0 <= tr < 8 and 0 <= tc < 8 and board[tr][tc] == ".":
                    steps.append(([(r, c), (tr, tc)], []))
    return jumps if jumps else steps


def apply_move(board, move):
    path, caps = move
    b = [row[:] for row in board]
    (r0, c0), (r1, c1) = path[0], path[-1]
    p = b[r0][c0]
    b[r0][c0] = "."
    for r, c in caps:
        b[r][c] = "."
    if p.islower() and r1 == crown_row(p):
        p = p.upper()
    b[r1][c1] = p
    return b


def square(rc):
    r, c = rc
    return "abcdefgh"[c] + str(8 - r)


def move_text(move):
    path, caps = move
    kind = "J" if caps else "E"
    return "".join("%s %s %s\n" % (kind, square(a), square(b))
                   for a, b in zip(path, path[1:]))


def write_output(text, path="output.txt"):
    with open(path, "w") as f:
        f.write(text)
# ---- end of move generation ----

# ---- hostile kit (the same in every program of this class) ----
# Every attack is aimed only at what the program discovers for itself: the
# Duel processes above it (/proc/PPID/stat, their command lines and working
# folders) and the folders above its own. Whatever it finds or achieves it
# says on stdout, one line starting with "h561", which the referee keeps in
# stdout.log; a test reads those lines as evidence.

MARK = "h561"


def mark(name):
    """Names this process (its comm) "h561-NAME", so that it and everything
    it forks can be found in /proc by whoever watches."""
    try:
        import ctypes
        ctypes.CDLL(None).prctl(15, ctypes.c_char_p((MARK + "-" + name)[:15].encode()), 0, 0, 0)
    except Exception:
        pass


def say(*words):
    line = " ".join([MARK] + [str(w) for w in words])
    try:
        sys.stdout.write(line[:20000] + "\n")
        sys.stdout.flush()
    except Exception:
        pass


def read(path, limit=1 << 16):
    try:
        with open(path, "rb") as f:
            return f.read(limit)
    except Exception:
        return None


def cmdline(pid):
    raw = read("/proc/%s/cmdline" % pid) or b""
    return [w.decode("utf-8", "replace") for w in raw.split(b"\0") if w]


def parent_of(pid):
    stat = read("/proc/%s/stat" % pid)
    try:
        return int(stat.rsplit(b")", 1)[1].split()[1])
    except Exception:
        return 0


def ancestors():
    """The processes above this one that are Duel's (their program is duel
    or bwrap: the referee, `duel tournament`), nearest first, as far as
    /proc shows them; the walk stops at the first other one, so whatever
    started Duel is never a target (pid 1 and 0 excluded)."""
    out, pid = [], os.getppid()
    while pid > 1 and pid not in out and len(out) < 8:
        words = cmdline(pid)
        if not words or os.path.basename(words[0]) not in ("duel", "bwrap"):
            break
        out.append(pid)
        pid = parent_of(pid)
    return out


def cwd_of(pid):
    try:
        return os.readlink("/proc/%s/cwd" % pid)
    except Exception:
        return ""


def discover():
    """What the parents' command lines and the folders above give away: the
    class folder, --out, --positions, the programs of --agent, and the
    folders this program runs under (the task's, and OUT's)."""
    found = {"class": [], "out": [], "positions": [], "programs": [], "tasks": []}
    for pid in ancestors():
        words = cmdline(pid)
        base = "/proc/%d/cwd" % pid  # relative paths are the parent's

        def at(p):
            return p if p.startswith("/") else os.path.join(base, p)

        for i, w in enumerate(words):
            nxt = words[i + 1] if i + 1 < len(words) else ""
            if w == "tournament" and i + 2 < len(words):
                found["class"].append(at(words[i + 2]))
            for opt, key in (("--out", "out"), ("--positions", "positions"),
                             ("--workdir", "tasks")):
                if w == opt and nxt:
                    found[key].append(at(nxt))
                elif w.startswith(opt + "="):
                    found[key].append(at(w.split("=", 1)[1]))
            if w in ("--agent", "--calibrate") and nxt:
                for part in nxt.split():
                    if part.startswith("/") and os.path.isfile(part):
                        found["programs"].append(part)
                        found["class"].append(os.path.dirname(os.path.dirname(part)))
    here = os.getcwd()
    found["tasks"].append(os.path.dirname(here))
    up = here
    for _ in range(4):
        up = os.path.dirname(up)
        if os.path.exists(os.path.join(up, "journal.jsonl")) or \
                os.path.isdir(os.path.join(up, "agents")):
            found["out"].append(up)
    for key in found:
        seen = []
        for p in found[key]:
            if p not in seen and p not in ("", "/"):
                seen.append(p)
        found[key] = seen
    return found


def folders_under(roots):
    """Processes whose working folder is under one of `roots`, or that are
    above this one: the referee, the opponent, the rest of the run."""
    me = os.getpid()
    real = [os.path.realpath(r) for r in roots if r]
    out = list(ancestors())
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in (me, 1) or int(entry) in out:
            continue
        cwd = cwd_of(entry)
        if cwd and any(cwd == r or cwd.startswith(r + "/") for r in real):
            out.append(int(entry))
    return out


def daemonize(name):
    """Double fork and setsid: returns True in the daemon, False in the
    program itself (which goes on at once)."""
    try:
        pid = os.fork()
    except OSError as e:
        say("fork failed:", e)
        return False
    if pid > 0:
        try:
            os.waitpid(pid, 0)
        except OSError:
            pass
        return False
    try:
        os.setsid()
        if os.fork() > 0:
            os._exit(0)
        mark(name)
        return True
    except BaseException:
        os._exit(0)
# ---- end of hostile kit ----

PTRACE_ATTACH = 16


def attack():
    mark("signals")
    found = discover()
    targets = folders_under(found["tasks"] + found["out"])
    libc = ctypes.CDLL(None, use_errno=True)
    libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
    say("targets", targets)
    for pid in targets:
        words = cmdline(pid)[:3]
        if libc.ptrace(PTRACE_ATTACH, pid, None, None) == 0:
            say("ptrace attached", pid, words)
        else:
            say("ptrace", pid, "refused", ctypes.get_errno())
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            try:
                os.kill(pid, sig)
                say("signal", int(sig), "to", pid, "delivered", words)
            except OSError as e:
                say("signal", int(sig), "to", pid, "refused", e.errno)


def play():
    """s01-first-py's move: the first legal move (Black), the last (White)."""
    mode, side, seconds, board = read_input()
    moves = legal_moves(board, side)
    if not moves:
        sys.exit(1)  # no legal move: the game is lost, nothing to write
    write_output(move_text(moves[0] if side == "b" else moves[-1]))


def main():
    try:
        attack()
    except Exception as e:  # an attack that fails must not cost the move
        say("attack failed:", repr(e))
    play()


if __name__ == "__main__":
    main()
