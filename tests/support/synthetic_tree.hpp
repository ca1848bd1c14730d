#pragma once
// Synthetic games for the search tests: a random game tree grown from a seed,
// a heuristic for it, a perfectly ordered uniform tree (Knuth–Moore), and a
// textbook minimax oracle written independently of search/plain.hpp.
//
// Why: the searches are templates over GameState, so their differential tests
// (DESIGN habit 9) need games whose trees are small, varied, reproducible from
// one seed, and free of transpositions — every node has its own key — so that a
// search with a transposition table must agree exactly with one without.
#include <cassert>
#include <cstdint>
#include <ostream>
#include <vector>

#include "duel/core/move_list.hpp"
#include "duel/core/rng.hpp"
#include "duel/core/types.hpp"
#include "duel/search/concepts.hpp"

namespace duel::test_support {

// The shape of a random tree. Everything about a node (terminal or not, its
// number of children, its payoff, who moves) is a pure function of (seed, path).
struct TreeShape {
  static constexpr int kMaxBranching = 6;  // Moves capacity
  static constexpr int kMaxDepth = 20;     // (kMaxBranching + 1)^20 < 2^64: ids stay unique

  std::uint64_t seed = 0;
  int max_branching = 3;      // interior nodes have 1..max_branching children
  int max_depth = 5;          // every node at this depth is terminal
  int terminal_percent = 20;  // chance that a non-root node above max_depth is terminal
  int max_payoff = 2;         // terminal payoffs are -max_payoff..max_payoff points
  // Percent of nodes whose mover moves again (a turn that does not alternate).
  // 0 for strictly alternating games; > 0 only for the tests about that case.
  int repeat_turn_percent = 0;
  Player first_mover = Player::First;  // who moves at the root

  friend std::ostream& operator<<(std::ostream& os, const TreeShape& t) {
    return os << "TreeShape{seed=" << t.seed << ", max_branching=" << t.max_branching
              << ", max_depth=" << t.max_depth << ", terminal_percent=" << t.terminal_percent
              << ", max_payoff=" << t.max_payoff
              << ", repeat_turn_percent=" << t.repeat_turn_percent
              << ", first_mover=" << number(t.first_mover) << "}";
  }
};

// A node of a random game tree. `kHints` adds the optional ordering hooks
// (HasOrderHint, HasHistoryIndex) so that the engine's ordering code runs.
template <bool kHints>
class BasicSyntheticTree {
 public:
  using Move = std::uint8_t;  // index of the child, 0-based
  using Moves = MoveList<Move, TreeShape::kMaxBranching>;
  static constexpr std::size_t kHistorySize = TreeShape::kMaxBranching;

  explicit BasicSyntheticTree(const TreeShape& shape) : m_shape(shape) {
    assert(shape.max_branching >= 1 && shape.max_branching <= TreeShape::kMaxBranching);
    assert(shape.max_depth >= 0 && shape.max_depth <= TreeShape::kMaxDepth);
    m_shape_hash = mix64(shape.seed ^ 0x5EED5EED5EED5EEDULL);
    m_to_move = shape.first_mover;
  }

  [[nodiscard]] Player to_move() const noexcept { return m_to_move; }
  [[nodiscard]] int depth() const noexcept { return m_depth; }
  [[nodiscard]] const TreeShape& shape() const noexcept { return m_shape; }

  [[nodiscard]] bool is_terminal() const noexcept { return children() == 0; }

  // Number of children: 0 exactly when terminal.
  [[nodiscard]] int children() const noexcept {
    if (m_depth >= m_shape.max_depth) return 0;
    if (m_depth > 0 && static_cast<int>(attribute(1) % 100) < m_shape.terminal_percent) return 0;
    return 1 + static_cast<int>(attribute(2) % static_cast<std::uint64_t>(m_shape.max_branching));
  }

  void actions(Moves& out) const {
    out.clear();
    const int n = children();
    for (int i = 0; i < n; ++i) out.push_back(static_cast<Move>(i));
  }

  [[nodiscard]] BasicSyntheticTree result(const Move& m) const {
    assert(static_cast<int>(m) < children());
    BasicSyntheticTree child = *this;
    child.m_id = m_id * (TreeShape::kMaxBranching + 1) + m + 1U;
    child.m_depth = m_depth + 1;
    const bool repeat = static_cast<int>(child.attribute(3) % 100) < m_shape.repeat_turn_percent;
    child.m_to_move = repeat ? m_to_move : other(m_to_move);
    return child;
  }

