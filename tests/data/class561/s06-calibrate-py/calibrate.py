# s06-calibrate-py/calibrate.py -- class561 fixture: the calibrate program.
#
# Why it exists: the protocol's optional calibration step.  The referee runs
# it once, in this folder, before the games.  It times homework.py's own
# move generation from the start position (a node: one position whose moves
# are generated and played, legal_moves + apply_move) for about
# MEASURE_SECONDS of CPU time and writes calibration.txt:
#     nodes_per_second N
# homework.py reads that line and searches deeper when it is there.
#
# Run: python3 calibrate.py
import os
import sys
import time

sys.dont_write_bytecode = True  # leave no __pycache__ in the folder
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from homework import apply_move, legal_moves, other  # noqa: E402

MEASURE_SECONDS = 0.5
START = [list(row) for row in (
    ".b.b.b.b", "b.b.b.b.", ".b.b.b.b", "........",
    "........", "w.w.w.w.", ".w.w.w.w", "w.w.w.w.")]


def main():
    nodes = 0
    t0 = time.process_time()
    while time.process_time() - t0 < MEASURE_SECONDS:
        for m in legal_moves(START, "b"):  # a node: one position expanded
            after = apply_move(START, m)
            for r in legal_moves(after, other("b")):
                apply_move(after, r)
            nodes += 1
        nodes += 1
    rate = nodes / (time.process_time() - t0)
    with open("calibration.txt", "w") as f:
        f.write("nodes_per_second %.0f\n" % rate)
    print("calibrate: %.0f nodes/s" % rate)


if __name__ == "__main__":
    main()
