#!/usr/bin/python3
"""Load test of `duel serve` with many pages watching live games.

Starts `duel serve --port 0` on loopback, makes --games games of --game
between two --agent players (POST /api/games; they play by themselves,
--delay ms before each move) and opens --pages event streams (GET
/api/games/ID/events), spread evenly over the games, each right after its
game, all read by one thread. It runs until every page has seen its game
end or --seconds pass, then reads each game's history and prints the moves
played, the deliveries (page x move) expected and got, the moves a page
never got (must be 0), the delay from a move to its page (this machine's
clock when the first view holding the move was fully read, less that
view's `at`: the server's clock, the same one), the server's CPU time and
share over the run, its peak and last resident memory, the number of
search events, and this test's own CPU time (small beside the server's, or
the delays are the client's). Bounded: everything it starts is stopped
when it ends, on any exit.

  scripts/serve-watchers.py [--duel build/bin/duel] [--games 20] [--pages 200]
      [--game gardner] [--agent engine:time=0.2] [--delay 0] [--seconds 120] [--json]
      [--serve-flag=--table-budget=4096 ...]
  scripts/serve-watchers.py --games 2 --pages 10 --agent engine:time=0.05    (a smoke run)
  scripts/serve-watchers.py --self-test    (the reader and the counts, on a fake server)

A view that merges several moves (a slow reader gets the latest view only)
gives each of them that view's `at`, the time of its last change, so the
earlier ones' delays are understated. Moves already in a page's first view
(played before it connected) are delivered but have no delay. A game the
server paused (game_errors: a program that gave no legal move, say) holds
the run to --seconds; a program waiting for the engines' tables' budget
(docs/serve.md) is not paused and goes on once a search elsewhere ends.
--serve-flag passes a flag on to the server. Exit 1 if a page missed a move
or its stream failed, 2 on bad flags, 0 otherwise.
"""
import argparse
import collections
import contextlib
import http.client
import http.server
import json
import os
import queue
import resource
import selectors
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVE_FLAGS = ["--port", "0", "--host", "127.0.0.1", "--max-connections", "1024",
               "--max-per-client", "1024", "--max-games", "64"]


def fail(message):
    print(f"serve-watchers: {message}", file=sys.stderr)
    sys.exit(1)


