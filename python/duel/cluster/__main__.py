"""``python3 -m duel.cluster tasks --scheduler ADDR --out DIR --duel PATH``: the bridge
between a ``duel`` command and a Dask cluster (docs/cluster.md).

It reads JSON lines on stdin: ``{"task": TASK}`` (a task document,
src/duel/tournament/tasks.hpp), ``{"cancel_keys": [KEY, ...]}`` (those tasks
no longer wanted: cancelled if queued, stopped if running) or
``{"cancel": true}`` (everything, and the bridge ends); and writes JSON lines
on stdout: ``{"ready": true, "workers": N}`` once connected, then
``{"key": KEY, "entry": ENTRY}`` as each task ends (the entry carries the
``host`` that ran it), or ``{"key": KEY, "error": LINE}`` when a task could
not run (a worker without ``duel``, another build, a program missing), or
``{"error": LINE}`` when the cluster is gone. Errors are one line; the bridge
then exits (status 2) and the caller stops cleanly, with every entry it was
handed already journaled.

Each task is a Dask task running ``run_on_worker`` (defined here, in the
``__main__`` module, so Dask ships it by value: a worker needs only
``python3-distributed`` and a ``duel`` binary of the same commit, not this
package). The files a task reads (a student's prepared folder) reach the
workers either through a folder every host sees at the same path
(``--shared``: DIR itself) or shipped: each prepared folder is packed once,
scattered to the cluster, unpacked once per worker host, and the task's own
folder (its record, the programs' logs) is packed on the worker and
unpacked into DIR here.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import pathlib
import queue
import sys
import tarfile
import threading
import time
from typing import Any, Dict, List, NoReturn, Optional


def run_on_worker(task: Dict[str, Any], bundles: Dict[str, bytes], shared_out: str,
                  duel_hint: str, build: str, stop: str) -> Dict[str, Any]:
    """One task on a worker: ``duel task`` on it, its entry and (unless the output
    folder is shared) its folder packed; stopped (SIGTERM, as Ctrl-C stops a local
    run) when the Dask event named ``stop`` is set. Only the standard library and
    Dask: it runs wherever Dask runs it."""
    # pylint: disable=import-outside-toplevel,redefined-outer-name,reimported
    import hashlib
    import io
    import json
    import os
    import shutil
    import socket
    import subprocess
    import tarfile
    import tempfile

    host = socket.gethostname()

    # Step 1. This host's duel, and every program the task's agents name.
    candidates = [duel_hint, os.environ.get("DUEL_BIN", ""), shutil.which("duel") or ""]
    duel = next((c for c in candidates if c and os.path.isfile(c) and os.access(c, os.X_OK)),
                None)
    if duel is None:
        return {"error": f"worker {host}: no duel program (looked for {duel_hint}, $DUEL_BIN"
                         " and duel on PATH); build it there with the README's commands"}
    said = subprocess.run([duel, "--version"], capture_output=True, text=True, check=False)
    theirs = said.stdout.strip()
    if build and f"(build {build})" not in theirs:
        return {"error": f"worker {host}: {duel} is {theirs or 'not a duel program'}, the driver's"
                         f" is build {build}; install the same commit on every host"}
    for side in task.get("sides", []):
        spec = str(side.get("agent", ""))
        if not (spec.startswith("exec:") or spec.startswith("uci:")) or "cmd=" not in spec:
            continue
        words = spec.split("cmd=", 1)[1].split(",")[0].split()
        program = words[0] if words else ""
        if not program or program.startswith("duel:"):
            continue
        found = os.path.exists(program) if "/" in program else shutil.which(program)
        if not found:
            return {"error": f"worker {host}: no program {program} (agent {spec})"}

    # Step 2. The folders the task reads, unpacked once per host and bundle.
    out = shared_out
    if not shared_out:
        cache = os.path.join(tempfile.gettempdir(), f"duel-worker-{os.getuid()}")
        os.makedirs(os.path.join(cache, "bundles"), exist_ok=True)
        out = tempfile.mkdtemp(prefix="task-", dir=cache)
        where = {}
        for rel, data in bundles.items():
            dest = os.path.join(cache, "bundles", hashlib.sha256(data).hexdigest()[:20])
            if not os.path.isdir(dest):
                partial = tempfile.mkdtemp(prefix="unpack-", dir=cache)
                with tarfile.open(fileobj=io.BytesIO(data)) as t:
                    t.extractall(partial, filter="data") if hasattr(tarfile, "data_filter") \
                        else t.extractall(partial)  # noqa: S202 (packed by the bridge)
                try:
                    os.rename(partial, dest)
                except OSError:  # another task on this host unpacked it first
                    shutil.rmtree(partial, ignore_errors=True)
            where[rel] = dest
        task = json.loads(json.dumps(task))
        for holder in [task] + list(task.get("sides", [])):
            if holder.get("source") in where:
                holder["source"] = where[holder["source"]]

    # Step 3. The task, and what it left.
    try:
        from distributed import Event
        stopped = [Event(stop), Event(f"{stop}-{task['key']}")]
        with subprocess.Popen([duel, "task", "--out", out], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) as run:
            given: Optional[str] = json.dumps(task)
            while True:
                try:
                    stdout, stderr = run.communicate(given, timeout=0.5)
                    break
                except subprocess.TimeoutExpired:
                    given = None
                    if any(e.is_set() for e in stopped):
                        run.terminate()
            if any(e.is_set() for e in stopped):
                return {"cancelled": True}
        if run.returncode != 0:
            said = (stderr.strip().splitlines() or [f"exit status {run.returncode}"])[-1]
            return {"error": f"worker {host}: {said.removeprefix('duel: ')}"}
        entry = json.loads(stdout)
        entry["host"] = host
        result: Dict[str, Any] = {"entry": entry}
        folder = os.path.join(out, task["dir"]) if task.get("dir") else ""
        if not shared_out and folder and os.path.isdir(folder):
            packed = io.BytesIO()
            with tarfile.open(fileobj=packed, mode="w:gz") as t:
                t.add(folder, arcname=".")
            result["files"] = packed.getvalue()
        return result
    finally:
        if not shared_out:
            shutil.rmtree(out, ignore_errors=True)


class _Parser(argparse.ArgumentParser):
    """One-line errors, status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"duel.cluster: {message}\n")


