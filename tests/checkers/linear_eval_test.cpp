// Checkers heuristic `tuned` (games/checkers/linear_eval.hpp): with its
// starting weights it gives `positional`'s terms exactly (counted here
// square by square), a position turned with
// colours swapped gets exactly the negated features and value, and the
// terms positional lacks (runaway men, the bridge, the side to move,
// trading down) count what they say on positions set up by hand. Whether
// the fitted weights play better is an arena question (docs/tuning.md).
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "duel/core/rng.hpp"
#include "duel/games/checkers/checkers.hpp"
#include "duel/games/checkers/linear_eval.hpp"
#include "duel/games/game.hpp"

namespace duel::games::checkers {
namespace {

namespace lin = linear;

// Every position of 40 seeded random games.
void on_random_positions(std::uint64_t seed, const std::function<void(const State&)>& f) {
  Rng rng(seed);
  for (int game = 0; game < 40; ++game) {
    State s;
    for (int ply = 0; ply < 200 && !s.is_terminal(); ++ply) {
      f(s);
      Moves moves;
      s.actions(moves);
      s = s.result(moves[rng.below(moves.size())]);
    }
  }
}

State at(const std::string& text) {
  auto s = State::parse(text);
  EXPECT_TRUE(s.ok()) << text << ": " << (s.ok() ? "" : s.error());
  return s.ok() ? *s : State();
}

double feature(const State& s, lin::Feature f) {
  return lin::features(s)[static_cast<std::size_t>(f)];
}

// `positional`'s terms as docs/rules/checkers.md gives them, counted square
// by square from the board's coordinates: per side men 100, kings 150, +3 a
// row a man has advanced, +10 a man on its home row, +5 a piece on the 8
// central squares (standard 10, 11, 14, 15, 18, 19, 22, 23), +2 a step to an
// empty square (men forward, kings every way); Black minus White.
int positional_by_hand(const State& s) {
  const Position& p = s.position();
  int total = 0;
  for (int sq = 0; sq < kSquares; ++sq) {
    for (const Player side : {Player::First, Player::Second}) {
      const bool man = (p.men(side) & bit(sq)) != 0;
      const bool king = (p.kings(side) & bit(sq)) != 0;
      if (!man && !king) continue;
      const bool black = side == Player::First;
      const int row = black ? row_of(sq) : 7 - row_of(sq);  // from its home row
      const int standard = sq + 1;
      const bool centre = (standard >= 10 && standard <= 11) ||
                          (standard >= 14 && standard <= 15) ||
                          (standard >= 18 && standard <= 19) || (standard >= 22 && standard <= 23);
      int terms = man ? 100 + 3 * row + (row == 0 ? 10 : 0) : 150;
      if (centre) terms += 5;
      for (int dr : {-1, 1}) {
        if (man && dr != (black ? 1 : -1)) continue;  // a man steps away from its home row
        for (int df : {-1, 1}) {
          const int to = square_at(row_of(sq) + dr, file_of(sq) + df);
          if (to >= 0 && (p.occupied() & bit(to)) == 0) terms += 2;
        }
      }
      total += black ? terms : -terms;
    }
  }
  return total;
}

TEST(CheckersTuned, StartingWeightsArePositionalsTermsExactly) {
  const auto start = lin::to_fixed(lin::start_weights());
  const Positional positional;
  int n = 0;
  on_random_positions(11, [&](const State& s) {
    ASSERT_EQ(lin::evaluate(s, start), positional_by_hand(s)) << s.to_text();
    ASSERT_EQ(positional(s), positional_by_hand(s)) << s.to_text();
    ++n;
  });
  EXPECT_GT(n, 2000);
}

TEST(CheckersTuned, FlippedPositionNegatesEveryFeatureAndTheValue) {
  const Tuned tuned;
  const auto start = lin::to_fixed(lin::start_weights());
  on_random_positions(12, [&](const State& s) {
    const State f = s.flipped();
    const lin::Features a = lin::features(s);
    const lin::Features b = lin::features(f);
    for (int i = 0; i < lin::kFeatures; ++i) {
      ASSERT_EQ(a[static_cast<std::size_t>(i)], -b[static_cast<std::size_t>(i)])
          << lin::feature_name(i) << " at " << s.to_text();
    }
    ASSERT_EQ(tuned(s), -tuned(f)) << s.to_text();
    ASSERT_EQ(lin::evaluate(s, start), -lin::evaluate(f, start)) << s.to_text();
  });
}

TEST(CheckersTuned, CountsMaterialAdvanceAndTheSideToMove) {
  // Black (moving down the board, rows counted from its back row 1-4) has
  // men on 22 (row 5) and 5 (row 1); White a man on 27 (row 1 of its own)
  // and a king on 32. Black to move; two pieces each.
  const State s = at("B:W27,K32:B22,5");
  EXPECT_EQ(feature(s, lin::kMen), 2 - 1);
  EXPECT_EQ(feature(s, lin::kKings), 0 - 1);
  EXPECT_EQ(feature(s, lin::kAdvance), 1 - 1);  // row 1: Black's 5, White's 27
  EXPECT_EQ(feature(s, static_cast<lin::Feature>(lin::kAdvance + 4)), 1);  // row 5: 22
  EXPECT_EQ(feature(s, lin::kToMove), 1);
  EXPECT_EQ(feature(s, lin::kTrade), 0);
}

TEST(CheckersTuned, RunawayMenAreThoseWithNothingAhead) {
  // Black's man on 22 has 25, 26, 29, 30 and 31 ahead: all empty with
  // White's king on 32, so it runs (row 5 of its own).
  const State lone = at("B:WK32:B22");
  EXPECT_EQ(feature(lone, lin::kRunaway), 1);
  EXPECT_EQ(feature(lone, lin::kRunawayRows), 5);
  // White's man on 30 stands in that cone, and Black's 22 in its own
  // (30 -> 25, 26 -> 21, 22, 23): neither runs.
  const State blocked = at("B:W30:B22");
  EXPECT_EQ(feature(blocked, lin::kRunaway), 0);
  EXPECT_EQ(feature(blocked, lin::kRunawayRows), 0);
  // Black's 26 (row 6, nothing on 30 and 31) and White's 13 (row 4 of its
  // own, nothing on 9, 5, 6, 1, 2) both run: the counts cancel, the rows not.
  const State both = at("W:W13:B26");
  EXPECT_EQ(feature(both, lin::kRunaway), 0);
  EXPECT_EQ(feature(both, lin::kRunawayRows), 6 - 4);
}

TEST(CheckersTuned, BridgeAndTrade) {
  // Black holds 1 and 3 (its bridge), White 30 but not 32; White to move.
  const State s = at("W:W30,31,29:B1,3,2,4,9");
  EXPECT_EQ(feature(s, lin::kBridge), 1);
  EXPECT_EQ(feature(s, lin::kToMove), -1);
  // Black 5 pieces, White 3: two ahead with 24 - 8 = 16 off the board.
  EXPECT_EQ(feature(s, lin::kTrade), 2 * 16);
  const State both = at("B:W30,32:B1,3");
  EXPECT_EQ(feature(both, lin::kBridge), 0);
  EXPECT_EQ(feature(both, lin::kTrade), 0);
}

TEST(CheckersTuned, SelectableByNameWithTheFittedWeights) {
  EXPECT_NE(heuristic_names<State>().find("tuned"), std::string::npos);
  bool called = false;
  const State s = at("B:W27,K32:B22,5");
  EXPECT_TRUE(with_heuristic<State>("tuned", 0, [&](auto h) {
    called = true;
    EXPECT_EQ(h(s), lin::evaluate(s, lin::tuned_fixed_weights()));
  }));
  EXPECT_TRUE(called);
}

}  // namespace
}  // namespace duel::games::checkers
