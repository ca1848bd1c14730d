# h05-daemon-py/calibrate.py -- hostile561 fixture: the same daemon, started
# by the calibrate run (before any move, uncharged), so that it is already
# there when the games begin.
import os
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the folder
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import homework  # noqa: E402

homework.mark("daemon-cal")
homework.start_daemon()
with open("calibration.txt", "w") as f:
    f.write("h561\n")
