"""A CS3243 AB.py that plays a random pseudo-legal move of White's, written
without the duel package (its own move generator, as a student's would be).
Used by tests/python/test_cs3243.py to check the grader."""

import random

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


def moves(gameboard, colour="White"):
    """Every pseudo-legal move of `colour` as ((x1, y1), (x2, y2))."""
    out = []
    forward = 1 if colour == "White" else -1

    def free(f, r):
        return 0 <= f < 5 and 0 <= r < 5 and (FILES[f], r) not in gameboard

    def enemy(f, r):
        p = gameboard.get((FILES[f], r)) if 0 <= f < 5 and 0 <= r < 5 else None
        return p is not None and p[1] != colour

    for (x, y), (kind, side) in sorted(gameboard.items()):
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


def studentAgent(gameboard):
    return random.choice(moves(gameboard))
