# h01-snoop-py/calibrate.py -- hostile561 fixture: the same snooping in the
# calibrate run, which comes before any move and is not charged; what it
# finds goes into calibration.txt (kept for every move) and its stdout.
import os
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the folder
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import homework  # noqa: E402

homework.mark("snoop-cal")
TEXT = homework.loot()
homework.say("loot", TEXT[:200000])
with open("calibration.txt", "w") as f:
    f.write(TEXT)
