# s02-greedy-py -- class561 fixture: a 1-ply greedy agent.
#
# Why it exists: a correct agent a little stronger than s01.  If it can
# capture, it only considers the jump sequences capturing the most pieces.
# Among its candidate moves it picks, looking one ply ahead:
#   1. one after which the opponent has no capture (no immediate recapture),
#   2. then one leading to a placement not yet seen in this game,
#   3. then the best score: men 100 plus 3 per row advanced, kings 150 (less
#      10 for a king parked on its men's crowning row); the side ahead in
#      material also scores for trades, for kings near the enemy's pieces
#      and, in the endgame, for leaving the other side few moves,
#   4. then the first in the move generator's fixed order.
# In GAME mode playdata.txt keeps the placements of this game (one
# 64-character line per ply), so it does not shuffle into a threefold
# repetition while it could do something else.  Deterministic: the same
# input.txt and playdata.txt give the same move.
# Expected: beats s01; loses to s03, s04 and s06 (see README.md).
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


def evaluate(board, side):
    """Score for `side`, its own minus the opponent's: men 100 plus 3 per row
    advanced, kings 150, less 10 per king parked on its men's crowning row
    (while it has men).  The side ahead in material also scores for trades,
    for kings near the enemy's pieces and, with 10 pieces or fewer left, for
    leaving the other side few moves: it hunts down what is left instead of
    shuffling."""
    mat, adv, pieces = {"b": 0, "w": 0}, {"b": 0, "w": 0}, []
    men, parked = {"b": 0, "w": 0}, {"b": 0, "w": 0}
    for r in range(8):
        for c in range(8):
            p = board[r][c]
            if p == ".":
                continue
            pieces.append((r, c, p))
            s = p.lower()
            if p.isupper():
                mat[s] += 150
                parked[s] += r == crown_row(s)  # a king in its men's way
            else:
                mat[s] += 100
                men[s] += 1
                adv[s] += 3 * (r if s == "b" else 7 - r)  # rows advanced
    for s in "bw":
        if men[s]:
            adv[s] -= 10 * parked[s]
    opp = other(side)
    score = mat[side] - mat[opp] + adv[side] - adv[opp]
    if mat[side] == mat[opp]:
        return score
    leader = side if mat[side] > mat[opp] else opp
    bonus = 4 * (24 - len(pieces))
    for r, c, p in pieces:
        if p == leader.upper():
            near = min((max(abs(r - r2), abs(c - c2))
                        for r2, c2, q in pieces if q.lower() != leader), default=8)
            bonus += 2 * (8 - near)
    if len(pieces) <= 10:  # endgame: hem in the side behind
        bonus -= 5 * len(legal_moves(board, other(leader)))
    return score + bonus if leader == side else score - bonus


def placement(board):
    return "".join("".join(row) for row in board)


def read_history(path="playdata.txt"):
    try:
        with open(path) as f:
            return [line.strip() for line in f if len(line.strip()) == 64]
    except OSError:
        return []


def opponent_can_capture(board, side):
    replies = legal_moves(board, other(side))
    return bool(replies) and bool(replies[0][1])


def choose(board, side, history):
    moves = legal_moves(board, side)
    if moves[0][1]:  # jumps: keep the ones capturing the most
        most = max(len(m[1]) for m in moves)
        moves = [m for m in moves if len(m[1]) == most]

    def key(m):  # safe, then not seen yet, then the best score; min keeps the first
        after = apply_move(board, m)
        return (opponent_can_capture(after, side), history.count(placement(after)),
                -evaluate(after, side))

    return min(moves, key=key)


def main():
    mode, side, seconds, board = read_input()
    if not legal_moves(board, side):
        sys.exit(1)  # no legal move: the game is lost, nothing to write
    history = (read_history() + [placement(board)]) if mode == "GAME" else []
    move = choose(board, side, history)
    write_output(move_text(move))
    if mode == "GAME":
        with open("playdata.txt", "w") as f:
            for p in history + [placement(apply_move(board, move))]:
                f.write(p + "\n")


if __name__ == "__main__":
    main()
