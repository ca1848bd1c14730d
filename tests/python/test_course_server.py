"""`duel course`: the course server run as teachers run it, over HTTP(S).

- A restart: the server is killed with SIGKILL while submissions are queued
  and a judge is playing; nothing of it is left running, and once started
  again every submission is judged exactly once, with the results a run
  that was never interrupted gives (the same `duel tournament` on the same
  files under the same names: the reference's seeds come from the names).
- HTTPS with a certificate and key (tests/data/tls, self-signed for
  127.0.0.1): the sign-in cookie is Secure; plain HTTP on loopback says so.
- The command line's one-line refusals (exit status 2).

docs/course-server.md is the guide these follow.
"""

import json
import os
import pathlib
import re
import signal
import sqlite3
import ssl
import subprocess
import time
import urllib.error
import urllib.request
import uuid

import pytest

from conftest import ROOT, duel_bin

CLASS561 = ROOT / "tests" / "data" / "class561"
TLS = ROOT / "tests" / "data" / "tls"
PRACTICE = ["--single-time", "5", "--reference-games", "2", "--time", "30"]


def course_cli(*args, timeout=60):
    return subprocess.run([duel_bin(), "course", *args], capture_output=True, text=True,
                          timeout=timeout)


def make_course(tmp, ids, course="csci561", ladder=False):
    roster = tmp / "roster.csv"
    roster.write_text("id,name,email\n" + "".join(f"{i},Student {i},{i}@x.org\n" for i in ids))
    made = course_cli("new", str(tmp / "course"), "--course", course, "--roster", str(roster))
    assert made.returncode == 0, made.stderr
    rows = [line.split(",") for line in made.stdout.splitlines()[1:]]
    tokens = {r[0]: r[3] for r in rows}
    config = json.loads((tmp / "course" / "course.json").read_text())
    if course == "csci561":
        config["practice"] = PRACTICE
    config["ladder"]["on"] = ladder
    (tmp / "course" / "course.json").write_text(json.dumps(config))
    return tmp / "course", tokens


class Server:
    """`duel course serve DIR --port 0`, its address read from its first line."""

    def __init__(self, folder, *extra, workers=2):
        self.proc = subprocess.Popen(
            [duel_bin(), "course", "serve", str(folder), "--port", "0", "--workers", str(workers),
             *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.first = self.proc.stdout.readline()
        match = re.search(r"on (https?)://127\.0\.0\.1:(\d+)/course/", self.first)
        assert match, self.first + self.proc.stderr.read()
        self.base = f"{match.group(1)}://127.0.0.1:{match.group(2)}"
        # Plain HTTP says where it can be reached in a second line.
        self.second = self.proc.stdout.readline() if match.group(1) == "http" else ""

    def stop(self, sig=signal.SIGTERM):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(timeout=30)


def request(base, path, token=None, data=None, headers=None, method=None, context=None):
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers or {})
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=30, context=context) as r:
            return r.status, r.read(), dict(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, e.read(), dict(e.headers)


def upload(base, token, path, name=None):
    """A multipart/form-data upload, as a browser or `curl -F file=@...` sends it."""
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
            f"filename=\"{name or path.name}\"\r\nContent-Type: text/plain\r\n\r\n").encode()
    body += path.read_bytes() + f"\r\n--{boundary}--\r\n".encode()
    status, data, _ = request(base, "/api/course/submissions", token, body,
                              {"Content-Type": f"multipart/form-data; boundary={boundary}"})
    assert status == 201, data
    return json.loads(data)["id"]


def wait_for(check, seconds, what):
    """Polls `check` until it returns a true value; fails after `seconds`."""
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    pytest.fail(f"waited {seconds} s for {what}")


def db_rows(folder, sql):
    with sqlite3.connect(f"file:{folder / 'course.db'}?mode=ro", uri=True) as db:
        return db.execute(sql).fetchall()


