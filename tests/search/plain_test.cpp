// Plain minimax and alpha-beta (search/plain.hpp) against a textbook oracle on
// random synthetic trees (DESIGN habit 9): same values, alpha-beta never visits
// more nodes, best moves and principal variations achieve the value, and the
// statistics add up.
#include "duel/search/plain.hpp"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <vector>

#include "../support/limits.hpp"
#include "../support/synthetic_tree.hpp"
#include "../support/tree_gen.hpp"

namespace duel::search {
namespace {

using test_support::any_dag_shape;
using test_support::any_heuristic;
using test_support::any_tree_shape;
using test_support::BareSyntheticTree;
using test_support::count_tree;
using test_support::DagGame;
using test_support::is_legal_line;
using test_support::KeyHeuristic;
using test_support::node_limit;
using test_support::oracle_value;
using test_support::stop_limit;
using test_support::SyntheticTree;
using test_support::TreeShape;

using Tree = BareSyntheticTree;

// The statistics every plain search must satisfy.
void check_plain_stats(const SearchStats& s) {
  std::uint64_t sum = 0;
  for (auto c : s.by_depth) sum += c;
  RC_ASSERT(s.nodes() == sum);
  RC_ASSERT(s.by_depth[0] == 1U);
  RC_ASSERT(s.interior + s.leaves == s.nodes());
  RC_ASSERT(s.max_depth >= 0);
  RC_ASSERT(s.depth_counts().size() == static_cast<std::size_t>(s.max_depth) + 1);
  RC_ASSERT(s.depth_counts().back() > 0U);
  for (std::size_t i = static_cast<std::size_t>(s.max_depth) + 1; i < s.by_depth.size(); ++i) {
    RC_ASSERT(s.by_depth[i] == 0U);
  }
  if (s.interior == 0) {
    RC_ASSERT(s.branching_factor() == 0.0);
  } else {
    RC_ASSERT(s.branching_factor() ==
              static_cast<double>(s.nodes() - 1) / static_cast<double>(s.interior));
  }
  RC_ASSERT(s.evaluations <= s.leaves);
  RC_ASSERT(s.tt_probes == 0U);
  RC_ASSERT(s.tt_hits == 0U);
}

// The value at the end of `pv` from `root`: a terminal's value, or the
// heuristic's at the cut-off depth.
template <class S, class H>
Value value_at_end(S s, const std::vector<typename S::Move>& pv, int cutoff, const H& eval) {
  int ply = 0;
  for (const auto& m : pv) {
    s = s.result(m);
    ++ply;
  }
  if (s.is_terminal()) return terminal_value(s.utility(), ply);
  RC_ASSERT(cutoff > 0);
  RC_ASSERT(ply == cutoff);
  return clamp_estimate(eval(s));
}

// The checks shared by minimax and alpha-beta on one search result.
template <class S, class H>
void check_result(const S& root, const SearchResult<typename S::Move>& r, int cutoff, const H& eval,
                  Value expected) {
  RC_ASSERT(r.complete);
  RC_ASSERT(r.value == expected);
  RC_ASSERT(r.exact == (r.stats.evaluations == 0));
  check_plain_stats(r.stats);
  if (cutoff > 0) RC_ASSERT(r.depth == cutoff);
  if (root.is_terminal()) {
    RC_ASSERT(!r.best.has_value());
    return;
  }
  // The best move achieves the value: its child is worth the root's value.
  RC_ASSERT(r.best.has_value());
  RC_ASSERT(is_legal_line(root, {*r.best}));
  RC_ASSERT(oracle_value(root.result(*r.best), cutoff, eval, 1) == expected);
  // The principal variation is legal, starts with the best move, and leads to
  // the position whose value the root has.
  RC_ASSERT(!r.pv.empty());
  RC_ASSERT(r.pv.front() == *r.best);
  RC_ASSERT(is_legal_line(root, r.pv));
  RC_ASSERT(value_at_end(root, r.pv, cutoff, eval) == expected);
}

RC_GTEST_PROP(PlainSearch, MinimaxMatchesOracleAndVisitsWholeTree, ()) {
  const Tree root(any_tree_shape());
  const auto r = minimax(root);
  check_result(root, r, 0, NoHeuristic{}, oracle_value(root, 0, NoHeuristic{}));
  RC_ASSERT(r.exact);
  RC_ASSERT(r.stats.evaluations == 0U);
  std::vector<std::uint64_t> counts;
  count_tree(root, 0, counts);
  RC_ASSERT(r.stats.depth_counts() == counts);
  RC_ASSERT(r.depth == r.stats.max_depth);
}

RC_GTEST_PROP(PlainSearch, MinimaxWithCutoffMatchesOracle, ()) {
  const Tree root(any_tree_shape());
  const int cutoff = *rc::gen::inRange(1, root.shape().max_depth + 2);
  const KeyHeuristic eval = any_heuristic();
  const auto r = minimax(root, cutoff, eval);
  check_result(root, r, cutoff, eval, oracle_value(root, cutoff, eval));
  std::vector<std::uint64_t> counts;
  count_tree(root, cutoff, counts);
  RC_ASSERT(r.stats.depth_counts() == counts);
}

RC_GTEST_PROP(PlainSearch, AlphabetaEqualsMinimaxFullDepth, ()) {
  const Tree root(any_tree_shape());
  const auto mm = minimax(root);
  const auto ab = alphabeta(root);
  check_result(root, ab, 0, NoHeuristic{}, mm.value);
  RC_ASSERT(ab.exact);
  RC_ASSERT(ab.stats.nodes() <= mm.stats.nodes());
  // Alpha-beta searches a subset of minimax's tree, so depth by depth too.
  for (std::size_t d = 0; d < mm.stats.by_depth.size(); ++d) {
    RC_ASSERT(ab.stats.by_depth[d] <= mm.stats.by_depth[d]);
  }
  RC_ASSERT(mm.stats.cutoffs == 0U);
  if (ab.stats.cutoffs == 0) RC_ASSERT(ab.stats.nodes() == mm.stats.nodes());
  if (ab.stats.nodes() < mm.stats.nodes()) RC_ASSERT(ab.stats.cutoffs > 0U);
}

RC_GTEST_PROP(PlainSearch, AlphabetaEqualsMinimaxWithCutoffAndHeuristic, ()) {
  const Tree root(any_tree_shape());
  const int cutoff = *rc::gen::inRange(1, root.shape().max_depth + 2);
  const KeyHeuristic eval = any_heuristic();
  const auto mm = minimax(root, cutoff, eval);
  const auto ab = alphabeta(root, cutoff, eval);
  check_result(root, ab, cutoff, eval, mm.value);
  RC_ASSERT(ab.stats.nodes() <= mm.stats.nodes());
  RC_ASSERT(ab.stats.evaluations <= mm.stats.evaluations);
  for (std::size_t d = 0; d < mm.stats.by_depth.size(); ++d) {
    RC_ASSERT(ab.stats.by_depth[d] <= mm.stats.by_depth[d]);
  }
}

// The ordering hooks are the engine's business: plain searches ignore them.
RC_GTEST_PROP(PlainSearch, IgnoresOrderingHooks, ()) {
  const TreeShape shape = any_tree_shape();
  const int cutoff = *rc::gen::inRange(0, shape.max_depth + 2);
  const KeyHeuristic eval = any_heuristic();
  const auto bare = alphabeta(BareSyntheticTree(shape), cutoff, eval);
  const auto hinted = alphabeta(SyntheticTree(shape), cutoff, eval);
  RC_ASSERT(bare.value == hinted.value);
  RC_ASSERT(bare.best == hinted.best);
  RC_ASSERT(bare.stats.by_depth == hinted.stats.by_depth);
}

// Plain searches take the side to move from each state, so they stay right
// when a player moves twice in a row (a turn that does not alternate).
RC_GTEST_PROP(PlainSearch, NonAlternatingTurnsMatchOracle, ()) {
  TreeShape shape = any_tree_shape();
  shape.repeat_turn_percent = *rc::gen::inRange(1, 60);
  RC_LOG() << "repeat_turn_percent=" << shape.repeat_turn_percent << "\n";
  const Tree root(shape);
  const int cutoff = *rc::gen::inRange(0, shape.max_depth + 2);
  const KeyHeuristic eval = any_heuristic();
  const Value expected = oracle_value(root, cutoff, eval);
  check_result(root, minimax(root, cutoff, eval), cutoff, eval, expected);
  check_result(root, alphabeta(root, cutoff, eval), cutoff, eval, expected);
}

// Transpositions mean nothing to plain searches: they search the DAG as a tree.
RC_GTEST_PROP(PlainSearch, TranspositionsMatchOracle, ()) {
  const DagGame root(any_dag_shape());
  const int cutoff = *rc::gen::inRange(0, 9);
  const KeyHeuristic eval = any_heuristic();
  const Value expected = oracle_value(root, cutoff, eval);
  const auto mm = minimax(root, cutoff, eval);
  const auto ab = alphabeta(root, cutoff, eval);
  check_result(root, mm, cutoff, eval, expected);
  check_result(root, ab, cutoff, eval, expected);
  RC_ASSERT(ab.stats.nodes() <= mm.stats.nodes());
}

RC_GTEST_PROP(PlainSearch, NodeBudgetStopsExactlyAtTheLimit, ()) {
  const Tree root(any_tree_shape(6, 3));
  const auto full = minimax(root);
  const auto total = full.stats.nodes();
  const auto budget = *rc::gen::inRange<std::uint64_t>(1, total + 3);
  const auto r = minimax(root, 0, NoHeuristic{}, node_limit(budget));
  RC_ASSERT(r.complete == (budget >= total));
  if (r.complete) {
    RC_ASSERT(r.value == full.value);
    RC_ASSERT(r.best == full.best);
  } else {
    RC_ASSERT(!r.exact);
    RC_ASSERT(!r.best.has_value());
    // The node that hit the limit is counted, nothing after it.
    RC_ASSERT(r.stats.nodes() == budget + 1);
  }
}

// Lines deeper than the statistics and PV tables (kStatsDepths plies): the
// deepest plies share the last by_depth slot and the PV is cut at the table's
// size, but the value is exact.
TEST(PlainSearch, DeeperThanTheTables) {
  for (const Value end_payoff : {0, 1}) {
    const int length = 300;
    const test_support::CorridorGame root(length, end_payoff);
    for (const auto& r : {minimax(root), alphabeta(root)}) {
      EXPECT_EQ(r.value, terminal_value(end_payoff, length));
      EXPECT_TRUE(r.exact);
      EXPECT_EQ(r.stats.max_depth, length);
      EXPECT_EQ(r.stats.nodes(), r.stats.interior + r.stats.leaves);
      EXPECT_EQ(r.stats.depth_counts().size(), static_cast<std::size_t>(kStatsDepths));
      EXPECT_EQ(r.pv, std::vector<std::uint8_t>(static_cast<std::size_t>(kStatsDepths), 0));
    }
    const auto mm = minimax(root);
    EXPECT_EQ(mm.stats.nodes(), 2U * length + 1);
    // Plies 127..300 (two nodes each) all land in the last slot.
    const int last = kStatsDepths - 1;
    EXPECT_EQ(mm.stats.by_depth[static_cast<std::size_t>(last)], 2U * (length - last + 1));
    EXPECT_LE(alphabeta(root).stats.nodes(), mm.stats.nodes());
  }
}

TEST(SearchStats, EmptyAddAndDerived) {
  SearchStats empty;
  EXPECT_EQ(empty.nodes(), 0U);
  EXPECT_TRUE(empty.depth_counts().empty());
  EXPECT_EQ(empty.branching_factor(), 0.0);
  EXPECT_EQ(empty.nodes_per_second(), 0.0);

  SearchStats a;
  a.visit(0);
  a.visit(1);
  a.visit(1);
  a.interior = 1;
  a.leaves = 2;
  a.seconds = 0.5;
  SearchStats b;
  b.visit(0);
  b.visit(200);  // beyond kStatsDepths: counted in the last slot
  b.interior = 1;
  b.leaves = 1;
  b.evaluations = 1;
  b.cutoffs = 2;
  b.tt_probes = 3;
  b.tt_hits = 1;
  b.seconds = 1.5;
  EXPECT_EQ(b.max_depth, 200);
  EXPECT_EQ(b.by_depth[kStatsDepths - 1], 1U);
  a += b;
  EXPECT_EQ(a.nodes(), 5U);
  EXPECT_EQ(a.by_depth[0], 2U);
  EXPECT_EQ(a.by_depth[1], 2U);
  EXPECT_EQ(a.max_depth, 200);
  EXPECT_EQ(a.interior, 2U);
  EXPECT_EQ(a.leaves, 3U);
  EXPECT_EQ(a.evaluations, 1U);
  EXPECT_EQ(a.cutoffs, 2U);
  EXPECT_EQ(a.tt_probes, 3U);
  EXPECT_EQ(a.tt_hits, 1U);
  EXPECT_DOUBLE_EQ(a.seconds, 2.0);
  EXPECT_DOUBLE_EQ(a.nodes_per_second(), 2.5);
  EXPECT_DOUBLE_EQ(a.branching_factor(), 2.0);
  EXPECT_EQ(a.depth_counts().size(), static_cast<std::size_t>(kStatsDepths));
}

TEST(PlainSearch, TerminalRootHasNoMove) {
  for (Value payoff : {-2, 0, 3}) {
    TreeShape shape;
    shape.max_depth = 0;
    shape.max_payoff = 3;
    // Find a seed whose root payoff is `payoff`.
    for (shape.seed = 0; Tree(shape).utility() != payoff; ++shape.seed) {
    }
    const Tree root(shape);
    ASSERT_TRUE(root.is_terminal());
    for (const auto& r : {minimax(root), alphabeta(root), alphabeta(root, 3, KeyHeuristic{})}) {
      EXPECT_TRUE(r.complete);
      EXPECT_TRUE(r.exact);
      EXPECT_FALSE(r.best.has_value());
      EXPECT_TRUE(r.pv.empty());
      EXPECT_EQ(r.value, terminal_value(payoff, 0));
      EXPECT_EQ(r.stats.nodes(), 1U);
      EXPECT_EQ(r.stats.leaves, 1U);
      EXPECT_EQ(r.stats.interior, 0U);
      EXPECT_EQ(r.stats.branching_factor(), 0.0);
    }
  }
}

TEST(PlainSearch, StopFlagStopsAtOnce) {
  TreeShape shape;
  shape.seed = 7;
  shape.max_depth = 6;
  const Tree root(shape);
  std::atomic<bool> stop{true};
  const auto r = alphabeta(root, 0, NoHeuristic{}, stop_limit(&stop));
  EXPECT_FALSE(r.complete);
  EXPECT_FALSE(r.exact);
  EXPECT_FALSE(r.best.has_value());
  EXPECT_EQ(r.stats.nodes(), 1U);
}

// A hand-made example: MAX chooses between a MIN node worth 3 and one whose
// first leaf (2) already refutes it, so alpha-beta skips that node's other leaf.
TEST(PlainSearch, HandTreeCutoff) {
  // UniformTree(2, 2): root 0; MIN children worth 0 and -1; leaves 0, 1 | -1, 0.
  const test_support::UniformTree root(2, 2);
  const auto mm = minimax(root);
  const auto ab = alphabeta(root);
  EXPECT_EQ(mm.value, kDraw);
  EXPECT_EQ(ab.value, kDraw);
  EXPECT_EQ(mm.stats.depth_counts(), (std::vector<std::uint64_t>{1, 2, 4}));
  EXPECT_EQ(ab.stats.depth_counts(), (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_EQ(ab.stats.cutoffs, 1U);
  EXPECT_EQ(mm.stats.interior, 3U);
  EXPECT_EQ(ab.stats.interior, 3U);
  EXPECT_DOUBLE_EQ(mm.stats.branching_factor(), 2.0);
  EXPECT_DOUBLE_EQ(ab.stats.branching_factor(), 5.0 / 3.0);
  ASSERT_TRUE(ab.best.has_value());
  EXPECT_EQ(*ab.best, 0);
  EXPECT_EQ(ab.pv, (std::vector<std::uint8_t>{0, 0}));
}

}  // namespace
}  // namespace duel::search
