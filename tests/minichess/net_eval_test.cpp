// Heuristic n1 (games/minichess/net_eval.hpp): the C++ network reads the
// board as scripts/train-net.py does (its outputs on the positions the script
// recorded), the integer network stays near the trained one, and the value
// is exactly colour-symmetric and in range. Whether n1 plays better is an
// arena question (docs/net.md).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "../support/minichess_positions.hpp"
#include "duel/core/rng.hpp"
#include "duel/games/game.hpp"
#include "duel/games/minichess/minichess.hpp"
#include "duel/games/minichess/n1_weights.hpp"

namespace duel::games::minichess {
namespace {

template <class Rules>
void expect_the_scripts_outputs() {
  // kCheck holds the trained (floating-point) network's outputs as the
  // script computed them; the integer network may differ by its rounding:
  // a 1024th of a unit per first-layer weight, a 256th per second-layer one.
  for (const auto& check : n1::kCheck<Rules>) {
    const auto s = State<Rules>::from_fen(std::string(check.fen));
    ASSERT_TRUE(s.ok()) << check.fen;
    const double pawns =
        static_cast<double>(n1::forward(n1::net<Rules>(), n1::pieces_of(s->position()),
                                        s->to_move(), n1::Isa::Baseline)) /
        static_cast<double>(n1::kOutputScale);
    EXPECT_NEAR(pawns, check.output, 0.05 + 0.02 * std::abs(check.output)) << check.fen;
  }
  // The checks are not all alike (a network reading nothing would pass
  // one): a queen up is far from the start.
  EXPECT_GT(std::abs(n1::kCheck<Rules>[2].output - n1::kCheck<Rules>[0].output), 3.0F);
}

TEST(N1, MatchesTheTrainedNetworkOnTheScriptsPositions) {
  expect_the_scripts_outputs<Gardner>();
  expect_the_scripts_outputs<Cs3243>();
}

template <class Rules>
int flips_checked() {
  N1 h;
  return test_support::on_random_positions<State<Rules>>(11, 30, 40, [&](const State<Rules>& s) {
    const auto flipped = State<Rules>::from_fen(test_support::flip_fen(s.to_text()));
    ASSERT_TRUE(flipped.ok()) << s.to_text();
    ASSERT_EQ(h(*flipped), -h(s)) << s.to_text();
    ASSERT_LT(std::abs(h(s)), kUnit) << s.to_text();
  });
}

TEST(N1, ColourFlipNegatesTheValueExactlyAndStaysInRange) {
  EXPECT_GT(flips_checked<Gardner>(), 300);
  EXPECT_GT(flips_checked<Cs3243>(), 300);
}

TEST(N1, KeptSumsGiveExactlyTheSumsFromScratchWithEitherInstructionSet) {
  // Positions in game order (each near the last: the kept sums are updated)
  // and then shuffled (far apart: some sums start from scratch), evaluated
  // through kept sums and from scratch, with both instruction sets where
  // the processor has AVX2.
  std::vector<n1::Pieces> positions;
  std::vector<Player> movers;
  test_support::on_random_positions<GardnerState>(12, 30, 40, [&](const GardnerState& s) {
    positions.push_back(n1::pieces_of(s.position()));
    movers.push_back(s.to_move());
  });
  ASSERT_GT(positions.size(), 300U);
  std::vector<std::size_t> order(positions.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  Rng rng(5);
  std::vector<std::size_t> shuffled = order;
  for (std::size_t i = shuffled.size(); i > 1; --i)
    std::swap(shuffled[i - 1], shuffled[rng.below(i)]);
  order.insert(order.end(), shuffled.begin(), shuffled.end());

  const auto& net = n1::net<Gardner>();
  std::vector<n1::Isa> sets{n1::Isa::Baseline};
  if (n1::has_avx2()) sets.push_back(n1::Isa::Avx2);
  for (const n1::Isa isa : sets) {
    n1::Accumulators kept;
    for (const std::size_t i : order) {
      for (const Player us : {movers[i], other(movers[i])}) {
        const std::int64_t scratch = n1::forward(net, positions[i], us, n1::Isa::Baseline);
        ASSERT_EQ(kept.forward(net, positions[i], us, isa), scratch) << i;
        ASSERT_EQ(n1::forward(net, positions[i], us, isa), scratch) << i;
      }
    }
    // Both ways were taken: updates (game order) and fresh sums (shuffled).
    EXPECT_GT(kept.updated_sums(), positions.size() / 2);
    EXPECT_GT(kept.full_sums(), 10U);
  }
}

TEST(N1, TheOutputCacheGivesExactlyTheComputedValue) {
  // Random games' positions, each evaluated twice in a row and the whole
  // list twice (the second pass finds most of them held), through the
  // heuristic's cache and without it: the same Value every time.
  std::vector<GardnerState> states;
  test_support::on_random_positions<GardnerState>(
      13, 30, 40, [&](const GardnerState& s) { states.push_back(s); });
  ASSERT_GT(states.size(), 300U);
  N1 h;
  for (int pass = 0; pass < 2; ++pass) {
    for (const GardnerState& s : states) {
      n1::Accumulators plain;
      const Value expected = n1::evaluate(s, plain);
      ASSERT_EQ(h(s), expected) << s.to_text();
      ASSERT_EQ(h(s), expected) << s.to_text();
    }
  }
  // Each position's first look computed it (positions may repeat across
  // games), every other look read it.
  EXPECT_LE(h.cache().misses(), states.size());
  EXPECT_GE(h.cache().hits(), 3 * states.size());
  // A copy starts empty and computes the same values.
  N1 copy = h;
  EXPECT_EQ(copy.cache().hits() + copy.cache().misses(), 0U);
  EXPECT_EQ(copy(states.front()), h(states.front()));
  EXPECT_EQ(copy.cache().misses(), 1U);
}

template <class Rules>
void expect_a_queen_up_to_count() {
  // A white queen more is worth several pawns to White whoever is to move.
  const auto up = State<Rules>::from_fen("4k/5/5/5/1Q2K w - - 0 1");
  const auto up_black = State<Rules>::from_fen("4k/5/5/5/1Q2K b - - 0 1");
  ASSERT_TRUE(up.ok() && up_black.ok());
  EXPECT_GT(N1{}(*up), 3 * kE0Scale);
  EXPECT_GT(N1{}(*up_black), 3 * kE0Scale);
}

TEST(N1, PrefersMaterialAndIsSelectableWhereItHasABlock) {
  expect_a_queen_up_to_count<Gardner>();
  expect_a_queen_up_to_count<Cs3243>();
  // The two networks are not one: each rule set reads its own block.
  EXPECT_NE(&n1::net<Gardner>(), &n1::net<Cs3243>());
  EXPECT_TRUE(with_heuristic<GardnerState>("n1", 0, [](auto) {}));
  EXPECT_TRUE(with_heuristic<Cs3243State>("n1", 0, [](auto) {}));
  EXPECT_FALSE(with_heuristic<Comp472State>("n1", 0, [](auto) {}));
}

}  // namespace
}  // namespace duel::games::minichess
