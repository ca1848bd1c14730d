"""One score scale in every front end (docs/engine.md § Scores): `duel
search --json`, Python's SearchResult and the page's search JSON (`duel
serve`) give the same number and text for the same position and search.

The positions are drawn by hand; the expected signs are beyond doubt (a
queen or two men up), and the proven mate is Qe5# (White's queen on e2
covers rank 5, the king on b3 covers a4 and b4), as in
tests/serve/notation_test.cpp.
"""
import json
import re
import subprocess
import time
import urllib.request

import pytest

import duel

from conftest import duel_bin

CASES = [
    # game, position, depth, what the score must be
    ("gardner", "k4/5/5/5/1Q2K b - - 0 1", 4, "estimate"),
    ("checkers", "B:W23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12", 4, "estimate"),
    ("gardner", "k4/5/1K3/4Q/5 w - - 0 1", 3, "proven"),
]


def cli_score(game: str, position: str, depth: int) -> dict:
    out = subprocess.run(
        [duel_bin(), "search", game, "--fen", position, "--depth", str(depth), "--json"],
        check=True, capture_output=True, text=True, timeout=120)
    return json.loads(out.stdout)["score"]


def python_score(game: str, position: str, depth: int) -> duel.SearchResult:
    state = duel.load(game).from_text(position)
    return duel.search(state, depth=depth)


@pytest.fixture(scope="module")
def server():
    proc = subprocess.Popen([duel_bin(), "serve", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    try:
        line = proc.stdout.readline()
        m = re.match(r"duel serve: listening on (http://\S+?)/?$", line.strip())
        assert m, f"no listening line: {line!r}"
        yield m.group(1)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def call(base: str, method: str, path: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def page_score(base: str, game: str, position: str, depth: int) -> dict:
    gid = call(base, "POST", "/api/games", {"game": game, "position": position})["id"]
    call(base, "POST", f"/api/games/{gid}/agent", {"agent": f"engine:depth={depth}"})
    until = time.monotonic() + 120
    while time.monotonic() < until:
        s = call(base, "GET", f"/api/games/{gid}/search")
        if not s["thinking"]:
            return s["info"]
        time.sleep(0.02)
    raise AssertionError("the page's search did not finish in 120 s")


@pytest.mark.parametrize("game,position,depth,kind", CASES)
def test_the_same_score_in_the_cli_python_and_the_page(server, game, position, depth, kind):
    cli = cli_score(game, position, depth)
    py = python_score(game, position, depth)
    page = page_score(server, game, position, depth)
    assert page["score"] == cli
    assert page["score_text"] == cli["text"] == py.value_text
    assert py.score == cli["eval"]
    assert py.wins_in == cli["wins_in"]
    assert py.score_unit == cli["unit"] == page["unit"]
    assert py.to_dict()["score"] == cli
    if kind == "estimate":
        assert cli["eval"] > 1.0, cli  # the first player is two men or a queen up
        assert cli["text"] == f"+{cli['eval']:.2f}"
    else:
        assert cli["text"] == "White mates in 1" and cli["wins_in"] == 1
