# s06-calibrate-py -- class561 fixture: an agent that uses calibration.txt
# and playdata.txt.
#
# Why it exists: exercises the two optional files of the protocol.
# - calibrate.py (run once before the games, in this folder) measures how
#   many positions per CPU second this machine expands and writes
#   calibration.txt ("nodes_per_second N").  homework.py reads it; when it is
#   missing or unreadable it falls back to DEFAULT_DEPTH.
# - playdata.txt (GAME mode; the referee deletes it before each game): line
#   1 counts this agent's own moves in the game (the count goes to stderr),
#   then one 64-character line per placement seen in the game.
# It plays like s02 (same evaluation) but searches deeper: negamax with
# alpha-beta, depth DEFAULT_DEPTH (2) uncalibrated, CALIBRATED_DEPTH (4)
# when calibrated at >= MIN_RATE nodes/s (any real machine), depth 1 when
# less than LOW_TIME seconds are left.  A placement that would occur for the
# third time scores as a draw (0): ahead, it avoids repeating.  Ties go to
# the first move in the move generator's fixed order, so the choice is
# deterministic for a given depth.
# Expected (calibrated): beats s01 and s02; loses to s03 and s04.
#
# Run: python3 calibrate.py   (once; optional)
#      python3 homework.py    (each move, in a folder holding input.txt)
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


DEFAULT_DEPTH = 2
CALIBRATED_DEPTH = 4
MIN_RATE = 1000.0
LOW_TIME = 1.0
LOSS = 100000


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


SEEN = {}  # placement -> times it occurred in this game


def placement(board):
    return "".join("".join(row) for row in board)


def negamax(board, side, depth, alpha, beta):
    if SEEN.get(placement(board), 0) >= 2:
        return 0  # a third occurrence: a draw
    moves = legal_moves(board, side)
    if not moves:
        return -LOSS - depth  # lost; a later loss is better
    if depth == 0:
        return evaluate(board, side)
    best = -LOSS * 10
    for m in moves:
        v = -negamax(apply_move(board, m), other(side), depth - 1, -beta, -alpha)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


def choose(board, side, depth):
    moves = legal_moves(board, side)
    best, best_v = moves[0], None
    alpha = -LOSS * 10
    for m in moves:
        v = -negamax(apply_move(board, m), other(side), depth - 1, -LOSS * 10, -alpha)
        if best_v is None or v > best_v:  # strictly better: first one wins ties
            best, best_v = m, v
            alpha = max(alpha, v)
    return best


def read_rate(path="calibration.txt"):
    try:
        with open(path) as f:
            for line in f:
                words = line.split()
                if len(words) == 2 and words[0] == "nodes_per_second":
                    return float(words[1])
    except (OSError, ValueError):
        pass
    return None


def read_playdata(path="playdata.txt"):
    """(own moves so far, placements seen) from playdata.txt."""
    try:
        with open(path) as f:
            lines = f.read().split()
        return int(lines[0]), [p for p in lines[1:] if len(p) == 64]
    except (OSError, ValueError, IndexError):
        return 0, []


def write_playdata(n, history, path="playdata.txt"):
    with open(path, "w") as f:
        f.write("%d\n" % n)
        for p in history:
            f.write(p + "\n")


def main():
    mode, side, seconds, board = read_input()
    if not legal_moves(board, side):
        sys.exit(1)  # no legal move: the game is lost, nothing to write
    rate = read_rate()
    depth = CALIBRATED_DEPTH if rate is not None and rate >= MIN_RATE else DEFAULT_DEPTH
    if seconds < LOW_TIME:
        depth = 1
    n, history = read_playdata() if mode == "GAME" else (0, [])
    n += 1
    history.append(placement(board))
    for p in history:
        SEEN[p] = SEEN.get(p, 0) + 1
    sys.stderr.write("s06: own move %d, rate %s, depth %d\n" % (n, rate, depth))
    move = choose(board, side, depth)
    write_output(move_text(move))
    if mode == "GAME":
        write_playdata(n, history + [placement(apply_move(board, move))])


if __name__ == "__main__":
    main()