def common(a, b):
    """The length of the common prefix of two move lists."""
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def api(port, method, path, body=None, expect=200):
    """One request on a fresh connection; its JSON answer, which must have status `expect`."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {} if body is None else {"Content-Type": "application/json"}
        c.request(method, path, None if body is None else json.dumps(body), headers)
        r = c.getresponse()
        answer = r.read().decode(errors="replace")
    finally:
        c.close()
    if r.status != expect:
        fail(f"{method} {path} answered {r.status}: {answer[:300]}")
    return json.loads(answer)


class Stats:
    """All pages' counts: delays (ms, a move each after a page's first view), events by
    name, bytes, at_connect (moves in pages' first views), merged (views bringing more
    than one new move), bad_views (ply != len(history))."""

    def __init__(self):
        self.delays, self.events = [], collections.Counter()
        self.bytes = self.at_connect = self.merged = self.bad_views = 0


class Page:
    """One watcher: its socket, an HTTP/1.1 and SSE reader, the latest history."""

    def __init__(self, gid, sock):
        self.gid, self.sock, self.error = gid, sock, None
        self.raw = self.text = b""  # raw: head and chunk framing unread; text: a partial line
        self.head = self.chunked = self.terminal = self.closed = False
        self.chunk = -1             # bytes left in this chunk with its CRLF; -1: a size line next
        self.event, self.data, self.history = "", [], None  # history: None until the first view

    def done(self):
        return self.terminal or self.closed or self.error is not None

    def feed(self, data, t, st):
        self.raw += data
        if not self.head:
            end = self.raw.find(b"\r\n\r\n")
            if end < 0:
                return
            lines = self.raw[:end].decode("latin-1").split("\r\n")
            self.raw = self.raw[end + 4:]
            fields = {k.strip().lower(): v.strip()
                      for k, _, v in (h.partition(":") for h in lines[1:])}
            if lines[0].split(" ")[1:2] != ["200"] or \
                    not fields.get("content-type", "").startswith("text/event-stream"):
                self.error = f"{self.gid}: {lines[0]} ({fields.get('content-type')})"
                return
            self.head = True
            self.chunked = "chunked" in fields.get("transfer-encoding", "").lower()
        if self.chunked:
            body = self.dechunk()
        else:
            body, self.raw = self.raw, b""
        *lines, self.text = (self.text + body).split(b"\n")
        for line in lines:
            self.line(line[:-1] if line.endswith(b"\r") else line, t, st)

    def dechunk(self):
        out = []
        while self.raw and not self.closed:
            if self.chunk < 0:
                end = self.raw.find(b"\r\n")
                if end < 0:
                    break
                size = int(self.raw[:end].split(b";")[0], 16)
                self.raw = self.raw[end + 2:]
                self.closed = size == 0     # the last chunk: the stream ended
                self.chunk = size + 2
                continue
            n = min(len(self.raw), self.chunk)
            out.append(self.raw[:max(0, min(n, self.chunk - 2))])  # not the CRLF
            self.raw, self.chunk = self.raw[n:], self.chunk - n
            if self.chunk == 0:
                self.chunk = -1
        return b"".join(out)

    def line(self, line, t, st):
        if not line:                    # a blank line ends an event
            if self.data or self.event:
                self.dispatch(self.event or "message", b"\n".join(self.data), t, st)
            self.event, self.data = "", []
        elif not line.startswith(b":"):  # ':' starts a keep-alive comment
            name, _, value = line.partition(b":")
            value = value[1:] if value.startswith(b" ") else value
            if name == b"event":
                self.event = value.decode()
            elif name == b"data":
                self.data.append(value)

    def dispatch(self, kind, data, t, st):
        st.events[kind] += 1
        self.closed = self.closed or kind == "gone"
        if kind != "view":
            return
        view = json.loads(data)
        h = view["history"]
        st.bad_views += view.get("ply") != len(h)
        if self.history is None:
            st.at_connect += len(h)
        else:
            new = len(h) - common(self.history, h)
            st.delays += [t - float(view["at"])] * new
            st.merged += new > 1
        self.history = h
        self.terminal = self.terminal or bool(view.get("terminal"))


def watch(port, gid):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(f"GET /api/games/{gid}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
              "Accept: text/event-stream\r\n\r\n".encode())
    s.setblocking(False)
    return Page(gid, s)


def poll(sel, st, timeout):
    """Reads whatever the streams have, waiting up to `timeout` seconds."""
    for key, _ in sel.select(timeout):
        page = key.data
        try:
            data = page.sock.recv(262144)
        except BlockingIOError:
            continue
        except OSError as e:
            data, page.error = b"", f"{page.gid}: {e}"
        t = time.time() * 1000
        st.bytes += len(data)
        page.closed = page.closed or not data
        try:
            page.feed(data, t, st)
        except (ValueError, KeyError, TypeError, IndexError) as e:
            page.error = f"{page.gid}: bad stream: {e!r}"
        if page.closed or page.error:
            sel.unregister(page.sock)


def pump(sel, st, until, stop):
    while not stop() and time.monotonic() < until:
        poll(sel, st, min(0.2, max(0.0, until - time.monotonic())))


def usage(pid):
    """The process's CPU seconds (utime + stime) and {"VmHWM:": MiB, "VmRSS:": MiB}."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    with open(f"/proc/{pid}/status") as f:
        mem = {x.split()[0]: round(int(x.split()[1]) / 1024, 1) for x in f
               if x.startswith(("VmHWM:", "VmRSS:"))}
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), mem


