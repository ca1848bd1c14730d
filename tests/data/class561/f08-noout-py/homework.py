# f08-noout-py -- class561 fixture: exits cleanly without an answer.
#
# Why it exists: tests the 'no-output' loss.  It reads input.txt, prints a
# line to stdout and exits with status 0 without writing output.txt.
# Expected: loses every game on its first move, reason no-output.
#
# Run: python3 homework.py
with open("input.txt") as f:
    f.read()
print("f08-noout-py: thinking done, but no output.txt")
