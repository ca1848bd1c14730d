// The progress line's estimate of the time left (tournament/estimate.hpp),
// fed synthetic task durations, never timed: after a tenth of the tasks it
// is within 30% of the truth (issue 75: "The progress line's estimate
// within 30% of the truth after a tenth of the tasks"), where the truth is
// the sum of the durations still to come divided by the tasks run at once.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "duel/tournament/estimate.hpp"

namespace {

using duel::tournament::Estimate;
using duel::tournament::interleaved;
using duel::tournament::TaskCost;

struct Task {
  TaskCost cost;
  double seconds = 0.0;  // how long it will take
};

// Durations that vary by +-50% around their mean, the same every run (a
// linear congruential generator, Knuth's MMIX constants).
struct Noise {
  std::uint64_t x = 42;
  double next() {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return 0.5 + static_cast<double>(x >> 11) / static_cast<double>(1ULL << 53);
  }
};

// A CSCI-561 grading as the plan makes it: per student 10 single moves,
// then 9 games against the reference (seed 003), both sides programs.
// Games take `ratio` times a single move; `game_clocks` cycle over games.
std::vector<Task> grading(int students, double ratio, const std::vector<double>& game_clocks,
                          bool singles_first) {
  Noise noise;
  std::vector<Task> singles;
  std::vector<Task> games;
  for (int s = 0; s < students; ++s) {
    for (int k = 0; k < 10; ++k) singles.push_back({{false, 300.0}, 0.5 * noise.next()});
    for (int g = 0; g < 9; ++g) {
      const double clock = game_clocks[static_cast<std::size_t>(g) % game_clocks.size()];
      // A program spends its clock in proportion: a game at 300 s lasts 3x one at 100 s.
      games.push_back({{true, 2 * clock}, 0.5 * ratio * clock / 100.0 * noise.next()});
    }
  }
  std::vector<Task> out;
  if (singles_first) {
    out = singles;
    out.insert(out.end(), games.begin(), games.end());
    return out;
  }
  for (int s = 0; s < students; ++s) {
    out.insert(out.end(), singles.begin() + 10 * s, singles.begin() + 10 * (s + 1));
    out.insert(out.end(), games.begin() + 9 * s, games.begin() + 9 * (s + 1));
  }
  return out;
}

// The tasks run in the runner's order (interleaved kinds), one at a time;
// the estimate and the truth after the first tenth.
struct AtATenth {
  double estimate = 0.0;
  double truth = 0.0;
};
AtATenth run(const std::vector<Task>& plan, bool interleave) {
  std::vector<bool> is_game;
  for (const auto& t : plan) is_game.push_back(t.cost.game);
  std::vector<std::size_t> order(plan.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (interleave) order = interleaved(is_game);
  Estimate e(1);
  for (const auto& t : plan) e.planned(t.cost);
  const std::size_t tenth = (plan.size() + 9) / 10;
  AtATenth out;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const Task& t = plan[order[i]];
    if (i < tenth) {
      e.finished(t.cost, t.seconds);
    } else {
      out.truth += t.seconds;
    }
  }
  out.estimate = e.seconds_left().value_or(-1.0);
  return out;
}

// What the progress line said before: elapsed / tasks done x tasks left.
double by_count(const std::vector<Task>& plan) {
  const std::size_t tenth = (plan.size() + 9) / 10;
  double elapsed = 0.0;
  for (std::size_t i = 0; i < tenth; ++i) elapsed += plan[i].seconds;
  return elapsed / static_cast<double>(tenth) * static_cast<double>(plan.size() - tenth);
}

TEST(Estimate, GamesTwentyTimesSinglesAndSinglesFirst) {
  const auto plan = grading(30, 20.0, {100.0}, true);
  const AtATenth at = run(plan, true);
  EXPECT_NEAR(at.estimate, at.truth, 0.3 * at.truth);
  // Counting tasks, as the line did, sees only single moves after a tenth
  // and is off by far more: the case this estimate is for.
  EXPECT_GT(std::abs(by_count(plan) - at.truth), 0.3 * at.truth);
}

TEST(Estimate, ThePlansOrderAndClocksThatVaryFromGameToGame) {
  // Seed 003: "This total amount of time will vary from game to game".
  for (const double ratio : {5.0, 20.0, 100.0}) {
    const auto plan = grading(25, ratio, {60.0, 100.0, 300.0}, false);
    const AtATenth at = run(plan, true);
    EXPECT_NEAR(at.estimate, at.truth, 0.3 * at.truth) << ratio;
  }
}

// A kind not seen yet is priced from the other's seconds a clock second:
// exact when programs spend the same share of every clock.
TEST(Estimate, AKindNotSeenYetIsPricedByItsClock) {
  Estimate e(2);
  e.planned({false, 10.0});
  e.planned({false, 10.0});
  e.planned({true, 200.0});
  EXPECT_FALSE(e.seconds_left().has_value());
  e.finished({false, 10.0}, 1.0);  // a tenth of its clock
  // Left: a single move (1 s) and a game (20 s), two at a time.
  EXPECT_DOUBLE_EQ(*e.seconds_left(), (1.0 + 20.0) / 2);
}

// Rounds not planned yet (a Swiss system's) are counted.
TEST(Estimate, LaterRoundsAreCounted) {
  Estimate e(1);
  for (int i = 0; i < 10; ++i) e.planned({true, 200.0});
  e.later({true, 200.0}, 30.0);  // three more rounds of 10 games
  e.finished({true, 200.0}, 4.0);
  EXPECT_DOUBLE_EQ(*e.seconds_left(), 4.0 * (9 + 30));
}

// Every prefix of the order holds each kind in its share, to within one task.
TEST(Estimate, InterleavedSpreadsTheKinds) {
  std::vector<bool> is_game(190, false);
  for (std::size_t i = 0; i < 190; ++i) is_game[i] = i >= 100;  // 100 singles, then 90 games
  const auto order = interleaved(is_game);
  ASSERT_EQ(order.size(), 190U);
  std::vector<bool> seen(190, false);
  int games = 0;
  std::size_t last_single = 0;
  for (std::size_t n = 0; n < order.size(); ++n) {
    ASSERT_FALSE(seen[order[n]]);
    seen[order[n]] = true;
    if (is_game[order[n]]) {
      ++games;
    } else {
      EXPECT_GE(order[n], last_single);  // each kind in its own order
      last_single = order[n];
    }
    EXPECT_NEAR(games, static_cast<double>(n + 1) * 90.0 / 190.0, 1.0) << n;
  }
}

}  // namespace