def processes_under(folder):
    """Processes whose command line names the course folder."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = pathlib.Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if str(folder).encode() in cmd:
            found.append(int(pid))
    return found


SUBMITTED = {"s02": "s02-greedy-py", "s01": "s01-first-py", "f01": "f01-crash-py",
             "f03": "f03-illegal-py"}


def test_a_server_killed_mid_judging_loses_nothing_and_judges_once(tmp_path):
    folder, tokens = make_course(tmp_path, list(SUBMITTED))
    # One judge: while it plays the first (the slowest), the others wait.
    server = Server(folder, workers=1)
    try:
        ids = {who: upload(server.base, tokens[who], CLASS561 / d / "homework.py")
               for who, d in SUBMITTED.items()}
        # Step 1. Kill it while a judge is playing (its journal has begun)
        # and others wait in the queue.
        def playing():
            rows = db_rows(folder, "SELECT id FROM jobs WHERE status = 'running'")
            return any((folder / "jobs" / str(r[0]) / "out" / "journal.jsonl").exists()
                       and len((folder / "jobs" / str(r[0]) / "out" / "journal.jsonl")
                               .read_text().splitlines()) > 1 for r in rows)
        wait_for(playing, 60, "a judge playing")
        queued = db_rows(folder, "SELECT COUNT(*) FROM jobs WHERE status = 'queued'")[0][0]
        server.stop(signal.SIGKILL)
        assert queued == 3
        wait_for(lambda: not processes_under(folder), 15, "the judges' processes to end")
        # Step 2. Start again: everything judged, each submission once.
        server = Server(folder)
        assert "queued again" in server.first
        def all_done():
            return all(r[0] == "done" for r in db_rows(folder, "SELECT status FROM submissions"))
        wait_for(all_done, 120, "every submission judged")
        jobs = db_rows(folder, "SELECT submission, status FROM jobs WHERE kind = 'judge'")
        assert sorted(s for s, _ in jobs) == sorted(ids.values())
        assert all(status == "done" for _, status in jobs)
        results = {who: json.loads(request(server.base, f"/api/course/submissions/{ids[who]}",
                                           tokens[who])[1])["result"] for who in ids}
    finally:
        server.stop()
    # Step 3. The same as a run never interrupted.
    klass = tmp_path / "class"
    for who, d in SUBMITTED.items():
        (klass / who).mkdir(parents=True)
        (klass / who / "homework.py").write_bytes((CLASS561 / d / "homework.py").read_bytes())
    run = subprocess.run([duel_bin(), "tournament", "csci561", str(klass), "--out",
                          str(tmp_path / "ref"), "--quiet", *PRACTICE], capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    ref = {s["name"]: s for s in json.loads((tmp_path / "ref" / "results.json").read_text())
           ["students"]}
    for who, got in results.items():
        want = ref[who]
        assert got["points"] == want["points"], who
        assert [x["point"] for x in got["singles"]] == [x["point"] for x in want["singles"]]
        assert [x.get("reason", "") for x in got["singles"]] == \
            [x.get("reason", "") for x in want["singles"]]
        assert [(g["result"], g["plies"]) for g in got["games"]] == \
            [(g["result"], g["plies"]) for g in want["games"]], who
    assert results["s01"]["single_points"] == 10
    assert "RuntimeError: f01-crash-py" in json.dumps(results["f01"])


def tournament_pids(folder):
    """The judges' `duel tournament` processes of a course."""
    pids = []
    for pid in processes_under(folder):
        try:
            cmd = pathlib.Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if len(cmd) > 1 and cmd[1] == b"tournament":
            pids.append(pid)
    return pids


def test_a_judge_killed_is_replaced_and_its_job_run_again(tmp_path):
    folder, tokens = make_course(tmp_path, ["s02"])
    server = Server(folder)
    try:
        sid = upload(server.base, tokens["s02"], CLASS561 / "s02-greedy-py" / "homework.py")
        first = wait_for(lambda: tournament_pids(folder), 60, "a judge running")
        for pid in first:
            os.kill(pid, signal.SIGKILL)
        def judged():
            got = json.loads(request(server.base, f"/api/course/submissions/{sid}",
                                     tokens["s02"])[1])
            return got if got["status"] in ("done", "failed") else None
        got = wait_for(judged, 120, "the submission judged")
        assert got["status"] == "done", got
        assert got["result"]["single_points"] == 10
        attempts = db_rows(folder, "SELECT attempts FROM jobs WHERE kind = 'judge'")
        assert attempts == [(2,)]
    finally:
        server.stop()


