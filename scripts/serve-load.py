#!/usr/bin/python3
"""Load test of `duel serve` (docs/BENCHMARKS.md, "duel serve under slow clients").

Starts `duel serve --port 0` on loopback, makes one game, opens SLOW
connections that send a request line and then one header line every
--trickle seconds without ever finishing, and IDLE connections that send
nothing, spread over --sources loopback addresses (127.0.3.1, 127.0.3.2,
...), then times `GET /api/games/ID` for a well-behaved client with wrk
(one connection, keep-alive, --seconds long) and prints wrk's latency
percentiles, how many of the slow and idle connections the server had
closed by the end, and the server's resident memory. Bounded: everything
it starts is stopped when it ends, on any exit.

  scripts/serve-load.py --duel build/bin/duel [--slow 50] [--idle 50] [--sources 4]
      [--seconds 10] [--trickle 1.5] [--serve-flag=--request-timeout=10 ...]
  scripts/serve-load.py --duel build/bin/duel --games 64 [--agent engine:time=0.2]

With --games N it measures memory instead: N games (Gardner), each asked
for one move by --agent, one after another, then the server's resident
memory (kept agents keep their tables: docs/serve.md).

Needs wrk (Debian's wrk; scripts/setup.sh installs it).
"""
import argparse
import json
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def still_open(sock):
    """False once the server has closed the connection (EOF or reset)."""
    sock.setblocking(False)
    try:
        data = sock.recv(4096)
        return len(data) > 0  # an answer (e.g. a 408) means it is being closed too
    except BlockingIOError:
        return True
    except OSError:
        return False


def call(method, url, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method)
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def memory(a, base, pid):
    """N games, one agent move each, then the server's resident memory."""
    before = rss_mb(pid)
    made, moved, refused = 0, 0, []
    for _ in range(a.games):
        status, view = call("POST", base + "/api/games", {"game": "gardner"})
        if status != 201:
            refused.append(view.get("error", status))
            continue
        made += 1
        gid = view["id"]
        status, view = call("POST", f"{base}/api/games/{gid}/agent", {"agent": a.agent})
        if status != 202:
            refused.append(view.get("error", status))
            continue
        while True:
            status, s = call("GET", f"{base}/api/games/{gid}/search")
            if not s.get("thinking", False):
                break
            time.sleep(0.05)
        moved += 1
    result = {"games": made, "moved": moved, "agent": a.agent, "refused": refused[:3],
              "rss_mb_before": round(before, 1), "rss_mb_after": round(rss_mb(pid), 1)}
    print(json.dumps(result) if a.json else "\n".join(f"{k}: {v}" for k, v in result.items()))
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--duel", required=True)
    p.add_argument("--slow", type=int, default=50)
    p.add_argument("--idle", type=int, default=50)
    p.add_argument("--sources", type=int, default=4)
    p.add_argument("--seconds", type=int, default=10)
    p.add_argument("--trickle", type=float, default=1.5)
    p.add_argument("--serve-flag", action="append", default=[])
    p.add_argument("--json", action="store_true")
    p.add_argument("--games", type=int, default=0)
    p.add_argument("--agent", default="engine:time=0.2")
    a = p.parse_args()
    if not 0 <= a.games <= 10000:
        sys.exit("serve-load: --games 0..10000")
    if not 0 <= a.slow <= 2000 or not 0 <= a.idle <= 2000 or not 1 <= a.sources <= 250:
        sys.exit("serve-load: --slow and --idle 0..2000, --sources 1..250")
    if not 1 <= a.seconds <= 600:
        sys.exit("serve-load: --seconds 1..600")
    wrk = shutil.which("wrk")
    if wrk is None:
        sys.exit("serve-load: wrk is not installed (apt-get install wrk)")

    server = subprocess.Popen([a.duel, "serve", "--port", "0"] + a.serve_flag,
                              stdout=subprocess.PIPE, text=True)
    sockets = []
    done = threading.Event()
    try:
        line = server.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            sys.exit(f"serve-load: the server did not say where it listens: {line!r}")
        port = int(m.group(1))
        base = f"http://127.0.0.1:{port}"
        req = urllib.request.Request(base + "/api/games", data=b'{"game":"gardner"}', method="POST")
        with urllib.request.urlopen(req, timeout=30) as r:
            gid = json.load(r)["id"]
        if a.games:
            return memory(a, base, server.pid)

        # Step 1. The slow and the idle connections.
        slow, idle, refused = [], [], 0
        for i in range(a.slow + a.idle):
            source = f"127.0.3.{1 + i % a.sources}"
            s = socket.socket()
            s.bind((source, 0))
            try:
                s.connect(("127.0.0.1", port))
            except OSError:
                refused += 1
                s.close()
                continue
            sockets.append(s)
            if i < a.slow:
                try:
                    s.sendall(b"GET /api/games HTTP/1.1\r\n")
                except OSError:
                    pass
                slow.append(s)
            else:
                idle.append(s)

        def trickle():
            n = 0
            while not done.wait(a.trickle):
                for s in slow:
                    try:
                        s.sendall(f"X-Slow-{n}: 1\r\n".encode())
                    except OSError:
                        pass
                n += 1

        t = threading.Thread(target=trickle, daemon=True)
        t.start()
        time.sleep(0.5)

        # Step 2. The well-behaved client.
        out = subprocess.run([wrk, "-t1", "-c1", f"-d{a.seconds}s", "--latency", "--timeout", "30s",
                              f"{base}/api/games/{gid}"], capture_output=True, text=True,
                             timeout=a.seconds + 60)
        done.set()
        text = out.stdout
        pct = dict(re.findall(r"^\s+(50|75|90|99)%\s+(\S+)", text, re.M))
        reqs = re.search(r"(\d+) requests in", text)
        errors = re.search(r"Socket errors: (.*)", text)
        non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
        if not reqs or int(reqs.group(1)) == 0:
            pct = {k: "no answer" for k in ("50", "90", "99")}
        result = {
            "slow": a.slow, "idle": a.idle, "sources": a.sources, "seconds": a.seconds,
            "requests": int(reqs.group(1)) if reqs else 0,
            "p50": pct.get("50"), "p90": pct.get("90"), "p99": pct.get("99"),
            "max": (re.search(r"Latency\s+\S+\s+\S+\s+(\S+)", text) or [None, None])[1],
            "socket_errors": errors.group(1) if errors else "none",
            "non_2xx": int(non2xx.group(1)) if non2xx else 0,
            "refused_at_connect": refused,
            "slow_closed_by_server": sum(not still_open(s) for s in slow),
            "idle_closed_by_server": sum(not still_open(s) for s in idle),
            "server_rss_mb": round(rss_mb(server.pid), 1),
        }
        if a.json:
            print(json.dumps(result))
        else:
            for k, v in result.items():
                print(f"{k}: {v}")
        if out.returncode != 0:
            print(out.stderr.strip(), file=sys.stderr)
            return 1
        return 0
    finally:
        done.set()
        for s in sockets:
            s.close()
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


if __name__ == "__main__":
    sys.exit(main())
