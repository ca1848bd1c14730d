"""duel.pgn: PGN and PDN records read and written through the C++ parsers
and writers, on the committed game files and on games played here."""

import io
import re

import pytest

import duel
import duel.pgn
from conftest import ROOT, cli

PGN_FILE = ROOT / "docs/experiments/strength/gardner-vs-fairy-stockfish.pgn"
PDN_FILE = ROOT / "docs/experiments/strength/checkers-vs-rapid-draughts.pdn"
REFEREE_FILES = sorted((ROOT / "docs/experiments/checkers-games").glob("*.pdn"))
ALL_FILES = [PGN_FILE, PDN_FILE, *REFEREE_FILES]


def same_game(a, b):
    assert [m.text for m in a.moves] == [m.text for m in b.moves]
    assert a.headers == b.headers
    assert a.result == b.result
    assert a.start == b.start


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: p.name)
def test_committed_files_round_trip(path):
    records = list(duel.pgn.read_games(path))
    # The counts are the files' own: one [Event] tag a game.
    assert len(records) == path.read_text().count("[Event ")
    for record in records:
        text = str(record)
        (back,) = duel.pgn.read_games(text)
        same_game(record, back)
        assert str(back) == text  # the writer's text is a fixed point
        assert record.mainline_moves() == record.moves
        # Each file's [Result] is the result token its game ends with.
        assert record.result == record.headers["Result"]


@pytest.mark.parametrize("path", [PDN_FILE, *REFEREE_FILES], ids=lambda p: p.name)
def test_pdn_files_are_the_writers_text(path):
    # `duel arena --pdnout` and `duel referee --pdnout` wrote these with
    # pdn_text, one game and a blank line after each: the same writer gives
    # the file back byte for byte.
    records = list(duel.pgn.read_games(path))
    assert "".join(str(r) + "\n" for r in records) == path.read_text()


def test_pgn_file_is_the_writers_text_without_comments():
    # The PGN file has the engines' scores as comments ({+0.12/7 0.08s}),
    # which records do not keep: without them the words are the same.
    def words(text):
        return re.sub(r"\{[^}]*\}", " ", text).split()

    records = list(duel.pgn.read_games(PGN_FILE))
    assert words("\n".join(str(r) for r in records)) == words(PGN_FILE.read_text())


def test_first_pgn_game_as_its_headers_say():
    with open(PGN_FILE) as f:
        record = duel.pgn.read_game(f)
    # The file's first game: [FEN "rnbqk/pp1pp/5/PPPpP/RNBQK w - - 0 3"],
    # White engine:time=0.1, 0-1, ending "28. Ka4 Qa5#".
    assert record.start.fen == "rnbqk/pp1pp/5/PPPpP/RNBQK w - - 0 3"
    assert record.headers["White"] == "engine:time=0.1"
    assert list(record.headers)[:3] == ["Event", "Site", "Date"]
    assert record.result == "0-1"
    assert record.moves[0].san == "Nxd2" and record.moves[-1].san == "Qa5#"
    assert record.end().end_cause == "checkmate"
    assert record.game.name == "gardner"


def test_read_game_walks_a_stream_game_by_game():
    # rapid-draughts-A.pdn holds 4 games ([Round "1"] .. [Round "4"]).
    with open(REFEREE_FILES[0]) as f:
        rounds = []
        while (record := duel.pgn.read_game(f)) is not None:
            rounds.append(record.headers["Round"])
    assert rounds == ["1", "2", "3", "4"]
    assert record is None


class Pipe(io.StringIO):
    """A stream that cannot seek back, as a pipe."""

    def seekable(self):
        return False


@pytest.mark.parametrize("stream", [io.StringIO, Pipe])
def test_read_game_stops_at_tags_right_after_moves(stream):
    # No blank line between the games (the PDN reader cuts them there too).
    text = '[Round "1"]\n1. 11-15 23-19 *\n[Round "2"]\n1. 9-13 22-18 1-0\n'
    handle = stream(text)
    first = duel.pgn.read_game(handle, game="checkers")
    second = duel.pgn.read_game(handle, game="checkers")
    assert (first.headers["Round"], first.result) == ("1", "*")
    assert (second.headers["Round"], [m.text for m in second.moves]) == ("2", ["9-13", "22-18"])
    assert duel.pgn.read_game(handle) is None


