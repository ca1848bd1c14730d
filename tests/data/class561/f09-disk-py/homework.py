# f09-disk-py -- class561 fixture: a BOUNDED disk filler.
#
# Why it exists: tests that the referee stops a program that fills its
# folder, and that no one else is harmed.  Each run writes files of 1 MiB
# into a folder "fill" in its working directory, flushing each, until it has
# written MAX_MIB in all (and never more); then it exits without writing
# output.txt.  Each file stays far below the referee's 256 MiB file limit,
# so only a limit on the folder as a whole stops it.
# Expected: with `--disk-limit 16` (MiB), loses every game on its first
# move, reason disk-limit.  Without a folder limit it would lose with
# no-output after writing MAX_MIB.
#
# Run: python3 homework.py   (writes at most MAX_MIB MiB under ./fill)
import os

MAX_MIB = 256
CHUNK = b"x" * (1 << 20)

if __name__ == "__main__":
    os.makedirs("fill", exist_ok=True)
    for i in range(MAX_MIB):
        with open(os.path.join("fill", "part%04d" % i), "wb") as f:
            f.write(CHUNK)
            f.flush()
            os.fsync(f.fileno())