  // Payoff in points from First's view, in -max_payoff..max_payoff.
  [[nodiscard]] Value utility() const noexcept {
    const auto span = static_cast<std::uint64_t>(2 * m_shape.max_payoff + 1);
    return static_cast<Value>(attribute(4) % span) - m_shape.max_payoff;
  }

  // Unique per node: the path id is unique (base kMaxBranching + 1 digits), and
  // xor with a constant and mix64 are both bijections.
  [[nodiscard]] std::uint64_t key() const noexcept { return mix64(m_id ^ m_shape_hash); }

  [[nodiscard]] int order_hint(const Move& m) const noexcept requires kHints {
    return static_cast<int>(mix64(key() ^ (0xA5A5ULL + m)) % 7);
  }
  [[nodiscard]] static std::size_t history_index(const Move& m) noexcept requires kHints {
    return m;
  }

  friend bool operator==(const BasicSyntheticTree& a, const BasicSyntheticTree& b) noexcept {
    return a.m_shape_hash == b.m_shape_hash && a.m_id == b.m_id && a.m_depth == b.m_depth &&
           a.m_to_move == b.m_to_move;
  }

 private:
  [[nodiscard]] std::uint64_t attribute(std::uint64_t which) const noexcept {
    return mix64(key() ^ (which * 0x9E3779B97F4A7C15ULL));
  }

  TreeShape m_shape;
  std::uint64_t m_shape_hash = 0;
  std::uint64_t m_id = 0;  // path from the root, one base-(kMaxBranching + 1) digit per ply
  int m_depth = 0;
  Player m_to_move = Player::First;
};

using SyntheticTree = BasicSyntheticTree<true>;
using BareSyntheticTree = BasicSyntheticTree<false>;

static_assert(search::GameState<SyntheticTree>);
static_assert(search::GameState<BareSyntheticTree>);
static_assert(search::HasOrderHint<SyntheticTree> && search::HasHistoryIndex<SyntheticTree>);
static_assert(!search::HasOrderHint<BareSyntheticTree>);
static_assert(!search::HasHistoryIndex<BareSyntheticTree>);

// A random game with transpositions: states sit on layers 0..layers, `width`
// states per layer, and a move goes one or two layers down, so one state can
// be reached by paths of different lengths (and so at different plies, with
// the same side to move when the lengths have the same parity). A state's
// future depends only on (layer, index, side to move), which is its key. The
// searches must still agree with a minimax that expands the DAG as a tree.
struct DagShape {
  std::uint64_t seed = 0;
  int width = 3;              // states per layer (and side to move), 1..64
  int layers = 6;             // states on the last layer are terminal
  int max_branching = 3;      // 1..TreeShape::kMaxBranching moves per state
  int terminal_percent = 15;  // chance that a state above the last layer is terminal
  int max_payoff = 2;

  friend std::ostream& operator<<(std::ostream& os, const DagShape& d) {
    return os << "DagShape{seed=" << d.seed << ", width=" << d.width << ", layers=" << d.layers
              << ", max_branching=" << d.max_branching
              << ", terminal_percent=" << d.terminal_percent << ", max_payoff=" << d.max_payoff
              << "}";
  }
};

class DagGame {
 public:
  using Move = std::uint8_t;
  using Moves = MoveList<Move, TreeShape::kMaxBranching>;

  explicit DagGame(const DagShape& shape) : m_shape(shape) {
    assert(shape.width >= 1 && shape.width <= 64);
    assert(shape.max_branching >= 1 && shape.max_branching <= TreeShape::kMaxBranching);
    m_shape_hash = mix64(shape.seed ^ 0xDA6DA6DA6ULL);
  }