def _emit(message: Dict[str, Any], lock: threading.Lock) -> None:
    with lock:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


def _pack(folder: pathlib.Path) -> bytes:
    """A folder as a gzipped tar, its entries relative to it."""
    packed = io.BytesIO()
    with tarfile.open(fileobj=packed, mode="w:gz") as t:
        t.add(str(folder), arcname=".")
    return packed.getvalue()


def _unpack(data: bytes, into: pathlib.Path) -> None:
    """A worker's packed task folder into DIR: regular files and folders only,
    never outside `into`."""
    into.mkdir(parents=True, exist_ok=True)
    root = into.resolve()
    with tarfile.open(fileobj=io.BytesIO(data)) as t:
        for member in t.getmembers():
            target = (root / member.name).resolve()
            if not (member.isfile() or member.isdir()) or not str(target).startswith(str(root)):
                continue
            if member.isdir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            source = t.extractfile(member)
            if source is not None:
                target.write_bytes(source.read())


def _security():
    """Dask's TLS settings from the files ``duel --tls-ca/--tls-cert/--tls-key`` named
    (DUEL_TLS_CA, DUEL_TLS_CERT, DUEL_TLS_KEY), encryption then required; None (Dask's
    own configuration) without them."""
    ca, cert, key = (os.environ.get(v) for v in ("DUEL_TLS_CA", "DUEL_TLS_CERT", "DUEL_TLS_KEY"))
    if not (ca or cert or key):
        return None
    from distributed.security import Security
    return Security(tls_ca_file=ca, tls_client_cert=cert, tls_client_key=key,
                    require_encryption=True)


