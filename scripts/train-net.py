#!/usr/bin/python3
"""Train heuristic n1's network on positions written by `duel tune --positions-out`.

n1 (src/duel/games/net/nnue.hpp, docs/net.md) is a small network seen from
both sides, as NNUE's are: each side's pieces on their squares (its own and
the enemy's, each side seeing the board from its own side: mirrored top to
bottom for Black in 5x5 chess, turned 180 degrees for White in checkers)
feed one shared layer of H units; the side to move's H and the other side's
H, clipped to [0, 1], feed 16 clipped units and then one output in pawns
(in checkers in hundreds of `tuned`'s units, a man about 1.7).

The target of a position is (1 - W) * result + W * sigmoid(K * score), both
from Player 1's view (the game's result and the score the mover's search
reported, or Fairy-Stockfish's: scripts/label-positions.py), and the
loss the squared error of sigmoid(K * 100 * net * scale) against it,
scale being e3's draw-clock factor (the network cannot see the clock).
Every held-out position (`held_out` in the file: every 10th game by default)
measures the fit against the bare results.

Writes the weights as the rule set's block of n1_weights.hpp (other rule
sets' blocks in an existing file are kept). Needs Debian's python3-torch
and python3-numpy (scripts/setup.sh installs them, for this script and its
test; the build does not need them).

  scripts/train-net.py --positions P.jsonl [--positions ...] --rules gardner
      [--out src/duel/games/minichess/n1_weights.hpp] [--hidden 64]
      [--epochs 30] [--score-weight 0.5] [--k 0.0038] [--seed 1]
      [--init src/duel/games/minichess/n1_weights.hpp [--init-rules gardner]]
      [--few-pieces 6 --few-share 0.25]

A positions file whose name ends in .xz is read decompressed.

--init starts from the rule set's block of an existing weights file instead
of random weights: a further round on new games keeps what the earlier
rounds' games taught. A block with fewer units than --hidden is widened:
its units keep their weights, the new units start with random input
weights and no weight into the next layer, so the widened network's output
starts as the block's. --init-rules names the rule set whose block to start
from when it is not --rules' own: a new rule set's network can start from
Gardner's (docs/net.md, "CS3243").

--few-pieces N --few-share F keeps a fitted position of N pieces or fewer
with probability F: in play the endgame tables answer such positions below
the root. It lost to keeping them all (docs/net.md, "Checkers' third
round") and stays for that record.
"""
import argparse
import json
import lzma
import math
import os
import re
import sys

FILES = RANKS = 5
SQUARES = FILES * RANKS
PIECES = "pnbrqk"
HIDDEN2 = 16
# The rule sets with a network: the C++ type its block specializes for, the
# number of inputs per side (own and enemy pieces by type on their squares)
# and the most pieces a position holds.
RULE_TYPES = {"gardner": "Gardner", "gardner-cs3243": "Cs3243", "minichess-comp472": "Comp472",
              "checkers": "State"}
CHECKERS_SQUARES = 32


def inputs_of(rules: str) -> int:
    return 2 * 2 * CHECKERS_SQUARES if rules == "checkers" else 2 * 6 * SQUARES


def max_pieces(rules: str) -> int:
    return 24 if rules == "checkers" else 25


def die(message: str) -> None:
    """Bad input: one line on stderr, exit status 2."""
    print(f"train-net: {message}", file=sys.stderr)
    sys.exit(2)


def chess_features(fen: str) -> tuple[list[int], list[int], bool]:
    """The active inputs seen by White and by Black, and whether White is to move.

    Input (0 own / 1 enemy) * 150 + type * 25 + square, squares a1 = 0 to e5
    = 24, mirrored top to bottom for Black (its own first rank is rank 1).
    """
    parts = fen.split()
    if len(parts) < 2 or parts[1] not in ("w", "b"):
        raise ValueError(f"not a 5x5 FEN: {fen!r}")
    rows = parts[0].split("/")
    if len(rows) != RANKS:
        raise ValueError(f"not 5 ranks: {fen!r}")
    white, black = [], []
    for r, row in enumerate(rows):
        rank = RANKS - 1 - r
        file = 0
        for c in row:
            if c.isdigit():
                file += int(c)
                continue
            if c.lower() not in PIECES or file >= FILES:
                raise ValueError(f"bad rank {row!r} in {fen!r}")
            t = PIECES.index(c.lower())
            is_white = c.isupper()
            sq = rank * FILES + file
            mirrored = (RANKS - 1 - rank) * FILES + file
            white.append((0 if is_white else 1) * 6 * SQUARES + t * SQUARES + sq)
            black.append((1 if is_white else 0) * 6 * SQUARES + t * SQUARES + mirrored)
            file += 1
        if file != FILES:
            raise ValueError(f"bad rank {row!r} in {fen!r}")
    return white, black, parts[1] == "w"


