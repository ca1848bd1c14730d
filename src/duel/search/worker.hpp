#pragma once
// One search thread of the engine: iterative deepening over a negamax
// principal-variation search with alpha-beta (negamax.hpp), the shared
// transposition table and its own move ordering (ordering.hpp), under
// `Limits {depth, time, nodes}`.
//
// Why: one negamax code path (DESIGN habit 4) that serves play at any time
// control and exact solving. A legal move is ready before the first node is
// searched, so even a 1 ms budget returns a legal move. Every node knows
// whether its subtree used a heuristic; when the root's did not, the value is
// the game-theoretic value and deepening stops. The engine (engine.hpp) runs
// one of these, or with `threads` several over one table (lazy SMP), so
// everything here but the table belongs to one thread. What the search does
// beyond alpha-beta is the game's `Features` (features.hpp), fixed when the
// worker is compiled.
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "duel/search/concepts.hpp"
#include "duel/search/features.hpp"
#include "duel/search/limits.hpp"
#include "duel/search/options.hpp"
#include "duel/search/ordering.hpp"
#include "duel/search/pv.hpp"
#include "duel/search/searcher.hpp"
#include "duel/search/tt.hpp"

namespace duel::search {

template <GameState S, class H, Features F = features_of<S>()>
class SearchWorker {
 public:
  using Move = typename S::Move;
  using Result = SearchResult<Move>;
  using InfoFn = typename Searcher<S>::InfoFn;

  // `index` 0 is the main thread; helpers (1, 2, ...) skip some depths.
  SearchWorker(H heuristic, const EngineOptions& options, TranspositionTable& tt, std::size_t index)
      : m_eval(std::move(heuristic)),
        m_options(options),
        m_tt(tt),
        m_index(index),
        m_order(options.ordering),
        m_scores(static_cast<std::size_t>(kMaxPly) + 1),
        m_picks(static_cast<std::size_t>(kMaxPly) + 1) {
    // Late move reductions grow with the log of the depth and of the move's
    // place in the order (the shape Stockfish and most engines use).
    for (int d = 1; d < kLmrSize; ++d) {
      for (int n = 1; n < kLmrSize; ++n) {
        m_lmr[d][n] = static_cast<std::int8_t>(0.75 + std::log(d) * std::log(n) / 2.25);
      }
    }
  }

  SearchWorker(const SearchWorker&) = delete;
  SearchWorker& operator=(const SearchWorker&) = delete;
  SearchWorker(SearchWorker&&) = delete;
  SearchWorker& operator=(SearchWorker&&) = delete;
  ~SearchWorker() = default;

  // Forget what this thread learned (a new game); the engine clears the table.
  void new_game() { m_order.new_game(); }
  [[nodiscard]] H& heuristic() noexcept { return m_eval; }

  // This thread's nodes so far in this search (read by other threads).
  [[nodiscard]] std::uint64_t nodes() const noexcept {
    return m_nodes.load(std::memory_order_relaxed);
  }
  [[nodiscard]] const SearchStats& stats() const noexcept { return m_stats; }
  [[nodiscard]] double elapsed() const noexcept { return m_stop.elapsed(); }

