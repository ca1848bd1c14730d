#pragma once
// A triangular principal-variation table: line[ply] holds the best line found
// from that ply down. Allocated once per search, never in the hot path.
#include <vector>

#include "duel/search/stats.hpp"

namespace duel::search {

template <class Move>
class PvTable {
 public:
  static constexpr int kMax = kStatsDepths;

  PvTable() : m_moves(static_cast<std::size_t>(kMax * kMax)), m_length(kMax, 0) {}
  void clear(int ply) noexcept {
    if (ply < kMax) m_length[static_cast<std::size_t>(ply)] = 0;
  }
  // The line at `ply` becomes `m` followed by the line at ply + 1.
  void update(int ply, const Move& m) noexcept {
    if (ply >= kMax) return;
    const auto p = static_cast<std::size_t>(ply);
    Move* row = &m_moves[p * kMax];
    row[0] = m;
    int n = 1;
    if (ply + 1 < kMax) {
      const Move* child = &m_moves[(p + 1) * kMax];
      const int child_len = m_length[p + 1];
      for (int i = 0; i < child_len && n < kMax - ply; ++i) row[n++] = child[i];
    }
    m_length[p] = n;
  }
  [[nodiscard]] std::vector<Move> line(int ply = 0) const {
    const auto p = static_cast<std::size_t>(ply);
    return {m_moves.begin() + static_cast<std::ptrdiff_t>(p * kMax),
            m_moves.begin() + static_cast<std::ptrdiff_t>(p * kMax + m_length[p])};
  }

 private:
  std::vector<Move> m_moves;
  std::vector<int> m_length;
};

}  // namespace duel::search
