// Elo difference, its 95% margin, LOS and draw ratio against the numbers
// cutechess-cli printed for real matches (each case cites where the output
// was published), to the printed digit.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "duel/arena/elo.hpp"

namespace duel::arena {
namespace {

struct Printed {
  int wins, losses, draws;  // cutechess prints W - L - D
  double elo, margin, los, draw_ratio;
  const char* source;
};

// Rounded as cutechess rounds: one decimal.
double one_decimal(double x) {
  return std::round(x * 10.0) / 10.0;
}

TEST(Elo, MatchesCutechessOutput) {
  const Printed cases[] = {
      // github.com/mvanthoor/rustic-book src/progress/sprt_results.md
      {869, 646, 357, 41.6, 14.2, 100.0, 19.1, "rustic-book TT-cuts"},
      {409, 197, 133, 102.5, 23.5, 100.0, 18.0, "rustic-book TT-move ordering"},
      {628, 416, 277, 56.2, 16.8, 100.0, 21.0, "rustic-book killer moves"},
      {591, 388, 318, 54.8, 16.6, 100.0, 24.5, "rustic-book PVS"},
      // github.com/PS-Wizard/OopsMate archive/data/results/v16_lazysmp.md
      {99, 97, 104, 2.3, 31.8, 55.7, 34.7, "OopsMate v16 vs Sayuri"},
      {45, 37, 18, 27.9, 62.4, 81.2, 18.0, "OopsMate v16 vs SF-2100"},
      // github.com/PS-Wizard/OopsMate archive/results/rework/v4_killer_heuristic.md
      {159, 100, 41, 69.2, 37.2, 100.0, 13.7, "OopsMate v4 vs SF-1750"},
      {136, 132, 32, 4.6, 37.3, 59.7, 10.7, "OopsMate v4 vs SF-1900"},
      // github.com/PS-Wizard/OopsMate archive/data/results/v15_probcut.md
      {92, 112, 96, -23.2, 32.5, 8.1, 32.0, "OopsMate v15 vs Sayuri"},
      {152, 105, 43, 54.9, 36.9, 99.8, 14.3, "OopsMate v15 vs SF-2000"},
  };
  for (const auto& c : cases) {
    const EloEstimate e = estimate(c.wins, c.draws, c.losses);
    ASSERT_TRUE(e.elo.has_value()) << c.source;
    ASSERT_TRUE(e.margin.has_value()) << c.source;
    EXPECT_DOUBLE_EQ(one_decimal(*e.elo), c.elo) << c.source;
    EXPECT_DOUBLE_EQ(one_decimal(*e.margin), c.margin) << c.source;
    EXPECT_DOUBLE_EQ(one_decimal(100.0 * e.los), c.los) << c.source;
    EXPECT_DOUBLE_EQ(one_decimal(100.0 * e.draw_ratio), c.draw_ratio) << c.source;
  }
}

TEST(Elo, EdgesAreNamedNotInfinite) {
  // A clean sweep has no finite Elo: none is reported rather than inf.
  const EloEstimate sweep = estimate(9, 0, 0);
  EXPECT_FALSE(sweep.elo.has_value());
  EXPECT_FALSE(sweep.margin.has_value());
  EXPECT_DOUBLE_EQ(sweep.score, 1.0);
  EXPECT_GT(sweep.los, 0.99);
  const EloEstimate even = estimate(0, 10, 0);
  ASSERT_TRUE(even.elo.has_value());
  EXPECT_DOUBLE_EQ(*even.elo, 0.0);
  EXPECT_DOUBLE_EQ(even.los, 0.5);
  EXPECT_DOUBLE_EQ(even.draw_ratio, 1.0);
  const EloEstimate none = estimate(0, 0, 0);
  EXPECT_DOUBLE_EQ(none.score, 0.5);
  // Symmetry: the other side's Elo is the negative.
  EXPECT_NEAR(*estimate(30, 10, 20).elo, -*estimate(20, 10, 30).elo, 1e-9);
}

TEST(Sprt, MatchesPublishedLlr) {
  // github.com/jw1912/SPRT README: `sprt.py --wins 4307 --losses 4063
  // --draws 8620 --elo0 0 --elo1 3` prints "LLR: 2.47 (-2.94, 2.94)" with
  // its default (unscaled, OpenBench's older) form.
  const double llr = sprt_llr(4307, 8620, 4063, 0, 3, /*scaled=*/false);
  EXPECT_NEAR(llr, 2.47, 0.005);
  const SprtSettings s{0, 3, 0.05, 0.05};
  EXPECT_NEAR(s.lower(), -2.94, 0.005);
  EXPECT_NEAR(s.upper(), 2.94, 0.005);
  EXPECT_EQ(sprt_verdict(llr, s), SprtVerdict::Continue);
  // cutechess's scaled form divides the hypotheses by a factor below 1, so
  // the same games weigh more: here 2.99, past the bound.
  const double scaled = sprt_llr(4307, 8620, 4063, 0, 3);
  EXPECT_GT(scaled, llr);
  EXPECT_EQ(sprt_verdict(scaled, s), SprtVerdict::AcceptH1);
}

TEST(Sprt, DecidesEachWay) {
  const SprtSettings s{0, 10, 0.05, 0.05};
  EXPECT_DOUBLE_EQ(sprt_llr(10, 0, 3, 0, 10), 0.0);  // no draws yet: no estimate
  // A clearly stronger side accepts H1, a clearly weaker one H0.
  EXPECT_EQ(sprt_verdict(sprt_llr(600, 300, 400, 0, 10), s), SprtVerdict::AcceptH1);
  EXPECT_EQ(sprt_verdict(sprt_llr(400, 300, 600, 0, 10), s), SprtVerdict::AcceptH0);
  EXPECT_EQ(sprt_verdict(sprt_llr(12, 6, 11, 0, 10), s), SprtVerdict::Continue);
  // Swapping the hypotheses negates the LLR.
  EXPECT_NEAR(sprt_llr(50, 30, 40, 0, 10), -sprt_llr(50, 30, 40, 10, 0), 1e-9);
}

TEST(Elo, PentanomialCountsPairs) {
  // Pairs: (1, 0) = 1, (1, 1) = 2, (0.5, 0) = 0.5, (0.5, 1) = 1.5, (0, 0) = 0;
  // the unpaired last game is left out.
  const std::vector<double> scores = {1, 0, 1, 1, 0.5, 0, 0.5, 1, 0, 0, 1};
  EXPECT_EQ(pentanomial(scores), (std::array<int, 5>{1, 1, 1, 1, 1}));
  EXPECT_EQ(pentanomial({}), (std::array<int, 5>{}));
  EXPECT_EQ(pentanomial({0.5, 0.5, 0.5, 0.5}), (std::array<int, 5>{0, 0, 2, 0, 0}));
}

}  // namespace
}  // namespace duel::arena
