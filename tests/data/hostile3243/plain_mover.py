"""hostile3243's plain mover: the move choice every hostile AB.py of this
folder plays when its attack fails, and nothing else. The test grades a
class where each hostile student's folder holds this file as AB.py, to know
the games the hostile ones must play (tests/data/hostile3243/README.md)."""

# ---- cs3243 move choice (the same in every file of hostile3243) ----
FILES = "abcde"
STEPS = {
    "Knight": [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)],
    "King": [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)],
}
SLIDES = {
    "Rook": [(1, 0), (-1, 0), (0, 1), (0, -1)],
    "Bishop": [(1, 1), (1, -1), (-1, 1), (-1, -1)],
    "Queen": [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)],
}
VALUES = {"King": 1000, "Queen": 9, "Rook": 5, "Bishop": 3, "Knight": 3, "Pawn": 1}


def moves(board, colour):
    """Every pseudo-legal move of `colour` as ((x1, y1), (x2, y2)), no promotion."""
    out = []
    forward = 1 if colour == "White" else -1

    def free(f, r):
        return 0 <= f < 5 and 0 <= r < 5 and (FILES[f], r) not in board

    def enemy(f, r):
        p = board.get((FILES[f], r)) if 0 <= f < 5 and 0 <= r < 5 else None
        return p is not None and p[1] != colour

    for (x, y), (kind, side) in sorted(board.items()):
        if side != colour:
            continue
        f = FILES.index(x)
        targets = []
        if kind == "Pawn":
            if free(f, y + forward):
                targets.append((f, y + forward))
            targets += [(f + d, y + forward) for d in (-1, 1) if enemy(f + d, y + forward)]
        for df, dr in STEPS.get(kind, []):
            if free(f + df, y + dr) or enemy(f + df, y + dr):
                targets.append((f + df, y + dr))
        for df, dr in SLIDES.get(kind, []):
            g, r = f + df, y + dr
            while free(g, r):
                targets.append((g, r))
                g, r = g + df, r + dr
            if enemy(g, r):
                targets.append((g, r))
        out += [((x, y), (FILES[g], r)) for g, r in targets]
    return out


def score(board, move):
    """The move's one-ply worth: the captured piece's value, -1 if it leaves the
    own king capturable."""
    taken = board.get(move[1])
    if taken is not None and taken[0] == "King":
        return VALUES["King"]
    after = dict(board)
    after[move[1]] = after.pop(move[0])
    for _, to in moves(after, "Black"):
        if after.get(to) == ("King", "White"):
            return -1
    return VALUES[taken[0]] if taken is not None else 0


def choose(gameboard):
    """White's move: the best one-ply score, the first in generation order on ties."""
    return max(moves(gameboard, "White"), key=lambda m: score(gameboard, m))
# ---- end of move choice ----


def studentAgent(gameboard):  # noqa: N802 - the hand-out's name
    """The hand-out's interface: White's move on the board."""
    return choose(gameboard)