  // Iterative deepening from `root`, its time counted from `started`. The
  // engine has already started the table's new search (Engine::search).
  Result search(const S& root, const Limits& limits, const InfoFn& on_info,
                const WallClock& started) {
    // Step 1. Set up: clear per-search tables, pick a fallback move.
    Result out;
    m_stop = StopControl(limits, started);
    m_stats = SearchStats{};
    m_nodes.store(0, std::memory_order_relaxed);
    m_inexact = 0;
    m_root_side = root.to_move();
    if constexpr (HasKnownValues<H, S>) {
      // A root the heuristic already knows (an endgame table's position) is
      // searched as usual, known values unused: below it every position
      // would be known, each move a win alike, and a table of wins and
      // losses says nothing of how to make progress before the draw clock.
      m_use_known = !m_eval.known(root).has_value();
    }
    m_order.new_search();
    if (root.is_terminal()) {
      out.value = terminal_value(root.utility(), 0);
      out.complete = out.exact = true;
      return out;
    }
    out.best = fallback_move(root);

    // Step 2. Iterative deepening until exact, a limit, or the depth cap.
    const int cap = limits.depth > 0 ? std::min(limits.depth, kMaxDepth) : kMaxDepth;
    Value last = 0;
    for (int depth = std::min(cap, m_options.first_depth); depth <= cap; ++depth) {
      if (skips(depth, cap)) continue;
      const std::uint64_t inexact_before = m_inexact;
      const SearchStats stats_before = m_stats;
      m_root_best.reset();
      m_root_depth = depth;
      const Value v = root_search(root, depth, last);
      if (m_stop.stopped()) {
        // A move that finished this iteration with the best value so far
        // is better informed than the last iteration's choice; it is played
        // and reported with its own line and value (a lower bound when
        // the iteration's window failed high on it).
        if (m_root_best) {
          out.best = m_root_best;
          out.pv = m_root_line;
          out.value = for_player(m_root_value, root.to_move());
          out.last_iteration = m_stats.since(stats_before);
        }
        break;
      }
      out.last_iteration = m_stats.since(stats_before);
      // Step 3. Report the iteration; stop when exact or past the soft time.
      last = v;
      out.value = for_player(v, root.to_move());
      out.depth = depth;
      out.pv = m_pv.line(0);
      if (!out.pv.empty()) out.best = out.pv.front();
      out.exact = m_inexact == inexact_before;
      if (on_info) {
        SearchInfo info;
        info.depth = depth;
        info.value = out.value;
        info.exact = out.exact;
        info.nodes = m_stats.nodes();
        info.nodes_by_depth = m_stats.depth_counts();
        info.seconds = m_stop.elapsed();
        on_info(info, out.pv);
      }
      if (out.exact) break;
      if (limits.time > 0 && m_stop.elapsed() > limits.time * m_options.soft_time) break;
    }
    out.complete = !m_stop.stopped() || out.exact;
    out.stats = m_stats;
    out.stats.seconds = m_stop.elapsed();
    return out;
  }

  // The principal variation of a full-window capture quiescence from `s`:
  // the captures (and answers to check) after which the side to move stands
  // pat, so that the position at its end is one the search would judge by
  // the heuristic. Empty when `s` itself is that position. The tuner
  // resolves its positions with it (docs/tuning.md).
  std::vector<Move> quiescence_line(const S& s) requires HasTactics<S> {
    m_stop = StopControl(Limits{});
    m_stats = SearchStats{};
    m_nodes.store(0, std::memory_order_relaxed);
    m_root_side = s.to_move();
    quiesce(s, 0, -kInfinite, kInfinite);
    return m_pv.line(0);
  }

 private:
  static constexpr int kLmrSize = 64;
  static constexpr int kQuiesceCheckPlies = 8;  // quiescence plies that answer a check
  // Reverse futility pruning up to here: depth 5 against 3 measured +8.7 +/- 7.1
  // Elo at a fixed node count and +38 +/- 25 at 0.05 s a move (docs/engine.md).
  static constexpr int kReverseFutilityDepth = 5;
  // In checkers (no captures to resolve by exchange, HasQuietness) up to
  // here: depth 3 measured +26.9 +/- 20.9 Elo (docs/engine.md).
  static constexpr int kQuietReverseFutilityDepth = 3;
  // Futility pruning of quiet moves up to here: depth 5 against 3 measured
  // +12.5 +/- 9.8 Elo at a fixed node count (docs/engine.md).
  static constexpr int kQuietFutilityDepth = 5;
  static constexpr int kExchangePruneDepth = 4;  // losing-exchange pruning up to here
  static constexpr int kProbCutDepth = 4;        // ProbCut from here
  static constexpr int kProbCutReduction = 4;    // ProbCut's search, this much shallower
  static constexpr int kProbCutMargin = 2;       // ProbCut's bound above beta, aspiration widths

  // Late move reductions' plies for the k-th move searched at `depth`, a ply
  // less on the principal variation (`pv`: the window as it now stands),
  // leaving the move at least a ply of its `next` plies.
  [[nodiscard]] int late_move_reduction(int depth, std::size_t k, bool pv, int next) const {
    int r = m_lmr[std::min(depth, kLmrSize - 1)][std::min<std::size_t>(k, kLmrSize - 1)];
    if (pv) --r;
    return std::clamp(r, 0, next - 1);
  }

  // The node functions (negamax.hpp).
  Value negamax(const S& s, int depth, int ply, Value alpha, Value beta);
  Value quiesce(const S& s, int ply, Value alpha, Value beta, int qply = 0);
  std::optional<Value> probcut(const S& s, int depth, int ply, Value beta, Value static_eval,
                               const std::optional<TTEntry>& entry);

