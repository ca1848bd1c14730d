# f03-illegal-py -- class561 fixture: a well-formed but illegal move.
#
# Why it exists: tests the 'illegal-move' loss.  It writes a simple move in
# the exact protocol format ("E d4 c5" style) whose start square is EMPTY:
# the first empty dark square, scanning from a8 to h1, moved to its first
# diagonal neighbour on the board.  A move from an empty square is never
# legal, whatever the position.
# Expected: loses every game on its first move, reason illegal-move.
#
# Run: python3 homework.py   (in a folder holding input.txt; writes output.txt)
with open("input.txt") as f:
    lines = [line.strip() for line in f if line.strip()]
board = lines[3:11]


def square(r, c):
    return "abcdefgh"[c] + str(8 - r)


def illegal_move():
    for r in range(8):
        for c in range(8):
            if (r + c) % 2 == 1 and board[r][c] == ".":
                for dr, dc in ((1, -1), (1, 1), (-1, -1), (-1, 1)):
                    if 0 <= r + dr < 8 and 0 <= c + dc < 8:
                        return "E %s %s\n" % (square(r, c), square(r + dr, c + dc))
    return "E d4 e5\n"  # not reached: at most 24 of the 32 dark squares are full


with open("output.txt", "w") as f:
    f.write(illegal_move())
