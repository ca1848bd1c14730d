"""Boards as SVG pictures, for notebooks and files: `duel.svg(...)`.

Why here: a notebook shows an object's `_repr_svg_`, and python-chess users
expect `chess.svg.board(...)`. The picture is the one Duel's own page draws
(web/board.js and web/style.css): the same piece drawings, the same square
colours, the last move in yellow, a king in check in red, N-Queens' attacked
squares hatched. What is drawn comes from the position (`State.cells`,
`State.move_cells`, `State.is_check`, `State.marks`), never from rules here.
"""

from __future__ import annotations

from typing import Iterable, Optional, Sequence

# Step 1. The page's pictures (web/board.js): pieces on a 100 x 100 box.
_BASE = '<rect x="24" y="78" width="52" height="10" rx="3"/>'
_CHESS = {
    "p": _BASE + '<path d="M38 78 L42 50 L58 50 L62 78 Z"/><circle cx="50" cy="38" r="13"/>',
    "r": _BASE + '<rect x="33" y="42" width="34" height="36"/>'
    '<path d="M27 22 h11 v8 h6 v-8 h12 v8 h6 v-8 h11 v20 h-46 Z"/>',
    "n": _BASE + '<path d="M30 78 L70 78 C72 58 72 40 64 30 C58 22 50 17 41 15 L39 23'
    ' C31 28 24 38 22 47 C20 55 27 59 33 55 C38 52 42 50 47 48 C41 58 34 66 30 78 Z"/>'
    '<circle class="detail" cx="44" cy="29" r="3.5"/>',
    "b": _BASE + '<path d="M35 78 C33 64 39 55 50 47 C61 55 67 64 65 78 Z"/>'
    '<ellipse cx="50" cy="37" rx="12" ry="15"/><circle cx="50" cy="17" r="5.5"/>'
    '<path class="detail-line" d="M55 29 L45 41"/>',
    "q": _BASE + '<path d="M30 78 L22 36 L36 58 L37 30 L46 56 L50 24 L54 56 L63 30 L64 58'
    ' L78 36 L70 78 Z"/><circle cx="22" cy="32" r="5"/><circle cx="37" cy="26" r="5"/>'
    '<circle cx="50" cy="20" r="5"/><circle cx="63" cy="26" r="5"/>'
    '<circle cx="78" cy="32" r="5"/>',
    "k": _BASE + '<path d="M32 78 C25 62 25 49 36 45 C42 43 48 47 50 53 C52 47 58 43 64 45'
    ' C75 49 75 62 68 78 Z"/><rect x="46.5" y="12" width="7" height="30"/>'
    '<rect x="39" y="19" width="22" height="7"/>',
}
_MAN = '<circle cx="50" cy="50" r="34"/><circle class="detail-ring" cx="50" cy="50" r="23"/>'
_KING = _MAN + '<path class="crown" d="M34 60 L31 38 L42 48 L50 34 L58 48 L69 38 L66 60 Z"/>'

