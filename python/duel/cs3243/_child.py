"""The child process in which the grader runs a student's studentAgent.

Why a process: a student's call that never returns (``time.sleep(45)``, an
endless loop) cannot be stopped inside the grader's own interpreter; in a
child it is killed at its deadline and the grader goes on. A student's
file runs in this script, started by the grader inside ``duel box`` (its
own user, no network, nothing of the machine's folders but the system's
and the student's private work folder; grader.py); the child also keeps
the student's printing away from the grader at the file-descriptor level
(its fds 0, 1 and 2 end up on /dev/null) and runs with a fixed
``PYTHONHASHSEED`` so set-ordered choices repeat from run to run.

The protocol, one JSON document a line, requests on the child's stdin and
answers on its stdout (which it moves to descriptors of its own at start):
a file's child first says ``{"started": true}`` (before it runs any of the
student's code: so the grader tells its own or the box's failure from the
student's), then ``{"ready": true}``, ``{"import_error": TEXT}`` (the import
raised) or ``{"no_agent": TEXT}`` (the file has no studentAgent);
then each request gets one answer carrying the request's ``id``:

- ``{"op": "seed", "seed": N, "id": I}`` -> ``{"ok": true, "id": I}``
  (``random.seed(N)``);
- ``{"op": "move", "board": [[file, row, piece, colour], ...], "id": I}`` ->
  ``{"answer": A, "id": I}``, ``{"garbage": REPR, "id": I}`` (an answer that
  is not made of tuples, lists, text and numbers) or ``{"raised": TEXT,
  "id": I}``.

The child reports no time: the grader times each call itself, from writing
the request to reading the answer, so that nothing the student's code
does to this process's clocks or pipes counts (grader.py). A line that
does not carry the request's ``id`` (written by the student's code before
the request came) is not an answer.

Unboxed (``--no-sandbox``), the child dies with the grader: it asks the
kernel for SIGKILL when its parent dies (``die_with_parent``), so a grader
killed with SIGKILL leaves no student process running (the grader's pool
workers do the same). In a box, killing ``duel box`` ends everything in it.

Standard library only: started as a script, it imports nothing of Duel's
(in a box, Duel's package is not even there).
"""

from __future__ import annotations

import importlib.util
import json
import os
import pathlib
import random
import signal
import sys
import traceback
from typing import Callable, Optional, Tuple


def die_with_parent(parent: int) -> None:
    """Has the kernel SIGKILL this process when its parent (pid `parent`) dies
    (Linux's prctl PR_SET_PDEATHSIG); exits at once if the parent is gone
    already (it died before the request). Elsewhere, does nothing."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes  # here: only Linux has prctl

    pr_set_pdeathsig = 1  # <linux/prctl.h>
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(pr_set_pdeathsig, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def exception_text(e: BaseException, path: Optional[pathlib.Path] = None) -> str:
    """'ValueError: message (AB.py line 12)' in one line: the last frame in the
    student's file, when there is one."""
    message = " ".join(str(e).split())
    text = type(e).__name__ + (f": {message}" if message else "")
    if len(text) > 200:
        text = text[:197] + "..."
    frames = traceback.extract_tb(e.__traceback__)
    if path is not None:
        resolved = str(path.resolve())
        frames = [f for f in frames if f.filename in (resolved, str(path))]
    if frames:
        text += f" ({pathlib.Path(frames[-1].filename).name} line {frames[-1].lineno})"
    return text


def import_student(path: pathlib.Path) -> Tuple[Optional[Callable[..., object]], str, bool]:
    """(studentAgent, "", False) or (None, why it cannot be called, whether the
    file lacks the function: it cannot be graded at all)."""
    spec = importlib.util.spec_from_file_location("_duel_cs3243_student", path)
    if spec is None or spec.loader is None:
        return None, "not a Python file", True
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except BaseException as e:  # noqa: BLE001 - the student's code may raise anything
        if isinstance(e, KeyboardInterrupt):
            raise
        return None, f"importing {path.name} raised {exception_text(e, path)}", False
    agent = getattr(module, "studentAgent", None)
    if agent is None:
        return None, "defines no studentAgent(gameboard)", True
    if not callable(agent):
        return None, "studentAgent is not a function", True
    return agent, "", False


def _plain(x: object) -> object:
    """The answer as JSON can carry it (tuples become lists); TypeError otherwise."""
    if isinstance(x, (tuple, list)):
        return [_plain(v) for v in x]
    if x is None or isinstance(x, (str, int, float, bool)):
        return x
    raise TypeError(type(x).__name__)


def serve(agent: Optional[Callable[..., object]], import_error: str, read_fd: int,
          write_fd: int, path: Optional[pathlib.Path], no_agent: bool = False) -> None:
    """Answers the parent's requests until it closes the pipe."""
    out = os.fdopen(write_fd, "w", encoding="utf-8", buffering=1)
    inp = os.fdopen(read_fd, "r", encoding="utf-8")

    def say(message: dict) -> None:
        out.write(json.dumps(message) + "\n")
        out.flush()

    if agent is None:
        say({"no_agent" if no_agent else "import_error": import_error})
        return
    say({"ready": True})
    for line in inp:
        request = json.loads(line)
        ident = request.get("id")
        if request.get("op") == "seed":
            random.seed(request["seed"])
            say({"ok": True, "id": ident})
            continue
        board = {(f, r): (piece, colour) for f, r, piece, colour in request["board"]}
        try:
            answer = agent(board)
        except BaseException as e:  # noqa: BLE001 - the student's code may raise anything
            say({"raised": exception_text(e, path), "id": ident})
            continue
        try:
            say({"answer": _plain(answer), "id": ident})
        except (TypeError, ValueError, RecursionError):
            say({"garbage": repr(answer)[:200], "id": ident})


def _private_stdio() -> Tuple[int, int]:
    """The protocol's descriptors: copies of stdin and stdout, which then (with
    stderr) point at /dev/null, so that nothing the student's code prints or
    reads touches the grader's pipes through fds 0, 1 and 2."""
    read_fd, write_fd = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    if null > 2:
        os.close(null)
    return read_fd, write_fd


def main() -> None:
    """``python3 _child.py STUDENT_FILE CONFIG_FILE [PARENT_PID]``, requests on stdin and
    answers on stdout: the student's code sees ``sys.argv == [STUDENT_FILE,
    CONFIG_FILE]``, as the hand-out's template expects, runs in the folder of its file
    and finds its own modules beside it. With PARENT_PID (unboxed), the child dies with
    that process."""
    read_fd, write_fd = _private_stdio()
    os.write(write_fd, b'{"started": true}\n')  # before any of the student's code runs
    if len(sys.argv) > 3:
        die_with_parent(int(sys.argv[3]))
    path = pathlib.Path(sys.argv[1])
    sys.argv = [str(path), sys.argv[2] if len(sys.argv) > 2 else ""]
    # The student's folder instead of this script's: its own modules, not the grader's.
    sys.path[0] = str(path.parent)
    os.chdir(path.parent)
    agent, error, no_agent = import_student(path)
    serve(agent, error, read_fd, write_fd, path, no_agent)


if __name__ == "__main__":
    main()
