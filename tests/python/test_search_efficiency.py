"""scripts/search-efficiency.py: the table of docs/STRENGTH.md, "Search
efficiency", built from `duel search --json`. Its shares must be the ones
the JSON gives, whatever the switches, and a bad switch is one line on
stderr and exit status 2."""

import subprocess
import sys

from conftest import ROOT, cli_json, duel_bin

SCRIPT = ROOT / "scripts" / "search-efficiency.py"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), "--duel", duel_bin(), *args],
                          capture_output=True, text=True, timeout=600)


def test_rows_are_the_searches_shares():
    r = run("--set", "chist=1")
    assert r.returncode == 0, r.stderr
    rows = [line.split("|")[1:-1] for line in r.stdout.splitlines()[2:]]
    assert len(rows) == 8
    game, position, depth, nodes, share, at_one, table, rest, _ebf = (c.strip() for c in rows[0])
    assert (game, position, depth) == ("gardner", "start", "9")
    want = cli_json("search", "gardner", "--depth", "9", "--set", "chist=1")
    assert int(nodes) == want["nodes"]
    assert share == f"{100 * want['first_move_cutoffs'] / want['cutoffs']:.1f}%"
    by_depth = want["cutoffs_by_depth_left"]
    assert at_one == f"{100 * want['first_move_cutoffs_by_depth_left'][1] / by_depth[1]:.1f}%"
    assert sum(by_depth) == want["cutoffs"]
    assert table == f"{100 * want['table_move_first_cutoffs'] / want['table_move_cutoffs']:.1f}%"
    rest_all = want["cutoffs"] - want["table_move_cutoffs"]
    rest_first = want["first_move_cutoffs"] - want["table_move_first_cutoffs"]
    assert rest == f"{100 * rest_first / rest_all:.1f}%"


def test_a_bad_switch_is_one_line_and_status_2():
    r = run("--set", "bogus=1")
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1, r.stderr
    assert "unknown option 'bogus'" in r.stderr


def test_positions_rows_sum_the_searches_and_compare_nodes(tmp_path):
    # Two positions (one the start), a comment and a blank line; two rows.
    start = "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1"
    other = "r1bqk/1p1p1/pPnp1/P1P1P/RNB1K w - - 0 6"
    f = tmp_path / "positions.txt"
    f.write_text(f"# two positions\n{start}\n\n{other}\n")
    r = run("--positions", str(f), "--game", "gardner", "--depth", "6",
            "--set", "-", "--set", "osee=1")
    assert r.returncode == 0, r.stderr
    rows = [line.split("|")[1:-1] for line in r.stdout.splitlines() if line.startswith("| ")]
    assert [row[0].strip() for row in rows] == ["switches", "-", "osee=1"]
    wants = {}
    for switches in ("", "osee=1"):
        extra = ("--set", switches) if switches else ()
        wants[switches] = [cli_json("search", "gardner", "--state", s, "--depth", "6", *extra)
                           for s in (start, other)]
    for row, switches in zip(rows[1:], ("", "osee=1")):
        _name, nodes, _secs, share, _at_one, _table, _rest, ratio = (c.strip() for c in row)
        want = wants[switches]
        assert int(nodes.replace(",", "")) == sum(w["nodes"] for w in want)
        cut = sum(w["cutoffs"] for w in want)
        first = sum(w["first_move_cutoffs"] for w in want)
        assert share == f"{100 * first / cut:.1f}%"
        geo = 1.0
        for w, b in zip(want, wants[""]):
            geo *= w["nodes"] / b["nodes"]
        assert ratio == f"{geo ** 0.5:.3f}"
    assert rows[1][-1].strip() == "1.000"


def test_positions_bad_input_is_one_line_and_status_2(tmp_path):
    missing = run("--positions", str(tmp_path / "none.txt"))
    assert missing.returncode == 2
    assert missing.stderr.count("\n") == 1 and "cannot read" in missing.stderr
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    r = run("--positions", str(empty))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "no positions" in r.stderr
    bad = tmp_path / "bad.txt"
    bad.write_text("not a position\n")
    r = run("--positions", str(bad), "--depth", "3")
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    twice = run("--set", "-", "--set", "osee=1")
    assert twice.returncode == 2 and "needs --positions" in twice.stderr
