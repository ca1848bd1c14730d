// Every way each game ends names its cause, and a match's reason carries it
// ("White wins: checkmate", "draw: 50-move rule"), on constructed positions.
// The rules each case follows are cited from RULES.md beside it.
#include <gtest/gtest.h>

#include <array>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include "duel/agents/agent.hpp"
#include "duel/play/match.hpp"
#include "duel/registry/agents.hpp"
#include "duel/registry/any_game.hpp"

namespace duel {
namespace {

struct Case {
  const char* spec;
  const char* text;  // "" = the start position
  std::vector<const char*> moves;
  const char* cause;
  const char* reason;
};

// The name ctest lists the case by, rather than its bytes.
void PrintTo(const Case& c, std::ostream* os) {
  *os << c.spec << ": " << c.cause;
}

// The state `c` describes, after its moves.
registry::AnyGame reach(const Case& c) {
  auto g = registry::make_game(c.spec);
  EXPECT_TRUE(g.ok()) << c.spec;
  return std::visit(
      [&](const auto& start) {
        auto s = start;
        if (std::string(c.text).empty() == false) {
          auto parsed = start.from_text(c.text);
          EXPECT_TRUE(parsed.ok()) << c.text << ": " << parsed.error();
          s = *parsed;
        }
        for (const char* m : c.moves) {
          EXPECT_FALSE(s.is_terminal()) << m;
          auto mv = registry::legal_move(s, m);
          EXPECT_TRUE(mv.ok()) << m << ": " << mv.error();
          s = s.result(*mv);
        }
        return registry::AnyGame(s);
      },
      *g);
}

class EndCause : public testing::TestWithParam<Case> {};

TEST_P(EndCause, NamesTheRuleThatEndedTheGame) {
  const Case& c = GetParam();
  const auto end = reach(c);
  std::visit(
      [&](const auto& s) {
        ASSERT_TRUE(s.is_terminal()) << s.to_text();
        EXPECT_EQ(s.end_cause(), c.cause);
        EXPECT_EQ(play::rules_reason(s), c.reason);
        EXPECT_NE(s.render().find(c.cause), std::string::npos) << s.render();
      },
      end);
}

INSTANTIATE_TEST_SUITE_P(
    Games, EndCause,
    testing::Values(
        // RULES.md §1a: "Checkmate wins; stalemate is a draw"; "50-move rule".
        Case{"gardner", "k4/1Q3/1K3/5/5 b - - 0 1", {}, "checkmate", "White wins: checkmate"},
        Case{"gardner", "k4/2Q2/1K3/5/5 b - - 0 1", {}, "stalemate", "draw: stalemate"},
        Case{"gardner", "k4/5/5/5/4K w - - 99 1", {"e1d1"}, "50-move rule", "draw: 50-move rule"},
        Case{"gardner:draw-plies=9",
             "k4/5/5/5/4K w - - 8 1",
             {"e1d1"},
             "9 plies without a capture or pawn move",
             "draw: 9 plies without a capture or pawn move"},
        Case{"gardner",
             "k4/5/5/5/4K w - - 0 1",
             {"e1d1", "a5b5", "d1e1", "b5a5", "e1d1", "a5b5", "d1e1", "b5a5"},
             "threefold repetition",
             "draw: threefold repetition"},
        // RULES.md §1b: no safe move loses; a move leaving the king attacked
        // loses; 50 plies with no change in the number of pieces draw.
        Case{"gardner-cs3243",
             "k4/1Q3/1K3/5/5 b - - 0 1",
             {},
             "Black has no move that keeps its king safe",
             "White wins: Black has no move that keeps its king safe"},
        Case{"gardner-cs3243",
             "k4/5/2q2/5/K4 w - - 0 1",
             {"a1b2"},
             "White left its own king attacked",
             "Black wins: White left its own king attacked"},
        Case{"gardner-cs3243",
             "k4/5/5/5/4K w - - 49 1",
             {"e1d1"},
             "50 plies without a capture",
             "draw: 50 plies without a capture"},
        // RULES.md §2: capturing the king wins; 10 turns with no capture and
        // turn m complete draw, checked when White is to move.
        Case{"minichess-comp472",
             "k4/Q4/5/5/4K w - - 0 1",
             {"a4a5"},
             "Black's king captured",
             "White wins: Black's king captured"},
        Case{"minichess-comp472",
             "k4/5/5/5/4K w - - 19 1",
             {"e1d1", "a5b5"},
             "10 turns without a capture",
             "draw: 10 turns without a capture"},
        Case{"minichess-comp472:max-turns=3",
             "k4/5/5/5/4K w - - 0 3",
             {"e1d1", "a5b5"},
             "the maximum of 3 turns",
             "draw: the maximum of 3 turns"},
        // RULES.md §5: a side with no move loses; the draw clock draws.
        Case{"checkers", "W:W:B1", {}, "White has no move", "Black wins: White has no move"},
        Case{"checkers",
             "B:W32:B1 49",
             {"1-5"},
             "50 plies without a capture or crowning",
             "draw: 50 plies without a capture or crowning"},
        // RULES.md §3: the player with no square left loses.
        Case{"nqueens:n=2",
             "",
             {"1,1"},
             "Player 2 has no square for a queen",
             "Player 1 wins: Player 2 has no square for a queen"},
        Case{"nqueens:n=2,variant=1b",
             "",
             {"1,1"},
             "Player 2 has no square; 1 queen placed",
             "Player 1 wins: Player 2 has no square; 1 queen placed"},
        // RULES.md §4: a side with all its pieces on the far cells wins.
        Case{"kcell:n=1,k=3",
             "",
             {"1", "3"},
             "all x's pieces on the far cells",
             "Player 2 wins: all x's pieces on the far cells"}));

// A match through the referee reports the same reason as the final state.
TEST(EndCause, MatchReasonCarriesTheCause) {
  auto g = registry::make_game("gardner");
  ASSERT_TRUE(g.ok());
  const auto& start = std::get<games::minichess::GardnerState>(*g);
  const auto mate_in_one = start.from_text("k4/5/1QK2/5/5 w - - 0 1");
  ASSERT_TRUE(mate_in_one.ok());
  auto white = registry::make_agent<games::minichess::GardnerState>("engine:depth=3");
  auto black = registry::make_agent<games::minichess::GardnerState>("engine:depth=3");
  ASSERT_TRUE(white.ok() && black.ok());
  const auto rec = play::play_match(*mate_in_one, {white->get(), black->get()}, {});
  EXPECT_EQ(rec.ending, play::Ending::Rules);
  EXPECT_EQ(rec.reason, "White wins: checkmate");
  EXPECT_EQ(rec.moves.size(), 1U);
}

}  // namespace
}  // namespace duel
