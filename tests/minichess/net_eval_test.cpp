// Heuristic n1 (games/minichess/net_eval.hpp): the C++ network reads the
// board as scripts/train-net.py does (its outputs on the positions the script
// recorded), the integer network stays near the trained one, and the value
// is exactly colour-symmetric and in range. Whether n1 plays better is an
// arena question (docs/net.md).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "../support/minichess_positions.hpp"
#include "duel/games/game.hpp"
#include "duel/games/minichess/minichess.hpp"
#include "duel/games/minichess/n1_weights.hpp"

namespace duel::games::minichess {
namespace {

TEST(N1, MatchesTheTrainedNetworkOnTheScriptsPositions) {
  // kCheck holds the trained (floating-point) network's outputs as the
  // script computed them; the integer network may differ by its rounding:
  // a 1024th of a unit per first-layer weight, a 256th per second-layer one.
  for (const auto& check : n1::kCheck<Gardner>) {
    const auto s = GardnerState::from_fen(std::string(check.fen));
    ASSERT_TRUE(s.ok()) << check.fen;
    const double pawns =
        static_cast<double>(n1::forward(s->position(), s->to_move(), n1::net<Gardner>())) /
        static_cast<double>(n1::kOutputScale);
    EXPECT_NEAR(pawns, check.pawns, 0.05 + 0.02 * std::abs(check.pawns)) << check.fen;
  }
  // The checks are not all alike (a network reading nothing would pass
  // one): a queen up is far from the start.
  EXPECT_GT(std::abs(n1::kCheck<Gardner>[2].pawns - n1::kCheck<Gardner>[0].pawns), 3.0F);
}

TEST(N1, ColourFlipNegatesTheValueExactlyAndStaysInRange) {
  const N1 h;
  const int checked =
      test_support::on_random_positions<GardnerState>(11, 30, 40, [&](const GardnerState& s) {
        const auto flipped = GardnerState::from_fen(test_support::flip_fen(s.to_text()));
        ASSERT_TRUE(flipped.ok()) << s.to_text();
        ASSERT_EQ(h(*flipped), -h(s)) << s.to_text();
        ASSERT_LT(std::abs(h(s)), kUnit) << s.to_text();
      });
  EXPECT_GT(checked, 300);
}

TEST(N1, PrefersMaterialAndIsSelectableInGardnerOnly) {
  // A white queen more is worth several pawns to White whoever is to move.
  const auto up = GardnerState::from_fen("4k/5/5/5/1Q2K w - - 0 1");
  const auto up_black = GardnerState::from_fen("4k/5/5/5/1Q2K b - - 0 1");
  ASSERT_TRUE(up.ok() && up_black.ok());
  EXPECT_GT(N1{}(*up), 3 * kE0Scale);
  EXPECT_GT(N1{}(*up_black), 3 * kE0Scale);
  EXPECT_TRUE(with_heuristic<GardnerState>("n1", 0, [](auto) {}));
  EXPECT_FALSE(with_heuristic<Cs3243State>("n1", 0, [](auto) {}));
  EXPECT_FALSE(with_heuristic<Comp472State>("n1", 0, [](auto) {}));
}

}  // namespace
}  // namespace duel::games::minichess