  [[nodiscard]] Player to_move() const noexcept { return m_to_move; }
  [[nodiscard]] int layer() const noexcept { return m_layer; }
  [[nodiscard]] bool is_terminal() const noexcept { return children() == 0; }
  [[nodiscard]] int children() const noexcept {
    if (m_layer >= m_shape.layers) return 0;
    if (m_layer > 0 && static_cast<int>(attribute(1) % 100) < m_shape.terminal_percent) return 0;
    return 1 + static_cast<int>(attribute(2) % static_cast<std::uint64_t>(m_shape.max_branching));
  }
  void actions(Moves& out) const {
    out.clear();
    const int n = children();
    for (int i = 0; i < n; ++i) out.push_back(static_cast<Move>(i));
  }
  [[nodiscard]] DagGame result(const Move& m) const {
    assert(static_cast<int>(m) < children());
    const std::uint64_t h = attribute(16 + m);
    DagGame child = *this;
    child.m_layer = m_layer + 1 + static_cast<int>(h & 1U);
    if (child.m_layer > m_shape.layers) child.m_layer = m_shape.layers;
    child.m_index = static_cast<int>((h >> 1) % static_cast<std::uint64_t>(m_shape.width));
    child.m_to_move = other(m_to_move);
    return child;
  }
  [[nodiscard]] Value utility() const noexcept {
    const auto span = static_cast<std::uint64_t>(2 * m_shape.max_payoff + 1);
    return static_cast<Value>(attribute(4) % span) - m_shape.max_payoff;
  }
  [[nodiscard]] std::uint64_t key() const noexcept {
    const auto id =
        (static_cast<std::uint64_t>(m_layer) * 64 + static_cast<std::uint64_t>(m_index)) * 2 +
        static_cast<std::uint64_t>(index(m_to_move));
    return mix64(id ^ m_shape_hash);
  }

 private:
  [[nodiscard]] std::uint64_t attribute(std::uint64_t which) const noexcept {
    return mix64(key() ^ (which * 0x9E3779B97F4A7C15ULL));
  }

  DagShape m_shape;
  std::uint64_t m_shape_hash = 0;
  int m_layer = 0;
  int m_index = 0;
  Player m_to_move = Player::First;
};
static_assert(search::GameState<DagGame>);

// A corridor `length` plies long, deeper than the statistics and PV tables
// (kStatsDepths): at each ply the mover may go on (move 0) or stop (move 1),
// which ends the game at once with a payoff bad for the one who stopped
// (First stopping: -1; Second stopping: +2). Going on to the end is worth
// `end_payoff` (0 or +1), so with best play both go on and the principal
// variation is the whole corridor.
class CorridorGame {
 public:
  using Move = std::uint8_t;
  using Moves = MoveList<Move, 2>;

  CorridorGame(int length, Value end_payoff) : m_length(length), m_end_payoff(end_payoff) {}

  [[nodiscard]] Player to_move() const noexcept {
    return m_ply % 2 == 0 ? Player::First : Player::Second;
  }
  [[nodiscard]] bool is_terminal() const noexcept { return m_stopped || m_ply >= m_length; }
  void actions(Moves& out) const {
    out.clear();
    if (is_terminal()) return;
    out.push_back(0);
    out.push_back(1);
  }
  [[nodiscard]] CorridorGame result(const Move& m) const {
    CorridorGame child = *this;
    child.m_stopped = m == 1;
    child.m_ply = m_ply + 1;
    return child;
  }
  [[nodiscard]] Value utility() const noexcept {
    if (!m_stopped) return m_end_payoff;
    return m_ply % 2 == 1 ? -1 : 2;  // the one who stopped moved at m_ply - 1
  }
  [[nodiscard]] std::uint64_t key() const noexcept {
    return mix64(static_cast<std::uint64_t>(m_ply) * 2 + (m_stopped ? 1U : 0U));
  }

 private:
  int m_length;
  Value m_end_payoff;
  int m_ply = 0;
  bool m_stopped = false;
};
static_assert(search::GameState<CorridorGame>);

// The largest estimate a heuristic may return (core/types.hpp: strictly inside
// ±(kUnit - kMaxPly)).
inline constexpr Value kEstimateLimit = kUnit - kMaxPly - 1;

// A deterministic heuristic for any state with key(): `levels` evenly spaced
// values in [-limit, limit], picked by hashing (key, salt). Few levels make
// ties common, which is where ordering-dependent bugs hide.
struct KeyHeuristic {
  std::uint64_t salt = 0;
  int levels = 41;  // >= 2
  Value limit = kEstimateLimit;

