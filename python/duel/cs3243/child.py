"""The child process a student's AB.py runs in, for the grader (grader.py).

Why a module of its own: starting, boxing, talking to and ending the child is
process work (``duel box``, pipes, deadlines, kills), and grading is game work
(opponents, seeds, marks); each reads on its own. A file's child runs in
Duel's box through ``duel box`` (docs/box.md): its own copy of the file, a
read-only helper folder holding ``_child.py`` and the configuration copy, a
cleared environment with ``PYTHONHASHSEED`` fixed, the memory limit, no
network, no other process. A function's child is a fork of the caller. The
grader times every call from outside, never from the child's report.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import pathlib
import secrets
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from typing import Callable, Dict, List, Optional, Tuple

from . import _child

#: The course's configuration file, shipped byte for byte beside this module
#: (RULES.md §6b; its SOURCE note cites tanyjnaaman/CS3243@cbb975b:project3/
#: config.txt): rows, columns, then the enemy's and own pieces as
#: ``[Piece,square]`` lines. A copy of it (or of the file ``--config`` names) is
#: what the student's code finds in sys.argv[1]; students' AB.py files parse it
#: at import, so a file in another format fails them before a move.
CONFIG_FILE = pathlib.Path(__file__).with_name("config.txt")


#: Seconds after which a call to the student's function that has not returned
#: is killed when there is no time limit (with one, at the limit and a second's
#: grace), and the longest an import may take: that game is lost, the next one
#: starts in a fresh process.
HANG_SECONDS = 30.0


#: The hash seed of the child interpreter a student's file runs in, so that
#: the order of a set (and a choice made from it) is the same in every run.
PYTHON_HASH_SEED = "0"


#: The memory limit of a student's box in MiB (``--memory``), for the whole
#: process tree: docs/box.md's default for a course's program, far above what
#: the hand-out's Python agents need.
MEMORY_MIB = 2048


#: The memory limits ``duel box --memory`` takes, MiB.
MEMORY_RANGE = (16, 1 << 20)


#: The interpreter a boxed child runs on: Debian's, which the box shows with
#: the system's folders (the grader's own ``sys.executable`` may be a version
#: manager's under a home folder, which the box does not show).
BOX_PYTHON = "/usr/bin/python3"


# The child's script, copied into each run's read-only helper folder for a box.
_CHILD_SCRIPT = pathlib.Path(__file__).with_name("_child.py")


# The longest line the grader reads from a child; a longer one is dropped.
_MAX_LINE = 1 << 20


# Seconds an idle child gets to end by itself after its last game.
_GRACE = 2.0


class SandboxError(RuntimeError):
    """Students' files cannot be boxed on this machine (no duel binary, ``duel box
    --check`` fails, or a box would not start): the message is one line saying what
    is missing. Nothing is graded unboxed unless asked (``sandbox=False``)."""


def duel_binary() -> Optional[str]:
    """The duel binary whose ``duel box`` runs students' files: ``$DUEL_BIN``
    (``duel tournament`` sets it to itself), else the one built beside this package
    (``build/python/../bin/duel``), else None."""
    named = os.environ.get("DUEL_BIN")
    if named:
        return named
    built = pathlib.Path(__file__).resolve().parents[2].parent / "bin" / "duel"
    return str(built) if os.access(built, os.X_OK) else None


@functools.lru_cache(maxsize=None)
def _box_check(duel: str) -> str:
    """'' when ``duel box --check`` says this machine can box, else its line."""
    try:
        r = subprocess.run([duel, "box", "--check"], stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as e:
        return f"cannot run {duel} box --check ({e})"
    if r.returncode == 0:
        return ""
    lines = (r.stderr.strip() or r.stdout.strip()).splitlines()
    return lines[-1] if lines else f"{duel} box --check exited with status {r.returncode}"


def box_binary() -> str:
    """The duel binary to box students' files with, once ``duel box --check`` has said
    this machine can box (asked once a process). Raises SandboxError with one line
    when there is no binary or it cannot box."""
    duel = duel_binary()
    if duel is None:
        raise SandboxError("cannot box students' code: no duel binary (set DUEL_BIN, or build"
                           " build/bin/duel); --no-sandbox runs it unboxed")
    if not os.access(duel, os.X_OK) or os.path.isdir(duel):
        raise SandboxError(f"cannot box students' code: {duel} is not an executable"
                           " (DUEL_BIN); --no-sandbox runs it unboxed")
    why = _box_check(duel)
    if why:
        why = why[len("duel: "):] if why.startswith("duel: ") else why
        if "--no-sandbox" not in why:
            why += "; --no-sandbox runs students' code unboxed"
        raise SandboxError(why)
    return duel


def _dies_with_this_process() -> List[str]:
    """The words that start a program so that the kernel SIGKILLs it when this
    process dies (util-linux's ``setpriv --pdeathsig``, kept across exec): ``duel
    box`` killed so ends its box, even when the grader was SIGKILLed. Empty where
    there is no setpriv (``duel box`` as root needs it anyway)."""
    setpriv = shutil.which("setpriv", path="/usr/bin:/bin")
    return [setpriv, "--pdeathsig", "KILL", "--"] if setpriv else []


class _Run:
    """Where one graded file runs: the work folder (in a box the only one it can
    write: a copy of the file alone, or the class's private copy of the student's
    folder), a helper folder the box shows read-only (``_child.py`` and the
    configuration file's copy), and beside them, never in a box, the status and
    error files ``duel box`` writes. ``close()`` removes what it made."""

    def __init__(self, path: pathlib.Path, config: Optional[bytes], duel: Optional[str],
                 memory: int, work: Optional[pathlib.Path]) -> None:
        self.duel = duel
        self.memory = memory
        self.root = pathlib.Path(tempfile.mkdtemp(prefix="duel-cs3243-")).resolve()
        self.helper = self.root / "child"
        self.helper.mkdir()
        shutil.copyfile(_CHILD_SCRIPT, self.helper / "_child.py")
        self.config = self.helper / "config.txt"
        self.config.write_bytes(CONFIG_FILE.read_bytes() if config is None else config)
        for f in self.helper.iterdir():
            f.chmod(0o444)
        self.helper.chmod(0o555)  # readable by the box's own user, writable by none
        self.status = self.root / "status"
        self.status.mkdir(mode=0o700)
        self.count = 0
        if work is not None:
            self.work = work.resolve()
            self.path = path.resolve()
        elif duel is not None:
            # `grade FILE` in a box: a private folder with a copy of the file alone
            # (the hand-out submits AB.py alone), not the folder it lies in.
            self.work = self.root / "work"
            self.work.mkdir()
            self.path = self.work / path.name
            shutil.copyfile(path, self.path)
        else:
            self.path = path.resolve()
            self.work = self.path.parent

    def next_files(self) -> Tuple[pathlib.Path, pathlib.Path]:
        """A fresh status file and error file for the next box."""
        self.count += 1
        return (self.status / f"box-{self.count}.json", self.status / f"box-{self.count}.err")

    def close(self) -> None:
        """Removes the helper, status and (when it made one) work folders."""
        with contextlib.suppress(OSError):
            self.helper.chmod(0o755)
        shutil.rmtree(self.root, ignore_errors=True)


class _Child:
    """A child process running the student's function (``_child.py``): started
    for the first game, killed (with everything it started) when a call passes
    its deadline, and started again for the next game; ended after the last.

    A file's child runs in ``duel box`` (``run.duel``) or, unboxed, as a plain
    process; either way it speaks on its stdin and stdout. A function's child is
    a fork of this process speaking on two pipes."""

    def __init__(self, agent: Optional[Callable[..., object]], path: Optional[pathlib.Path],
                 config: pathlib.Path, run: Optional[_Run] = None) -> None:
        self.pid = 0
        self.proc: Optional[subprocess.Popen] = None
        self.boxed = False
        self.status_file: Optional[pathlib.Path] = None
        self.error_file: Optional[pathlib.Path] = None
        self.eof = False
        self.buffer = b""
        if agent is None and path is not None:
            if run is None:
                raise ValueError("a file's child needs its run folder")
            if run.duel is not None:
                self.boxed = True
                self.status_file, self.error_file = run.next_files()
                argv = _dies_with_this_process() + [
                    run.duel, "box", "--dir", str(run.work), "--read-only", str(run.helper),
                    "--env", f"PYTHONHASHSEED={PYTHON_HASH_SEED}",
                    "--memory", str(run.memory), "--status", str(self.status_file), "--",
                    BOX_PYTHON, str(run.helper / "_child.py"), str(path), str(config)]
                env: Optional[Dict[str, str]] = None  # duel box clears it for the program
                cwd = str(run.work)
            else:
                # Unboxed: the grader's interpreter and environment, a fixed hash seed,
                # the file's folder; it dies with this process.
                argv = [sys.executable, str(_CHILD_SCRIPT), str(path), str(config),
                        str(os.getpid())]
                env = dict(os.environ, PYTHONHASHSEED=PYTHON_HASH_SEED)
                cwd = str(path.parent)
            errors = (open(self.error_file, "wb") if self.error_file is not None  # noqa: SIM115
                      else open(os.devnull, "wb"))
            with errors:
                self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             stderr=errors, env=env, cwd=cwd,
                                             start_new_session=True)
            self.pid = self.proc.pid
            assert self.proc.stdin is not None and self.proc.stdout is not None
            self.write_fd = self.proc.stdin.fileno()
            self.read_fd = self.proc.stdout.fileno()
            self._started()
        else:
            # A function: a fork of this process (its hash seed is this one's).
            r1, w1 = os.pipe()
            r2, w2 = os.pipe()
            parent = os.getpid()
            pid = os.fork()
            if pid == 0:  # pragma: no cover - the child
                try:
                    os.setsid()
                    _child.die_with_parent(parent)
                    os.close(w1)
                    os.close(r2)
                    null = os.open(os.devnull, os.O_RDWR)
                    for fd in (0, 1, 2):
                        os.dup2(null, fd)
                    sys.argv = [sys.argv[0], str(config)]
                    _child.serve(agent, "", r1, w2, path)
                finally:
                    os._exit(0)
            self.pid = pid
            os.close(r1)
            os.close(w2)
            self.write_fd = w1
            self.read_fd = r2
        self.ready = self.receive(HANG_SECONDS)

    def _started(self) -> None:
        """Waits for the file's child to say it started; SandboxError (the box's or
        the interpreter's failure, never the student's: none of its code has run
        yet) when it does not."""
        hello = self.receive(HANG_SECONDS)
        if hello is not None and hello.get("started") is True:
            return
        try:
            status = self.box_status(2.0) if self.eof else None
            how = self.error_line() or (json.dumps(status) if status else "no word from it")
        finally:
            self.kill()
        where = " in its box" if self.boxed else ""
        raise SandboxError(f"the grader's child did not start{where}: {how}")

    def receive(self, seconds: float, ident: Optional[str] = None,
                start: Optional[float] = None) -> Optional[dict]:
        """The child's next message (with `ident`, the next one carrying it: a line
        written before the request is not its answer), or None when none has come
        within `seconds` of `start` (default now) or the child closed its end
        (``eof``)."""
        end = (time.monotonic() if start is None else start) + seconds
        while True:
            while b"\n" not in self.buffer:
                left = end - time.monotonic()
                if left <= 0:
                    return None
                ready, _, _ = select.select([self.read_fd], [], [], left)
                if not ready:
                    return None
                try:
                    chunk = os.read(self.read_fd, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    self.eof = True
                    return None
                self.buffer += chunk
                if len(self.buffer) > _MAX_LINE and b"\n" not in self.buffer:
                    self.buffer = b""  # no answer is that long: drop it
            line, self.buffer = self.buffer.split(b"\n", 1)
            try:
                message = json.loads(line)
            except (ValueError, RecursionError):
                continue
            if isinstance(message, dict) and (ident is None or message.get("id") == ident):
                return message

    def ask(self, request: dict, seconds: float) -> Tuple[Optional[dict], float]:
        """One request and its answer (None when there was none in time), and the
        seconds from writing the request to reading the answer: the grader's own
        measure of the call."""
        ident = secrets.token_hex(8)
        data = (json.dumps(dict(request, id=ident)) + "\n").encode("utf-8")
        start = time.monotonic()
        try:
            while data:
                data = data[os.write(self.write_fd, data):]
        except OSError:
            self.eof = True
            return None, time.monotonic() - start
        reply = self.receive(seconds, ident, start)
        return reply, time.monotonic() - start

    def box_status(self, wait: float) -> Optional[dict]:
        """What ``duel box`` wrote in its status file once it ended by itself
        (waiting up to `wait` seconds), or None (not boxed, still running, none
        written). Raises SandboxError when the box itself could not start."""
        if self.proc is None:
            return None
        try:
            self.proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return None
        if not self.boxed or self.status_file is None:
            return None
        try:
            status = json.loads(self.status_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            status = None
        if not isinstance(status, dict) or status.get("exit") is None and status.get(
                "signal") is None:
            said = self.error_line()
            if self.proc.returncode == 2 and said.startswith("duel: box:"):
                raise SandboxError(f"a student's box did not start: {said[len('duel: '):]}")
        return status if isinstance(status, dict) else None

    def error_line(self) -> str:
        """The last line ``duel box`` (or the interpreter before the child took its
        descriptors) wrote on stderr, '' when none."""
        if self.error_file is None:
            return ""
        try:
            with open(self.error_file, "rb") as f:
                f.seek(0, os.SEEK_END)
                f.seek(max(0, f.tell() - 4096))
                tail = f.read().decode("utf-8", "replace")
        except OSError:
            return ""
        lines = [line.strip() for line in tail.splitlines() if line.strip()]
        return lines[-1][:300] if lines else ""

    def silence(self, what: str, late: str) -> str:
        """Why no answer came, for a lost game's reason: `what` ("studentAgent",
        "importing AB.py") hit a limit of the box, ended its process, or (`late`)
        did not answer in time. Call before kill(): it lets an ending box finish."""
        status = self.box_status(5.0) if self.eof else None
        if status is not None and status.get("limit"):
            return f"{what} hit the {status['limit']} (killed)"
        if not self.eof:
            return f"{what} {late}"
        how = ""
        if status is not None:
            if status.get("signal") is not None:
                how = f"signal {status['signal']}"
            elif status.get("exit") is not None:
                how = f"exit status {status['exit']}"
        elif self.proc is not None and self.proc.returncode is not None:
            code = self.proc.returncode
            how = f"signal {-code}" if code < 0 else f"exit status {code}"
        said = self.error_line()
        return (f"{what} ended the agent's process" + (f" ({how})" if how else "")
                + (f": {said}" if said and not said.startswith("Traceback") else ""))

    def kill(self, grace: float = 0.0) -> None:
        """Ends the child and all it started, and waits for it: SIGKILL to ``duel
        box`` (which ends everything in its box), else to the child's session. With
        `grace`, a file's child first gets that many seconds to end by itself once
        its requests are closed (an idle child does at once, and its box then
        cleans up after itself)."""
        for f in ((self.proc.stdin, self.proc.stdout) if self.proc is not None else ()):
            with contextlib.suppress(OSError):
                if f is not None:
                    f.close()
        if self.proc is None:
            for fd in (self.write_fd, self.read_fd):
                with contextlib.suppress(OSError):
                    os.close(fd)
        elif grace > 0:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=grace)
        if not self.boxed:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(self.pid, signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait()
        else:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self.pid, 0)
