// Checkers heuristic n1 (games/checkers/net_eval.hpp): the C++ network reads
// the board as scripts/train-net.py does (its outputs on the positions the
// script recorded), kept sums and the output cache give exactly the sums
// from scratch, and the value is exactly colour-symmetric and in range.
// Whether n1 plays better is an arena question (docs/net.md, "Checkers").
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "../support/minichess_positions.hpp"
#include "duel/core/rng.hpp"
#include "duel/games/checkers/checkers.hpp"
#include "duel/games/checkers/n1_weights.hpp"
#include "duel/games/game.hpp"

namespace duel::games::checkers {
namespace {

TEST(CheckersN1, MatchesTheTrainedNetworkOnTheScriptsPositions) {
  // kCheck holds the trained (floating-point) network's outputs, in
  // hundreds of `tuned`'s units, as the script computed them; the integer
  // network may differ by its rounding: a 1024th of a unit per first-layer
  // weight (up to 24 inputs into each of 128 units a side), a 256th per
  // second-layer one. With the second round's larger weights that came to
  // 0.047 at most on these positions (0.02 with the first round's); a
  // network that read the board wrongly is off by far more.
  for (const auto& check : n1::kCheck<State>) {
    const auto s = State::parse(check.fen);
    ASSERT_TRUE(s.ok()) << check.fen;
    const double out = static_cast<double>(n1::forward(n1::net(), n1::pieces_of(s->position()),
                                                       s->to_move(), n1::Isa::Baseline)) /
                       static_cast<double>(n1::kOutputScale);
    EXPECT_NEAR(out, check.output, 0.08 + 0.02 * std::abs(check.output)) << check.fen;
  }
  // The checks are not all alike (a network reading nothing would pass
  // one): their outputs span more than half a hundred of tuned's units.
  float lo = n1::kCheck<State>[0].output;
  float hi = lo;
  for (const auto& check : n1::kCheck<State>) {
    lo = std::min(lo, check.output);
    hi = std::max(hi, check.output);
  }
  EXPECT_GT(hi - lo, 0.5F);
}

TEST(CheckersN1, ColourFlipNegatesTheValueExactlyAndStaysInRange) {
  N1 h;
  const int n = test_support::on_random_positions<State>(21, 30, 80, [&](const State& s) {
    ASSERT_EQ(h(s.flipped()), -h(s)) << s.to_text();
    ASSERT_LT(std::abs(h(s)), kUnit) << s.to_text();
  });
  EXPECT_GT(n, 1000);
}

TEST(CheckersN1, KeptSumsAndTheCacheGiveExactlyTheSumsFromScratch) {
  // Positions in game order (near each other: the kept sums are updated),
  // then shuffled (far apart: sums from scratch), with both instruction
  // sets where the processor has AVX2; then through the heuristic's cache,
  // twice over.
  std::vector<State> states;
  test_support::on_random_positions<State>(22, 30, 80,
                                           [&](const State& s) { states.push_back(s); });
  ASSERT_GT(states.size(), 1000U);
  std::vector<std::size_t> order(states.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::vector<std::size_t> shuffled = order;
  Rng rng(5);
  for (std::size_t i = shuffled.size(); i > 1; --i)
    std::swap(shuffled[i - 1], shuffled[rng.below(i)]);
  order.insert(order.end(), shuffled.begin(), shuffled.end());

  std::vector<n1::Isa> sets{n1::Isa::Baseline};
  if (nnue::has_avx2()) sets.push_back(n1::Isa::Avx2);
  for (const n1::Isa isa : sets) {
    n1::Accumulators kept;
    for (const std::size_t i : order) {
      const n1::Pieces pieces = n1::pieces_of(states[i].position());
      for (const Player us : {Player::First, Player::Second}) {
        const std::int64_t scratch = n1::forward(n1::net(), pieces, us, n1::Isa::Baseline);
        ASSERT_EQ(kept.forward(n1::net(), pieces, us, isa), scratch) << i;
        ASSERT_EQ(n1::forward(n1::net(), pieces, us, isa), scratch) << i;
      }
    }
    EXPECT_GT(kept.updated_sums(), states.size() / 2);
    EXPECT_GT(kept.full_sums(), 10U);
  }

  N1 h;
  for (int pass = 0; pass < 2; ++pass) {
    for (const State& s : states) {
      n1::Accumulators plain;
      const Value expected =
          n1::to_value(s, plain.forward(n1::net(), n1::pieces_of(s.position()), s.to_move()));
      ASSERT_EQ(h(s), expected) << s.to_text();
    }
  }
  EXPECT_LE(h.cache().misses(), states.size());
  EXPECT_GE(h.cache().hits(), states.size());
}

TEST(CheckersN1, PrefersMaterialAndIsSelectable) {
  // Two kings against one is good for the side with two, whoever moves
  // (such endings are rare in the training games: the network's margin is
  // small, its sign is not in doubt).
  for (const char* fen : {"B:WK27:BK1,K6", "W:WK27:BK1,K6"}) {
    const auto s = State::parse(fen);
    ASSERT_TRUE(s.ok()) << fen;
    EXPECT_GT(N1{}(*s), 0) << fen;
  }
  // A man more at the start of the game counts: Black without its man on
  // 12 is behind, whoever moves.
  for (const char* fen : {"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11",
                          "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11"}) {
    const auto s = State::parse(fen);
    ASSERT_TRUE(s.ok()) << fen;
    EXPECT_LT(N1{}(*s), -50) << fen;
  }
  EXPECT_TRUE(with_heuristic<State>("n1", 0, [](auto) {}));
}

}  // namespace
}  // namespace duel::games::checkers
