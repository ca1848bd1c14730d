# The hostile kit of tests/data/hostile561: what every program of this
# hostile class shares, copied into each one's folder by the test.
import os
import sys

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


def run(attack):
    """A move: the attack (one that fails or raises must not cost the move), then
    s01-first-py's move: the first legal move (Black), the last (White)."""
    try:
        attack()
    except Exception as e:  # noqa: BLE001
        say("attack failed:", repr(e))
    import first_move
    first_move.main()
