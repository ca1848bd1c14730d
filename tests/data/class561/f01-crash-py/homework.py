# f01-crash-py -- class561 fixture: crashes on its first move.
#
# Why it exists: tests the 'crash' loss.  It reads input.txt, then raises an
# uncaught exception, so Python prints a traceback to stderr and exits with
# status 1 without writing output.txt.  It does so on every move, so it
# loses its first move of every game.
# Expected: loses every game, reason crash (non-zero exit status).
#
# Run: python3 homework.py
with open("input.txt") as f:
    lines = f.read().split()
raise RuntimeError("f01-crash-py: deliberate crash as %s" % lines[1])
