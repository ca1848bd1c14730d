"""scripts/train-net.py, which trains heuristic n1's network (docs/net.md).

Its inputs must be the ones the C++ network reads (each side's pieces, the
board mirrored for Black; tests/minichess/net_eval_test.cpp checks the C++
side against outputs the script records), its header must keep the other
rule sets' blocks, and bad input is one line and exit status 2. Training
needs Debian's python3-torch, which only training needs: without it the
training test is skipped and the script says what is missing.
"""

import importlib.util
import json
import lzma
import re
import subprocess
import sys

import pytest

from conftest import ROOT, duel_bin, random_states

SCRIPT = ROOT / "scripts" / "train-net.py"
spec = importlib.util.spec_from_file_location("train_net", SCRIPT)
train_net = importlib.util.module_from_spec(spec)
spec.loader.exec_module(train_net)

try:
    import torch  # noqa: F401
    HAVE_TORCH = True
except ImportError:
    HAVE_TORCH = False
needs_torch = pytest.mark.skipif(not HAVE_TORCH, reason="python3-torch is not installed")


def flip(fen: str) -> str:
    """The colour-flipped position: ranks reversed, colours swapped, the other side to move."""
    board, side, *rest = fen.split()
    ranks = [r.swapcase() for r in reversed(board.split("/"))]
    return " ".join(["/".join(ranks), "b" if side == "w" else "w", *rest])


def test_each_side_sees_the_flipped_position_as_the_other_side_sees_this_one():
    for seed in range(6):
        for _, state in random_states("gardner", seed, 30):
            white, black, white_to_move = train_net.features("gardner", state.text)
            f_white, f_black, f_white_to_move = train_net.features("gardner", flip(state.text))
            assert sorted(white) == sorted(f_black)
            assert sorted(black) == sorted(f_white)
            assert white_to_move != f_white_to_move


def test_inputs_by_hand():
    # A white king on a1 and a black pawn on b4: White sees its own king on
    # square 0 and an enemy pawn on b4 (square 16); Black sees its own pawn
    # on b2 (mirrored: square 6) and the enemy king on a5 (square 20).
    white, black, white_to_move = train_net.features("gardner", "5/1p3/5/5/K4 b - - 0 1")
    king, pawn, squares = 5, 0, 25
    assert sorted(white) == sorted([0 * 150 + king * squares + 0, 1 * 150 + pawn * squares + 16])
    assert sorted(black) == sorted([0 * 150 + pawn * squares + 6, 1 * 150 + king * squares + 20])
    assert not white_to_move
    for bad in ["5/5/5/5 w", "6/5/5/5/5 w", "5/5/5/5/4x w", "5/5/5/5/5 x"]:
        with pytest.raises(ValueError):
            train_net.features("gardner", bad)


def test_checkers_inputs_by_hand_and_turned_for_white():
    # Black's man on 1 and king on 32, White's man on 21: Black sees them as
    # they stand (own man 0, own king 32 + 31, enemy man 64 + 20); White sees
    # the board turned (square s -> 31 - s): own man 31 - 20 = 11, enemy man
    # 64 + 31, enemy king 64 + 32 + 0.
    black, white, black_to_move = train_net.features("checkers", "W:W21:B1,K32")
    assert sorted(black) == sorted([0, 32 + 31, 64 + 20])
    assert sorted(white) == sorted([11, 64 + 31, 64 + 32 + 0])
    assert not black_to_move
    for bad in ["B:W21", "X:W21:B1", "B:W33:B1", "B:W1:B1", "B:W21:BK"]:
        with pytest.raises(ValueError):
            train_net.features("checkers", bad)


