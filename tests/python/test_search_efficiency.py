"""scripts/search-efficiency.py: the table of docs/STRENGTH.md, "Search
efficiency", built from `duel search --json`. Its shares must be the ones
the JSON gives, for each build compared, and bad input is one line on
stderr and exit status 2."""

import subprocess
import sys

from conftest import ROOT, cli_json, duel_bin

SCRIPT = ROOT / "scripts" / "search-efficiency.py"


def run(*args: str, duels: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    named = [a for d in (duels or (duel_bin(),)) for a in ("--duel", d)]
    return subprocess.run([sys.executable, str(SCRIPT), *named, *args],
                          capture_output=True, text=True, timeout=600)


def test_rows_are_the_searches_shares():
    r = run()
    assert r.returncode == 0, r.stderr
    rows = [line.split("|")[1:-1] for line in r.stdout.splitlines()[2:]]
    assert len(rows) == 8
    game, position, depth, nodes, share, at_one, table, rest, _ebf = (c.strip() for c in rows[0])
    assert (game, position, depth) == ("gardner", "start", "9")
    want = cli_json("search", "gardner", "--depth", "9")
    assert int(nodes) == want["nodes"]
    assert share == f"{100 * want['first_move_cutoffs'] / want['cutoffs']:.1f}%"
    by_depth = want["cutoffs_by_depth_left"]
    assert at_one == f"{100 * want['first_move_cutoffs_by_depth_left'][1] / by_depth[1]:.1f}%"
    assert sum(by_depth) == want["cutoffs"]
    assert table == f"{100 * want['table_move_first_cutoffs'] / want['table_move_cutoffs']:.1f}%"
    rest_all = want["cutoffs"] - want["table_move_cutoffs"]
    rest_first = want["first_move_cutoffs"] - want["table_move_first_cutoffs"]
    assert rest == f"{100 * rest_first / rest_all:.1f}%"


def test_a_missing_binary_is_one_line_and_status_2(tmp_path):
    r = run(duels=(str(tmp_path / "no-duel"),))
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1, r.stderr
    assert "cannot run" in r.stderr


def test_positions_rows_sum_the_searches_and_compare_nodes(tmp_path):
    # Two positions (one the start), a comment and a blank line; a row for
    # each of two builds (here the same binary twice, so the same trees).
    start = "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1"
    other = "r1bqk/1p1p1/pPnp1/P1P1P/RNB1K w - - 0 6"
    f = tmp_path / "positions.txt"
    f.write_text(f"# two positions\n{start}\n\n{other}\n")
    r = run("--positions", str(f), "--game", "gardner", "--depth", "6",
            duels=(duel_bin(), duel_bin()))
    assert r.returncode == 0, r.stderr
    rows = [line.split("|")[1:-1] for line in r.stdout.splitlines() if line.startswith("| ")]
    assert [row[0].strip() for row in rows] == ["duel", duel_bin(), duel_bin()]
    want = [cli_json("search", "gardner", "--state", s, "--depth", "6") for s in (start, other)]
    for row in rows[1:]:
        _name, nodes, _secs, share, _at_one, _table, _rest, ratio = (c.strip() for c in row)
        assert int(nodes.replace(",", "")) == sum(w["nodes"] for w in want)
        cut = sum(w["cutoffs"] for w in want)
        first = sum(w["first_move_cutoffs"] for w in want)
        assert share == f"{100 * first / cut:.1f}%"
        assert ratio == "1.000"


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
    twice = run(duels=(duel_bin(), duel_bin()))
    assert twice.returncode == 2 and "needs --positions" in twice.stderr
