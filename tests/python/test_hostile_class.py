"""A hostile class graded in the box: every attack fails, and each program
loses only what the course says it loses.

tests/data/hostile561/ holds one program for each thing a hostile class did
when its code ran with the teacher's rights (its README has the table).
This module grades a class of three honest students of class561 and those
programs with `duel tournament csci561` (in the box, the default), plays
two of them against each other with `duel referee`, and then checks from
outside:

- the class folder is byte for byte unchanged, OUT/agents holds the class's
  files, the journal holds exactly the planned tasks, results.csv and
  index.html are not appended to after the run, a resumed run changes
  nothing;
- no secret of the teacher (an environment variable, a line of the
  positions file, a note beside the class folder, the honest students'
  code) appears in anything a hostile program wrote;
- the test's listeners (TCP and UDP on 127.0.0.1/::1, the Dask port, an
  abstract Unix socket) accepted nothing;
- no process of theirs is left (their comm starts with "h561", or they work
  under the test's folder) and no h561-* file is written outside their
  folders (/tmp, /var/tmp, /dev/shm, the test's folder);
- the honest students' grades and games equal those of a class where each
  hostile program that only attacks is replaced by s01-first-py (which it
  otherwise is) under the same name, and so do those programs' own games;
  the others lose each move with their limit's reason.

Skipped, with `duel box --check`'s reason, only on a machine that cannot
box programs.
"""

import hashlib
import json
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
import uuid

import pytest

from conftest import ROOT, box_check, digest_tree, duel_bin

CLASS561 = ROOT / "tests" / "data" / "class561"
HOSTILE561 = ROOT / "tests" / "data" / "hostile561"
HONEST = ("s01-first-py", "s02-greedy-py", "s04-alphabeta-cpp11")
HOSTILE = tuple(sorted(p.name for p in HOSTILE561.iterdir() if p.is_dir()))
# Programs whose attack, when it fails, leaves s01-first-py's play.
PLAYS = ("h01-snoop-py", "h02-journal-py", "h03-rewrite-py", "h04-signals-py", "h05-daemon-py",
         "h06-network-py", "h08-fds-py", "h10-diskout-py", "h12-probe-py")
# The box's memory for the class: h07 reaches it in about half a second of
# system CPU, well inside its 2 s move (at the 2048 MiB default it took
# 2.1 s of system CPU on a machine here and lost on time instead).
MEMORY_MIB = 512
# Programs a limit of the box stops on every move: (reason, words of the detail).
LIMITED = {"h07-memory-py": ("memory-limit", f"memory limit {MEMORY_MIB} MiB"),
           "h09-threads-py": ("process-limit", "process limit 128"),
           "h11-syscpu-py": ("time", "")}
# h10 may also meet a limit of its move with what it writes into its private /tmp.
H10_LIMITS = ("memory-limit", "disk-limit")
MARK = "h561"
PORT = 45617  # h06-network-py's fixed port
DASK_PORT = 8786
POSITIONS = [  # seconds, FEN: a simple move, a compulsory jump that continues, a crowning
    (2.0, "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"),
    (2.0, "B:W18,26:B14"),
    (2.0, "W:W5,22:B10,12"),
]
GAME_SECONDS = 5
REFERENCE_GAMES = 1
RUN_LIMIT = 240  # seconds a duel command may take before the test stops it


