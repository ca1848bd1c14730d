// Knuth–Moore: on a uniform tree of branching b and depth d whose children are
// ordered best-first at every node, alpha-beta examines exactly
//   b^ceil(d/2) + b^floor(d/2) - 1
// leaves, where minimax examines b^d.
// Source: D. E. Knuth and R. W. Moore, "An analysis of alpha-beta pruning",
// Artificial Intelligence 6 (1975), 293–326 (the minimal tree, section 6).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "../support/synthetic_tree.hpp"
#include "duel/search/engine.hpp"
#include "duel/search/plain.hpp"

namespace duel::search {
namespace {

using test_support::oracle_value;
using test_support::UniformTree;

std::uint64_t power(std::uint64_t b, int e) {
  std::uint64_t r = 1;
  for (int i = 0; i < e; ++i) r *= b;
  return r;
}

// The tree really is perfectly ordered: at every node the first child is
// strictly the best for the side to move, and each node's value is the one
// UniformTree assigned to it.
void check_perfect_ordering(const UniformTree& s, int ply, int depth) {
  // Every leaf is at ply `depth`, so a node worth v points has Value
  // terminal_value(v, depth).
  EXPECT_EQ(oracle_value(s, 0, NoHeuristic{}, ply), terminal_value(s.points(), depth));
  if (s.is_terminal()) return;
  UniformTree::Moves moves;
  s.actions(moves);
  const bool max_turn = s.to_move() == Player::First;
  const Value first = s.result(moves[0]).points();
  EXPECT_EQ(first, s.points());
  for (std::size_t i = 1; i < moves.size(); ++i) {
    const Value v = s.result(moves[i]).points();
    if (max_turn) {
      EXPECT_LT(v, first);
    } else {
      EXPECT_GT(v, first);
    }
  }
  for (const auto& m : moves) check_perfect_ordering(s.result(m), ply + 1, depth);
}

TEST(KnuthMoore, UniformTreeIsPerfectlyOrdered) {
  for (int b = 1; b <= 4; ++b) {
    for (int d = 0; d <= 4; ++d) {
      const UniformTree root(b, d);
      check_perfect_ordering(root, 0, d);
    }
  }
}

TEST(KnuthMoore, AlphabetaVisitsTheMinimalTree) {
  for (int b = 2; b <= 5; ++b) {
    for (int d = 1; d <= 6; ++d) {
      SCOPED_TRACE(testing::Message() << "b=" << b << " d=" << d);
      const UniformTree root(b, d);
      const auto ab = alphabeta(root);
      const auto mm = minimax(root);
      const auto ub = static_cast<std::uint64_t>(b);
      const std::uint64_t minimal = power(ub, (d + 1) / 2) + power(ub, d / 2) - 1;
      EXPECT_EQ(ab.stats.by_depth[static_cast<std::size_t>(d)], minimal);
      EXPECT_EQ(ab.stats.leaves, minimal);
      EXPECT_EQ(mm.stats.by_depth[static_cast<std::size_t>(d)], power(ub, d));
      EXPECT_EQ(mm.stats.leaves, power(ub, d));
      for (int k = 0; k <= d; ++k) {
        EXPECT_EQ(mm.stats.by_depth[static_cast<std::size_t>(k)], power(ub, k));
      }
      EXPECT_EQ(ab.value, mm.value);
      EXPECT_EQ(ab.value, kDraw);  // the root is worth v = 0
      ASSERT_TRUE(ab.best.has_value());
      EXPECT_EQ(*ab.best, 0);  // the first child is the best
      EXPECT_EQ(ab.pv, std::vector<std::uint8_t>(static_cast<std::size_t>(d), 0));
    }
  }
}

// The engine's principal-variation search, in one iteration to the full depth
// without a table and in generation order (here: best first), examines the
// same minimal tree: the first child with the full window, every other with
// a null window that its own first child refutes at once.
TEST(KnuthMoore, EnginePvsVisitsTheMinimalTree) {
  struct NoEval {
    Value operator()(const UniformTree& /*s*/) const { return 0; }
  };
  for (int b = 2; b <= 5; ++b) {
    for (int d = 1; d <= 6; ++d) {
      SCOPED_TRACE(testing::Message() << "b=" << b << " d=" << d);
      const UniformTree root(b, d);
      Engine<UniformTree, NoEval> engine(
          NoEval{}, EngineOptions{.hash_mb = 0, .ordering = false, .first_depth = d});
      Limits limits;
      limits.depth = d;
      const auto r = engine.search(root, limits);
      const auto ub = static_cast<std::uint64_t>(b);
      const std::uint64_t minimal = power(ub, (d + 1) / 2) + power(ub, d / 2) - 1;
      EXPECT_EQ(r.stats.by_depth[static_cast<std::size_t>(d)], minimal);
      EXPECT_EQ(r.stats.leaves, minimal);
      EXPECT_EQ(r.stats.first_cutoffs, r.stats.cutoffs);  // perfect ordering: 100%
      EXPECT_TRUE(r.exact);
      EXPECT_EQ(r.value, kDraw);
    }
  }
}

}  // namespace
}  // namespace duel::search
