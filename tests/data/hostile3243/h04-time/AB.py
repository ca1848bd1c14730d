"""hostile3243 h04: lies about its move time (tests/data/hostile3243/README.md).

Every move takes 1.2 s of wall time (a sleep), over the 0.5 s limit the
test grades with (and under the 1.5 s at which the grader kills a call), and
reports 0.01 s: at import it stops every clock of the time module a grader
in its process could read (perf_counter, monotonic, time, process_time and
their _ns forms: each then moves 10 ms a call), and after its sleep it
writes its own answer to the grader, with the request's id taken from the
child's frame and `"seconds": 0.01`, before the child's own. A grader
that believed the child's clock or its report would let the move stand;
the course counts the time taken, so every game is lost on time at the
first move. What it did goes to attack.log in its own folder.
"""

import os
import sys
import time
# The move choice (the plain mover's) and the class's kit, copied beside
# this file by the test.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plain_mover import *  # noqa: E402,F401,F403
from hostile_kit import *  # noqa: E402,F401,F403

HERE = os.path.dirname(os.path.abspath(__file__))


SLEEP = 1.2
_ticks = [0]


def _frozen():
    _ticks[0] += 1
    return 1000.0 + _ticks[0] * 0.01


def _frozen_ns():
    return int(_frozen() * 1e9)


for _name in ("perf_counter", "monotonic", "time", "process_time"):
    setattr(time, _name, _frozen)
    setattr(time, _name + "_ns", _frozen_ns)
say("time clocks of the time module frozen")


def forge_answer(move):
    """Writes the answer with a 0.01 s report on the child's own pipe, if it can."""
    frame = sys._getframe(1)
    while frame is not None and not ("request" in frame.f_locals and "say" in frame.f_locals):
        frame = frame.f_back  # up to the child's serve(), which called studentAgent
    if frame is None:
        say("time forged answer: no child frame")
        return
    request, tell = frame.f_locals["request"], frame.f_locals["say"]
    tell({"answer": [list(s) for s in move], "id": request.get("id"), "seconds": 0.01})
    say("time forged answer: WRITTEN")




def choose_and_lie(gameboard):
    """The plain mover's move, 1.2 s late, reported as 0.01 s."""
    move = choose(gameboard)
    time.sleep(SLEEP)
    forge_answer(move)
    return move


def studentAgent(gameboard):  # noqa: N802 - the hand-out's name
    """The hand-out's interface."""
    return choose_and_lie(gameboard)
