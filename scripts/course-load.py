#!/usr/bin/python3
"""Load test of `duel course serve`: a class of simulated students.

Makes a csci561 course of --students students in a temporary folder,
serves it (--workers local judges, or --dask N: a Dask scheduler and N
single-threaded workers it starts on loopback, judging with --scheduler),
and lets every student, at a random moment of the first --window seconds,
upload one of tests/data/class561's programs (a fixed mix of correct,
crashing and illegal-moving ones, by --seed) as a browser does
(multipart/form-data with the student's token), then poll their own
submissions every --poll seconds while one is queued or running, as the
page does, and read the judged one once. It ends when every submission is
judged (or --timeout passes) and prints:

- uploads: how many, refused (must be 0), and their latency;
- pages: every GET's latency (p50, p99, max), and p99 in each minute;
- the queue: its longest length, the time from the first upload to the
  last result, and the judges' throughput: submissions judged a minute
  while the queue was never empty (from the first time it held 2 jobs to
  the last result);
- the server: its peak resident memory (VmHWM) and CPU seconds (the
  judges' processes are its children, not counted here).

Everything it starts is stopped when it ends, on any exit.

  scripts/course-load.py [--duel build/bin/duel] [--students 300] [--window 600]
      [--workers 2 | --dask 2] [--poll 2] [--seed 1] [--timeout 3600] [--json]
  scripts/course-load.py --students 20 --window 20      (a smoke run)
"""

import argparse
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLASS561 = ROOT / "tests" / "data" / "class561"
# The mix: mostly correct programs, as a class is (README of class561).
MIX = ["s01-first-py"] * 4 + ["s02-greedy-py"] * 3 + ["f01-crash-py", "f03-illegal-py",
                                                      "s06-calibrate-py"]


