// A person typing COMP 472 moves (seed 004 §2.4.2, RULES.md §2): `B2 B3` in
// any case and spacing is read; every illegal action gets its own clear
// warning and another try with no penalty.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "duel/agents/human.hpp"
#include "duel/games/minichess/minichess.hpp"

namespace duel::agents {
namespace {

using games::minichess::Comp472State;

// Feeds `input` to a HumanAgent at the COMP 472 start; returns what it said
// and the move it finally chose (empty when it gave up).
struct Typed {
  std::string said;
  std::string move;
};
Typed type_in(const std::string& input) {
  const Comp472State start;
  std::istringstream in(input);
  std::ostringstream out;
  HumanAgent<Comp472State> human(in, out);
  const auto m = human.choose(start, {});
  return {out.str(), m ? start.move_text(*m) : ""};
}

TEST(HumanInput, SeedCoordinatesInAnyCaseAndSpacing) {
  for (const char* text : {"B2 B3", "b2 b3", "  b2   B3  ", "b2b3", "B2\tB3"}) {
    const Typed t = type_in(std::string(text) + "\n");
    EXPECT_EQ(t.move, "b2b3") << "'" << text << "': " << t.said;
    EXPECT_EQ(t.said.find("illegal move"), std::string::npos) << t.said;
  }
}

TEST(HumanInput, EachIllegalActionIsWarnedAndRetried) {
  // White to move at the start: knight b1, bishop c1, queen d1, king e1,
  // pawns b2 c2; Black's pawns on c4 d4.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"hello", "is not like b1c3, a4a5q or B2 B3"},                             // bad syntax
      {"B2", "is not like"},                                                     // half a move
      {"W3 B3", "leaves the board"},                                             // the seed's W3
      {"B2 B6", "leaves the board"},                                             // off-board target
      {"B3 B4", "no piece of yours on b3 (the square is empty)"},                // empty source
      {"C4 C3", "no piece of yours on c4 (the pawn there is your opponent's)"},  // opponent's
      {"B1 C1", "your own piece stands on c1"},       // own piece on target
      {"B1 B3", "a knight on b1 cannot move to b3"},  // illegal for the piece
      {"B2 C3", "a pawn on b2 cannot move to c3"},    // pawn needs a capture
  };
  for (const auto& [bad, why] : cases) {
    const Typed t = type_in(bad + "\nB2 B3\n");
    EXPECT_EQ(t.move, "b2b3") << bad << ": the person gets another try";
    EXPECT_NE(t.said.find("illegal move: move '" + bad + "'"), std::string::npos) << t.said;
    EXPECT_NE(t.said.find(why), std::string::npos) << bad << " -> " << t.said;
  }
  // All at once: one warning each, then the good move.
  std::string all;
  for (const auto& c : cases) all += c.first + "\n";
  const Typed t = type_in(all + "c2 c3\n");
  EXPECT_EQ(t.move, "c2c3");
  std::size_t warnings = 0;
  for (auto at = t.said.find("illegal move:"); at != std::string::npos;
       at = t.said.find("illegal move:", at + 1)) {
    ++warnings;
  }
  EXPECT_EQ(warnings, cases.size()) << t.said;
}

TEST(HumanInput, EndOfInputOrQuitGivesUp) {
  EXPECT_EQ(type_in("").move, "");
  EXPECT_EQ(type_in("W3 B3\nquit\n").move, "");
  EXPECT_NE(type_in("?\nB2 B3\n").said.find("legal moves: "), std::string::npos);
}

}  // namespace
}  // namespace duel::agents
