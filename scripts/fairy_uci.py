"""Fairy-Stockfish over UCI, for the scripts that ask it for moves, positions
and scores (balanced-openings.py, fs-judge.py,
label-positions.py).

A position is a list of moves from `start`, a FEN, or from the variant's
start position when `start` is None.
"""
import subprocess

FAIRY = "/usr/games/fairy-stockfish"


class Fairy:
    """One Fairy-Stockfish process. Raises FileNotFoundError when it is not
    installed and RuntimeError when it stops answering."""

    def __init__(self, variant: str, variants: str | None = None, hash_mb: int | None = None):
        self.p = subprocess.Popen([FAIRY], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        if variants:
            self.send(f"setoption name VariantPath value {variants}")
        self.send(f"setoption name UCI_Variant value {variant}")
        if hash_mb:
            self.send(f"setoption name Hash value {hash_mb}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line: str) -> None:
        self.p.stdin.write(line + "\n")

    def wait(self, prefix: str) -> list[str]:
        """The lines up to and including the first that starts with `prefix`."""
        lines = []
        for line in self.p.stdout:
            line = line.strip()
            lines.append(line)
            if line.startswith(prefix):
                return lines
        raise RuntimeError(f"{FAIRY} stopped")

    def position(self, moves: list[str], start: str | None = None) -> None:
        self.send(("position startpos" if start is None else f"position fen {start}") +
                  (" moves " + " ".join(moves) if moves else ""))

    def moves(self, moves: list[str], start: str | None = None) -> list[str]:
        """The legal moves, sorted (from `go perft 1`)."""
        self.position(moves, start)
        self.send("go perft 1")
        out = self.wait("Nodes searched")
        return sorted(line.split(":")[0] for line in out if ":" in line and "Nodes" not in line)

    def fen(self, moves: list[str], start: str | None = None) -> str:
        self.position(moves, start)
        self.send("d")
        out = self.wait("Checkers")
        return next(line[5:] for line in out if line.startswith("Fen: "))

    def score(self, moves: list[str], depth: int, start: str | None = None,
              only: str | None = None) -> tuple[str, int] | None:
        """The last score of `go depth D` (of the move `only` alone when given),
        from the side to move's view: ('cp', centipawns) or ('mate', moves),
        or None if it gave none."""
        self.position(moves, start)
        self.send(f"go depth {depth}" + (f" searchmoves {only}" if only else ""))
        out = self.wait("bestmove")
        last = [line for line in out if " score " in line]
        if not last:
            return None
        words = last[-1].split()
        i = words.index("score")
        return words[i + 1], int(words[i + 2])

    def close(self) -> None:
        self.send("quit")
        self.p.wait(timeout=5)
