#pragma once
// Plain minimax and plain alpha-beta, written as in the textbook (AIMA 5.2,
// 5.3): MAX-VALUE / MIN-VALUE, with the seed's optional depth cut-off
// (`cutoff_test(state, depth)`) and named evaluation function (`eval`).
//
// Why: these are the reference oracles. The engine (engine.hpp) is tested
// against them, and the seed experiments compare them; they stay simple on
// purpose — no transposition table, no ordering, no iterative deepening.
#include <utility>
#include <vector>

#include "duel/search/concepts.hpp"
#include "duel/search/limits.hpp"
#include "duel/search/pv.hpp"
#include "duel/search/searcher.hpp"

namespace duel::search {

// Stands in for "no heuristic": only valid when the search has no cut-off.
struct NoHeuristic {
  template <class S>
  Value operator()(const S&) const noexcept {
    return 0;
  }
};

template <GameState S, class H, bool kPrune>
class PlainSearch {
 public:
  using Move = typename S::Move;

  // `cutoff` > 0 stops the search at that depth and asks `eval` there;
  // 0 searches to the end of the game.
  PlainSearch(H& eval, int cutoff, const Limits& limits) noexcept
      : m_eval(eval), m_cutoff(cutoff), m_stop(limits) {}

  SearchResult<Move> run(const S& root) {
    SearchResult<Move> out;
    const Value v = value(root, -kInfinite, kInfinite, 0);
    out.stats = m_stats;
    out.stats.seconds = m_stop.elapsed();
    out.complete = !m_stop.stopped();
    out.depth = m_cutoff > 0 ? m_cutoff : m_stats.max_depth;
    out.exact = out.complete && m_stats.evaluations == 0;
    if (out.complete) {
      out.value = v;
      out.pv = m_pv.line(0);
      if (!out.pv.empty()) out.best = out.pv.front();
    }
    return out;
  }

 private:
  // The seed's cutoff_test: cut at the chosen depth (never at a terminal).
  [[nodiscard]] bool cutoff_test(int depth) const noexcept {
    return m_cutoff > 0 && depth >= m_cutoff;
  }

  // One function for both players: MAX-VALUE when First is to move, MIN-VALUE
  // otherwise; `alpha`/`beta` only matter when kPrune.
  Value value(const S& s, Value alpha, Value beta, int ply) {
    m_stats.visit(ply);
    m_pv.clear(ply);
    if (m_stop.should_stop(m_nodes++)) return 0;
    if (s.is_terminal()) {
      ++m_stats.leaves;
      return terminal_value(s.utility(), ply);
    }
    if (cutoff_test(ply)) {
      ++m_stats.leaves;
      ++m_stats.evaluations;
      return clamp_estimate(static_cast<Value>(m_eval(s)));
    }
    ++m_stats.interior;
    typename S::Moves moves;
    s.actions(moves);
    const bool max_turn = is_maxs_turn(s);
    Value best = max_turn ? -kInfinite : kInfinite;
    for (const Move& m : moves) {
      const bool first = &m == &moves[0];
      const Value v = value(s.result(m), alpha, beta, ply + 1);
      if (m_stop.stopped()) return 0;
      if (max_turn ? v > best : v < best) {
        best = v;
        m_pv.update(ply, m);
      }
      if constexpr (kPrune) {
        if (max_turn) {
          if (best >= beta) {
            ++m_stats.cutoffs;
            m_stats.first_cutoffs += first ? 1 : 0;
            return best;
          }
          if (best > alpha) alpha = best;
        } else {
          if (best <= alpha) {
            ++m_stats.cutoffs;
            m_stats.first_cutoffs += first ? 1 : 0;
            return best;
          }
          if (best < beta) beta = best;
        }
      }
    }
    return best;
  }

  H& m_eval;
  int m_cutoff;
  StopControl m_stop;
  SearchStats m_stats;
  PvTable<Move> m_pv;
  std::uint64_t m_nodes = 0;
};

// Plain minimax: every node of the tree (to the cut-off, if any).
template <GameState S, class H = NoHeuristic>
[[nodiscard]] SearchResult<typename S::Move> minimax(const S& root, int cutoff = 0, H eval = {},
                                                     const Limits& limits = {}) {
  return PlainSearch<S, H, false>(eval, cutoff, limits).run(root);
}

// Plain alpha-beta: the same value as minimax, never more nodes.
template <GameState S, class H = NoHeuristic>
[[nodiscard]] SearchResult<typename S::Move> alphabeta(const S& root, int cutoff = 0, H eval = {},
                                                       const Limits& limits = {}) {
  return PlainSearch<S, H, true>(eval, cutoff, limits).run(root);
}

// Plain minimax or alpha-beta as a Searcher: each search cuts off at the
// limits' depth (0 = the end of the game) and keeps the heuristic from one
// search to the next, as an agent playing a game does (a random heuristic
// goes on drawing, a cache stays warm).
template <GameState S, class H>
class PlainSearcher final : public Searcher<S> {
 public:
  using Result = SearchResult<typename S::Move>;
  PlainSearcher(H eval, bool prune) : m_eval(std::move(eval)), m_prune(prune) {}
  Result search(const S& root, const Limits& limits,
                const typename Searcher<S>::InfoFn& on_info = {}) override {
    (void)on_info;
    if (m_prune) return PlainSearch<S, H, true>(m_eval, limits.depth, limits).run(root);
    return PlainSearch<S, H, false>(m_eval, limits.depth, limits).run(root);
  }

 private:
  H m_eval;
  bool m_prune;
};

}  // namespace duel::search
