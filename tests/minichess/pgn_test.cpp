// PGN for the three 5x5 rule sets (pgn.hpp, play/pgn_record.hpp). Expected
// texts are written by hand from the PGN standard's export format (§8: the
// seven-tag roster in order with "?" and "????.??.??" for unknown values,
// §9.7 SetUp/FEN, movetext `1. e4 e5`, `N...` before a first move by Black,
// the result token last) and the SAN rules (§8.2.3); the Variant names are
// Fairy-Stockfish's (tests/data/fairy-stockfish/variants.ini); the
// `{+0.50/7 0.10s}` comments follow cutechess-cli's layout (pgn_record.hpp).
// Then round trips over seeded random games, the reader's features and its
// errors, and `duel play --pgn`.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../support/cli_run.hpp"
#include "duel/core/rng.hpp"
#include "duel/games/minichess/pgn.hpp"
#include "duel/games/minichess/san.hpp"
#include "duel/play/pgn_record.hpp"

namespace duel::games::minichess {
namespace {

template <class S>
std::vector<Move> uci_moves(S s, const std::vector<std::string>& texts) {
  std::vector<Move> out;
  for (const auto& t : texts) {
    const auto m = s.parse_move(t);
    EXPECT_TRUE(m.ok()) << t;
    if (!m) break;
    out.push_back(*m);
    s = s.result(*m);
  }
  return out;
}

std::string error_of(std::string_view text, const PgnReadOptions& options = {}) {
  const auto games = parse_pgn(text, options);
  return games ? "no error" : games.error();
}

TEST(MinichessPgn, WriterFromTheStart) {
  // 1. a2a3 b4xa3 2. b2xa3 Nb5-c3 3. d2xc3 from rnbqk/ppppp/5/PPPPP/RNBQK.
  const GardnerState start;
  const auto moves = uci_moves(start, {"a2a3", "b4a3", "b2a3", "b5c3", "d2c3"});
  EXPECT_EQ(pgn_text(start, moves, "*"),
            "[Event \"?\"]\n"
            "[Site \"?\"]\n"
            "[Date \"????.??.??\"]\n"
            "[Round \"?\"]\n"
            "[White \"?\"]\n"
            "[Black \"?\"]\n"
            "[Result \"*\"]\n"
            "[Variant \"gardner\"]\n"
            "\n"
            "1. a3 bxa3 2. bxa3 Nc3 3. dxc3 *\n");
}

TEST(MinichessPgn, WriterFromAFenWithBlackToMove) {
  // Black's king steps to b4, where the rook on e4 checks it along rank 4.
  const auto start = *GardnerState::from_fen("k4/5/5/5/K3R b - - 0 7");
  const auto moves = uci_moves(start, {"a5b4", "e1e4"});
  EXPECT_EQ(pgn_text(start, moves, "*",
                     {{"Termination", "unterminated"},
                      {"White", "Alice \"A\""},
                      {"Result", "ignored"},
                      {"Event", "test"}}),
            "[Event \"test\"]\n"
            "[Site \"?\"]\n"
            "[Date \"????.??.??\"]\n"
            "[Round \"?\"]\n"
            "[White \"Alice \\\"A\\\"\"]\n"
            "[Black \"?\"]\n"
            "[Result \"*\"]\n"
            "[Variant \"gardner\"]\n"
            "[SetUp \"1\"]\n"
            "[FEN \"k4/5/5/5/K3R b - - 0 7\"]\n"
            "[Termination \"unterminated\"]\n"
            "\n"
            "7... Kb4 8. Re4+ *\n");
}

TEST(MinichessPgn, LongCommentsWrapByWords) {
  // A comment longer than a line is split between words (PGN §5 lets a
  // comment span lines); `{` and `}` inside it are dropped.
  const GardnerState start;
  const std::string reason(30, 'x');
  const std::string text = pgn_text(start, uci_moves(start, {"a2a3"}), "*", {},
                                    {{"a {short} note"}, reason + " " + reason + " " + reason});
  // Greedy filling: "1. a3 {a short note} {x..x" is 52 columns; the next
  // 30 x's would make it 83, so they start line 2.
  EXPECT_NE(text.find("\n1. a3 {a short note} {" + reason + "\n" + reason + " " + reason + "} *\n"),
            std::string::npos)
      << text;
  const auto back = parse_pgn(text);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(std::get<PgnGame<Gardner>>(back->front()).moves.size(), 1U);
}

TEST(MinichessPgn, VariantNames) {
  EXPECT_EQ(pgn_variant<Gardner>(), "gardner");
  EXPECT_EQ(pgn_variant<Cs3243>(), "cs3243");
  EXPECT_EQ(pgn_variant<Comp472>(), "comp472");
  EXPECT_NE(pgn_text(Comp472State(), {}, "*").find("[Variant \"comp472\"]\n\n*\n"),
            std::string::npos);
}

TEST(MinichessPgn, ReaderFeatures) {
  constexpr std::string_view kText =
      "% an escaped line, ignored\n"
      "[Event \"one\"]\n"
      "[Variant \"Gardner\"]\n"
      "\n"
      "1. a3 {a comment ) with a paren} bxa3 $1 2.bxa3 (2. Nxa3 (2. Nc3) Nc3) 2... Nc3!?\n"
      "; a comment to the end of the line 3. e3\n"
      "3. dxc3 1/2-1/2\n"
      "\n"
      "[Event \"two\"]\n"
      "[Variant \"gardner-cs3243\"]\n"
      "[SetUp \"1\"]\n"
      "[FEN \"k4/5/K4/5/4R w - - 0 1\"]\n"
      "1. Rb1# 1-0\n"
      "[Event \"three\"]\n"
      "1. b3 *\n"
      "[Event \"four\"]\n"
      "1. Nc3\n";
  const auto games = parse_pgn(kText, {.default_variant = "comp472"});
  ASSERT_TRUE(games.ok()) << games.error();
  ASSERT_EQ(games->size(), 4U);
  const auto& one = std::get<PgnGame<Gardner>>((*games)[0]);
  EXPECT_EQ(one.tags, (PgnTags{{"Event", "one"}, {"Variant", "Gardner"}}));
  EXPECT_EQ(one.moves, uci_moves(GardnerState(), {"a2a3", "b4a3", "b2a3", "b5c3", "d2c3"}));
  EXPECT_EQ(one.result, "1/2-1/2");
  const auto& two = std::get<PgnGame<Cs3243>>((*games)[1]);
  EXPECT_EQ(two.final_state().ending(), Ending::NoSafeMove);
  EXPECT_EQ(two.result, "1-0");
  // No [Variant]: the default; no result token: "*".
  const auto& three = std::get<PgnGame<Comp472>>((*games)[2]);
  EXPECT_EQ(three.moves, uci_moves(Comp472State(), {"b2b3"}));
  const auto& four = std::get<PgnGame<Comp472>>((*games)[3]);
  EXPECT_EQ(four.moves, uci_moves(Comp472State(), {"b1c3"}));
  EXPECT_EQ(four.result, "*");
}

TEST(MinichessPgn, ReaderErrors) {
  EXPECT_EQ(error_of("1. a3 bxa3 *\n\n[FEN \"4k/5/5/5/N1N1K w - - 0 1\"]\n1. Kd1 Kd5 2. Nb3 *"),
            "game 2, ply 3: Nb3 is ambiguous: a1b3, c1b3");
  EXPECT_EQ(error_of("1. a3 a3 *"),
            "game 1, ply 2: a3 is not legal here: no pawn of yours can move to a3");
  EXPECT_EQ(error_of("1. a3 {oops"), "game 1: a comment '{' is never closed");
  EXPECT_EQ(error_of("1. a3 (1. b3"), "game 1: a variation '(' is never closed");
  EXPECT_EQ(error_of("1. a3 ) b3"), "game 1: ')' without a '(' before it");
  EXPECT_EQ(error_of("1. a3 } b3"), "game 1: '}' without a '{' before it");
  EXPECT_EQ(error_of("[Event one]\n1. a3"),
            "game 1: tag '[Event one]' is not like [Name \"value\"]");
  EXPECT_EQ(error_of("[Variant \"chess\"] 1. e4"),
            "game 1: [Variant \"chess\"] is not a 5x5 rule set: use gardner, cs3243 or comp472");
  EXPECT_EQ(error_of("[FEN \"x\"] *"),
            "game 1: [FEN]: gardner: FEN 'x': expected 2 to 6 fields like "
            "'rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1'");
  EXPECT_EQ(error_of("  \n; nothing\n"), "PGN: no game in the text");
  EXPECT_EQ(error_of("*", {.default_variant = "chess"}),
            "PGN: default [Variant \"chess\"] is not a 5x5 rule set: use gardner, cs3243 or "
            "comp472");
  const auto as = parse_pgn_as<Gardner>("[Variant \"comp472\"] 1. b3 *");
  ASSERT_FALSE(as.ok());
  EXPECT_EQ(as.error(), "game 1: [Variant \"comp472\"] is not gardner");
}

// Seeded random games, from the start and from a position reached with
// Black to move, written and read back: the same moves, the same final
// position, movetext lines within 79 characters.
template <class Rules>
void round_trip(std::uint64_t seed, int games) {
  Rng rng(seed);
  std::string all;
  std::vector<std::string> finals;
  for (int g = 0; g < games; ++g) {
    State<Rules> start;
    const bool from_fen = g % 2 == 1;
    if (from_fen) {
      for (int i = 0; i < 5 && !start.is_terminal(); ++i) {
        Moves moves;
        start.actions(moves);
        start = start.result(moves[rng.below(moves.size())]);
      }
      if (start.is_terminal()) continue;
    }
    State<Rules> s = start;
    std::vector<Move> played;
    while (!s.is_terminal()) {
      Moves moves;
      s.actions(moves);
      played.push_back(moves[rng.below(moves.size())]);
      s = s.result(played.back());
    }
    const std::string result(pgn_result(s.utility()));
    const std::string text = pgn_text(start, played, result, {{"Round", std::to_string(g)}});
    std::size_t line_start = 0;
    while (line_start < text.size()) {
      const auto end = text.find('\n', line_start);
      EXPECT_LE(end - line_start, 79U) << text;
      line_start = end + 1;
    }
    const auto back = parse_pgn_as<Rules>(text);
    ASSERT_TRUE(back.ok()) << back.error() << "\n" << text;
    ASSERT_EQ(back->size(), 1U);
    EXPECT_EQ(back->front().moves, played) << text;
    EXPECT_EQ(back->front().result, result);
    EXPECT_EQ(back->front().start.to_text(), start.to_text());
    EXPECT_EQ(back->front().final_state().to_text(), s.to_text()) << text;
    all += text + "\n";
    finals.push_back(s.to_text());
  }
  // All the games in one text, read by the any-variant reader.
  const auto any = parse_pgn(all);
  ASSERT_TRUE(any.ok()) << any.error();
  ASSERT_EQ(any->size(), finals.size());
  for (std::size_t i = 0; i < finals.size(); ++i) {
    const auto* g = std::get_if<PgnGame<Rules>>(&(*any)[i]);
    ASSERT_NE(g, nullptr);
    EXPECT_EQ(g->final_state().to_text(), finals[i]);
  }
}

TEST(MinichessPgn, RoundTripGardner) {
  round_trip<Gardner>(11, 40);
}
TEST(MinichessPgn, RoundTripCs3243) {
  round_trip<Cs3243>(12, 40);
}
TEST(MinichessPgn, RoundTripComp472) {
  round_trip<Comp472>(13, 40);
}

TEST(MinichessPgn, MatchRecord) {
  // Scores are First's view in the record, the mover's view in the comment:
  // 25 / kE0Scale (50) = +0.50 for White; 17 for White is -0.34 for Black;
  // loss_in(3) for White is Black's win in 3 plies = mate in 2 moves (UCI's
  // count, agents/uci.hpp).
  using S = GardnerState;
  play::MatchRecord<S> rec;
  rec.start = S().to_text();
  const auto moves = uci_moves(S(), {"a2a3", "b4a3", "b2a3", "b5c3"});
  const auto report = [](Value v, int depth) {
    agents::SearchReport r;
    r.value = v;
    r.depth = depth;
    return std::optional<agents::SearchReport>(r);
  };
  rec.moves = {{Player::First, moves[0], "a2a3", 0.1, report(25, 7)},
               {Player::Second, moves[1], "b4a3", 0.02, report(17, 3)},
               {Player::First, moves[2], "b2a3", 1.5, std::nullopt},
               {Player::Second, moves[3], "b5c3", 1.0, report(loss_in(3), 5)}};
  rec.payoff = 0;
  rec.ending = play::Ending::TurnLimit;
  rec.reason = "draw: 2 turns played";
  const std::string text =
      play::pgn_record(rec, S(), {{"Termination", std::string(play::pgn_termination(rec.ending))}});
  EXPECT_NE(
      text.find("[Result \"1/2-1/2\"]\n[Variant \"gardner\"]\n[Termination \"adjudication\"]\n"),
      std::string::npos)
      << text;
  // A comment is wrapped as a whole when it fits on a line.
  EXPECT_NE(text.find("\n1. a3 {+0.50/7 0.10s} bxa3 {-0.34/3 0.02s} 2. bxa3 Nc3 {+M2/5 1.00s}\n"
                      "{draw: 2 turns played} 1/2-1/2\n"),
            std::string::npos)
      << text;
}

TEST(MinichessPgn, PlayCommand) {
  const auto r = test_support::duel(
      "play gardner --white random:seed=1 --black random:seed=2 --pgn game.pgn --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(r.files.count("game.pgn"), 1U);
  const std::string& text = r.files.at("game.pgn");
  EXPECT_NE(text.find("[Event \"duel play\"]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("[White \"random:seed=1\"]\n[Black \"random:seed=2\"]\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("[Termination \"normal\"]\n"), std::string::npos) << text;
  const auto games = parse_pgn_as<Gardner>(text);
  ASSERT_TRUE(games.ok()) << games.error() << "\n" << text;
  ASSERT_EQ(games->size(), 1U);
  EXPECT_TRUE(games->front().final_state().is_terminal()) << text;

  const auto bad = test_support::duel("play checkers --white random --black random --pgn g.pgn");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("--pgn: PGN records the 5x5 chess games"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace duel::games::minichess
