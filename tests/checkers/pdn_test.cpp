// PDN export and import of whole checkers games: round trips over seeded
// random games to the end, move numbering from either side, and errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "duel/core/rng.hpp"
#include "duel/games/checkers/pdn.hpp"

namespace duel::games::checkers {
namespace {

TEST(Pdn, WritesTagsMovesAndResult) {
  State s;
  std::vector<std::string> moves;
  for (const auto* text : {"11-15", "23-19", "8-11", "22-17", "4-8", "17-13", "15-18", "24-20"}) {
    const auto m = s.parse_move(text);
    ASSERT_TRUE(m.ok()) << m.error();
    moves.push_back(s.move_text(*m));
    s = s.result(*m);
  }
  const std::string pdn =
      pdn_text(State(), moves, "*", {{"Event", "Old \"Fourteenth\""}, {"Black", "engine"}});
  EXPECT_EQ(pdn,
            "[Event \"Old \\\"Fourteenth\\\"\"]\n[Black \"engine\"]\n[GameType \"21\"]\n"
            "[Result \"*\"]\n"
            "1. 11-15 23-19 2. 8-11 22-17 3. 4-8 17-13 4. 15-18 24-20 *\n");
}

TEST(Pdn, RandomGamesRoundTrip) {
  Rng rng(7);
  for (int game = 0; game < 30; ++game) {
    State s;
    std::vector<std::string> texts;
    std::vector<Move> played;
    while (!s.is_terminal()) {
      Moves moves;
      s.actions(moves);
      const Move m = moves[rng.below(moves.size())];
      texts.push_back(s.move_text(m));
      played.push_back(m);
      s = s.result(m);
    }
    const std::string result(pdn_result(static_cast<int>(s.utility())));
    const std::string pdn = pdn_text(State(), texts, result, {{"Event", "random"}});
    for (std::size_t at = 0, next = 0; at < pdn.size(); at = next + 1) {
      next = pdn.find('\n', at);
      EXPECT_LT(next - at, 80U) << "PDN lines stay under 80 characters";
    }
    const auto back = parse_pdn(pdn);
    ASSERT_TRUE(back.ok()) << back.error() << "\n" << pdn;
    ASSERT_EQ(back->moves.size(), played.size());
    for (std::size_t i = 0; i < played.size(); ++i) EXPECT_TRUE(back->moves[i] == played[i]) << i;
    EXPECT_EQ(back->result, result);
    EXPECT_EQ(back->tags.front(), (std::pair<std::string, std::string>{"Event", "random"}));
  }
}

TEST(Pdn, StartsFromAPositionWithWhiteToMove) {
  const auto start = State::parse("W:WK5,18,26:B1,K14");
  ASSERT_TRUE(start.ok()) << start.error();
  Moves moves;
  start->actions(moves);
  const State next = start->result(moves[0]);
  Moves replies;
  next.actions(replies);
  const std::vector<std::string> texts = {start->move_text(moves[0]), next.move_text(replies[0])};
  const std::string pdn = pdn_text(*start, texts, "*");
  EXPECT_NE(pdn.find("[SetUp \"1\"]\n[FEN \"W:WK5,18,26:B1,K14\"]\n"), std::string::npos) << pdn;
  EXPECT_NE(pdn.find("1... " + texts[0] + " 2. " + texts[1] + " *"), std::string::npos) << pdn;
  const auto back = parse_pdn(pdn);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back->start.to_text(), start->to_text());
  EXPECT_EQ(back->moves.size(), 2U);
}

TEST(Pdn, ReadsCommentsGluedNumbersAndShortJumps) {
  // Comments anywhere, `1.11-15` glued, a jump given by its ends only.
  const auto g =
      parse_pdn("[Event \"x\"]\n1.11-15 {a comment} 24-20 2. 15-19 23x16 {forced} 3. 12x19 1-0");
  ASSERT_TRUE(g.ok()) << g.error();
  EXPECT_EQ(g->moves.size(), 5U);
  EXPECT_EQ(g->result, "1-0");
}

TEST(Pdn, NamesTheBadMove) {
  const struct {
    std::string text;
    std::string says;
  } cases[] = {
      {"1. 11-15 22-17 2. 15-18 17-14",
       "PDN: move 4 ('17-14'): move '17-14': a capture is compulsory"},
      {"1. 11-17 *", "PDN: move 1 ('11-17')"},
      {"[Event \"x\" 1. 11-15", "never closed"},
      {"[Event] 1. 11-15", "not like [Key \"value\"]"},
      {"{ 1. 11-15", "never closed"},
      {"[FEN \"B:W33:B1\"] 1. 1-5", "PDN: [FEN]"},
  };
  for (const auto& c : cases) {
    const auto g = parse_pdn(c.text);
    ASSERT_FALSE(g.ok()) << c.text;
    EXPECT_NE(g.error().find(c.says), std::string::npos) << g.error();
  }
}

TEST(Pdn, ReadsEveryGameOfAFile) {
  // Three games as `duel arena --pdnout` appends them (tags, moves, result,
  // a blank line), the third without tags or a result token but cut off by
  // no tag either: it runs to the end of the text. A `[` and a result token
  // inside a comment cut nothing.
  const std::string text =
      "[Event \"a\"]\n[GameType \"21\"]\n1. 11-15 23-19 {not [a tag] nor 1-0} 1-0\n\n"
      "[Event \"b\"]\n1. 9-13 *\n\n"
      "1. 10-14 22-18\n";
  const auto games = parse_pdn_games(text);
  ASSERT_TRUE(games.ok()) << games.error();
  ASSERT_EQ(games->size(), 3U);
  EXPECT_EQ((*games)[0].tags.front().second, "a");
  EXPECT_EQ((*games)[0].moves.size(), 2U);
  EXPECT_EQ((*games)[0].result, "1-0");
  EXPECT_EQ((*games)[1].tags.front().second, "b");
  EXPECT_EQ((*games)[1].moves.size(), 1U);
  EXPECT_EQ((*games)[1].result, "*");
  EXPECT_TRUE((*games)[2].tags.empty());
  EXPECT_EQ((*games)[2].moves.size(), 2U);
}

TEST(Pdn, CutsAGameWithoutAResultAtTheNextTags) {
  const auto games = parse_pdn_games("[Round \"1\"]\n1. 11-15\n[Round \"2\"]\n1. 9-13 0-1\n");
  ASSERT_TRUE(games.ok()) << games.error();
  ASSERT_EQ(games->size(), 2U);
  EXPECT_EQ((*games)[0].result, "");  // parse_pdn's "no result token"
  EXPECT_EQ((*games)[1].tags.front().second, "2");
  EXPECT_EQ((*games)[1].result, "0-1");
}

TEST(Pdn, NamesTheGameOfAnError) {
  const auto bad = parse_pdn_games("1. 11-15 1-0\n1. 11-17 *\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().rfind("game 2: PDN: move 1 ('11-17')", 0), 0U) << bad.error();
  const auto none = parse_pdn_games(" \n{only a comment}\n");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error(), "PDN: no game in the text");
}

}  // namespace
}  // namespace duel::games::checkers