def test_checkers_each_side_sees_the_turned_position_as_the_other_sees_this_one():
    for seed in range(4):
        for _, state in random_states("checkers", seed, 40):
            fen = state.text.split()[0]
            side, first, second = fen.split(":")
            # Turned 180 degrees with colours swapped: square s -> 33 - s.
            def turned(part: str, colour: str) -> str:
                items = [x for x in part[1:].split(",") if x]
                return colour + ",".join(("K" if x.startswith("K") else "") +
                                         str(33 - int(x.lstrip("K"))) for x in items)
            sides = {first[0]: first, second[0]: second}
            flipped = ("W" if side == "B" else "B") + ":" + turned(sides["B"], "W") + ":" + \
                turned(sides["W"], "B")
            b, w, b_to_move = train_net.features("checkers", fen)
            fb, fw, fb_to_move = train_net.features("checkers", flipped)
            assert sorted(b) == sorted(fw) and sorted(w) == sorted(fb)
            assert b_to_move != fb_to_move


def test_header_keeps_the_other_rule_sets_blocks():
    other = "// BEGIN minichess-comp472\n// kept\n// END minichess-comp472\n"
    old = train_net.header("", "minichess-comp472", other)
    mine = "// BEGIN gardner\n// new\n// END gardner\n"
    text = train_net.header(old, "gardner", mine)
    assert mine in text and other in text
    assert text.index("BEGIN gardner") < text.index("BEGIN minichess-comp472")
    replaced = train_net.header(text, "gardner", "// BEGIN gardner\n// newer\n// END gardner\n")
    assert "// new\n" not in replaced and "// newer\n" in replaced and other in replaced


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=600)


def positions_file(tmp_path) -> str:
    """Positions of a few games of two shallow searches, written by duel tune."""
    records, out = tmp_path / "g.jsonl", tmp_path / "p.jsonl"
    subprocess.run([duel_bin(), "arena", "gardner", "--agent", "engine:depth=1", "--agent",
                    "engine:depth=1,eval=e1", "--games", "6", "--openings", "random:plies=4",
                    "--seed", "3", "--records", str(records), "--json"],
                   check=True, capture_output=True, timeout=300)
    subprocess.run([duel_bin(), "tune", "gardner", "--records", str(records), "--iterations", "0",
                    "--validation", "3", "--positions-out", str(out), "--json"],
                   check=True, capture_output=True, timeout=300)
    return str(out)


@needs_torch
def test_training_writes_a_block_with_the_networks_checks(tmp_path):
    positions = positions_file(tmp_path)
    header = tmp_path / "n1.hpp"
    header.write_text(train_net.header("", "minichess-comp472",
                                       "// BEGIN minichess-comp472\n// END minichess-comp472\n"))
    r = run("--positions", positions, "--rules", "gardner", "--hidden", "8", "--epochs", "2",
            "--out", str(header))
    assert r.returncode == 0, r.stderr
    text = header.read_text()
    assert "inline constexpr Net<8> kNet<Gardner> = {" in text
    assert "// BEGIN minichess-comp472" in text
    assert text.count('{"') == len(train_net.check_fens("gardner"))
    assert "held out" in r.stderr


def net_block(text: str) -> str:
    return text[text.index("kNet<Gardner> = {"):text.index("kCheck<Gardner>")]


def check_outputs(text: str) -> list[float]:
    """The outputs on the check positions written in a block (the same sums of
    more units may differ in float's last place)."""
    block = text[text.index("kCheck<Gardner>"):text.index("// END gardner")]
    return [float(v) for v in re.findall(r'", (-?[0-9][0-9.eE+-]*)f\}', block)]


