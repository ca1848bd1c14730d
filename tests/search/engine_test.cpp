// The engine (search/engine.hpp) against plain alpha-beta and the textbook
// oracle on random synthetic trees (DESIGN habit 9): iterative deepening + PVS
// + TT + ordering gives alpha-beta's value at equal depth and the exact minimax
// value without limits, with the table and ordering on or off; under any
// limit, however small, it returns a legal move.
#include "duel/search/engine.hpp"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <vector>

#include "../support/limits.hpp"
#include "../support/synthetic_tree.hpp"
#include "../support/tree_gen.hpp"
#include "duel/search/plain.hpp"

namespace duel::search {
namespace {

using test_support::any_dag_shape;
using test_support::any_heuristic;
using test_support::any_tree_shape;
using test_support::BareSyntheticTree;
using test_support::DagGame;
using test_support::depth_limit;
using test_support::is_legal_line;
using test_support::KeyHeuristic;
using test_support::node_limit;
using test_support::oracle_value;
using test_support::stop_limit;
using test_support::SyntheticTree;
using test_support::time_limit;
using test_support::TreeShape;

// The four combinations of table and ordering, and two deepenings that start
// deeper (as solvers do); the table is kept small (1 MB) so that building an
// engine per property run stays cheap.
const std::array<EngineOptions, 6> kOptions = {{
    {.hash_mb = 1, .ordering = true},
    {.hash_mb = 0, .ordering = true},
    {.hash_mb = 1, .ordering = false},
    {.hash_mb = 0, .ordering = false},
    {.hash_mb = 1, .ordering = true, .first_depth = 3},
    {.hash_mb = 0, .ordering = false, .first_depth = 2},
}};

// The depth of the engine's first iteration under a depth limit (0 = none).
int first_iteration(const EngineOptions& options, int depth_limit_or_zero) {
  const int cap = depth_limit_or_zero > 0 ? depth_limit_or_zero : kMaxPly - 2;
  return std::min(cap, options.first_depth);
}

// Statistics every completed engine search satisfies.
void check_engine_stats(const SearchStats& s, const EngineOptions& options, int iterations) {
  std::uint64_t sum = 0;
  for (auto c : s.by_depth) sum += c;
  RC_ASSERT(s.nodes() == sum);
  RC_ASSERT(s.by_depth[0] == static_cast<std::uint64_t>(iterations));  // one root per iteration
  RC_ASSERT(s.interior + s.leaves == s.nodes());
  RC_ASSERT(s.evaluations <= s.leaves);
  RC_ASSERT(s.tt_hits <= s.tt_probes);
  if (options.hash_mb == 0) RC_ASSERT(s.tt_probes == 0U);
  if (s.interior > 0) {
    RC_ASSERT(s.branching_factor() ==
              static_cast<double>(s.nodes() - 1) / static_cast<double>(s.interior));
  }
}

// Runs a fresh engine on `root` to `depth` (0 = no limit) and checks it against
// plain alpha-beta at the same depth, and against the oracle when exact.
template <class S>
void check_engine(const S& root, const KeyHeuristic& eval, const EngineOptions& options,
                  int depth) {
  Engine<S, KeyHeuristic> engine(eval, options);
  std::vector<int> info_depths;
  Value last_info_value = 0;
  const auto r =
      engine.search(root, depth_limit(depth),
                    [&](const SearchInfo& info, const std::vector<typename S::Move>& pv) {
                      info_depths.push_back(info.depth);
                      last_info_value = info.value;
                      RC_ASSERT(is_legal_line(root, pv));
                    });
  RC_ASSERT(r.complete);
  RC_ASSERT(r.best.has_value());
  RC_ASSERT(is_legal_line(root, {*r.best}));
  RC_ASSERT(is_legal_line(root, r.pv));
  RC_ASSERT(!r.pv.empty());
  RC_ASSERT(r.pv.front() == *r.best);
  const int first = first_iteration(options, depth);
  RC_ASSERT(r.depth >= first);
  if (depth > 0) RC_ASSERT(r.depth <= depth);
  // Deepening stops early only when the value is exact.
  if (depth > 0 && r.depth < depth) RC_ASSERT(r.exact);
  if (depth == 0) RC_ASSERT(r.exact);
  // One report per finished iteration, first..r.depth, the last one the result.
  const int iterations = r.depth - first + 1;
  RC_ASSERT(static_cast<int>(info_depths.size()) == iterations);
  for (std::size_t i = 0; i < info_depths.size(); ++i) {
    RC_ASSERT(info_depths[i] == first + static_cast<int>(i));
  }
  RC_ASSERT(last_info_value == r.value);
  check_engine_stats(r.stats, options, iterations);

  if (r.exact) {
    // The game-theoretic value, and the best move achieves it.
    RC_ASSERT(r.value == oracle_value(root, 0, eval));
    RC_ASSERT(oracle_value(root.result(*r.best), 0, eval, 1) == r.value);
  }
  if (depth > 0) {
    // Alpha-beta with the same cut-off and heuristic agrees, and the best
    // move is worth the value at that depth.
    const auto ab = alphabeta(root, depth, eval);
    RC_ASSERT(r.value == ab.value);
    RC_ASSERT(r.value == oracle_value(root, depth, eval));
    RC_ASSERT(oracle_value(root.result(*r.best), depth, eval, 1) == r.value);
  }
}

RC_GTEST_PROP(EngineSearch, FixedDepthMatchesAlphabeta, ()) {
  const TreeShape shape = any_tree_shape();
  const int depth = *rc::gen::inRange(1, shape.max_depth + 2);
  const KeyHeuristic eval = any_heuristic();
  for (const auto& options : kOptions) {
    check_engine(SyntheticTree(shape), eval, options, depth);
    check_engine(BareSyntheticTree(shape), eval, options, depth);
  }
}

// Minimax in First's view where a draw is worth `draw` (First's view too):
// contempt is a constant from the root side's view, so it is one in
// First's as well.
template <class S>
Value contempt_oracle(const S& s, Value draw, int ply = 0) {
  if (s.is_terminal()) return s.utility() == 0 ? draw : terminal_value(s.utility(), ply);
  typename S::Moves moves;
  s.actions(moves);
  const bool max_turn = s.to_move() == Player::First;
  Value best = max_turn ? -kInfinite : kInfinite;
  for (const auto& m : moves) {
    const Value v = contempt_oracle(s.result(m), draw, ply + 1);
    best = max_turn ? std::max(v, best) : std::min(v, best);
  }
  return best;
}

// Contempt: a draw is worth `contempt` to the side to move at the root and
// the negation to the other, at every depth of the tree (the sign is the
// root side's, not the mover's). Searched to the bottom of the tree, so
// the heuristic never answers and only the draws' worth changes the value.
RC_GTEST_PROP(EngineSearch, ContemptScoresDrawsForTheRootSide, ()) {
  const TreeShape shape = any_tree_shape();
  const Value contempt = *rc::gen::inRange(-3 * kUnit / 4, 3 * kUnit / 4);
  RC_LOG() << "contempt=" << contempt << "\n";
  const SyntheticTree root(shape);
  const Value draw = for_player(contempt, root.to_move());
  for (auto options : kOptions) {
    options.contempt = contempt;
    Engine<SyntheticTree, KeyHeuristic> engine(KeyHeuristic{}, options);
    const auto r = engine.search(root, depth_limit(shape.max_depth + 1));
    RC_ASSERT(r.complete);
    RC_ASSERT(r.value == contempt_oracle(root, draw));
    RC_ASSERT(contempt_oracle(root.result(*r.best), draw, 1) == r.value);
    // The same engine, now for the other side: its draws change sign, so
    // what the table learned for the first side must not answer.
    const SyntheticTree next = root.result(*r.best);
    if (next.is_terminal()) continue;
    // To the bottom again, at the depths the first search stored there.
    const auto r2 = engine.search(next, depth_limit(shape.max_depth));
    RC_ASSERT(r2.value == contempt_oracle(next, for_player(contempt, next.to_move())));
  }
}

RC_GTEST_PROP(EngineSearch, NoLimitsGivesExactMinimaxValue, ()) {
  const TreeShape shape = any_tree_shape();
  const KeyHeuristic eval = any_heuristic();
  const SyntheticTree root(shape);
  const Value expected = minimax(root).value;
  RC_ASSERT(expected == oracle_value(root, 0, eval));
  for (const auto& options : kOptions) {
    Engine<SyntheticTree, KeyHeuristic> engine(eval, options);
    const auto r = engine.search(root, Limits{});
    RC_ASSERT(r.exact);
    RC_ASSERT(r.complete);
    RC_ASSERT(r.value == expected);
    check_engine(root, eval, options, 0);
  }
}

// A second search in the same engine (warm table, history) finds the same value.
RC_GTEST_PROP(EngineSearch, RepeatedSearchesAgree, ()) {
  const TreeShape shape = any_tree_shape();
  const KeyHeuristic eval = any_heuristic();
  const SyntheticTree root(shape);
  const int depth = *rc::gen::inRange(0, shape.max_depth + 2);
  Engine<SyntheticTree, KeyHeuristic> engine(eval, EngineOptions{.hash_mb = 1});
  const auto first = engine.search(root, depth_limit(depth));
  const auto second = engine.search(root, depth_limit(depth));
  // (Whether the second is exact may differ: the warm table can prove with
  // terminals alone what the first search needed the heuristic for.)
  RC_ASSERT(first.value == second.value);
  engine.new_game();
  const auto third = engine.search(root, depth_limit(depth));
  RC_ASSERT(third.value == first.value);
  RC_ASSERT(third.depth == first.depth);
  RC_ASSERT(third.stats.nodes() == first.stats.nodes());
}

RC_GTEST_PROP(EngineSearch, TinyNodeBudgetStillGivesLegalMove, ()) {
  const TreeShape shape = any_tree_shape();
  const SyntheticTree root(shape);
  const auto options = *rc::gen::elementOf(kOptions);
  Engine<SyntheticTree, KeyHeuristic> engine(any_heuristic(), options);
  const auto r = engine.search(root, node_limit(1));
  RC_ASSERT(r.best.has_value());
  RC_ASSERT(is_legal_line(root, {*r.best}));
  RC_ASSERT(!r.complete);  // the first child already exceeds the budget
  RC_ASSERT(!r.exact);
}

RC_GTEST_PROP(EngineSearch, AnyNodeBudgetGivesLegalMove, ()) {
  const TreeShape shape = any_tree_shape();
  const SyntheticTree root(shape);
  const auto budget = *rc::gen::inRange<std::uint64_t>(1, 2000);
  const auto options = *rc::gen::elementOf(kOptions);
  const KeyHeuristic eval = any_heuristic();
  Engine<SyntheticTree, KeyHeuristic> engine(eval, options);
  const auto r = engine.search(root, node_limit(budget));
  RC_ASSERT(r.best.has_value());
  RC_ASSERT(is_legal_line(root, {*r.best}));
  RC_ASSERT(is_legal_line(root, r.pv));
  // The budget counts nodes; the one that hits it is counted too.
  RC_ASSERT(r.stats.nodes() <= budget + 1);
  if (r.exact) RC_ASSERT(r.value == oracle_value(root, 0, eval));
  // A search that finished an iteration reports that iteration's value,
  // unless it was stopped inside the next one after a move there beat the
  // rest: it then plays that move and reports its value one ply deeper,
  // exact or, where the move's window failed high, a bound for the mover
  // (docs/engine.md, "The loop", Time).
  if (r.depth > 0 && !r.exact && r.value != oracle_value(root, r.depth, eval)) {
    const Value deeper = oracle_value(root.result(*r.best), r.depth + 1, eval, 1);
    if (root.to_move() == Player::First) {
      RC_ASSERT(r.value <= deeper);
    } else {
      RC_ASSERT(r.value >= deeper);
    }
  }
}

RC_GTEST_PROP(EngineSearch, TinyTimeStillGivesLegalMove, ()) {
  const TreeShape shape = any_tree_shape();
  const SyntheticTree root(shape);
  const auto options = *rc::gen::elementOf(kOptions);
  Engine<SyntheticTree, KeyHeuristic> engine(any_heuristic(), options);
  const auto r = engine.search(root, time_limit(1e-6));
  RC_ASSERT(r.best.has_value());
  RC_ASSERT(is_legal_line(root, {*r.best}));
  RC_ASSERT(is_legal_line(root, r.pv));
}

// Transpositions: one state reached by paths of different lengths. Without
// limits the table's relative win distances (to_tt/from_tt) and its
// depth-independent exact entries must still give the exact minimax value.
RC_GTEST_PROP(EngineSearch, TranspositionsNoLimitsGiveExactValue, ()) {
  const DagGame root(any_dag_shape());
  const KeyHeuristic eval = any_heuristic();
  const Value expected = oracle_value(root, 0, eval);
  for (const auto& options : kOptions) {
    Engine<DagGame, KeyHeuristic> engine(eval, options);
    const auto r = engine.search(root, Limits{});
    RC_ASSERT(r.complete);
    RC_ASSERT(r.exact);
    RC_ASSERT(r.value == expected);
    RC_ASSERT(r.best.has_value());
    RC_ASSERT(oracle_value(root.result(*r.best), 0, eval, 1) == expected);
    RC_ASSERT(is_legal_line(root, r.pv));
    // Searching again with the warm table changes nothing.
    const auto again = engine.search(root, Limits{});
    RC_ASSERT(again.exact);
    RC_ASSERT(again.value == expected);
  }
}

// At a fixed depth a table may legitimately know more than the horizon (an
// entry from a shallower ply), so only the table-less engine must equal
// alpha-beta there; with the table the result is still legal, and exact when
// it says so.
RC_GTEST_PROP(EngineSearch, TranspositionsAtFixedDepth, ()) {
  const DagGame root(any_dag_shape());
  const KeyHeuristic eval = any_heuristic();
  const int depth = *rc::gen::inRange(1, 9);
  const auto ab = alphabeta(root, depth, eval);
  for (const auto& options : kOptions) {
    Engine<DagGame, KeyHeuristic> engine(eval, options);
    const auto r = engine.search(root, depth_limit(depth));
    RC_ASSERT(r.complete);
    RC_ASSERT(r.best.has_value());
    RC_ASSERT(is_legal_line(root, r.pv));
    if (options.hash_mb == 0) RC_ASSERT(r.value == ab.value);
    if (r.exact) RC_ASSERT(r.value == oracle_value(root, 0, eval));
  }
}

// Solves a corridor (support/synthetic_tree.hpp) of `length` plies with every
// option set and checks the exact value.
void check_corridor(int length) {
  for (const Value end_payoff : {0, 1}) {
    for (const auto& options : kOptions) {
      SCOPED_TRACE(testing::Message()
                   << "length=" << length << " end_payoff=" << end_payoff
                   << " hash_mb=" << options.hash_mb << " ordering=" << options.ordering
                   << " first_depth=" << options.first_depth);
      const test_support::CorridorGame root(length, end_payoff);
      Engine<test_support::CorridorGame, KeyHeuristic> engine(KeyHeuristic{}, options);
      const auto r = engine.search(root, Limits{});
      EXPECT_TRUE(r.exact);
      EXPECT_TRUE(r.complete);
      EXPECT_EQ(r.value, terminal_value(end_payoff, length));
      EXPECT_EQ(r.depth, length);
      ASSERT_TRUE(r.best.has_value());
      EXPECT_EQ(*r.best, 0);
      EXPECT_LE(r.pv.size(), static_cast<std::size_t>(kStatsDepths));
      EXPECT_TRUE(is_legal_line(root, r.pv));
      EXPECT_EQ(r.stats.by_depth[0],
                static_cast<std::uint64_t>(length - first_iteration(options, 0) + 1));
      EXPECT_EQ(r.stats.max_depth, length);
    }
  }
}

// Deeper than the statistics and PV tables (kStatsDepths plies): the value is
// still exact.
TEST(EngineSearch, DeeperThanTheTables) {
  check_corridor(200);
}

// BUG (src/duel/search/engine.hpp, negamax Step 5, with tt.hpp's store): an
// inexact result searched to a remaining depth of exactly 255 is stored with
// `stored_depth = depth` = 255, and TranspositionTable::store reads 255 as
// kDepthAny ("exact, valid at any depth"). In the next iteration the probe
// (`e->depth == kDepthAny || ...`) answers the node from that entry without
// counting it as inexact, so the root reports exact = true with a heuristic
// value. Here: CorridorGame(300, 0), default options, Limits{} stops after
// iteration 257 (3 nodes) with value -34825 (a KeyHeuristic estimate) and
// exact = true, instead of going on to 300 plies and the draw (0). Fix: store
// inexact results with depth min(depth, 254), or give store() an explicit
// "exact" flag. This test fails until then; up to 255 plies of deepening
// (DeeperThanTheTables) it passes.
TEST(EngineSearch, DeeperThan255Plies) {
  check_corridor(300);
  check_corridor(kMaxPly - 2);  // the deepest iteration the engine runs
}

TEST(EngineSearch, StopFlagStillGivesLegalMove) {
  TreeShape shape;
  shape.seed = 11;
  shape.max_depth = 8;
  const SyntheticTree root(shape);
  std::atomic<bool> stop{true};
  Engine<SyntheticTree, KeyHeuristic> engine(KeyHeuristic{}, EngineOptions{.hash_mb = 1});
  const auto r = engine.search(root, stop_limit(&stop));
  ASSERT_TRUE(r.best.has_value());
  EXPECT_TRUE(is_legal_line(root, {*r.best}));
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.depth, 0);
}

TEST(EngineSearch, TerminalRoot) {
  TreeShape shape;
  shape.max_depth = 0;
  shape.max_payoff = 2;
  for (shape.seed = 0; BareSyntheticTree(shape).utility() == 0; ++shape.seed) {
  }
  const BareSyntheticTree root(shape);
  Engine<BareSyntheticTree, KeyHeuristic> engine(KeyHeuristic{}, EngineOptions{.hash_mb = 1});
  const auto r = engine.search(root, node_limit(1));
  EXPECT_FALSE(r.best.has_value());
  EXPECT_TRUE(r.exact);
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.value, terminal_value(root.utility(), 0));
}

