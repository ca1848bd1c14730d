#pragma once
// Move ordering for one search thread: the table's move first, then the
// game's hint (captures by victim in the chess family), the two killers of
// the ply, and the history heuristic (a count per move of the cut-offs it
// made, deeper ones worth more).
//
// Why apart from the search: ordering changes which moves are searched
// first, never a value, so it can be read, measured and changed on its own
// (docs/engine.md, "Move ordering"). The search asks for scores, takes the
// moves best first one at a time, and reports each cut-off.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "duel/core/types.hpp"
#include "duel/search/concepts.hpp"

namespace duel::search {

template <GameState S>
class MoveOrder {
 public:
  using Move = typename S::Move;

  // `enabled` false: every move scores 0 but the table's (duel search
  // --no-ordering), and nothing is learned.
  explicit MoveOrder(bool enabled)
      : m_enabled(enabled), m_killers(static_cast<std::size_t>(kMaxPly) + 1) {
    if constexpr (HasHistoryIndex<S>) m_history.assign(S::kHistorySize, 0);
  }

  // A new game: the history starts empty.
  void new_game() { std::fill(m_history.begin(), m_history.end(), 0); }
  // A new search: the killers are the last search's, the history an eighth
  // of what it was.
  void new_search() {
    for (auto& k : m_killers) k = {};
    for (auto& h : m_history) h /= 8;
  }

  // Scores for the moves of `s` at `ply` (higher first); `tt_move` is 1 +
  // the index of the table's move, 0 for none.
  void score(const S& s, const typename S::Moves& moves, std::uint16_t tt_move, int ply,
             std::vector<int>& scores) const {
    scores.resize(moves.size());
    const Killers& k = m_killers[static_cast<std::size_t>(ply)];
    for (std::size_t i = 0; i < moves.size(); ++i) {
      int score = 0;
      if (m_enabled) {
        if constexpr (HasOrderHint<S>) score = s.order_hint(moves[i]) * 65536;
        if (k.count > 0 && moves[i] == k.first) score += 40000;
        if (k.count > 1 && moves[i] == k.second) score += 39000;
        if constexpr (HasHistoryIndex<S>) {
          score += std::min(m_history[S::history_index(moves[i])], 30000);
        }
      }
      if (tt_move == i + 1) score = 1 << 30;
      scores[i] = score;
    }
    (void)s;
  }

  // Whether `m` is one of the killers at `ply` (not reduced).
  [[nodiscard]] bool is_killer(const Move& m, int ply) const {
    const Killers& k = m_killers[static_cast<std::size_t>(ply)];
    return k.count > 0 && (m == k.first || m == k.second);
  }

  // A beta cut-off at `ply`, `depth` plies deep, by `m`: it becomes the
  // ply's first killer and its history count grows by depth squared (the
  // table halves before any count can overflow).
  void cutoff(const Move& m, int depth, int ply) {
    if (!m_enabled) return;
    Killers& k = m_killers[static_cast<std::size_t>(ply)];
    if (!(k.count > 0 && k.first == m)) {
      k.second = k.first;
      k.first = m;
      k.count = static_cast<std::uint8_t>(std::min(2, k.count + 1));
    }
    if constexpr (HasHistoryIndex<S>) {
      const int d = std::min(depth, 16);
      int& h = m_history[S::history_index(m)];
      h += d * d;
      if (h > (1 << 20)) {
        for (auto& x : m_history) x /= 2;
      }
    }
  }

  // Selection sort, one step at a time: brings the best-scored move of
  // order[n..] to position n (scores are indexed by move). Most nodes cut
  // off after a move or two, so sorting the whole list would be wasted.
  static void pick_next(std::vector<std::uint16_t>& order, const std::vector<int>& scores,
                        std::size_t n) {
    std::size_t pick = n;
    for (std::size_t j = n + 1; j < order.size(); ++j) {
      if (scores[order[j]] > scores[order[pick]]) pick = j;
    }
    std::swap(order[n], order[pick]);
  }

 private:
  struct Killers {
    Move first{};
    Move second{};
    std::uint8_t count = 0;
  };

  bool m_enabled;
  std::vector<Killers> m_killers;
  std::vector<int> m_history;  // cut-off counts by the move's history index
};

}  // namespace duel::search