def _tasks(args: argparse.Namespace) -> int:
    """The bridge: tasks in, entries out, until stdin closes and all have ended."""
    # pylint: disable=too-many-locals,too-many-branches,too-many-statements
    lock = threading.Lock()
    try:
        from distributed import Client, Event, wait
    except ImportError:
        _emit({"error": "Dask distributed is not installed (Debian: apt-get install "
                        "python3-distributed)"}, lock)
        return 2
    security = _security()
    try:
        client = Client(args.scheduler, timeout=args.connect_timeout, security=security)
    except (OSError, TimeoutError, ValueError) as e:
        _emit({"error": f"cannot reach the Dask scheduler at {args.scheduler}: "
                        f"{' '.join(str(e).split()) or type(e).__name__}"}, lock)
        return 2
    workers = len(client.scheduler_info().get("workers", {}))
    # Set on a cancel: the games running on workers stop too.
    stop = Event(f"duel-stop-{os.getpid()}-{time.monotonic_ns()}", client=client)
    _emit({"ready": True, "workers": workers}, lock)

    # Step 1. stdin on a thread of its own: tasks and a cancel arrive any time.
    inbox: "queue.Queue[Optional[Dict[str, Any]]]" = queue.Queue()

    def read() -> None:
        for line in sys.stdin:
            line = line.strip()
            if not line:
                continue
            try:
                inbox.put(json.loads(line))
            except ValueError:
                continue
        inbox.put(None)

    threading.Thread(target=read, daemon=True).start()

    out = pathlib.Path(args.out).resolve()
    bundles: Dict[str, Any] = {}  # prepared folder (relative to DIR) -> scattered bytes
    pending: Dict[Any, Dict[str, Any]] = {}  # future -> its task
    submitted = 0  # tasks run in the order they came (Dask's priority)
    closed = False
    lost_since: Optional[float] = None
    try:
        while not (closed and not pending):
            # Step 2. New tasks: their folders shipped once, then submitted.
            while True:
                try:
                    message = inbox.get(timeout=0 if pending else 0.2)
                except queue.Empty:
                    break
                if message is None:
                    closed = True
                    break
                if message.get("cancel"):
                    stop.set()
                    client.cancel(list(pending))
                    pending.clear()
                    return 130
                if isinstance(message.get("cancel_keys"), list):
                    unwanted = set(map(str, message["cancel_keys"]))
                    dropped = [f for f, t in pending.items() if str(t["key"]) in unwanted]
                    for key in unwanted:
                        Event(f"{stop.name}-{key}", client=client).set()
                    client.cancel(dropped)
                    for f in dropped:
                        pending.pop(f, None)
                    continue
                task = message.get("task")
                if not isinstance(task, dict) or "key" not in task:
                    continue
                shipped: Dict[str, Any] = {}
                if not args.shared:
                    sources = [task.get("source", "")] + [s.get("source", "")
                                                           for s in task.get("sides", [])]
                    for rel in sources:
                        if not rel or rel in shipped:
                            continue
                        if rel not in bundles:
                            bundles[rel] = client.scatter(_pack(out / rel), hash=True,
                                                          broadcast=False)
                        shipped[rel] = bundles[rel]
                future = client.submit(run_on_worker, task, shipped,
                                       str(out) if args.shared else "", args.duel,
                                       str(task.get("build", "")), stop.name,
                                       key=f"duel-{task['key']}-{time.monotonic_ns()}",
                                       pure=False, priority=-submitted)
                submitted += 1
                pending[future] = task

            # Step 3. Finished tasks, reported as they end.
            lost = {"error": f"lost the Dask scheduler at {args.scheduler}; the same command "
                             "resumes from the journal"}
            if pending:
                try:
                    done, _ = wait(list(pending), timeout=0.5, return_when="FIRST_COMPLETED")
                except TimeoutError:
                    done = set()
                except Exception:  # pylint: disable=broad-except
                    # Futures cancelled under us: the scheduler went away.
                    _emit(lost, lock)
                    return 2
                for future in done:
                    task = pending.pop(future)
                    key = task["key"]
                    try:
                        result = future.result()
                    except Exception as e:  # pylint: disable=broad-except
                        if future.status == "cancelled" or client.status != "running":
                            _emit(lost, lock)
                        else:
                            _emit({"key": key, "error": f"the cluster could not run {key}: "
                                                        f"{type(e).__name__}"}, lock)
                        return 2
                    if result.get("cancelled"):
                        continue
                    if "error" in result:
                        _emit({"key": key, "error": result["error"]}, lock)
                        return 2
                    if "files" in result and task.get("dir"):
                        _unpack(result["files"], out / task["dir"])
                        # The task as planned, not as the worker's paths made it.
                        (out / task["dir"] / "task.json").write_text(json.dumps(task) + "\n")
                    _emit({"key": key, "entry": result["entry"]}, lock)

            # Step 4. The scheduler gone for longer than a grace: stop.
            if client.status != "running":
                lost_since = lost_since or time.monotonic()
                if time.monotonic() - lost_since > args.grace:
                    _emit(lost, lock)
                    return 2
            else:
                lost_since = None
        return 0
    finally:
        try:
            if pending:
                client.cancel(list(pending))
            client.close(timeout=2)
        except Exception:  # pylint: disable=broad-except
            pass


def main(argv: Optional[List[str]] = None) -> int:
    """The command line."""
    p = _Parser(prog="python3 -m duel.cluster",
                description="Duel's bridge to a Dask cluster (docs/cluster.md).")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    t = sub.add_parser("tasks", help="run task documents from stdin on the cluster")
    t.add_argument("--scheduler", required=True, help="tcp://HOST:PORT")
    t.add_argument("--out", required=True, help="the tournament's folder")
    t.add_argument("--duel", required=True, help="where the workers find duel (else $DUEL_BIN,"
                                                 " else duel on PATH)")
    t.add_argument("--shared", action="store_true",
                   help="the folder is on every host at the same path: nothing is shipped")
    t.add_argument("--connect-timeout", type=float, default=10.0, metavar="S")
    t.add_argument("--grace", type=float, default=10.0, metavar="S",
                   help="seconds without the scheduler before giving up")
    args = p.parse_args(argv)
    try:
        return _tasks(args)
    except Exception as e:  # pylint: disable=broad-except
        # Whatever went wrong, one line for the caller (the details are on stderr).
        import traceback
        traceback.print_exc()
        _emit({"error": f"the bridge failed: {type(e).__name__}: {' '.join(str(e).split())}"},
              threading.Lock())
        return 2


if __name__ == "__main__":
    sys.exit(main())