def checkers_features(fen: str) -> tuple[list[int], list[int], bool]:
    """The active inputs seen by Black and by White, and whether Black is to move.

    A PDN FEN (`B:W21,K22:B1,2`, a draw clock after it ignored): input
    (0 own / 1 enemy) * 64 + (0 man / 1 king) * 32 + square, square 0..31
    the standard number less one, turned 180 degrees for White (square
    31 - s) so that both sides see the game from their own back row.
    """
    head = fen.split()[0] if fen.split() else ""
    parts = head.split(":")
    if len(parts) != 3 or parts[0] not in ("B", "W"):
        raise ValueError(f"not a checkers FEN: {fen!r}")
    black, white = [], []
    seen = set()
    for part in parts[1:]:
        if not part or part[0] not in ("B", "W"):
            raise ValueError(f"bad side {part!r} in {fen!r}")
        is_black = part[0] == "B"
        for item in filter(None, part[1:].split(",")):
            king = item.startswith("K")
            number = item[1:] if king else item
            if not number.isdigit() or not 1 <= int(number) <= CHECKERS_SQUARES:
                raise ValueError(f"bad square {item!r} in {fen!r}")
            sq = int(number) - 1
            if sq in seen:
                raise ValueError(f"square {number} twice in {fen!r}")
            seen.add(sq)
            t = 1 if king else 0
            black.append((0 if is_black else 1) * 64 + t * 32 + sq)
            white.append((1 if is_black else 0) * 64 + t * 32 + (CHECKERS_SQUARES - 1 - sq))
    return black, white, parts[0] == "B"


def features(rules: str, fen: str) -> tuple[list[int], list[int], bool]:
    """The active inputs seen by Player 1 and by Player 2, and whether Player 1 is to move."""
    return checkers_features(fen) if rules == "checkers" else chess_features(fen)


def numbered_lines(path):
    """The lines of a positions file, numbered from 1; a name ending in .xz
    is read decompressed (the kept positions of docs/experiments/strength)."""
    try:
        f = (lzma.open(path, "rt", encoding="utf-8") if path.endswith(".xz")
             else open(path, encoding="utf-8"))
    except OSError as e:
        die(f"--positions: cannot read {path}: {e.strerror}")
    n = 0
    with f:
        try:
            for n, line in enumerate(f, 1):
                yield n, line
        except (lzma.LZMAError, EOFError, UnicodeDecodeError) as e:
            die(f"--positions {path} after line {n}: cannot read: {e}")


def load(paths, rules, score_weight, k, few_pieces=0, few_share=1.0, seed=1):
    """Rows of the files: sparse inputs (side to move's, other's), target, sign, scale.

    A fitted position of `few_pieces` pieces or fewer is kept with
    probability `few_share` (held-out ones always): the endgame tables answer
    such positions inside a search, so they need less of the network.
    """
    import numpy as np
    rng = np.random.default_rng(seed)
    width, pad = max_pieces(rules), inputs_of(rules)
    stm_idx, oth_idx, offsets = [], [], [0]
    target, sign, scale, held = [], [], [], []
    for path in paths:
        for n, line in numbered_lines(path):
            if not line.strip():
                continue
            try:
                j = json.loads(line)
                w, b, first_to_move = features(rules, j["fen"])
                result = float(j["result"])
                score = j.get("score")
                s = float(j.get("scale", 1.0))
                h = bool(j.get("held_out", False))
            except (ValueError, KeyError, TypeError) as e:
                die(f"--positions {path} line {n}: {e}")
            if not 0.0 <= result <= 1.0:
                die(f"--positions {path} line {n}: result {result} is not in [0, 1]")
            # w holds every piece on the board (as the first player sees it).
            if (not h and len(w) <= few_pieces and few_share < 1.0
                    and rng.random() >= few_share):
                continue
            mine, theirs = (w, b) if first_to_move else (b, w)
            # Pad to a fixed width (one piece a square at most).
            if len(mine) > width:
                die(f"--positions {path} line {n}: more than {width} pieces")
            stm_idx.append(mine + [pad] * (width - len(mine)))
            oth_idx.append(theirs + [pad] * (width - len(theirs)))
            t = result
            if score is not None and not h:
                t = (1 - score_weight) * result + score_weight / (1 + math.exp(-k * score))
            target.append(t)
            sign.append(1.0 if first_to_move else -1.0)
            scale.append(s)
            held.append(h)
    if not target:
        die("--positions: no positions")
    return (np.array(stm_idx, dtype=np.int64), np.array(oth_idx, dtype=np.int64),
            np.array(target, dtype=np.float32), np.array(sign, dtype=np.float32),
            np.array(scale, dtype=np.float32), np.array(held, dtype=bool))


