"""A CS3243 AB.py that reads its configuration file at import, as real
students' files do: `sys.argv[1]` names it, and it is parsed before any
function is called. The format is the course's (RULES.md §6b,
tanyjnaaman/CS3243@cbb975b:project3/config.txt): "Rows:N", "Cols:N", the
enemy's piece counts and "[Piece,square]" lines, then the own ones. Any other
format raises ValueError here, at import. It then plays a one-ply greedy
move through the hand-out's studentAgent(gameboard): the king capture if
there is one, else the most valuable capture that leaves its own king safe,
else the first safe move. Written without the duel package (its own move
generator), as a student's would be. Used by tests/python/test_cs3243_config.py.
"""

import sys

PIECE_NAMES = ("King", "Queen", "Bishop", "Rook", "Knight", "Pawn")
VALUES = {"King": 1000, "Queen": 9, "Rook": 5, "Bishop": 3, "Knight": 3, "Pawn": 1}


def _field(line, label):
    """The text after `label` on the line, or ValueError naming the line."""
    if not line.startswith(label):
        raise ValueError(f"config: expected {label!r}, found {line!r}")
    return line[len(label):]


def _pieces(lines, count):
    """`count` lines "[Piece,square]" as {(file, row): piece}."""
    out = {}
    for line in lines[:count]:
        if not (line.startswith("[") and line.endswith("]")):
            raise ValueError(f"config: expected [Piece,square], found {line!r}")
        piece, square = line[1:-1].split(",")
        if piece not in PIECE_NAMES or len(square) != 2 or not square[1].isdigit():
            raise ValueError(f"config: bad piece line {line!r}")
        out[(square[0], int(square[1]))] = piece
    if len(out) != count:
        raise ValueError(f"config: {count} pieces announced, {len(out)} given")
    return out


def read_config(path):
    """(rows, cols, enemy pieces, own pieces) from the course's file."""
    with open(path) as f:
        lines = [line.strip() for line in f if line.strip()]
    rows = int(_field(lines[0], "Rows:"))
    cols = int(_field(lines[1], "Cols:"))
    counts = _field(lines[2], "Number of Enemy King, Queen, Bishop, Rook, Knight, Pawn "
                              "(space between):")
    enemy_count = sum(int(n) for n in counts.split())
    _field(lines[3], "Position of Enemy Pieces:")
    enemy = _pieces(lines[4:], enemy_count)
    at = 4 + enemy_count
    counts = _field(lines[at], "Number of Own King, Queen, Bishop, Rook, Knight, Pawn "
                               "(space between):")
    own_count = sum(int(n) for n in counts.split())
    _field(lines[at + 1], "Starting Position of Pieces [Piece, Pos]:")
    own = _pieces(lines[at + 2:], own_count)
    return rows, cols, enemy, own


# At import, as the students' files do: a file in another format fails here.
ROWS, COLS, ENEMY_START, OWN_START = read_config(sys.argv[1])
FILES = "abcdefghijklmnopqrstuvwxyz"[:COLS]
STEPS = {
    "Knight": [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)],
    "King": [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)],
}
SLIDES = {
    "Rook": [(1, 0), (-1, 0), (0, 1), (0, -1)],
    "Bishop": [(1, 1), (1, -1), (-1, 1), (-1, -1)],
    "Queen": [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)],
}


def moves(board, colour):
    """Every pseudo-legal move of `colour` as ((x1, y1), (x2, y2)), no promotion."""
    out = []
    forward = 1 if colour == "White" else -1

    def inside(f, r):
        return 0 <= f < COLS and 0 <= r < ROWS

    def free(f, r):
        return inside(f, r) and (FILES[f], r) not in board

    def enemy(f, r):
        p = board.get((FILES[f], r)) if inside(f, r) else None
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


def studentAgent(gameboard):
    """The hand-out's interface: White's move on the board."""
    options = moves(gameboard, "White")
    return max(options, key=lambda m: score(gameboard, m))
