// agents::budget_for: the time an agent plans to search, always inside its
// own per-move time and any move clock (an AI never exceeds its time).
#include <gtest/gtest.h>

#include "duel/agents/agent.hpp"

namespace duel::agents {
namespace {

TEST(Budget, OwnTimeKeepsATenthAtMostTenMilliseconds) {
  EXPECT_DOUBLE_EQ(budget_for(0.5, MoveClock{}), 0.49);
  EXPECT_DOUBLE_EQ(budget_for(0.1, MoveClock{}), 0.09);
  EXPECT_DOUBLE_EQ(budget_for(0.05, MoveClock{}), 0.045);
  EXPECT_DOUBLE_EQ(budget_for(5.0, MoveClock{}), 4.99);
  EXPECT_EQ(budget_for(0.0, MoveClock{}), 0.0);  // no own limit
}

TEST(Budget, AMoveClockCapsTheOwnTime) {
  // 80% of the limit less 2 ms.
  EXPECT_DOUBLE_EQ(budget_for(0.0, MoveClock{1.0}), 0.798);
  EXPECT_DOUBLE_EQ(budget_for(5.0, MoveClock{1.0}), 0.798);
  EXPECT_DOUBLE_EQ(budget_for(0.5, MoveClock{1.0}), 0.49);
  EXPECT_GT(budget_for(0.0, MoveClock{0.001}), 0.0);  // a tiny clock still searches a little
}

}  // namespace
}  // namespace duel::agents