# Positions whose outputs the block records, so that a test can check that
# the C++ network reads the board as this script does (tests/minichess/
# net_eval_test.cpp, tests/checkers/net_eval_test.cpp): the start, a middle
# game with the second player to move, an ending.
CHECK_FENS = {
    "chess": [
        "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1",
        "r1bqk/p1ppp/1pn2/P1PPP/RNBQK b - - 1 3",
        "4k/1p3/2q2/4K/2R2 w - - 0 1",
        "2k2/5/1P3/3r1/K4 b - - 0 40",
    ],
    "checkers": [
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "W:W18,21,22,24,25,27,28,29,30,31,32:B1,2,3,5,6,7,8,10,11,14,16",
        "B:WK27:BK1,K6",
        "W:W25,K14:B5,9",
    ],
}


def check_fens(rules: str) -> list[str]:
    return CHECK_FENS["checkers" if rules == "checkers" else "chess"]


def check_outputs(net, torch, rules) -> list[tuple[str, float]]:
    """The network's output (side to move's view) for the rule set's check positions."""
    rows = []
    for fen in check_fens(rules):
        w, b, first_to_move = features(rules, fen)
        mine, theirs = (w, b) if first_to_move else (b, w)
        with torch.no_grad():
            out = net(torch.tensor([mine]), torch.tensor([theirs]))
        rows.append((fen, float(out[0])))
    return rows


def block(rules: str, net, about: list[str], checks: list[tuple[str, float]]) -> str:
    """The rule set's block of n1_weights.hpp."""
    def floats(t) -> str:
        values = t.detach().reshape(-1).tolist()
        lines = []
        for i in range(0, len(values), 8):
            lines.append("    " + " ".join(f"{v:.7g}f," for v in values[i:i + 8]))
        return "\n".join(lines)
    w1 = net.w1.weight[:inputs_of(rules)]  # [inputs][hidden]; the last row is the padding
    text = f"// BEGIN {rules}\n// clang-format off\n"
    for line in about:
        text += f"// {line}\n"
    text += (f"template <>\ninline constexpr Net<{net.hidden}> kNet<{RULE_TYPES[rules]}> = {{\n"
             f"  {{  // w1: input x hidden\n{floats(w1)}\n  }},\n"
             f"  {{  // b1\n{floats(net.b1)}\n  }},\n"
             f"  {{  // w2: unit x (side to move's hidden, other's hidden)\n{floats(net.w2.weight)}\n  }},\n"
             f"  {{  // b2\n{floats(net.w2.bias)}\n  }},\n"
             f"  {{  // w3\n{floats(net.w3.weight)}\n  }},\n"
             f"  {net.w3.bias.item():.7g}f,  // b3\n"
             f"}};\n"
             f"template <>\ninline constexpr std::array<Check, kChecks> kCheck<{RULE_TYPES[rules]}> = {{{{\n")
    for fen, output in checks:
        text += f"    {{\"{fen}\", {output:.7g}f}},\n"
    text += f"}}}};\n// clang-format on\n// END {rules}\n"
    return text


def blocks_of(text: str) -> dict[str, str]:
    """An n1_weights.hpp's blocks by rule set, each from its BEGIN line to its END line."""
    return {m.group(1): m.group(0)
            for m in re.finditer(r"^// BEGIN (\S+)\n.*?^// END \1\n", text, re.S | re.M)}


