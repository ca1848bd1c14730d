// Exact solving (search/solve.hpp): the engine's exact value with the whole
// principal variation rebuilt, checked against the textbook oracle on random
// trees, on DAGs with transpositions, and on a line longer than the PV table.
#include "duel/search/solve.hpp"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <vector>

#include "../support/synthetic_tree.hpp"
#include "../support/tree_gen.hpp"
#include "duel/search/engine.hpp"

namespace duel::search {
namespace {

using test_support::any_dag_shape;
using test_support::any_heuristic;
using test_support::any_tree_shape;
using test_support::is_legal_line;
using test_support::KeyHeuristic;
using test_support::oracle_value;

// A solved result: exact, the oracle's value, and a PV that is legal, keeps
// the value at every step and ends on a terminal worth exactly that value.
template <class S>
void check_solved(const S& root, const SearchResult<typename S::Move>& r,
                  const KeyHeuristic& eval) {
  const Value expected = oracle_value(root, 0, eval);
  RC_ASSERT(r.exact);
  RC_ASSERT(r.value == expected);
  RC_ASSERT(is_legal_line(root, r.pv));
  RC_ASSERT(!r.pv.empty());
  RC_ASSERT(r.best.has_value());
  RC_ASSERT(*r.best == r.pv.front());
  S s = root;
  int ply = 0;
  for (const auto& m : r.pv) {
    s = s.result(m);
    ++ply;
    RC_ASSERT(oracle_value(s, 0, eval, ply) == expected);
  }
  RC_ASSERT(s.is_terminal());
  RC_ASSERT(terminal_value(s.utility(), ply) == expected);
}

RC_GTEST_PROP(SearchSolve, RandomTreesGiveValueAndFullLine, ()) {
  const test_support::SyntheticTree root(any_tree_shape());
  const KeyHeuristic eval = any_heuristic();
  const auto hash_mb = *rc::gen::element<std::size_t>(0, 1);
  Engine<test_support::SyntheticTree, KeyHeuristic> engine(eval, EngineOptions{.hash_mb = hash_mb});
  check_solved(root, solve(root, engine, Limits{}), eval);
}

RC_GTEST_PROP(SearchSolve, TranspositionsGiveValueAndFullLine, ()) {
  const test_support::DagGame root(any_dag_shape());
  const KeyHeuristic eval = any_heuristic();
  const auto hash_mb = *rc::gen::element<std::size_t>(0, 1);
  Engine<test_support::DagGame, KeyHeuristic> engine(eval, EngineOptions{.hash_mb = hash_mb});
  check_solved(root, solve(root, engine, Limits{}), eval);
}

// The rebuilt line is not cut at the PV table's size (kStatsDepths plies).
TEST(SearchSolve, LineLongerThanThePvTable) {
  const int length = 200;
  const test_support::CorridorGame root(length, 1);
  Engine<test_support::CorridorGame, KeyHeuristic> engine(KeyHeuristic{},
                                                          EngineOptions{.hash_mb = 1});
  const auto r = solve(root, engine, Limits{});
  EXPECT_TRUE(r.exact);
  EXPECT_EQ(r.value, win_in(length));
  EXPECT_EQ(r.pv, std::vector<std::uint8_t>(static_cast<std::size_t>(length), 0));
}

TEST(SearchSolve, TerminalRoot) {
  test_support::TreeShape shape;
  shape.max_depth = 0;
  const test_support::SyntheticTree root(shape);
  Engine<test_support::SyntheticTree, KeyHeuristic> engine(KeyHeuristic{},
                                                           EngineOptions{.hash_mb = 1});
  const auto r = solve(root, engine, Limits{});
  EXPECT_TRUE(r.exact);
  EXPECT_TRUE(r.pv.empty());
  EXPECT_FALSE(r.best.has_value());
  EXPECT_EQ(r.value, terminal_value(root.utility(), 0));
}

}  // namespace
}  // namespace duel::search
