"""`duel tournament --scheduler`: a real Dask cluster (Debian's python3-distributed),
started by the tests as separate processes (a scheduler and two workers on
loopback; and, as root, three hosts in network namespaces of their own), and
stopped after. A fixed-seed, node-limited tournament gives the same table on
one local process, two local processes and the cluster; a worker killed in the
middle changes nothing; a scheduler gone stops the run cleanly and the same
command resumes it; bad clusters are one line each (docs/cluster.md)."""

import json
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

import pytest

from conftest import duel_bin

pytest.importorskip("distributed", reason="python3-distributed is not installed")
DASK = shutil.which("dask") or "/usr/bin/dask"

# A tournament whose games are fixed by their seed and node limits: the same
# moves wherever and however often it runs.
TOURNAMENT = ["tournament", "gardner", "--agent", "engine:nodes=3000", "--agent",
              "alphabeta:depth=2", "--agent", "random", "--games", "6", "--openings", "2",
              "--seed", "3", "--quiet"]
# Longer games (about 12 s of CPU in all), so that a kill lands in the middle.
LONG = ["tournament", "checkers", "--agent", "engine:nodes=100000", "--agent",
        "engine:nodes=40000", "--agent", "alphabeta:depth=4", "--games", "4", "--openings", "2",
        "--seed", "3", "--quiet"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A scheduler and workers as separate processes, each in its own process group."""

    def __init__(self, tmp, workers=2, host="127.0.0.1", netns=None):
        self.port = free_port() if netns is None else 8786
        self.address = f"tcp://{host}:{self.port}"
        self.tmp = tmp
        self.procs = {}
        self.netns = netns or {}
        self.start("scheduler", [DASK, "scheduler", "--host", host, "--port", str(self.port),
                                 "--no-dashboard"])
        self.wait_for(lambda: self.reachable(), "the scheduler")
        for i in range(workers):
            self.start_worker(f"worker{i}")

    def start(self, name, argv):
        if name in self.netns:
            argv = ["ip", "netns", "exec", self.netns[name]] + argv
        log = open(self.tmp / f"{name}.log", "w")  # noqa: SIM115 (closed with the process)
        # A worker finds duel where the driver says (or not at all), not through
        # the tests' DUEL_BIN.
        clean = {k: v for k, v in os.environ.items() if k != "DUEL_BIN"}
        self.procs[name] = subprocess.Popen(argv, stdout=log, stderr=log, env=clean,
                                            start_new_session=True)

    def start_worker(self, name, address=None):
        argv = [DASK, "worker", self.address, "--nthreads", "1", "--no-nanny",
                "--no-dashboard"]
        if address:
            argv += ["--host", address]
        self.start(name, argv)
        count = sum(1 for n in self.procs if n.startswith("worker"))
        self.wait_for(lambda: self.workers() >= count, f"{count} workers")

    def reachable(self):
        host, port = self.address[len("tcp://"):].split(":")
        try:
            with socket.create_connection((host, int(port)), timeout=1):
                return True
        except OSError:
            return False

    def workers(self):
        code = ("from distributed import Client; c = Client(%r, timeout=5); "
                "print(len(c.scheduler_info()['workers'])); c.close()" % self.address)
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           timeout=60)
        return int(r.stdout.strip() or 0)

    @staticmethod
    def wait_for(ready, what, seconds=60):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if ready():
                return
            time.sleep(0.2)
        raise AssertionError(f"{what} did not come up in {seconds} s")

    def kill(self, name):
        p = self.procs.pop(name)
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait()

    def stop(self):
        for name in list(self.procs):
            self.kill(name)


@pytest.fixture(scope="module")
def long_local(tmp_path_factory):
    """LONG's table from a local run (two threads: node limits make it the same)."""
    out = tmp_path_factory.mktemp("long") / "local"
    r = run(*LONG, "--out", str(out), "--concurrency", "2")
    assert r.returncode == 0, r.stderr
    return table(out)


@pytest.fixture
def cluster(tmp_path):
    c = Cluster(tmp_path)
    yield c
    c.stop()


def run(*args, timeout=300):
    return subprocess.run([duel_bin(), *args], capture_output=True, text=True, timeout=timeout)


def table(folder):
    """results.json without what depends on where and when games ran."""
    return (folder / "results.json").read_text()


def entries(folder):
    lines = (folder / "journal.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines[1:]]


def run_killing(args, out, kill):
    """Runs duel with `args`, calls `kill` once two entries are journaled in `out`,
    and returns the run's status and stderr."""
    p = subprocess.Popen([duel_bin(), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and p.poll() is None:
        if (out / "journal.jsonl").exists() and len(entries(out)) >= 2:
            break
        time.sleep(0.05)
    kill()
    _, err = p.communicate(timeout=300)
    return p.returncode, err


def test_the_same_table_locally_and_on_the_cluster(tmp_path, cluster):
    """One process, two processes, and two Dask workers: the same games and the same
    table; every entry once, naming the host that played it; the records come back."""
    one = run(*TOURNAMENT, "--out", str(tmp_path / "one"))
    assert one.returncode == 0, one.stderr
    two = run(*TOURNAMENT, "--out", str(tmp_path / "two"), "--concurrency", "2")
    assert two.returncode == 0, two.stderr
    dask = run(*TOURNAMENT, "--out", str(tmp_path / "dask"), "--scheduler", cluster.address)
    assert dask.returncode == 0, dask.stderr
    assert table(tmp_path / "two") == table(tmp_path / "one")
    assert table(tmp_path / "dask") == table(tmp_path / "one")
    got = entries(tmp_path / "dask")
    assert len(got) == 18 and len({e["key"] for e in got}) == 18
    assert all(e["host"] == socket.gethostname() for e in got)
    for e in got:
        assert (tmp_path / "dask" / e["record"]).read_text().startswith("[Event")


def test_a_killed_worker_changes_nothing(tmp_path, cluster, long_local):
    """One of the two workers killed in the middle: its game is played again by the
    other, counted once, and the table is the local run's."""
    out = tmp_path / "dask"
    status, err = run_killing([*LONG, "--out", str(out), "--scheduler", cluster.address], out,
                              lambda: cluster.kill("worker0"))
    assert status == 0, err
    got = entries(out)
    assert len(got) == 12 and len({e["key"] for e in got}) == 12
    assert table(out) == long_local


def test_the_scheduler_gone_stops_cleanly_and_the_same_command_resumes(tmp_path, long_local):
    """The scheduler killed in the middle: the run stops with one line (status 2),
    keeping what it journaled; with a cluster again, the same command ends with the
    local run's table."""
    first = Cluster(tmp_path)
    out = tmp_path / "dask"
    args = [*LONG, "--out", str(out), "--scheduler", first.address]
    try:
        status, err = run_killing(args, out, lambda: first.kill("scheduler"))
    finally:
        first.stop()
    done = len(entries(out))
    assert status == 2, (done, err)  # the kill landed in the middle
    assert err.count("\n") == 1 and "scheduler" in err, err
    assert done >= 2
    second = Cluster(tmp_path)
    try:
        resumed = run(*LONG, "--out", str(out), "--scheduler", second.address)
    finally:
        second.stop()
    assert resumed.returncode == 0, resumed.stderr
    assert "from the journal" in resumed.stdout
    assert table(out) == long_local


# A match fixed by its seed and node limits, and an SPRT that decides in about
# twenty games of the two hundred it may play.
ARENA = ["arena", "gardner", "--agent", "engine:nodes=2000", "--agent", "alphabeta:depth=2",
         "--games", "8", "--openings", "2", "--seed", "3", "--json"]
SPRT = ["arena", "gardner", "--agent", "engine:nodes=3000", "--agent", "engine:nodes=300",
        "--games", "200", "--openings", "4", "--sprt", "elo0=0,elo1=200", "--seed", "5",
        "--json"]


def without_times(text):
    """PGN or JSON records without each move's time, which depends on the host."""
    text = re.sub(r" [0-9.]+s\}", "}", text)
    return re.sub(r'"seconds":[0-9.e-]+', "", text)


def test_arena_the_same_on_the_cluster(tmp_path, cluster):
    """duel arena --scheduler: the same games, records and report as the local run,
    and an SPRT that cannot decide in eight games reports the same LLR."""
    got = {}
    for where, extra in (("local", []), ("dask", ["--scheduler", cluster.address])):
        r = run(*ARENA, "--records", str(tmp_path / f"{where}.jsonl"), "--pgnout",
                str(tmp_path / f"{where}.pgn"), "--sprt", "elo0=-5,elo1=5", *extra)
        assert r.returncode == 0, r.stderr
        got[where] = json.loads(r.stdout)
    assert got["dask"] == got["local"]
    assert got["local"]["played"] == 8 and got["local"]["sprt"]["decided_at"] is None
    for kind in ("jsonl", "pgn"):
        local = (tmp_path / f"local.{kind}").read_text().strip().split("\n\n" if kind == "pgn"
                                                                   else "\n")
        dask = (tmp_path / f"dask.{kind}").read_text().strip().split("\n\n" if kind == "pgn"
                                                                 else "\n")
        assert sorted(map(without_times, dask)) == sorted(map(without_times, local)), kind


def duel_processes(binary):
    """Processes running `binary task` (a game on a worker)."""
    found = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            argv = (pathlib.Path("/proc") / pid / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if len(argv) > 1 and argv[0] == binary.encode() and argv[1] == b"task":
            found += 1
    return found


def test_an_sprt_on_the_cluster_stops_when_it_decides(tmp_path, cluster):
    """The SPRT decides as the local run does and stops: the games still queued never
    run, those running stop, and the LLR is the one its results give."""
    import duel  # pylint: disable=import-outside-toplevel
    local = run(*SPRT)
    assert local.returncode == 0, local.stderr
    mine = json.loads(local.stdout)
    records = tmp_path / "sprt.jsonl"
    r = run(*SPRT, "--records", str(records), "--scheduler", cluster.address)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["sprt"]["verdict"] == mine["sprt"]["verdict"] == "H1 was accepted"
    assert got["played"] < 60 and got["scheduled"] == 200
    assert len(records.read_text().splitlines()) == got["played"]
    assert got["sprt"]["llr"] == pytest.approx(
        duel.sprt_llr(got["wins"], got["draws"], got["losses"], 0, 200))
    assert got["sprt"]["llr"] >= got["sprt"]["upper"]
    Cluster.wait_for(lambda: duel_processes(duel_bin()) == 0, "the cancelled games' end", 10)


def solve(spec, *extra):
    r = run("solve", spec, "--json", "--hash", "16", *extra)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def check_line(spec, got):
    """Each move of the line keeps the proven value: the position after it, solved
    by the Python module, has the same payoff one ply nearer the end."""
    import duel  # pylint: disable=import-outside-toplevel
    state = duel.load(spec).initial_state()
    plies = got["plies"]
    for move in got["pv"]:
        state = state.result(move)
        plies -= 1
        r = duel.search(state, depth=0)
        assert r.exact and r.value == got["value"], (move, r)
        if got["shortest"]:
            assert r.plies_to_end == plies, (move, r)
    assert state.is_terminal() and plies == 0


# OEIS A344227: the first player wins the free-placement game for n = 7, the
# second for n = 10 (docs/experiments/nqueens.md); KCell n=2,k=5 is won by the
# first player in 5 plies (tests/kcell/kcell_test.cpp, solved by hand).
@pytest.mark.parametrize("spec,value", [("nqueens:n=7,variant=2", 1),
                                        ("nqueens:n=10,variant=2", -1),
                                        ("kcell:n=2,k=5", 1)])
def test_solve_on_the_cluster_gives_the_single_machine_value(cluster, spec, value):
    """duel solve --scheduler: the value of one machine's solve; with every subtree
    solved, its plies to the end too; the line keeps the value move by move."""
    one = solve(spec)
    assert one["value"] == value
    every = solve(spec, "--scheduler", cluster.address, "--all-subtrees")
    assert (every["value"], every["plies"], every["shortest"]) == (value, len(one["pv"]), True)
    assert every["cancelled"] == 0 and every["solved"] == every["subtrees"]
    check_line(spec, every)
    cut = solve(spec, "--scheduler", cluster.address)
    assert cut["value"] == value and len(cut["pv"]) == cut["plies"]
    check_line(spec, cut)
    if value > 0 and spec.startswith("nqueens"):
        # The first player's first winning move decides the root: the other
        # first moves' subtrees are not all solved.
        assert cut["cancelled"] > 0 and not cut["shortest"]


def test_bad_clusters_are_one_line(tmp_path, cluster):
    """No scheduler there; workers without duel; a duel of another build."""
    def error(*extra):
        r = run("tournament", "kcell:n=3,k=11", "--agent", "first", "--agent", "random",
                "--out", str(tmp_path / f"o{len(os.listdir(tmp_path))}"), "--quiet", *extra)
        assert r.returncode == 2, (r.stdout, r.stderr)
        assert r.stderr.count("\n") == 1 and r.stderr.startswith("duel: cluster: "), r.stderr
        return r.stderr
    assert "cannot reach the Dask scheduler" in error("--scheduler",
                                                      f"tcp://127.0.0.1:{free_port()}")
    assert "no duel program" in error("--scheduler", cluster.address, "--worker-duel",
                                      str(tmp_path / "nowhere" / "duel"))
    other = tmp_path / "other-duel"
    other.write_text("#!/bin/sh\necho 'duel 0.1.0 (build 000000000000)'\n")
    other.chmod(0o755)
    said = error("--scheduler", cluster.address, "--worker-duel", str(other))
    assert "build 000000000000" in said and "same commit" in said, said


NETNS = {"scheduler": "duelt-s", "worker0": "duelt-a", "worker1": "duelt-b"}
ADDRESSES = {"scheduler": "10.231.0.2", "worker0": "10.231.0.3", "worker1": "10.231.0.4"}


def ip(*args):
    subprocess.run(["ip", *args], check=True, capture_output=True)


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("ip") is None,
                    reason="network namespaces need root and iproute2")
def test_three_hosts_in_network_namespaces(tmp_path, long_local):
    """A scheduler and two workers, each a host of its own (a network namespace with a
    veth pair to a bridge on a private subnet this test makes and removes): the same
    table as the local run, with one worker killed in the middle."""
    bridge = "duelt-br"
    made = []
    try:
        ip("link", "add", bridge, "type", "bridge")
        made.append(("link", bridge))
        ip("addr", "add", "10.231.0.1/24", "dev", bridge)
        ip("link", "set", bridge, "up")
        for name, ns in NETNS.items():
            ip("netns", "add", ns)
            made.append(("netns", ns))
            inside, outside = f"{ns}-in", f"{ns}-out"
            ip("link", "add", inside, "type", "veth", "peer", "name", outside)
            ip("link", "set", inside, "netns", ns)
            ip("link", "set", outside, "master", bridge)
            ip("link", "set", outside, "up")
            ip("-n", ns, "addr", "add", f"{ADDRESSES[name]}/24", "dev", inside)
            ip("-n", ns, "link", "set", inside, "up")
            ip("-n", ns, "link", "set", "lo", "up")
        c = Cluster(tmp_path, workers=0, host=ADDRESSES["scheduler"], netns=NETNS)
        try:
            c.start_worker("worker0", ADDRESSES["worker0"])
            c.start_worker("worker1", ADDRESSES["worker1"])
            out = tmp_path / "hosts"
            status, err = run_killing([*LONG, "--out", str(out), "--scheduler", c.address],
                                      out, lambda: c.kill("worker0"))
            assert status == 0, err
        finally:
            c.stop()
        assert table(out) == long_local
        assert len({e["key"] for e in entries(out)}) == len(entries(out)) == 12
    finally:
        for kind, name in reversed(made):
            subprocess.run(["ip", kind, "del", name], capture_output=True)