def read_block(text: str, rules: str, hidden: int) -> tuple[list[list[float]], int]:
    """The rule set's weights in an n1_weights.hpp (w1, b1, w2, b2, w3, b3, flat)
    and its number of units, at most `hidden`."""
    mine = blocks_of(text).get(rules)
    if mine is None:
        raise ValueError(f"no block for {rules}")
    net = re.search(r"kNet<\w+> = \{(.*?)^\};", mine, re.S | re.M)
    shape = re.search(r"Net<(\d+)> kNet", mine)
    if net is None or shape is None:
        raise ValueError(f"the {rules} block holds no network")
    units = int(shape.group(1))
    if units > hidden:
        raise ValueError(f"the {rules} block has {units} units, more than --hidden {hidden}")
    values = [float(v) for v in re.findall(r"(-?[0-9][0-9.eE+-]*)f,", net.group(1))]
    sizes = [inputs_of(rules) * units, units, HIDDEN2 * 2 * units, HIDDEN2, HIDDEN2, 1]
    if len(values) != sum(sizes):
        raise ValueError(f"the {rules} block holds {len(values)} weights, not {sum(sizes)}")
    parts, at = [], 0
    for n in sizes:
        parts.append(values[at:at + n])
        at += n
    return parts, units


def header(old: str, rules: str, new_block: str) -> str:
    """n1_weights.hpp with `new_block` in place of the rule set's old one."""
    blocks = blocks_of(old)
    blocks[rules] = new_block
    game = "checkers" if rules == "checkers" else "minichess"
    checks_comment = (
        "// The network's outputs for a few positions (hundreds of tuned's units), as the script\n"
        "// computed them (tests/checkers/net_eval_test.cpp compares the C++ network's).\n"
        if rules == "checkers" else
        "// The network's outputs in pawns for a few positions, as the script computed\n"
        "// them (tests/minichess/net_eval_test.cpp compares the C++ network's).\n")
    text = ("#pragma once\n"
            "// The trained weights of heuristic `n1`, one block per rule set, written by\n"
            "// scripts/train-net.py (docs/net.md has the commands and the data that\n"
            "// produced each block). Do not edit by hand: rerun the script. Only\n"
            "// net_eval.cpp includes this file.\n"
            f"#include \"duel/games/{game}/net_eval.hpp\"\n\n"
            f"namespace duel::games::{game}::n1 {{\n\n"
            "// A rule set without a block below has no network (N1 is offered where one is).\n"
            "template <class Rules>\n"
            "inline constexpr Net<kHidden> kNet{};\n"
            + checks_comment +
            "template <class Rules>\n"
            "inline constexpr std::array<Check, kChecks> kCheck{};\n")
    for name in RULE_TYPES:
        if name in blocks and (name == "checkers") == (rules == "checkers"):
            text += "\n" + blocks[name]
    return text + f"\n}}  // namespace duel::games::{game}::n1\n"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", action="append", required=True)
    p.add_argument("--rules", required=True, choices=sorted(RULE_TYPES))
    p.add_argument("--out")
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--batch", type=int, default=4096)
    p.add_argument("--rate", type=float, default=1e-3)
    p.add_argument("--score-weight", type=float, default=0.5)
    p.add_argument("--k", type=float, default=0.0038)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--init")
    p.add_argument("--init-rules", choices=sorted(RULE_TYPES))
    p.add_argument("--few-pieces", type=int, default=0)
    p.add_argument("--few-share", type=float, default=1.0)
    a = p.parse_args()
    if not 0.0 <= a.score_weight <= 1.0:
        die("--score-weight must be in [0, 1]")
    if a.hidden < 1 or a.hidden > 512 or a.epochs < 0 or a.batch < 1 or a.k <= 0:
        die("--hidden 1..512, --epochs >= 0, --batch >= 1, --k > 0")
    if a.few_pieces < 0 or not 0.0 <= a.few_share <= 1.0:
        die("--few-pieces >= 0, --few-share in [0, 1]")
    if a.init_rules and not a.init:
        die("--init-rules needs --init")
    if a.init_rules and (a.init_rules == "checkers") != (a.rules == "checkers"):
        die("--init-rules: a network of another game's board")
    start = None
    if a.init:
        try:
            with open(a.init, encoding="utf-8") as f:
                start, start_hidden = read_block(f.read(), a.init_rules or a.rules, a.hidden)
        except OSError as e:
            die(f"--init: cannot read {a.init}: {e.strerror}")
        except ValueError as e:
            die(f"--init {a.init}: {e}")
    try:
        import numpy as np
        import torch
    except ImportError as e:
        die(f"needs Debian's python3-torch and python3-numpy ({e})")
    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    stm, oth, target, sign, scale, held = load(a.positions, a.rules, a.score_weight, a.k,
                                                  a.few_pieces, a.few_share, a.seed)
    inputs = inputs_of(a.rules)

    class Net(torch.nn.Module):
        def __init__(self, hidden):
            super().__init__()
            self.hidden = hidden
            # One extra input row (index `inputs`) is the padding: always 0.
            self.w1 = torch.nn.EmbeddingBag(inputs + 1, hidden, mode="sum", padding_idx=inputs)
            self.b1 = torch.nn.Parameter(torch.zeros(hidden))
            self.w2 = torch.nn.Linear(2 * hidden, HIDDEN2)
            self.w3 = torch.nn.Linear(HIDDEN2, 1)

        def forward(self, s, o):
            a = torch.clamp(self.w1(s) + self.b1, 0, 1)
            b = torch.clamp(self.w1(o) + self.b1, 0, 1)
            h = torch.clamp(self.w2(torch.cat([a, b], 1)), 0, 1)
            return self.w3(h).squeeze(1)  # pawns (checkers: 100 tuned units), mover's view

    net = Net(a.hidden)
    with torch.no_grad():
        net.w1.weight.mul_(0.1)
        if start is not None:
            w1, b1, w2, b2, w3, b3 = start
            h = start_hidden  # the block's units come first; any others are new
            net.w1.weight[:inputs, :h] = torch.tensor(w1).reshape(inputs, h)
            net.w1.weight[inputs] = 0.0  # the padding row
            net.b1.zero_()
            net.b1[:h] = torch.tensor(b1)
            old_w2 = torch.tensor(w2).reshape(HIDDEN2, 2 * h)
            net.w2.weight.zero_()
            net.w2.weight[:, :h] = old_w2[:, :h]  # the mover's units
            net.w2.weight[:, a.hidden:a.hidden + h] = old_w2[:, h:]  # the other side's
            net.w2.bias.copy_(torch.tensor(b2))
            net.w3.weight.copy_(torch.tensor(w3).reshape(1, HIDDEN2))
            net.w3.bias.fill_(b3[0])
    train = np.flatnonzero(~held)
    valid = np.flatnonzero(held)
    t_stm, t_oth = torch.from_numpy(stm), torch.from_numpy(oth)
    t_target, t_sign, t_scale = map(torch.from_numpy, (target, sign, scale))

    def predict(rows):
        cp = 100.0 * net(t_stm[rows], t_oth[rows]) * t_sign[rows] * t_scale[rows]
        return torch.sigmoid(a.k * cp)

    def error(rows) -> float:
        if len(rows) == 0:
            return float("nan")
        with torch.no_grad():
            total = 0.0
            for i in range(0, len(rows), 65536):
                r = torch.from_numpy(rows[i:i + 65536])
                total += float(((predict(r) - t_target[r]) ** 2).sum())
        return total / len(rows)

    opt = torch.optim.Adam(net.parameters(), lr=a.rate)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, max(a.epochs, 1))
    rng = np.random.default_rng(a.seed)
    for epoch in range(a.epochs):
        order = rng.permutation(train)
        for i in range(0, len(order), a.batch):
            r = torch.from_numpy(order[i:i + a.batch])
            loss = ((predict(r) - t_target[r]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
        print(f"train-net: epoch {epoch + 1} of {a.epochs}: fitted {error(train):.6f}, "
              f"held out {error(valid):.6f}", file=sys.stderr)
    fitted, held_out = error(train), error(valid)
    about = [f"Written by: scripts/train-net.py --rules {a.rules} " +
             " ".join(f"--positions {os.path.basename(x)}" for x in a.positions) +
             f" --hidden {a.hidden} --epochs {a.epochs} --batch {a.batch} --rate {a.rate:g}"
             f" --score-weight {a.score_weight:g} --k {a.k:g} --seed {a.seed}" +
             (f" --init {os.path.basename(a.init)}" if a.init else "") +
             (f" --init-rules {a.init_rules}" if a.init_rules else "") +
             (f" --few-pieces {a.few_pieces} --few-share {a.few_share:g}"
              if a.few_pieces and a.few_share < 1.0 else ""),
             f"Data: {len(train)} positions fitted, {len(valid)} held out",
             f"Fit: MSE fitted {fitted:.6f}, held out {held_out:.6f} (targets of held-out "
             "positions: the results)"]
    text = block(a.rules, net, about, check_outputs(net, torch, a.rules))
    if a.out:
        old = open(a.out, encoding="utf-8").read() if os.path.exists(a.out) else ""
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(header(old, a.rules, text))
    else:
        sys.stdout.write(header("", a.rules, text))
    print(f"train-net: {len(train)} fitted, {len(valid)} held out; MSE fitted {fitted:.6f}, "
          f"held out {held_out:.6f}", file=sys.stderr)


if __name__ == "__main__":
    main()
