// Glicko-2 (arena/glicko2.hpp) against Glickman's own worked example,
// "Example of the Glicko-2 system" (glicko.net/glicko/glicko2.pdf): a
// player at 1500 (RD 200, volatility 0.06, tau 0.5) beats a 1400 (RD 30)
// and loses to a 1550 (RD 100) and a 1700 (RD 300); the paper's results are
// 1464.06, RD 151.52, volatility 0.05999.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "duel/arena/glicko2.hpp"

namespace duel::arena::glicko2 {
namespace {

TEST(Glicko2, GlickmansWorkedExample) {
  const Rating player{1500.0, 200.0, 0.06};
  const std::vector<Game> games = {
      {{1400.0, 30.0, 0.06}, 1.0}, {{1550.0, 100.0, 0.06}, 0.0}, {{1700.0, 300.0, 0.06}, 0.0}};
  const Rating after = update(player, games, Options{0.5, 0.000001});
  EXPECT_NEAR(after.rating, 1464.06, 0.01);
  EXPECT_NEAR(after.deviation, 151.52, 0.01);
  EXPECT_NEAR(after.volatility, 0.05999, 0.00001);
}

// Step 6 alone (the paper: "If the player does not compete during the
// rating period, ... phi' = sqrt(phi^2 + sigma^2)").
TEST(Glicko2, APeriodWithoutGamesOnlyWidensTheDeviation) {
  const Rating player{1620.0, 80.0, 0.06};
  const Rating after = update(player, {});
  EXPECT_EQ(after.rating, 1620.0);
  EXPECT_EQ(after.volatility, 0.06);
  const double phi = 80.0 / kScale;
  EXPECT_NEAR(after.deviation, kScale * std::sqrt(phi * phi + 0.06 * 0.06), 1e-9);
  EXPECT_GT(after.deviation, 80.0);
}

// What a ladder relies on: a win raises, a loss lowers, each game narrows
// the deviation, and beating a stronger player gains more.
TEST(Glicko2, WinsRaiseLossesLowerAndGamesNarrowTheInterval) {
  const Rating fresh;
  const Rating won = update(fresh, {{{1500.0, 350.0, 0.06}, 1.0}});
  const Rating lost = update(fresh, {{{1500.0, 350.0, 0.06}, 0.0}});
  const Rating drew = update(fresh, {{{1500.0, 350.0, 0.06}, 0.5}});
  EXPECT_GT(won.rating, 1500.0);
  EXPECT_LT(lost.rating, 1500.0);
  EXPECT_NEAR(drew.rating, 1500.0, 1e-9);
  EXPECT_NEAR(won.rating - 1500.0, 1500.0 - lost.rating, 1e-9);  // symmetric
  EXPECT_LT(won.deviation, fresh.deviation);
  const Rating upset = update(fresh, {{{1800.0, 100.0, 0.06}, 1.0}});
  EXPECT_GT(upset.rating, won.rating);
  const Interval i = interval(won);
  EXPECT_NEAR(i.high - i.low, 4.0 * won.deviation, 1e-9);
}

}  // namespace
}  // namespace duel::arena::glicko2