def percentile(xs, p):
    return round(xs[max(0, -(-len(xs) * p // 100) - 1)], 1) if xs else None


def listening_port(server):
    sel = selectors.DefaultSelector()
    sel.register(server.stdout, selectors.EVENT_READ)
    line = server.stdout.readline() if sel.select(30) else b""
    sel.close()
    prefix = b"duel serve: listening on http://127.0.0.1:"
    if not line.startswith(prefix):
        fail(f"the server did not say where it listens: {line!r}")
    threading.Thread(target=server.stdout.read, daemon=True).start()  # drain the pipe
    return int(line[len(prefix):].split(b"/")[0])


def stop(server):
    """Stops the server's process group: TERM, then KILL for whatever is left."""
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, None)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(wait)


def run(a):
    """The whole test: (exit status, report)."""
    log = tempfile.TemporaryFile()
    server = subprocess.Popen([a.duel, "serve"] + SERVE_FLAGS + a.serve_flag,
                              stdout=subprocess.PIPE, stderr=log, start_new_session=True)
    sel, st, pages = selectors.DefaultSelector(), Stats(), []
    try:
        port = listening_port(server)
        cpu0, t0 = usage(server.pid)[0], time.monotonic()
        made, ids = queue.Queue(), []

        def make():                     # a thread, so the streams are read while games are made
            body = {"game": a.game, "players": [a.agent, a.agent], "delay": a.delay}
            try:
                for _ in range(a.games):
                    made.put(api(port, "POST", "/api/games", body, 201)["id"])
            except BaseException as e:  # fail()'s SystemExit too: raised again below
                made.put(e)
        threading.Thread(target=make, daemon=True).start()
        while len(ids) < a.games:       # each game's pages right after it: few moves unwatched
            poll(sel, st, 0.01)
            with contextlib.suppress(queue.Empty):
                gid = made.get_nowait()
                if isinstance(gid, BaseException):
                    raise gid
                for _ in range(len(ids), a.pages, a.games):
                    pages.append(watch(port, gid))
                    sel.register(pages[-1].sock, selectors.EVENT_READ, pages[-1])
                ids.append(gid)
        pump(sel, st, t0 + a.seconds, lambda: all(p.done() for p in pages))

        finals = {gid: api(port, "GET", f"/api/games/{gid}") for gid in ids}

        def caught_up(p):               # views of the moves just before the reads above
            h = finals[p.gid]["history"]
            return p.done() or common(p.history or [], h) == len(h)
        pump(sel, st, time.monotonic() + 5, lambda: all(caught_up(p) for p in pages))
        (cpu, mem), wall = usage(server.pid), time.monotonic() - t0
        cpu -= cpu0
    except BaseException:
        log.seek(0)
        sys.stderr.write(log.read()[-2000:].decode(errors="replace"))
        raise
    finally:
        for p in pages:
            p.sock.close()
        stop(server)

    expected = missed = 0
    for p in pages:
        h = finals[p.gid]["history"]
        expected += len(h)
        missed += len(h) - common(p.history or [], h)
    errors = [p.error for p in pages if p.error]
    delays = sorted(st.delays)
    report = {
        "games": a.games, "pages": a.pages, "agent": a.agent, "seconds": round(wall, 1),
        "moves": sum(len(v["history"]) for v in finals.values()),
        "finished": sum(bool(v.get("terminal")) for v in finals.values()),
        "plies": {gid: len(v["history"]) for gid, v in finals.items()},
        "unfinished": [gid for gid, v in finals.items() if not v.get("terminal")],
        "game_errors": {gid: v["error"] for gid, v in finals.items() if v.get("error")},
        "deliveries_expected": expected, "deliveries_got": expected - missed, "missed": missed,
        "delivered_in_first_view": st.at_connect, "merged_views": st.merged,
        "delay_p50_ms": percentile(delays, 50), "delay_p90_ms": percentile(delays, 90),
        "delay_p99_ms": percentile(delays, 99), "delay_max_ms": percentile(delays, 100),
        "view_events": st.events["view"], "search_events": st.events["search"],
        "stream_mib": round(st.bytes / 2**20, 1), "bad_views": st.bad_views,
        "stream_errors": len(errors), "first_errors": errors[:3],
        "server_cpu_s": round(cpu, 2), "server_cpu_pct": round(100 * cpu / wall, 1),
        "server_peak_rss_mib": mem.get("VmHWM:"), "server_rss_mib": mem.get("VmRSS:"),
        "client_cpu_s": round(sum(resource.getrusage(resource.RUSAGE_SELF)[:2]), 2),
    }
    return (1 if missed or errors else 0), report


FAKE_MOVES = ["a2a3", "e4e3", "b2b3", "d4d3", "c2c3", "b5c3"]


def fake_serve():
    """Stands in for `duel serve` in --self-test: every game is FAKE_MOVES, one each 50 ms
    from 0.3 s after it was made; g1 streams chunked with CRLF lines, g2 plainly with LF
    and ends with `gone`; every event is written in two pieces; views 3 and 4 come merged;
    GET /api/games/g2 has one move more than its stream (3 pages, 3 missed)."""
    games = {}

    def view(gid, n, extra=0):
        start = games[gid]
        at = start if n == 0 else start + 0.25 + 0.05 * n
        h = (FAKE_MOVES + ["e2e3"] * extra)[:n + extra]
        return {"id": gid, "history": h, "ply": len(h), "at": at * 1000,
                "terminal": n == len(FAKE_MOVES)}

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def reply(self, status, body):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            games[f"g{len(games) + 1}"] = time.time()
            self.reply(201, view(f"g{len(games)}", 0))

        def do_GET(self):
            gid = self.path.split("/")[3]
            if not self.path.endswith("/events"):
                return self.reply(200, view(gid, len(FAKE_MOVES), gid == "g2"))
            chunked = gid == "g1"
            self.protocol_version = "HTTP/1.1" if chunked else "HTTP/1.0"
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding" if chunked else "Connection",
                             "chunked" if chunked else "close")
            self.end_headers()

            def send(kind, body):
                lines = json.dumps(body, indent=1 if body.get("terminal") else None).split("\n")
                text = f"event: {kind}\n" + "".join(f"data: {x}\n" for x in lines) + "\n"
                raw = (": keep-alive\n\n" + text).encode()
                raw = raw.replace(b"\n", b"\r\n") if chunked else raw
                for piece in (raw[:19], raw[19:]):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
                    time.sleep(0.002)

            try:
                send("view", view(gid, 0))
                for n in range(1, len(FAKE_MOVES) + 1):
                    send("search", {"depth": n, "nodes": 1000 * n})
                    time.sleep(max(0.0, view(gid, n)["at"] / 1000 - time.time()))
                    if n != 3:
                        send("view", view(gid, n))
                while chunked:              # g1 stays open until the page goes
                    time.sleep(0.1)
                    self.wfile.write(b"3\r\n:\n\n\r\n")
                send("gone", {"id": gid})
            except OSError:
                pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"duel serve: listening on http://127.0.0.1:{server.server_address[1]}/", flush=True)
    server.serve_forever()


def self_test():
    # The reader, one byte at a time: a chunked answer, CRLF lines, a two-line data field.
    p, st = Page("g9", None), Stats()
    body = (b': hi\r\n\r\nevent: view\r\ndata: {"history": [], "ply": 0, "at": 0}\r\n\r\n'
            b'event: search\r\ndata: {}\r\n\r\nevent: view\r\ndata: {"history": ["a", "b"],\r\n'
            b'data: "ply": 2, "at": 1000, "terminal": true}\r\n\r\n')
    raw = (b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
           b"Transfer-Encoding: chunked\r\n\r\n")
    raw += b"".join(b"%x;x=1\r\n%s\r\n" % (len(body[i:i + 13]), body[i:i + 13])
                    for i in range(0, len(body), 13)) + b"0\r\n\r\n"
    for i in range(len(raw)):
        p.feed(raw[i:i + 1], 1500.0, st)
    checks = [("byte-wise history", p.history == ["a", "b"] and p.terminal and p.closed),
              ("byte-wise delays", st.delays == [500.0, 500.0] and st.merged == 1),
              ("byte-wise events", st.events == {"view": 2, "search": 1} and p.error is None)]

    # The whole run against the fake server, started as `duel` by a two-line script.
    with tempfile.TemporaryDirectory() as tmp:
        fake = os.path.join(tmp, "duel")
        with open(fake, "w") as f:
            f.write(f"#!/bin/sh\nexec /usr/bin/python3 {shlex.quote(os.path.abspath(__file__))}"
                    " --fake-serve\n")
        os.chmod(fake, 0o755)
        a = argparse.Namespace(duel=fake, games=2, pages=6, game="gardner",
                               agent="engine:time=0.2", delay=0, seconds=20, serve_flag=[])
        status, r = run(a)
    print(json.dumps(r))
    m = len(FAKE_MOVES)
    checks += [("exit 1 on a miss", status == 1),
               ("deliveries", (r["deliveries_expected"], r["deliveries_got"], r["missed"])
                == (6 * m + 3, 6 * m, 3)),
               ("finished", r["finished"] == 2 and r["plies"] == {"g1": m, "g2": m + 1}),
               ("none before watching", r["delivered_in_first_view"] == 0),
               ("merged", r["merged_views"] == 6 and r["view_events"] == 6 * m),
               ("search events", r["search_events"] == 6 * m and r["stream_errors"] == 0),
               ("delays", r["delay_p50_ms"] is not None and 0 <= r["delay_p50_ms"]
                and r["delay_max_ms"] < 500),
               ("quick", r["seconds"] < 10)]
    bad = [name for name, ok in checks if not ok]
    print("self-test: " + (f"FAILED: {', '.join(bad)}" if bad else f"ok ({len(checks)} checks)"))
    return 1 if bad else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--duel", default=os.path.join(ROOT, "build", "bin", "duel"))
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--pages", type=int, default=200)
    p.add_argument("--game", default="gardner")
    p.add_argument("--agent", default="engine:time=0.2")
    p.add_argument("--delay", type=int, default=0)  # ms before each engine move
    p.add_argument("--seconds", type=float, default=120)
    p.add_argument("--serve-flag", action="append", default=[])
    p.add_argument("--json", action="store_true")
    p.add_argument("--self-test", action="store_true")
    p.add_argument("--fake-serve", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so `finally` stops the server
    if a.fake_serve:
        return fake_serve()
    if a.self_test:
        return self_test()
    if not (1 <= a.games <= 64 and a.games <= a.pages <= 1000 and 1 <= a.seconds <= 3600
            and 0 <= a.delay <= 10000):
        p.error("--games 1..64, --pages --games..1000 (the server's --max-games 64 and "
                "--max-connections 1024), --seconds 1..3600, --delay 0..10000 ms")
    if not os.access(a.duel, os.X_OK):
        p.error(f"--duel {a.duel}: no such program (build it first)")
    status, report = run(a)
    print(json.dumps(report) if a.json else "\n".join(
        f"{k}: {json.dumps(v) if isinstance(v, (dict, list)) else v}" for k, v in report.items()))
    return status


if __name__ == "__main__":
    sys.exit(main())