@needs_torch
def test_init_starts_from_a_files_weights(tmp_path):
    positions = positions_file(tmp_path)
    first, again = tmp_path / "first.hpp", tmp_path / "again.hpp"
    r = run("--positions", positions, "--rules", "gardner", "--hidden", "8", "--epochs", "2",
            "--out", str(first))
    assert r.returncode == 0, r.stderr
    # No epochs from a file's weights: the same network, written again.
    r = run("--positions", positions, "--rules", "gardner", "--hidden", "8", "--epochs", "0",
            "--init", str(first), "--out", str(again))
    assert r.returncode == 0, r.stderr
    assert net_block(again.read_text()) == net_block(first.read_text())
    weights, units = train_net.read_block(first.read_text(), "gardner", 8)
    assert units == 8 and weights[5] != [0.0]
    # Widened to 16 units, no epochs: the new units add nothing yet, so the
    # script's outputs on its check positions are the 8-unit network's.
    wide = tmp_path / "wide.hpp"
    r = run("--positions", positions, "--rules", "gardner", "--hidden", "16", "--epochs", "0",
            "--init", str(first), "--out", str(wide))
    assert r.returncode == 0, r.stderr
    assert "inline constexpr Net<16> kNet<Gardner> = {" in wide.read_text()
    assert len(check_outputs(first.read_text())) == len(train_net.check_fens("gardner"))
    assert check_outputs(wide.read_text()) == pytest.approx(check_outputs(first.read_text()),
                                                            abs=1e-5)
    assert train_net.read_block(wide.read_text(), "gardner", 16)[1] == 16
    # A block with more units than --hidden, or none for the rule set: one line, status 2.
    r = run("--positions", positions, "--rules", "gardner", "--hidden", "4", "--init", str(first))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "8 units" in r.stderr, r.stderr
    r = run("--positions", positions, "--rules", "minichess-comp472", "--hidden", "8",
            "--init", str(first))
    assert r.returncode == 2 and "no block for minichess-comp472" in r.stderr, r.stderr
    r = run("--positions", positions, "--rules", "gardner", "--init", str(tmp_path / "none.hpp"))
    assert r.returncode == 2 and "cannot read" in r.stderr, r.stderr
    # Another rule set's block as the start (--init-rules): no epochs, and
    # CS3243's new block holds Gardner's weights; Gardner's block is kept.
    both = tmp_path / "both.hpp"
    both.write_text(first.read_text())
    r = run("--positions", positions, "--rules", "gardner-cs3243", "--hidden", "8", "--epochs",
            "0", "--init", str(first), "--init-rules", "gardner", "--out", str(both))
    assert r.returncode == 0, r.stderr
    text = both.read_text()
    assert "--init-rules gardner" in text and net_block(text) == net_block(first.read_text())
    assert (train_net.read_block(text, "gardner-cs3243", 8)
            == train_net.read_block(first.read_text(), "gardner", 8))
    r = run("--positions", positions, "--rules", "gardner-cs3243", "--init-rules", "gardner")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "needs --init" in r.stderr, r.stderr


@needs_torch
def test_bad_input_is_one_line_and_status_2(tmp_path):
    bad = tmp_path / "bad.jsonl"
    for content, needle in [("not json\n", "line 1"),
                            (json.dumps({"fen": "5/5/5/5 w", "result": 1}) + "\n", "line 1"),
                            (json.dumps({"fen": "4k/5/5/5/4K w - - 0 1", "result": 2}) + "\n",
                             "not in [0, 1]"),
                            ("", "no positions")]:
        bad.write_text(content)
        r = run("--positions", str(bad), "--rules", "gardner")
        assert r.returncode == 2, (content, r.stderr)
        assert r.stderr.count("\n") == 1 and needle in r.stderr, (content, r.stderr)
    r = run("--positions", str(tmp_path / "missing.jsonl"), "--rules", "gardner")
    assert r.returncode == 2 and "cannot read" in r.stderr
    r = run("--positions", str(bad), "--rules", "gardner", "--score-weight", "2")
    assert r.returncode == 2 and "--score-weight" in r.stderr