def run(args, env, what):
    """Runs duel ARGS; on a hang kills its process group and fails."""
    proc = subprocess.Popen([duel_bin(), *map(str, args)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=RUN_LIMIT)
    except subprocess.TimeoutExpired:
        for sig in (signal.SIGCONT, signal.SIGKILL):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                pass
        out, err = proc.communicate()
        pytest.fail(f"{what}: still running after {RUN_LIMIT} s (stopped by an attack?)\n{err}")
    return proc.returncode, out, err


def relinked(code, err, out):
    """Whether a run failed because the duel binary was being rebuilt under
    it (the reference, a copy of it run as a program, could not start)."""
    if code != 0 and ("Text file busy" in err or "No such file" in err):
        return True
    journal = out / "journal.jsonl" if out else None
    if journal is None or not journal.is_file():
        return False
    return any(re.search(r"exit status 12[67] \(stderr: sh: 1: " + re.escape(duel_bin()), line)
               for line in journal.read_text().splitlines())


def run_again_if_relinked(args, env, what, out=None, fresh=True):
    """run(), once more (twice at most) when the binary was being relinked;
    `fresh`: the output folder is started again."""
    for attempt in range(3):
        try:
            code, said, err = run(args, env, what)
        except OSError as e:  # the binary itself, mid-link
            code, said, err = 1, "", f"Text file busy: {e}"
        if attempt == 2 or not relinked(code, err, out):
            return code, said, err
        time.sleep(5)
        if out is not None and fresh:
            shutil.rmtree(out, ignore_errors=True)
    return code, said, err


class Listeners:
    """What the hostile programs might reach: TCP and UDP on 127.0.0.1 and
    ::1 at PORT, TCP at the Dask port where it is free, an abstract Unix
    socket. Records whatever arrives."""

    def __init__(self):
        self.got = []
        self.sockets = []
        self.notes = []
        self.lock = threading.Lock()
        self.stop = threading.Event()

        def listen(family, kind, address, required):
            s = socket.socket(family, kind)
            try:
                if family != socket.AF_UNIX:
                    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:
                    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                s.bind(address)
                if kind == socket.SOCK_STREAM:
                    s.listen(64)
                s.settimeout(0.1)
            except OSError as e:
                s.close()
                if required:
                    pytest.fail(f"the test cannot listen on {address}: {e}")
                self.notes.append(f"not listening on {address}: {e}")
                return
            self.sockets.append(s)
            threading.Thread(target=self.serve, args=(s, kind, address), daemon=True).start()

        listen(socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", PORT), True)
        listen(socket.AF_INET, socket.SOCK_DGRAM, ("127.0.0.1", PORT), True)
        listen(socket.AF_INET6, socket.SOCK_STREAM, ("::1", PORT), False)
        listen(socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", DASK_PORT), False)
        listen(socket.AF_INET6, socket.SOCK_STREAM, ("::1", DASK_PORT), False)
        listen(socket.AF_UNIX, socket.SOCK_STREAM, "\0h561-listener", True)

    def serve(self, s, kind, address):
        while not self.stop.is_set():
            try:
                if kind == socket.SOCK_STREAM:
                    conn, peer = s.accept()
                    conn.settimeout(0.5)
                    try:
                        data = conn.recv(200)
                    except OSError:
                        data = b""
                    conn.close()
                else:
                    data, peer = s.recvfrom(2000)
                    data = data[:200]
            except (socket.timeout, OSError):
                continue
            with self.lock:
                self.got.append((address, str(peer), data))

    def close(self):
        self.stop.set()
        for s in self.sockets:
            s.close()


def their_processes(tmp):
    """Live processes of the hostile class: named h561-*, or holding h561
    in their command line, or working under the test's folder."""
    me = os.getpid()
    out = {}
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == me:
            continue
        try:
            comm = (entry / "comm").read_text().strip()
            words = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        try:
            cwd = os.readlink(entry / "cwd")
        except OSError:
            cwd = ""
        if comm.startswith(MARK) or MARK.encode() in words or cwd.startswith(str(tmp)):
            out[int(entry.name)] = (comm, words.decode("utf-8", "replace")[:200], cwd)
    return out


SHARED = ["/tmp", "/var/tmp", "/dev/shm"]  # where anyone may write


def files_named(roots, depth):
    """Paths whose name starts with h561- under `roots`, `depth` levels deep."""
    found = []

    def walk(path, left):
        try:
            entries = list(os.scandir(path))
        except OSError:
            return
        for e in entries:
            if e.name.startswith(MARK + "-"):
                found.append(e.path)
            if left > 0 and e.is_dir(follow_symlinks=False):
                walk(e.path, left - 1)

    for root in roots:
        walk(root, depth)
    return found


def task_folders(out, name):
    """The folders where `name` ran: its single moves' and its games' side."""
    folders = sorted((out / "games").glob(f"single_{name}_*"))
    for game in sorted((out / "games").glob(f"reference_{name}_*")):
        folders += [game / side for side in ("black", "white") if (game / side).is_dir()]
    return folders


def evidence(out, name):
    """The lines `name` said ("h561 ...") in its stdout.log of every task,
    and in its calibrate run."""
    lines = []
    logs = [f / "stdout.log" for f in task_folders(out, name)]
    logs.append(out / "agents" / name / "calibrate.log")
    for log in logs:
        if log.is_file():
            lines += [line for line in log.read_text(errors="replace").splitlines()
                      if line.startswith(MARK + " ")]
    return lines


def students(results):
    return {s["name"]: s for s in results["students"]}


def play_of(student):
    """What a student did, without its clock: each single move's point and
    move or reason, each game's result, reason and moves."""
    singles = [(s.get("position"), s.get("point"), s.get("move"), s.get("reason"))
               for s in student.get("singles", [])]
    # A draw rule's ending names both clocks: CPU noise, not play.
    games = [(g["task"], g["result"], re.sub(r"\d+\.\d+ s", "T s", g["reason"]), g.get("moves"))
             for g in student["games"]]
    return {"points": student.get("single_points"), "singles": sorted(singles, key=str),
            "games": sorted(games, key=str), "error": student.get("error")}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    box_check()
    tmp = tmp_path_factory.mktemp("boxed")
    token = uuid.uuid4().hex
    secrets = {"environment": f"env-{token}", "positions": f"positions-{token}",
               "notes": f"notes-{token}", "code": f"code-{token}"}

    # The classes: hostile (honest + hostile) and plain (honest + s01-first-py
    # under each name of PLAYS); the honest students' code carries a secret.
    klass, plain = tmp / "class", tmp / "plain"
    for name in HONEST:
        for dest in (klass, plain):
            shutil.copytree(CLASS561 / name, dest / name)
            for program in (dest / name).iterdir():
                mark = "#" if program.suffix == ".py" else "//"
                with program.open("a") as f:
                    f.write(f"\n{mark} {secrets['code']}\n")
    for name in HOSTILE:
        shutil.copytree(HOSTILE561 / name, klass / name)
        # What every hostile program imports: s01's move generator, the kit.
        shutil.copy(CLASS561 / "s01-first-py" / "homework.py", klass / name / "first_move.py")
        shutil.copy(HOSTILE561 / "hostile_kit.py", klass / name / "hostile_kit.py")
    for name in PLAYS:
        (plain / name).mkdir()
        shutil.copy(CLASS561 / "s01-first-py" / "homework.py", plain / name / "homework.py")
    (tmp / "teacher-notes.txt").write_text(f"{secrets['notes']}\n")
    positions = tmp / "positions.txt"
    positions.write_text(f"# {secrets['positions']}\n" +
                         "".join(f"{s} {fen}\n" for s, fen in POSITIONS))
    before = digest_tree(klass)

    env = dict(os.environ, DUEL_TEACHER_SECRET=secrets["environment"])
    # --wall-factor 6: h11 must reach its clock in system CPU before the wall
    # limit kills it, even on a loaded machine (ctest -j2 beside two games).
    common = ["--positions", positions, "--time", GAME_SECONDS, "--reference-games",
              REFERENCE_GAMES, "--reference-charge", "0.001", "--concurrency", "2",
              "--wall-factor", "6", "--memory", MEMORY_MIB, "--quiet"]
    out, plain_out = tmp / "out", tmp / "plain-out"
    # What is already there is not theirs (another run's, or anyone's).
    there = set(files_named(SHARED, 1))
    listeners = Listeners()
    started = time.monotonic()
    left, outside = {}, []
    try:
        code, said, err = run_again_if_relinked(
            ["tournament", "csci561", klass, "--out", out, *common], env,
            "duel tournament of the hostile class", out)
        assert code == 0, err
        written = {name: (out / name).read_bytes() for name in ("results.csv", "index.html")}
        journal = (out / "journal.jsonl").read_text()
        code, said, err = run_again_if_relinked(
            ["tournament", "csci561", plain, "--out", plain_out, *common], env,
            "duel tournament of the plain class", plain_out)
        assert code == 0, err
        later = {name: (out / name).read_bytes() for name in ("results.csv", "index.html")}
        # The same command again: a resumed run (it plans nothing new).
        code, said, err = run_again_if_relinked(
            ["tournament", "csci561", klass, "--out", out, *common], env, "the resumed run",
            out, fresh=False)
        assert code == 0, err
        resumed = {"journal": (out / "journal.jsonl").read_text(),
                   "results": json.loads((out / "results.json").read_text())}
        # Two of them against each other, and s01 against itself: the same moves.
        referee = {}
        for pair in (("h04-signals-py", "h03-rewrite-py"), ("s01-first-py", "s01-first-py")):
            args = ["referee", "checkers", "--games", "1", "--time", GAME_SECONDS, "--json",
                    "--quiet", "--workdir", tmp / ("referee-" + "-".join(pair))]
            for name in pair:
                args += ["--agent", f"/usr/bin/python3 {klass / name / 'homework.py'}"]
            code, said, err = run_again_if_relinked(args, env, "duel referee " + " ".join(pair))
            assert code == 0, err
            referee[pair] = json.loads(said)
        seconds = time.monotonic() - started
    finally:
        listeners.close()
        # Give daemons that outlived the runs the time to act, then look.
        time.sleep(3)
        end = time.monotonic() + 5
        while their_processes(tmp) and time.monotonic() < end:
            time.sleep(0.1)
        left = their_processes(tmp)
        for pid in left:  # do not leave them to the next test
            for sig in (signal.SIGCONT, signal.SIGKILL):
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass
        outside = [p for p in files_named(SHARED, 1)
                   if p not in there and not p.startswith(str(tmp))]
        for path in outside:  # nor their files
            if os.path.isdir(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                os.unlink(path)
    inside = files_named([tmp], 12)
    return {"tmp": tmp, "class": klass, "before": before, "after": digest_tree(klass),
            "out": out, "plain_out": plain_out, "secrets": secrets, "written": written, "later": later,
            "journal": journal, "resumed": resumed, "referee": referee,
            "listened": list(listeners.got), "listener_notes": listeners.notes,
            "left": left, "outside": outside, "inside": inside, "seconds": seconds,
            "results": json.loads((out / "results.json").read_text()),
            "plain": json.loads((plain_out / "results.json").read_text())}


def test_the_class_folder_is_unchanged(graded):
    assert graded["after"] == graded["before"]


def test_the_prepared_copies_are_the_classs_files(graded):
    changed = []
    for name in HONEST + HOSTILE:
        source, copy = graded["class"] / name, graded["out"] / "agents" / name
        for path in source.rglob("*"):
            if path.is_file() and (copy / path.relative_to(source)).read_bytes() != path.read_bytes():
                changed.append(str(copy / path.relative_to(source)))
    assert not changed


def test_every_program_was_prepared(graded):
    for s in graded["results"]["students"]:
        assert not s["error"], (s["name"], s["error"])
    for name in ("h01-snoop-py", "h05-daemon-py"):
        assert students(graded["results"])[name]["calibration"].startswith("ok"), name


def test_the_journal_holds_only_the_planned_tasks(graded):
    lines = graded["journal"].splitlines()
    assert "tournament" in json.loads(lines[0])
    planned = {f"single/{n}/{k}" for n in HONEST + HOSTILE for k in range(len(POSITIONS))}
    planned |= {f"reference/{n}/{g}" for n in HONEST + HOSTILE for g in range(REFERENCE_GAMES)}
    keys = [json.loads(line)["key"] for line in lines[1:]]
    assert sorted(keys) == sorted(planned)
    assert MARK not in graded["journal"] and "forged" not in graded["journal"]


def test_a_resumed_run_changes_nothing(graded):
    assert graded["resumed"]["journal"] == graded["journal"]
    assert [play_of(s) for s in graded["resumed"]["results"]["students"]] == \
        [play_of(s) for s in graded["results"]["students"]]


def test_the_results_are_not_appended_to_after_the_run(graded):
    # As the run left them, then after the plain class's run (seconds
    # later), then after the resumed run, which rewrote them from the same
    # journal.
    def same(text):  # the resumed run calibrates again: another CPU figure
        return re.sub(rb"CPU \d+\.\d+ s", b"CPU s", text)

    for name in ("results.csv", "index.html"):
        first = graded["written"][name]
        assert MARK.encode() not in first, name
        assert graded["later"][name] == first, name
        now = (graded["out"] / name).read_bytes()
        assert MARK.encode() not in now, name
        assert same(now) == same(first), name


def test_no_secret_reaches_a_hostile_program(graded):
    out, secrets = graded["out"], graded["secrets"]
    leaked = []
    honest_copies = [out / "agents" / name for name in HONEST]
    for path in out.rglob("*"):
        if not path.is_file() or any(c in path.parents for c in honest_copies):
            continue
        data = path.read_bytes()
        for what, secret in secrets.items():
            if secret.encode() in data:
                leaked.append((what, str(path.relative_to(out))))
    assert not leaked


def test_the_listeners_accepted_nothing(graded):
    assert not graded["listened"], (graded["listened"], graded["listener_notes"])


def test_no_process_of_theirs_is_left(graded):
    assert not graded["left"]


def test_no_file_of_theirs_outside_their_folders(graded):
    assert not graded["outside"]
    assert not graded["inside"]


def test_honest_grades_are_those_of_a_class_without_them(graded):
    hostile, plain = students(graded["results"]), students(graded["plain"])
    for name in HONEST:
        assert play_of(hostile[name]) == play_of(plain[name]), name
        assert hostile[name]["points"] == plain[name]["points"], name


def test_each_program_that_only_attacks_plays_as_s01(graded):
    hostile, plain = students(graded["results"]), students(graded["plain"])
    for name in PLAYS:
        mine = play_of(hostile[name])
        if name == "h10-diskout-py" and mine != play_of(plain[name]):
            # A limit of its move stopped it: only such losses differ.
            for single, same in zip(mine["singles"], play_of(plain[name])["singles"]):
                assert single == same or single[3] in H10_LIMITS, (name, single)
            for game, same in zip(mine["games"], play_of(plain[name])["games"]):
                assert game == same or any(f"lost: {r}" in game[2] for r in H10_LIMITS), \
                    (name, game[:3])
            continue
        assert mine == play_of(plain[name]), name


def test_each_limited_program_loses_every_move_with_its_reason(graded):
    hostile = students(graded["results"])
    journal = [json.loads(line) for line in graded["journal"].splitlines()[1:]]
    for name, (reason, detail) in LIMITED.items():
        s = hostile[name]
        assert len(s["singles"]) == len(POSITIONS)
        for single in s["singles"]:
            assert single["point"] == 0 and single.get("reason") == reason, (name, single)
            assert detail in single.get("detail", ""), (name, single)
        games = [e for e in journal if e.get("kind") == "game" and name in e["players"]]
        assert len(games) == REFERENCE_GAMES
        for g in games:
            # "Black (NAME) lost: REASON: DETAIL", on its first move.
            me = g["players"].index(name)
            assert g["winner"] == g["players"][1 - me], (name, g["reason"])
            assert f"({name}) lost: {reason}" in g["reason"], (name, g["reason"])
            assert detail in g["reason"], (name, g["reason"])
            assert g["plies"] <= 1, (name, g["plies"])


def test_the_programs_saw_no_way_out(graded):
    out = graded["out"]
    said = {name: evidence(out, name) for name in HOSTILE}
    for name in HOSTILE:
        assert said[name] or name in LIMITED, f"{name} said nothing: did it run?"
    bad = {
        "h02-journal-py": r"forged into|killed parent|written [1-9]|killed [1-9]",
        "h03-rewrite-py": r"daemon appended|rewrote [1-9]",
        "h04-signals-py": r"ptrace attached|delivered",
        "h05-daemon-py": r"daemon stopped",
        "h06-network-py": r"connected",  # (a datagram is sent in any namespace)
        "h10-diskout-py": r"wrote MiB [1-9]\d* in /(?!tmp\b)",
    }
    for name, pattern in bad.items():
        hits = [line for line in said[name] if re.search(pattern, line)]
        assert not hits, (name, hits[:5])
    for line in said["h04-signals-py"]:
        if line.startswith("h561 targets"):
            assert line == "h561 targets []", line
    fds = [int(m.group(1)) for line in said["h08-fds-py"]
           for m in [re.match(r"h561 fds opened (\d+)", line)] if m]
    assert fds and max(fds) <= 512, said["h08-fds-py"]
    threads = [int(m.group(1)) for line in said["h09-threads-py"]
               for m in [re.match(r"h561 threads started (\d+)", line)] if m]
    assert all(n < 3000 for n in threads), threads
    allocated = [int(m.group(1)) for line in said["h07-memory-py"]
                 for m in [re.match(r"h561 allocated MiB (\d+)", line)] if m]
    assert all(n <= MEMORY_MIB for n in allocated), max(allocated)


def test_the_probe_finds_a_box(graded):
    lines = [line for line in evidence(graded["out"], "h12-probe-py")
             if line.startswith("h561 probe ")]
    assert lines
    mine = {k: os.readlink(f"/proc/self/ns/{k}") for k in ("pid", "net", "mnt", "ipc", "uts")}
    for line in lines:
        p = json.loads(line[len("h561 probe "):])
        assert p["uid"] != 0 and p["euid"] != 0 and p["uid"] != os.getuid(), p["uid"]
        assert p["status"]["CapEff"] == ["0000000000000000"], p["status"]
        assert p["status"]["NoNewPrivs"] == ["1"], p["status"]
        # PWD, where present, is only the folder it runs in.
        assert set(p["environ"]) - {"PWD"} <= {"PATH", "HOME", "LANG"}, p["environ"]
        assert p["environ"].get("PWD", p["cwd"]) == p["cwd"], p["environ"]
        assert p["environ"].get("HOME") == p["cwd"], (p["environ"], p["cwd"])
        assert p["fds"] == [0, 1, 2], p["fds"]
        assert p["rlimits"]["RLIMIT_NOFILE"] == [512, 512], p["rlimits"]
        assert p["rlimits"]["RLIMIT_FSIZE"][0] == 256 << 20, p["rlimits"]
        for kind, link in mine.items():
            assert p["namespaces"][kind] != link, (kind, p["namespaces"])
        assert p["interfaces"] == ["lo"], p["interfaces"]
        assert p["read"]["/etc/shadow"] is False
        assert not p["read"]["/root"] and not p["read"]["/home"], p["read"]
        assert not any(p["write"][d] for d in ("/", "/usr", "/etc", "/var/tmp")), p["write"]
        assert p["setuid0"] is False


def test_two_hostile_programs_play_each_other_as_two_s01s(graded):
    hostile = graded["referee"][("h04-signals-py", "h03-rewrite-py")]["games"]
    plain = graded["referee"][("s01-first-py", "s01-first-py")]["games"]
    assert [(g["moves"], g["reason"], g["plies"]) for g in hostile] == \
        [(g["moves"], g["reason"], g["plies"]) for g in plain]


def test_it_runs_in_time(graded):
    # ctest gives every file 600 s; this one is meant to take about 90 s on
    # two cores.
    assert graded["seconds"] < 300, graded["seconds"]
