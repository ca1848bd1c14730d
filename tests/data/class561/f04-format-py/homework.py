# f04-format-py -- class561 fixture: a LEGAL move in the WRONG FORMAT.
#
# Why it exists: tests how the grader reads output.txt.  It picks the same
# move as s01 (the first legal move in a fixed order), which is legal, but
# writes it with a lower-case move kind and upper-case squares, e.g.
# "e D6 C5" or "j C3 E5" / "j E5 G7", where the hand-out writes
# "E d6 c5" / "J c3 e5".
# Expected: the course's referee lowercased every line (RULES.md 6a), so the
# default reading accepts it and it plays like s01; with --strict (the
# hand-out's letter) it loses on its first move (bad-output).
#
# Run: python3 homework.py   (in a folder holding input.txt; writes output.txt)
import sys


# ---- checkers move generation (shared by this class's Python agents) ----
# Board: board[r][c], r = 0 is the top line of input.txt (rank 8), c = 0 is
# file a.  'b'/'w' men, 'B'/'W' kings, '.' empty.  Black men move down
# (r + 1), White men up (r - 1).  A move is (path, captured): path is the
# list of (r, c) squares visited, captured the list of jumped squares (empty
# for a simple move).  Captured pieces stay on the board until the move ends
# (a piece is never jumped twice); a man that reaches the far row is crowned
# and the move ends there.

KING_DIRS = [(-1, -1), (-1, 1), (1, -1), (1, 1)]


def read_input(path="input.txt"):
    with open(path) as f:
        lines = [line.strip() for line in f if line.strip()]
    mode = lines[0].upper()
    side = "b" if lines[1].upper() == "BLACK" else "w"
    seconds = float(lines[2])
    board = [list(row) for row in lines[3:11]]
    return mode, side, seconds, board


def other(side):
    return "w" if side == "b" else "b"


def piece_dirs(p):
    if p.isupper():
        return KING_DIRS
    return [(1, -1), (1, 1)] if p == "b" else [(-1, -1), (-1, 1)]


def crown_row(p):
    return 7 if p == "b" else 0


def _jumps(board, r, c, p, path, caps, out):
    enemy = other(p.lower())
    more = False
    for dr, dc in piece_dirs(p):
        mr, mc, tr, tc = r + dr, c + dc, r + 2 * dr, c + 2 * dc
        if not (0 <= tr < 8 and 0 <= tc < 8):
            continue
        if board[mr][mc].lower() != enemy or (mr, mc) in caps:
            continue
        if board[tr][tc] != ".":
            continue
        more = True
        path2, caps2 = path + [(tr, tc)], caps + [(mr, mc)]
        if p.islower() and tr == crown_row(p):
            out.append((path2, caps2))  # crowned: the move ends here
        else:
            _jumps(board, tr, tc, p, path2, caps2, out)
    if not more and caps:
        out.append((path, caps))


def legal_moves(board, side):
    """All legal moves of `side`, in a fixed order: squares top-left to
    bottom-right, directions up-left, up-right, down-left, down-right.
    Jumps only when there is one (captures are compulsory)."""
    jumps, steps = [], []
    for r in range(8):
        for c in range(8):
            p = board[r][c]
            if p == "." or p.lower() != side:
                continue
            board[r][c] = "."  # the piece leaves its square
            _jumps(board, r, c, p, [(r, c)], [], jumps)
            board[r][c] = p
            for dr, dc in piece_dirs(p):
                tr, tc = r + dr, c + dc
                if 0 <= tr < 8 and 0 <= tc < 8 and board[tr][tc] == ".":
                    steps.append(([(r, c), (tr, tc)], []))
    return jumps if jumps else steps


def apply_move(board, move):
    path, caps = move
    b = [row[:] for row in board]
    (r0, c0), (r1, c1) = path[0], path[-1]
    p = b[r0][c0]
    b[r0][c0] = "."
    for r, c in caps:
        b[r][c] = "."
    if p.islower() and r1 == crown_row(p):
        p = p.upper()
    b[r1][c1] = p
    return b


def square(rc):
    r, c = rc
    return "abcdefgh"[c] + str(8 - r)


def move_text(move):
    path, caps = move
    kind = "J" if caps else "E"
    return "".join("%s %s %s\n" % (kind, square(a), square(b))
                   for a, b in zip(path, path[1:]))


def write_output(text, path="output.txt"):
    with open(path, "w") as f:
        f.write(text)
# ---- end of move generation ----


def main():
    mode, side, seconds, board = read_input()
    moves = legal_moves(board, side)
    if not moves:
        sys.exit(1)
    good = move_text(moves[0] if side == "b" else moves[-1])  # "E d6 c5\n" or "J c3 e5\nJ e5 g7\n"
    bad = "".join("%s %s %s\n" % (k.lower(), a.upper(), b.upper())
                  for k, a, b in (line.split() for line in good.splitlines()))
    write_output(bad)


if __name__ == "__main__":
    main()