@needs_torch
def test_positions_compressed_with_xz_train_the_same_network(tmp_path):
    positions = positions_file(tmp_path)
    packed = tmp_path / "p.jsonl.xz"
    with open(positions, "rb") as f:
        packed.write_bytes(lzma.compress(f.read()))
    plain, from_xz = tmp_path / "plain.hpp", tmp_path / "xz.hpp"
    for src, out in [(positions, plain), (str(packed), from_xz)]:
        r = run("--positions", src, "--rules", "gardner", "--hidden", "8", "--epochs", "2",
                "--threads", "1", "--out", str(out))
        assert r.returncode == 0, r.stderr
    assert net_block(from_xz.read_text()) == net_block(plain.read_text())
    # A damaged archive: one line, status 2, no traceback.
    data = packed.read_bytes()
    packed.write_bytes(data[:len(data) // 2] + bytes(64))
    r = run("--positions", str(packed), "--rules", "gardner", "--hidden", "8", "--epochs", "1")
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "cannot read" in r.stderr, r.stderr


@pytest.mark.skipif(HAVE_TORCH, reason="python3-torch is installed")
def test_without_torch_it_says_what_is_missing(tmp_path):
    r = run("--positions", str(tmp_path / "p.jsonl"), "--rules", "gardner")
    assert r.returncode == 2 and "python3-torch" in r.stderr


@needs_torch
def test_checkers_training_writes_its_own_header(tmp_path):
    records, positions = tmp_path / "g.jsonl", tmp_path / "p.jsonl"
    subprocess.run([duel_bin(), "arena", "checkers", "--agent", "engine:depth=2", "--agent",
                    "engine:depth=2,eval=tuned", "--games", "4", "--openings", "random:plies=4",
                    "--seed", "3", "--records", str(records), "--json"],
                   check=True, capture_output=True, timeout=300)
    subprocess.run([duel_bin(), "tune", "checkers", "--records", str(records), "--iterations", "0",
                    "--validation", "2", "--positions-out", str(positions), "--json"],
                   check=True, capture_output=True, timeout=300)
    header = tmp_path / "n1.hpp"
    r = run("--positions", str(positions), "--rules", "checkers", "--hidden", "8", "--epochs", "1",
            "--k", "0.0075", "--out", str(header))
    assert r.returncode == 0, r.stderr
    text = header.read_text()
    assert '#include "duel/games/checkers/net_eval.hpp"' in text
    assert "namespace duel::games::checkers::n1 {" in text
    assert "inline constexpr Net<8> kNet<State> = {" in text
    assert text.count('{"') == len(train_net.check_fens("checkers"))
    # A chess block cannot start a checkers network.
    r = run("--positions", str(positions), "--rules", "checkers", "--init", str(header),
            "--init-rules", "gardner")
    assert r.returncode == 2 and "another game's board" in r.stderr, r.stderr


@needs_torch
def test_few_pieces_keeps_that_share_of_the_fitted_endings_and_every_held_out_one(tmp_path):
    # 6 pieces (an ending the 6-piece tables answer) and 24 (the start).
    ending = "B:W21,22,23:B1,2,3"
    start = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    rows = ([{"fen": ending, "result": 0.5, "held_out": False}] * 400 +
            [{"fen": ending, "result": 0.5, "held_out": True}] * 10 +
            [{"fen": start, "result": 0.5, "held_out": False}] * 100)
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))

    def counts(few, share):
        stm, _, _, _, _, held = train_net.load([str(path)], "checkers", 0.5, 0.0075, few, share)
        pieces = (stm != train_net.inputs_of("checkers")).sum(axis=1)  # every piece, as seen
        return (int(((pieces == 6) & ~held).sum()), int(((pieces == 6) & held).sum()),
                int((pieces == 24).sum()))

    assert counts(0, 0.0) == (400, 10, 100)  # off: every position
    assert counts(6, 1.0) == (400, 10, 100)
    assert counts(5, 0.0) == (400, 10, 100)  # 6 pieces is more than 5
    assert counts(6, 0.0) == (0, 10, 100)
    kept, held, full = counts(6, 0.25)
    assert (held, full) == (10, 100) and 60 <= kept <= 140  # 100 expected, binomial sd 8.7
    r = run("--positions", str(path), "--rules", "checkers", "--few-share", "1.5")
    assert r.returncode == 2 and "--few-share" in r.stderr