  // Helpers' diversity (lazy SMP): helper i skips some iteration depths, so
  // that the threads spread over depths instead of all searching the same
  // tree in step; the pattern is the one older Stockfish versions used
  // (helper 1 searches the even depths, helpers 2-5 skip pairs of depths
  // at four phases, ...). The main thread and the last depth are never
  // skipped.
  [[nodiscard]] bool skips(int depth, int cap) const noexcept {
    if (m_index == 0 || depth >= cap) return false;
    static constexpr std::array<int, 20> kSkipSize = {1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
                                                      3, 3, 4, 4, 4, 4, 4, 4, 4, 4};
    static constexpr std::array<int, 20> kSkipPhase = {0, 1, 0, 1, 2, 3, 0, 1, 2, 3,
                                                       4, 5, 0, 1, 2, 3, 4, 5, 6, 7};
    const std::size_t i = (m_index - 1) % kSkipSize.size();
    return ((depth + kSkipPhase[i]) / kSkipSize[i]) % 2 != 0;
  }

  // Counts a node; true when a limit says stop.
  [[nodiscard]] bool count_node() noexcept {
    // One writer (this thread): a relaxed load and store, not a locked add.
    const std::uint64_t n = m_nodes.load(std::memory_order_relaxed);
    m_nodes.store(n + 1, std::memory_order_relaxed);
    return m_stop.should_stop(n);
  }

  // One iteration at the root: a full window, or where the game gives a
  // width, an aspiration window around the last value that widens (doubling)
  // on the side that fails.
  Value root_search(const S& root, int depth, Value last) {
    if constexpr (HasAspiration<S> && F.aspiration) {
      if (depth >= 5 && !is_proven(last)) {
        Value delta = S::kAspiration;
        Value lo = std::max(last - delta, -kInfinite);
        Value hi = std::min(last + delta, kInfinite);
        for (;;) {
          const Value v = negamax(root, depth, 0, lo, hi);
          if (m_stop.stopped()) return v;
          if (v <= lo && lo > -kInfinite) {
            lo = std::max(v - delta, -kInfinite);
          } else if (v >= hi && hi < kInfinite) {
            hi = std::min(v + delta, kInfinite);
          } else {
            return v;
          }
          delta *= 2;
          if (delta > kUnit / 4) lo = -kInfinite, hi = kInfinite;
        }
      }
    }
    return negamax(root, depth, 0, -kInfinite, kInfinite);
  }

  // The table's move, else the move the game's hint likes best.
  Move fallback_move(const S& root) {
    typename S::Moves moves;
    root.actions(moves);
    std::size_t pick = 0;
    if (m_options.hash_mb > 0) {
      if (const auto e = m_tt.probe(root.key()); e && e->move != 0 && e->move <= moves.size()) {
        return moves[e->move - 1U];
      }
    }
    if constexpr (HasOrderHint<S>) {
      int best = root.order_hint(moves[0]);
      for (std::size_t i = 1; i < moves.size(); ++i) {
        if (const int h = root.order_hint(moves[i]); h > best) {
          best = h;
          pick = i;
        }
      }
    }
    return moves[pick];
  }

  // Whether `s`'s future depends on its position alone (HasMemory): only
  // then is an exact result of it one for every depth.
  [[nodiscard]] static bool memoryless(const S& s) noexcept {
    if constexpr (HasMemory<S>) {
      return s.memoryless();
    } else {
      (void)s;
      return true;
    }
  }

  // The heuristic for pruning decisions only: it marks nothing inexact by
  // itself (a pruning that trusts it does).
  [[nodiscard]] Value estimate(const S& s) {
    ++m_stats.evaluations;
    return for_player(clamp_estimate(static_cast<Value>(m_eval(s))), s.to_move());
  }

  // The heuristic at a leaf: an estimate, so the subtree is inexact.
  [[nodiscard]] Value evaluate(const S& s) {
    ++m_stats.leaves;
    ++m_inexact;
    return estimate(s);
  }

  // The plies after which `m` loses by force (HasForcedLoss); 0 when it
  // does not or the game cannot tell.
  [[nodiscard]] static int forced_loss(const S& s, const Move& m) {
    if constexpr (HasForcedLoss<S>) {
      return s.loss_plies(m);
    } else {
      (void)s, (void)m;
      return 0;
    }
  }

  // The table's answer for a node searched `depth` plies deep within
  // (alpha, beta), if a stored bound decides it. The stored move goes to
  // `tt_move` either way, for ordering, and the entry to `entry`. With
  // `may_answer` false only the move is taken; `memoryless` is memoryless()
  // of the node.
  std::optional<Value> probe_table(std::uint64_t key, int depth, int ply, bool may_answer,
                                   bool memoryless, Value alpha, Value beta, std::uint16_t& tt_move,
                                   std::optional<TTEntry>& entry) {
    ++m_stats.tt_probes;
    entry = m_tt.probe(key);
    if (!entry) return std::nullopt;
    ++m_stats.tt_hits;
    tt_move = entry->move;
    if (!may_answer || (entry->depth != kDepthAny && entry->depth < depth)) return std::nullopt;
    const Value v = from_tt(entry->value, ply);
    const Bound b = entry->bound();
    if (b == Bound::Exact || (b == Bound::Lower && v >= beta) ||
        (b == Bound::Upper && v <= alpha)) {
      // An exact result holds for any depth, but only where the position's
      // future depends on the position alone (memoryless).
      if (entry->depth != kDepthAny || !memoryless) ++m_inexact;
      ++m_stats.leaves;
      return v;
    }
    return std::nullopt;
  }