def test_match_result_pgn_is_what_duel_play_writes(tmp_path):
    for spec, flag in [("gardner", "--pgn"), ("checkers", "--pdn")]:
        r = duel.play(spec, "random", "random", seed=3)
        out = tmp_path / f"{spec}.txt"
        done = cli("play", spec, "--white", "random", "--black", "random", "--seed", "3", flag,
                   str(out))
        assert done.returncode == 0, done.stderr
        # The Date tag is the day each was written.
        def undated(text):
            return re.sub(r'\[Date "[^"]*"\]', "", text)

        assert undated(r.pgn()) == undated(out.read_text())
        record = duel.pgn.from_match(r)
        assert [m.text for m in record.moves] == r.moves
        assert record.end() == r.final_state
        assert record.headers["Event"] == "duel play"


def test_match_result_pgn_refuses_games_without_a_format():
    r = duel.play("kcell:n=2,k=7", "random", "random")
    with pytest.raises(ValueError, match=r"^pgn\(\): kcell:n=2,k=7 has no record format"):
        r.pgn()


def test_write_from_moves_and_the_default_result():
    s = duel.load("gardner").initial_state()
    # Two knight moves by hand (b1-c3, b5-a3), in UCI and SAN; the game goes
    # on, so the result is "*" (pgn.hpp: "*" for an unfinished game) and the
    # roster's missing tags are "?" (pgn.hpp's seven-tag roster).
    text = duel.pgn.write(s, ["b1c3", "Na3"], headers={"Event": "t", "White": "me"})
    assert text.startswith('[Event "t"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n'
                           '[White "me"]\n[Black "?"]\n[Result "*"]\n[Variant "gardner"]\n')
    assert text.endswith("\n1. Nc3 Na3 *\n")
    # A finished game's result comes from its end's utility: the first game
    # of the committed PDN file ends with White to move and no move, 1-0 as
    # its [Result] says.
    record = next(duel.pgn.read_games(PDN_FILE))
    assert duel.pgn.write(record.start, record.moves, headers=record.headers) == str(record)


def test_bad_text_raises_the_parsers_message():
    with pytest.raises(ValueError) as e:
        list(duel.pgn.read_games("1. Nc4 *"))
    # pgn.cpp's replay: "game N, ply P: " and san.cpp's reason.
    assert str(e.value).startswith("game 1, ply 1: Nc4 is not legal here")
    with pytest.raises(ValueError, match=r"^game 1: PDN: move 1 \('11-17'\)"):
        duel.pgn.read_games("1. 11-17 *", game="checkers")
    with pytest.raises(ValueError, match=r"^game 2: \[Variant \"chess\"\] is not a 5x5 rule set"):
        duel.pgn.read_games('1. e3 *\n\n[Variant "chess"]\n1. e4 *\n')
    with pytest.raises(ValueError, match=r"^PDN: \[GameType\] is not 21"):
        duel.pgn.read_games('[GameType "20"]\n1. 32-28 *\n')
    with pytest.raises(ValueError, match=r"^read: nqueens has no record format"):
        duel.pgn.read_games("1. e3 *", game="nqueens")
    s = duel.load("checkers").initial_state()
    with pytest.raises(ValueError, match=r"^write\(\): move 2: "):
        duel.pgn.write(s, ["11-15", "11-15"])
    with pytest.raises(ValueError, match=r"^write\(\): result='2-1' is not"):
        duel.pgn.write(s, [], result="2-1")
    with pytest.raises(ValueError, match=r"^write\(\): kcell has no record format"):
        duel.pgn.write(duel.load("kcell").initial_state(), [])


def test_rule_sets_and_limits_from_the_game_argument():
    # Without [Variant], the game= argument's rule set: COMP 472's start
    # (RULES.md §2: "kqbn1/2pp1/5/1PP2/1NBQK w - - 0 1").
    (record,) = duel.pgn.read_games("1. c3 *", game="minichess-comp472")
    assert record.start.fen == "kqbn1/2pp1/5/1PP2/1NBQK w - - 0 1"
    assert str(record).count('[Variant "comp472"]') == 1
    (again,) = duel.pgn.read_games(str(record))  # [Variant] read back, no game=
    assert again.start == record.start and again.moves == record.moves
    assert again.headers["Variant"] == "comp472" and record.headers == {}
    # A checkers record read with another draw limit keeps it.
    (pdn,) = duel.pgn.read_games("1. 11-15 *", game="checkers:draw-plies=80")
    assert pdn.game == duel.load("checkers:draw-plies=80")
