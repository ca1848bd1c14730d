// Seed 004's cumulative search lines (play/comp472_trace.hpp): whose totals
// they are, and the plies past the searches' depth as one group.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "duel/play/comp472_trace.hpp"

namespace {

using duel::play::cumulative_lines;

duel::search::SearchStats stats_with(const std::vector<std::uint64_t>& counts) {
  duel::search::SearchStats s;
  for (std::size_t d = 0; d < counts.size(); ++d) s.by_depth[d] = counts[d];
  s.max_depth = static_cast<int>(counts.size()) - 1;
  s.interior = counts[0];
  return s;
}

TEST(TraceLines, SayWhoseTotalsTheyAre) {
  const auto lines = cumulative_lines(stats_with({1, 13, 50}), 2, "white's");
  ASSERT_EQ(lines.size(), 4U);
  EXPECT_EQ(lines[0], "cumulative states explored (white's searches): 64");
  EXPECT_EQ(lines[1], "cumulative states explored by depth: 0=1 1=13 2=50");
}

TEST(TraceLines, PliesPastTheSearchDepthAreOneGroup) {
  // A depth-2 search whose quiescence went four plies further: 3+ holds
  // 20 + 8 + 3 + 1 = 32 of the 83 states (38.6%).
  const auto lines = cumulative_lines(stats_with({1, 10, 40, 20, 8, 3, 1}), 2, "black's");
  EXPECT_EQ(lines[1], "cumulative states explored by depth: 0=1 1=10 2=40 3+=32");
  EXPECT_EQ(lines[2], "cumulative % states explored by depth: 0=1.2% 1=12.0% 2=48.2% 3+=38.6%");
  // One ply past the depth stays as it is.
  EXPECT_EQ(cumulative_lines(stats_with({1, 10, 40, 20}), 2)[1],
            "cumulative states explored by depth: 0=1 1=10 2=40 3=20");
}

}  // namespace