# Step 2. The page's colours (web/style.css), as one style sheet.
_STYLE = (
    ".l{fill:#eed9b6}.d{fill:#b58863}.ck .l{fill:#f1e4cc}.ck .d{fill:#6f8a5b}"
    ".nq .l{fill:#f3efe6}.nq .d{fill:#c9c1b0}.ln .l,.ln .d{fill:#f3efe6;stroke:#888}"
    ".last{fill:rgba(255,214,64,.55)}.hatch{fill:rgba(190,40,40,.28)}"
    ".coord{font:bold 18px sans-serif;fill:#555}"
    ".cw{fill:#fbfaf5;stroke:#1d1d1d;stroke-width:3;stroke-linejoin:round}"
    ".cb{fill:#262626;stroke:#0b0b0b;stroke-width:3;stroke-linejoin:round}"
    ".cw .detail{fill:#1d1d1d;stroke:none}.cb .detail{fill:#eee;stroke:none}"
    ".detail-line{fill:none;stroke-width:3.5}.cb .detail-line{stroke:#eee}"
    ".qo{fill:#7a2331;stroke:#2a0b10;stroke-width:3;stroke-linejoin:round}"
    ".kb{fill:#2a2a2a;stroke:#0c0c0c;stroke-width:3}.kb .detail-ring{fill:none;stroke:#555}"
    ".kw{fill:#f7f3e8;stroke:#4a4438;stroke-width:3}.kw .detail-ring{fill:none;stroke:#b9b1a0}"
    ".crown{fill:#e7c14a;stroke:#6b5412;stroke-width:2.5}"
    ".s1{fill:#2f6f8f;stroke:#173847;stroke-width:3}.s2{fill:#c0563b;stroke:#5e2718;stroke-width:3}"
    ".s1 text,.s2 text{font:bold 40px sans-serif;fill:#fff;stroke:none}"
    ".arrow{stroke-width:12;stroke-linecap:round;opacity:.8}"
)
_CHECK = (
    '<radialGradient id="check"><stop offset="0%" stop-color="#dc1e1e" stop-opacity=".75"/>'
    '<stop offset="55%" stop-color="#dc1e1e" stop-opacity=".25"/>'
    '<stop offset="100%" stop-color="#dc1e1e" stop-opacity="0"/></radialGradient>'
)

_CELL = 100  # one cell's side in the picture's own units
_MARGIN = 24  # the coordinates' band


class Svg(str):
    """SVG text that a notebook shows as the picture (python-chess's SvgWrapper)."""

    def _repr_svg_(self) -> str:
        return str(self)


def _family(state) -> str:
    if state.board_kind == "line":
        return "line"
    name = state.game.name
    if name == "checkers":
        return "checkers"
    if name == "nqueens":
        return "nqueens"
    return "chess"


def _piece(family: str, cell: str) -> str:
    """Step 3. A cell's picture, as web/board.js pieceFor draws it."""
    if family == "checkers":
        cls = "kb" if cell.lower() == "b" else "kw"
        return f'<g class="{cls}">{_KING if cell.isupper() else _MAN}</g>'
    if family == "nqueens":
        return f'<g class="qo">{_CHESS["q"]}</g>'
    if family == "line":
        return (f'<g class="s{cell}"><circle cx="50" cy="50" r="36"/>'
                f'<text x="50" y="64" text-anchor="middle">{cell}</text></g>')
    cls = "cw" if cell.isupper() else "cb"
    return f'<g class="{cls}">{_CHESS[cell.lower()]}</g>'


def _coords(family: str, rows: int, cols: int, r: int, c: int) -> tuple[str, str]:
    """The labels of row r and column c as the game names them."""
    if family in ("chess", "checkers"):
        return str(rows - r), chr(ord("a") + c)
    return str(r + 1), str(c + 1)


def _arrow_cells(state, arrow) -> tuple[tuple[int, int], tuple[int, int], str]:
    """(tail cell, head cell, colour) of an arrow: a move, or (from, to[, colour]) squares.

    A pair whose first element is a (file, row) pair with a letter is seed
    000's move tuple, not two squares.
    """
    if isinstance(arrow, (tuple, list)) and len(arrow) in (2, 3):
        first = arrow[0]
        if not (isinstance(first, (tuple, list)) and first and isinstance(first[0], str)):
            colour = arrow[2] if len(arrow) == 3 else "#15781b"
            return state.cell_of(arrow[0]), state.cell_of(arrow[1]), colour
    cells = state.move_cells(arrow)
    if not cells:
        raise ValueError(f"svg(): the move {arrow!r} has no squares to draw an arrow between")
    return cells[0], cells[-1], "#15781b"


