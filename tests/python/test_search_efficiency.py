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