  template <class S>
  [[nodiscard]] Value operator()(const S& s) const noexcept {
    const auto pick =
        static_cast<Value>(mix64(s.key() ^ mix64(salt)) % static_cast<std::uint64_t>(levels));
    const Value step = 2 * limit / (levels - 1);
    return -limit + pick * step;
  }
};

// A uniform tree: every node above `depth` has `branching` children, leaves are
// terminal. Children are ordered best-first for the side to move, strictly: a
// node worth v (in points) at a First-to-move (MAX) node has children worth
// v, v-1, v-2, ...; at a MIN node v, v+1, v+2, ... The first child of every
// node is therefore its unique best, all other children are strictly worse, and
// every node's minimax value is its assigned v. Leaves (all at ply `depth`) get
// payoff v, so their Values are strictly monotone in v.
class UniformTree {
 public:
  using Move = std::uint8_t;
  using Moves = MoveList<Move, TreeShape::kMaxBranching>;

  UniformTree(int branching, int depth) : m_branching(branching), m_max_depth(depth) {
    assert(branching >= 1 && branching <= TreeShape::kMaxBranching);
    assert(depth >= 0 && depth <= TreeShape::kMaxDepth);
    assert((branching - 1) * depth <= kMaxPayoff);
  }

  [[nodiscard]] Player to_move() const noexcept {
    return m_depth % 2 == 0 ? Player::First : Player::Second;
  }
  [[nodiscard]] bool is_terminal() const noexcept { return m_depth >= m_max_depth; }
  void actions(Moves& out) const {
    out.clear();
    if (is_terminal()) return;
    for (int i = 0; i < m_branching; ++i) out.push_back(static_cast<Move>(i));
  }
  [[nodiscard]] UniformTree result(const Move& m) const {
    UniformTree child = *this;
    child.m_id = m_id * (TreeShape::kMaxBranching + 1) + m + 1U;
    child.m_depth = m_depth + 1;
    child.m_value = to_move() == Player::First ? m_value - m : m_value + m;
    return child;
  }
  [[nodiscard]] Value utility() const noexcept { return m_value; }
  [[nodiscard]] std::uint64_t key() const noexcept { return mix64(m_id); }
  // The minimax value of this node in points (tests check it).
  [[nodiscard]] Value points() const noexcept { return m_value; }

 private:
  int m_branching;
  int m_max_depth;
  int m_depth = 0;
  std::uint64_t m_id = 0;
  Value m_value = 0;
};
static_assert(search::GameState<UniformTree>);

// Textbook minimax (AIMA 5.2) straight from the definitions, with an optional
// cut-off depth (0 = none): the oracle for every search in the tests.
template <class S, class H>
[[nodiscard]] Value oracle_value(const S& s, int cutoff, const H& eval, int ply = 0) {
  if (s.is_terminal()) return terminal_value(s.utility(), ply);
  if (cutoff > 0 && ply >= cutoff) return search::clamp_estimate(static_cast<Value>(eval(s)));
  typename S::Moves moves;
  s.actions(moves);
  const bool max_turn = s.to_move() == Player::First;
  Value best = max_turn ? -kInfinite : kInfinite;
  for (const auto& m : moves) {
    const Value v = oracle_value(s.result(m), cutoff, eval, ply + 1);
    best = max_turn ? (v > best ? v : best) : (v < best ? v : best);
  }
  return best;
}

// Nodes of the tree by depth, down to `cutoff` (0 = the whole tree).
template <class S>
void count_tree(const S& s, int cutoff, std::vector<std::uint64_t>& by_depth, int ply = 0) {
  if (by_depth.size() <= static_cast<std::size_t>(ply)) by_depth.resize(ply + 1U, 0);
  ++by_depth[static_cast<std::size_t>(ply)];
  if (s.is_terminal() || (cutoff > 0 && ply >= cutoff)) return;
  typename S::Moves moves;
  s.actions(moves);
  for (const auto& m : moves) count_tree(s.result(m), cutoff, by_depth, ply + 1);
}

// The root's legal moves as a vector.
template <class S>
[[nodiscard]] std::vector<typename S::Move> legal_moves(const S& s) {
  typename S::Moves moves;
  s.actions(moves);
  return {moves.begin(), moves.end()};
}

// True when every move of `line` is legal in turn from `s`.
template <class S>
[[nodiscard]] bool is_legal_line(S s, const std::vector<typename S::Move>& line) {
  for (const auto& m : line) {
    if (s.is_terminal()) return false;
    const auto moves = legal_moves(s);
    bool found = false;
    for (const auto& x : moves) found = found || x == m;
    if (!found) return false;
    s = s.result(m);
  }
  return true;
}

}  // namespace duel::test_support