  // Stores `best`, found within (alpha_orig, beta), as the bound it is.
  void store_table(std::uint64_t key, Value best, Value alpha_orig, Value beta, int ply, int depth,
                   std::uint16_t move) {
    const Bound bound =
        best >= beta ? Bound::Lower : (best > alpha_orig ? Bound::Exact : Bound::Upper);
    m_tt.store(key, to_tt(best, ply), bound, depth, move);
  }

  // A child's value for `mover` within (alpha, beta): negated when the turn
  // passes, as is; when the same player moves again (the concept allows it).
  // `depth` is the child's own depth (its parent's less one, extended or reduced).
  Value child_value(const S& child, Player mover, int depth, int ply, Value alpha, Value beta) {
    if (child.to_move() == mover) return negamax(child, depth, ply + 1, alpha, beta);
    return -negamax(child, depth, ply + 1, -beta, -alpha);
  }

  // Both searches' first step: count the node and poll the limits (0 when
  // they say stop), answer a finished game, and judge a node at the ply cap
  // by the heuristic. Empty when the node is to be searched.
  std::optional<Value> enter_node(const S& s, int ply) {
    m_stats.visit(ply);
    m_pv.clear(ply);
    if (count_node()) return Value{0};
    if (s.is_terminal()) {
      ++m_stats.leaves;
      return terminal(s, ply);
    }
    if constexpr (HasDeadDraw<S> && F.dead_draws) {
      // Not at the root, which must name a move: its children answer.
      if (ply > 0 && s.dead_draw()) {
        ++m_stats.leaves;
        return draw_value(s);
      }
    }
    if constexpr (HasKnownValues<H, S>) {
      // Not at the root either, nor below a known root (search()); a known
      // value that is not exact (a table's win the draw clock may yet
      // spoil) marks the subtree inexact.
      if (ply > 0 && m_use_known) {
        if (const auto k = m_eval.known(s)) {
          ++m_stats.leaves;
          if (!k->exact) ++m_inexact;
          if (k->exact) return draw_value(s);
          return for_player(k->value, s.to_move());
        }
      }
    }
    if (ply >= kMaxPly - 1) return evaluate(s);
    return std::nullopt;
  }

  // A draw's value for the side to move in `s`: contempt's, signed.
  Value draw_value(const S& s) {
    if (m_options.contempt == 0) return kDraw;
    ++m_inexact;
    return s.to_move() == m_root_side ? m_options.contempt : -m_options.contempt;
  }
  // A finished game's value for the side to move (draws through contempt).
  Value terminal(const S& s, int ply) {
    const auto u = s.utility();
    if (u == 0) return draw_value(s);
    return for_player(terminal_value(u, ply), s.to_move());
  }

  H m_eval;  // this thread's own copy (a heuristic may keep state, as n1 does)
  EngineOptions m_options;
  TranspositionTable& m_tt;  // shared by every thread of the engine
  std::size_t m_index = 0;   // 0 = the main thread
  MoveOrder<S> m_order;
  std::vector<std::vector<int>> m_scores;  // per-ply scratch, sized once, reused
  std::vector<std::vector<std::uint16_t>> m_picks;
  PvTable<Move> m_pv;
  StopControl m_stop{Limits{}};
  SearchStats m_stats;
  std::array<std::array<std::int8_t, kLmrSize>, kLmrSize> m_lmr{};
  std::optional<Move> m_root_best;  // this iteration's best finished root move
  std::vector<Move> m_root_line;    // its line, as the iteration found it
  Value m_root_value = 0;           // its value, the root's side to move's view
  int m_root_depth = 1;
  bool m_use_known = true;  // known values (HasKnownValues) answer nodes in this search
  Player m_root_side = Player::First;
  std::atomic<std::uint64_t> m_nodes{0};  // written by this thread only
  std::uint64_t m_inexact = 0;  // heuristic answers so far; unchanged over a subtree = exact
};

}  // namespace duel::search

#include "duel/search/negamax.hpp"  // IWYU pragma: export (the node functions)