def svg(position, *, size: Optional[int] = 390, arrows: Iterable = (),
        lastmove=None, check: Optional[bool] = None, flipped: bool = False,
        coordinates: bool = True, marks: bool = True) -> Svg:
    """The board of `position` (a duel.State or duel.Board) as SVG text.

    `size` is the picture's width in pixels (None: no width, it fills its
    box). `arrows` are moves (text or duel.Move, legal here) or (from, to)
    or (from, to, colour) pairs of squares as State.cell_of names them.
    `lastmove` (a move of the position before, given as its cells or as the
    duel.Board's last move) is shaded; a Board passes its own. `check` marks
    the king of the side to move (default: when it is in check). `flipped`
    draws the board turned, the second player's side at the bottom.
    Returns an Svg, a str that notebooks show as the picture.
    """
    # Step 1. What to draw.
    board = position if hasattr(position, "move_stack") else None
    state = position.state if board is not None else position
    if not hasattr(state, "cells"):
        raise TypeError(f"svg(): a duel.State or duel.Board, got {type(position).__name__}")
    if size is not None and (not isinstance(size, int) or isinstance(size, bool) or size <= 0):
        raise ValueError(f"svg(): size={size!r} must be a positive number of pixels or None")
    family = _family(state)
    cells = state.cells()
    rows, cols = len(cells), len(cells[0])
    last_cells: Sequence = ()
    if lastmove is not None:
        last_cells = lastmove
    elif board is not None and board.move_stack:
        last_cells = board.last_move_cells()
    last = {tuple(v) for v in last_cells}
    in_check = state.is_check() if check is None else check
    margin = _MARGIN if coordinates else 0

    def at(r: int, c: int) -> tuple[int, int]:
        if flipped:
            r, c = rows - 1 - r, cols - 1 - c
        return margin + c * _CELL, margin + r * _CELL

    # Step 2. The squares, the shading and the pieces.
    cls = {"checkers": "ck", "nqueens": "nq", "line": "ln"}.get(family, "ch")
    out = []
    width, height = cols * _CELL + 2 * margin, rows * _CELL + 2 * margin
    shown = f' width="{size}" height="{round(size * height / width)}"' if size else ""
    out.append(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}"{shown}>')
    out.append(f"<style>{_STYLE}</style><defs>{_CHECK}</defs><g class=\"{cls}\">")
    hatched = set(map(tuple, state.marks())) if marks else set()
    for r in range(rows):
        for c in range(cols):
            x, y = at(r, c)
            shade = "l" if family == "line" or (r + c) % 2 == 0 else "d"
            out.append(f'<rect class="{shade}" x="{x}" y="{y}" width="{_CELL}" height="{_CELL}"/>')
            if (r, c) in hatched:
                out.append(f'<rect class="hatch" x="{x}" y="{y}" width="{_CELL}" height="{_CELL}"/>')
            if (r, c) in last:
                out.append(f'<rect class="last" x="{x}" y="{y}" width="{_CELL}" height="{_CELL}"/>')
            cell = cells[r][c]
            if not cell:
                continue
            if in_check and family == "chess" and cell == ("K" if state.to_move == 1 else "k"):
                out.append(f'<circle cx="{x + 50}" cy="{y + 50}" r="50" fill="url(#check)"/>')
            out.append(f'<g transform="translate({x},{y})">{_piece(family, cell)}</g>')
    # Step 3. The coordinates and the arrows.
    if coordinates:
        for r in range(rows if family != "line" else 0):
            label = _coords(family, rows, cols, r, 0)[0]
            y = at(r, 0)[1] + 56
            out.append(f'<text class="coord" x="{margin / 2}" y="{y}" '
                       f'text-anchor="middle">{label}</text>')
        for c in range(cols):
            label = _coords(family, rows, cols, 0, c)[1]
            x = at(0, c)[0] + 50
            out.append(f'<text class="coord" x="{x}" y="{height - 7}" '
                       f'text-anchor="middle">{label}</text>')
    for arrow in arrows:
        (r0, c0), (r1, c1), colour = _arrow_cells(state, arrow)
        x0, y0 = at(r0, c0)
        x1, y1 = at(r1, c1)
        out.append(f'<line class="arrow" stroke="{colour}" x1="{x0 + 50}" y1="{y0 + 50}" '
                   f'x2="{x1 + 50}" y2="{y1 + 50}"/><circle fill="{colour}" opacity=".8" '
                   f'cx="{x1 + 50}" cy="{y1 + 50}" r="14"/>')
    out.append("</g></svg>")
    return Svg("".join(out))


__all__ = ["Svg", "svg"]
