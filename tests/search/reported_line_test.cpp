// The move a search plays is the first move of the line it reports, and
// the value reported is that line's, however the search was stopped. A
// stop in the middle of an iteration used to play that iteration's best
// finished move with the last full iteration's line and value (`duel search
// gardner --time 0.5`: best a2a3, line d2d3 e4e3 ...).
#include <gtest/gtest.h>

#include <cstdint>

#include "duel/games/minichess/minichess.hpp"
#include "duel/registry/search.hpp"

namespace duel::registry {
namespace {

TEST(ReportedLine, ThePlayedMoveStartsTheLineAtEveryStop) {
  using S = games::minichess::GardnerState;
  const S start;
  // One thread and a node budget, as `duel search` runs it: each stop falls
  // at the same node every run. 505,000 and 685,000 stop inside iteration
  // 17 after a2a3 has beaten d2d3, iteration 16's first move (found by a
  // sweep of budgets: those two failed before the fix); 200,000 stops
  // inside an iteration before any move finished.
  int partial = 0;
  for (const std::uint64_t nodes : {200000U, 505000U, 685000U}) {
    AlgoRequest req;
    req.nodes = nodes;
    const auto r = run_algorithm(start, req);
    ASSERT_TRUE(r) << r.error();
    ASSERT_TRUE(r->best.has_value()) << nodes;
    ASSERT_FALSE(r->pv.empty()) << nodes;
    EXPECT_EQ(start.move_text(r->pv.front()), start.move_text(*r->best)) << "nodes " << nodes;
    partial += r->complete ? 0 : 1;
  }
  EXPECT_EQ(partial, 3);  // each budget did stop its search
}

}  // namespace
}  // namespace duel::registry