def percentile(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, int(round(p / 100 * (len(values) - 1)))))
    return values[k]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Run:
    def __init__(self, args):
        self.args = args
        self.tmp = Path(tempfile.mkdtemp(prefix="duel-course-load-"))
        self.procs = []
        self.lock = threading.Lock()
        self.gets = []      # (time since start, seconds)
        self.uploads = []   # seconds
        self.refused = []
        self.done_at = {}   # submission -> time since start its result was seen judged
        self.queue_log = []  # (time since start, queued + running)

    # Step 1. The course and its server (and a cluster).
    def start(self):
        a = self.args
        roster = self.tmp / "roster.csv"
        roster.write_text("id,name,email\n" + "".join(
            f"st{i:03d},Student {i},st{i:03d}@example.org\n" for i in range(a.students)))
        made = subprocess.run([a.duel, "course", "new", str(self.tmp / "course"), "--course",
                               "csci561", "--roster", str(roster)],
                              capture_output=True, text=True, check=True)
        self.tokens = [line.split(",")[3] for line in made.stdout.splitlines()[1:]]
        self.teacher = (self.tmp / "course" / "teacher-link.txt").read_text().strip()
        self.teacher = self.teacher.rsplit("token=", 1)[1]
        config = json.loads((self.tmp / "course" / "course.json").read_text())
        config["ladder"]["on"] = False  # the judges' throughput alone
        config["uploads"]["per_hour"] = 1000
        (self.tmp / "course" / "course.json").write_text(json.dumps(config))
        extra = ["--workers", str(a.workers)]
        if a.dask:
            port = free_port()
            address = f"tcp://127.0.0.1:{port}"
            dask = shutil.which("dask") or "/usr/bin/dask"
            self.spawn([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                        "--no-dashboard"], "scheduler")
            self.wait_port(port)
            for i in range(a.dask):
                self.spawn([dask, "worker", address, "--nthreads", "1", "--no-nanny",
                            "--no-dashboard"], f"worker{i}")
            time.sleep(3)  # the workers register; the first job waits for them anyway
            extra = ["--scheduler", address, "--workers", str(a.dask)]
        self.server = subprocess.Popen(
            [a.duel, "course", "serve", str(self.tmp / "course"), "--port", "0", *extra],
            stdout=subprocess.PIPE, stderr=open(self.tmp / "server.log", "w"), text=True,
            start_new_session=True)
        self.procs.append(self.server)
        line = self.server.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            raise SystemExit(f"course-load: the server did not start: {line}")
        self.base = f"http://127.0.0.1:{m.group(1)}"
        self.pid = self.server.pid

    def spawn(self, argv, name):
        log = open(self.tmp / f"{name}.log", "w")
        self.procs.append(subprocess.Popen(argv, stdout=log, stderr=log, start_new_session=True))

    @staticmethod
    def wait_port(port):
        for _ in range(300):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise SystemExit("course-load: the Dask scheduler did not start")

    def stop(self):
        for p in reversed(self.procs):
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM if p is self.server else signal.SIGKILL)
                    p.wait(timeout=30)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    os.killpg(p.pid, signal.SIGKILL)
        shutil.rmtree(self.tmp, ignore_errors=True)

    # Step 2. Requests, timed.
    def request(self, path, token, data=None, headers=None):
        req = urllib.request.Request(self.base + path, data=data, headers=headers or {})
        req.add_header("Authorization", f"Bearer {token}")
        t0 = time.monotonic()
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                body = r.read()
                status = r.status
        except urllib.error.HTTPError as e:
            body, status = e.read(), e.code
        return status, body, time.monotonic() - t0

    def student(self, k, at, program):
        token = self.tokens[k]
        time.sleep(max(0.0, self.t0 + at - time.monotonic()))
        boundary = uuid.uuid4().hex
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
                f"filename=\"homework.py\"\r\nContent-Type: text/x-python\r\n\r\n").encode()
        body += (CLASS561 / program / "homework.py").read_bytes()
        body += f"\r\n--{boundary}--\r\n".encode()
        status, reply, took = self.request(
            "/api/course/submissions", token, body,
            {"Content-Type": f"multipart/form-data; boundary={boundary}"})
        with self.lock:
            self.uploads.append(took)
        if status != 201:
            with self.lock:
                self.refused.append(f"{status} {reply[:200]!r}")
            return
        sid = json.loads(reply)["id"]
        # The page: its list every --poll seconds while judging, then the result.
        while time.monotonic() - self.t0 < self.args.timeout:
            status, reply, took = self.request("/api/course/submissions", token)
            now = time.monotonic() - self.t0
            with self.lock:
                self.gets.append((now, took))
            mine = [s for s in json.loads(reply) if s["id"] == sid] if status == 200 else []
            if mine and mine[0]["status"] in ("done", "failed"):
                status, _, took = self.request(f"/api/course/submissions/{sid}", token)
                with self.lock:
                    self.gets.append((time.monotonic() - self.t0, took))
                    self.done_at[sid] = now
                return
            time.sleep(self.args.poll)

    def watch_queue(self):
        # The teacher's view of the queue, every second.
        while not self.finished.is_set():
            status, reply, _ = self.request("/api/course/students", self.teacher)
            if status == 200:
                busy = sum(1 for s in json.loads(reply)
                           if s.get("latest", {}).get("status") in ("queued", "running"))
                self.queue_log.append((time.monotonic() - self.t0, busy))
            self.finished.wait(1.0)

    def cpu_and_memory(self):
        status = Path(f"/proc/{self.pid}/status").read_text()
        hwm = int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1))
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return hwm / 1024, cpu

    # Step 3. The class.
    def run(self):
        a = self.args
        rng = random.Random(a.seed)
        plan = [(k, rng.uniform(0, a.window), MIX[rng.randrange(len(MIX))])
                for k in range(a.students)]
        self.t0 = time.monotonic()
        self.finished = threading.Event()
        watcher = threading.Thread(target=self.watch_queue, daemon=True)
        watcher.start()
        threads = [threading.Thread(target=self.student, args=p, daemon=True) for p in plan]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.finished.set()
        watcher.join()
        first = min(at for _, at, _ in plan)
        last = max(self.done_at.values(), default=float("nan"))
        busy_from = next((t for t, n in self.queue_log if n >= 2), first)
        judged_busy = sum(1 for t in self.done_at.values() if t >= busy_from)
        mem, cpu = self.cpu_and_memory()
        per_minute = {}
        for t, took in self.gets:
            per_minute.setdefault(int(t // 60), []).append(took)
        return {
            "students": a.students, "window_s": a.window,
            "judges": f"{a.dask} Dask workers" if a.dask else f"{a.workers} local",
            "uploads": len(self.uploads), "refused": self.refused[:5],
            "upload_ms": {"p50": 1000 * percentile(self.uploads, 50),
                          "p99": 1000 * percentile(self.uploads, 99)},
            "gets": len(self.gets),
            "get_ms": {"p50": 1000 * percentile([g for _, g in self.gets], 50),
                       "p99": 1000 * percentile([g for _, g in self.gets], 99),
                       "max": 1000 * max((g for _, g in self.gets), default=float("nan"))},
            "get_p99_ms_by_minute": {m: round(1000 * percentile(v, 99), 1)
                                     for m, v in sorted(per_minute.items())},
            "judged": len(self.done_at),
            "longest_queue": max((n for _, n in self.queue_log), default=0),
            "first_upload_to_last_result_s": last - first,
            "judged_per_minute_while_busy":
                judged_busy / max(1e-9, (last - busy_from) / 60) if judged_busy else 0.0,
            "server_peak_rss_mib": round(mem, 1), "server_cpu_s": round(cpu, 1),
        }


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--duel", default=str(ROOT / "build" / "bin" / "duel"))
    p.add_argument("--students", type=int, default=300)
    p.add_argument("--window", type=float, default=600.0, help="seconds the uploads spread over")
    p.add_argument("--workers", type=int, default=2, help="local judges")
    p.add_argument("--dask", type=int, default=0, metavar="N",
                   help="judge on a Dask cluster of N workers started here")
    p.add_argument("--poll", type=float, default=2.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--timeout", type=float, default=3600.0)
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    if a.students < 1 or a.window < 0 or a.workers < 1 or a.dask < 0:
        print("course-load: --students and --workers at least 1, --window and --dask at least 0",
              file=sys.stderr)
        return 2
    if not os.access(a.duel, os.X_OK):
        print(f"course-load: {a.duel} is not built", file=sys.stderr)
        return 2
    run = Run(a)
    try:
        run.start()
        result = run.run()
    finally:
        run.stop()
    if a.json:
        print(json.dumps(result, indent=2))
    else:
        for k, v in result.items():
            print(f"{k}: {v}")
    return 0 if not result["refused"] and result["judged"] == result["uploads"] else 1


if __name__ == "__main__":
    sys.exit(main())
