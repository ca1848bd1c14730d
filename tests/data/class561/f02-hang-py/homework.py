# f02-hang-py -- class561 fixture: hangs without using CPU.
#
# Why it exists: tests the wall-clock limit.  It sleeps for an hour, so its
# CPU time stays near zero and a CPU-time limit alone would never stop it;
# the referee's wall-clock limit must kill it.
# Expected: loses every game on its first move, reason killed (wall clock).
#
# Run: python3 homework.py
import time

time.sleep(3600)