// The default table (16 MB) behaves like the small one.
TEST(EngineSearch, DefaultOptionsSolveATree) {
  TreeShape shape;
  shape.seed = 2024;
  shape.max_branching = 4;
  shape.max_depth = 8;
  const SyntheticTree root(shape);
  Engine<SyntheticTree, KeyHeuristic> engine(KeyHeuristic{});
  const auto r = engine.search(root, Limits{});
  EXPECT_TRUE(r.exact);
  EXPECT_EQ(r.value, minimax(root).value);
  EXPECT_LE(r.stats.nodes(), minimax(root).stats.nodes() * shape.max_depth);
  EXPECT_GT(r.stats.tt_hits, 0U);
}

// BUG (src/duel/search/engine.hpp, Step 4 of negamax): the engine negates every
// child's value (`v = -negamax(child, ...)`), i.e. it assumes the side to move
// changes on every move. The GameState concept does not say so (to_move() is
// any Player, and plain.hpp handles a player moving twice), so on a game where
// a player moves again the engine's value differs from minimax. Either the
// engine must negate only when child.to_move() != s.to_move() (and the TT /
// PVS window must follow), or the concept must require alternation (games
// then model "moves again" as an explicit pass). This test fails until then.
RC_GTEST_PROP(EngineSearch, NonAlternatingTurnsMatchMinimax, ()) {
  TreeShape shape = any_tree_shape();
  shape.repeat_turn_percent = *rc::gen::inRange(1, 60);
  RC_LOG() << "repeat_turn_percent=" << shape.repeat_turn_percent << "\n";
  const BareSyntheticTree root(shape);
  const KeyHeuristic eval = any_heuristic();
  Engine<BareSyntheticTree, KeyHeuristic> engine(eval, EngineOptions{.hash_mb = 0});
  const auto r = engine.search(root, Limits{});
  RC_ASSERT(r.value == oracle_value(root, 0, eval));
}

}  // namespace
}  // namespace duel::search