def test_judging_on_a_dask_cluster_gives_the_local_results(tmp_path):
    cluster_module = pytest.importorskip("test_cluster")
    cluster = cluster_module.Cluster(tmp_path)
    try:
        folder, tokens = make_course(tmp_path, ["s01", "f03"])
        server = Server(folder, "--scheduler", cluster.address)
        try:
            assert "judging on tcp://" in server.first
            ids = {who: upload(server.base, tokens[who], CLASS561 / d / "homework.py")
                   for who, d in (("s01", "s01-first-py"), ("f03", "f03-illegal-py"))}
            wait_for(lambda: all(r[0] == "done" for r in
                                 db_rows(folder, "SELECT status FROM submissions")),
                     180, "both judged on the cluster")
            got = {who: json.loads(request(server.base, f"/api/course/submissions/{i}",
                                           tokens[who])[1])["result"] for who, i in ids.items()}
        finally:
            server.stop()
    finally:
        cluster.stop()
    assert got["s01"]["single_points"] == 10
    assert got["f03"]["single_points"] == 0
    assert all(s["reason"] == "illegal-move" for s in got["f03"]["singles"])


def test_a_feedback_run_over_the_platforms_limit_is_cut_and_said(tmp_path):
    # CS3243's platform showed feedback only "within CodePost's time limit of
    # 30s" (seed 000): course.json's feedback_seconds, here 3 s.
    folder, tokens = make_course(tmp_path, ["slow"], course="cs3243")
    config = json.loads((folder / "course.json").read_text())
    assert config["feedback_seconds"] == 30 and config["practice"] == ["--games", "1"]
    config["feedback_seconds"] = 3
    config["practice"] = ["--games", "1"]
    (folder / "course.json").write_text(json.dumps(config))
    slow = tmp_path / "AB.py"
    slow.write_text("import time\n\ndef studentAgent(gameboard):\n    time.sleep(0.8)\n"
                    "    return None\n")
    server = Server(folder)
    try:
        sid = upload(server.base, tokens["slow"], slow)
        def judged():
            got = json.loads(request(server.base, f"/api/course/submissions/{sid}",
                                     tokens["slow"])[1])
            return got if got["status"] in ("done", "failed") else None
        started = time.monotonic()
        got = wait_for(judged, 60, "the submission judged")
        assert time.monotonic() - started < 30
        assert got["status"] == "done" and got["result"]["timed_out"] is True
        assert "3 s" in got["result"]["message"]
        wait_for(lambda: not tournament_pids(folder), 15, "the judge's processes to end")
    finally:
        server.stop()


def test_https_with_a_certificate_and_a_secure_cookie(tmp_path):
    folder, tokens = make_course(tmp_path, ["a1"])
    server = Server(folder, "--cert", str(TLS / "cert.pem"), "--key", str(TLS / "key.pem"))
    try:
        assert server.base.startswith("https://")
        context = ssl.create_default_context(cafile=str(TLS / "cert.pem"))
        status, page, _ = request(server.base, "/course/", context=context)
        assert status == 200 and b"<title" in page.lower()
        status, _, headers = request(server.base, "/api/course/signin",
                                     data=json.dumps({"token": tokens["a1"]}).encode(),
                                     context=context)
        assert status == 200
        cookie = headers["Set-Cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Secure" in cookie
        # Plain HTTP to the TLS port gets no page.
        with pytest.raises(Exception):
            urllib.request.urlopen(server.base.replace("https", "http") + "/course/", timeout=5)
    finally:
        server.stop()


def test_plain_http_says_it_is_loopback_only(tmp_path):
    folder, _ = make_course(tmp_path, ["a1"])
    server = Server(folder)
    try:
        assert "loopback only" in server.second
    finally:
        server.stop()
    assert server.proc.returncode == 0


def test_the_command_line_refuses_bad_input_in_one_line(tmp_path):
    (tmp_path / "r.csv").write_text("id,name,email\nalice,A\n")
    r = course_cli("new", str(tmp_path / "c"), "--course", "csci561", "--roster",
                   str(tmp_path / "r.csv"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "line 2" in r.stderr
    r = course_cli("new", str(tmp_path / "c"), "--course", "chess", "--roster",
                   str(tmp_path / "r.csv"))
    assert r.returncode == 2 and "chess" in r.stderr
    folder, _ = make_course(tmp_path, ["a1"])
    again = course_cli("new", str(folder), "--course", "csci561", "--roster",
                       str(tmp_path / "roster.csv"))
    assert again.returncode == 2 and "already" in again.stderr
    r = course_cli("serve", str(folder), "--cert", str(TLS / "cert.pem"))
    assert r.returncode == 2 and "--key" in r.stderr
    r = course_cli("serve", str(tmp_path / "nowhere"))
    assert r.returncode == 2 and "course.json" in r.stderr
    # A second server on the same course is refused.
    server = Server(folder)
    try:
        r = course_cli("serve", str(folder), "--port", "0")
        assert r.returncode == 2 and "another server" in r.stderr
    finally:
        server.stop()
