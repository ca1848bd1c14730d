#pragma once
// rapidcheck generators for the synthetic games (tests/support/synthetic_tree.hpp).
//
// Why: every search property draws its tree the same way, with sizes bounded
// so that the whole suite stays fast (a few thousand nodes per tree at most).
#include <rapidcheck.h>

#include <cstdint>

#include "synthetic_tree.hpp"

namespace duel::test_support {

// A random tree shape; call inside a property. Trees have at most
// max_branching_hi^max_depth_hi leaves, usually far fewer.
inline TreeShape any_tree_shape(int max_depth_hi = 7, int max_branching_hi = 4) {
  TreeShape t;
  t.seed = *rc::gen::arbitrary<std::uint64_t>();
  t.max_branching = *rc::gen::inRange(1, max_branching_hi + 1);
  t.max_depth = *rc::gen::inRange(1, max_depth_hi + 1);
  t.terminal_percent = *rc::gen::inRange(0, 50);
  t.max_payoff = *rc::gen::inRange(0, 4);
  t.first_mover = *rc::gen::arbitrary<bool>() ? Player::Second : Player::First;
  RC_LOG() << t << "\n";
  return t;
}

// A random DAG with transpositions (at most max_branching^layers paths).
inline DagShape any_dag_shape(int layers_hi = 8, int max_branching_hi = 3) {
  DagShape d;
  d.seed = *rc::gen::arbitrary<std::uint64_t>();
  d.width = *rc::gen::inRange(1, 6);
  d.layers = *rc::gen::inRange(1, layers_hi + 1);
  d.max_branching = *rc::gen::inRange(1, max_branching_hi + 1);
  d.terminal_percent = *rc::gen::inRange(0, 40);
  d.max_payoff = *rc::gen::inRange(0, 4);
  RC_LOG() << d << "\n";
  return d;
}

// A random heuristic: coarse (many ties) or fine.
inline KeyHeuristic any_heuristic() {
  KeyHeuristic h;
  h.salt = *rc::gen::arbitrary<std::uint64_t>();
  h.levels = *rc::gen::element(2, 5, 41, 2001);
  RC_LOG() << "KeyHeuristic{salt=" << h.salt << ", levels=" << h.levels << "}\n";
  return h;
}

}  // namespace duel::test_support
