#include "duel/games/checkers/egdb_index.hpp"

#include <algorithm>

namespace duel::games::checkers::egdb {

std::vector<Signature> signatures_of(int pieces, bool playable_only) {
  std::vector<Signature> out;
  for (int bm = 0; bm <= pieces; ++bm) {
    for (int bk = 0; bm + bk <= pieces; ++bk) {
      for (int wm = 0; bm + bk + wm <= pieces; ++wm) {
        const Signature s{bm, bk, wm, pieces - bm - bk - wm};
        if (!playable_only || s.playable()) out.push_back(s);
      }
    }
  }
  return out;
}

Indexer::Indexer(Signature sig) : m_sig(sig) {
  // Step 1. For each Black-men placement, the White men's placements on the
  // 28 squares of White men less those the Black men hold.
  const std::uint64_t black_placements = choose(28, sig.black_men);
  m_men_offset.assign(black_placements + 1, 0);
  for (std::uint64_t r = 0; r < black_placements; ++r) {
    const Bitboard bm = unrank(r, sig.black_men, kBlackManSquares);
    m_men_offset[r + 1] =
        m_men_offset[r] + choose(std::popcount(kWhiteManSquares & ~bm), sig.white_men);
  }
  // Step 2. The kings on the squares the men leave free.
  const int free = kSquares - sig.black_men - sig.white_men;
  m_white_king_count = choose(free - sig.black_kings, sig.white_kings);
  m_king_block = choose(free, sig.black_kings) * m_white_king_count;
  m_size = m_men_offset.back() * m_king_block;
}

std::pair<Bitboard, Bitboard> Indexer::men_of(std::uint64_t block) const noexcept {
  const auto it = std::upper_bound(m_men_offset.begin(), m_men_offset.end(), block);
  const auto r = static_cast<std::uint64_t>(it - m_men_offset.begin() - 1);
  const Bitboard bm = unrank(r, m_sig.black_men, kBlackManSquares);
  const Bitboard wm = unrank(block - m_men_offset[r], m_sig.white_men, kWhiteManSquares & ~bm);
  return {bm, wm};
}

Placement Indexer::placement(std::uint64_t i) const noexcept {
  const auto [bm, wm] = men_of(i / m_king_block);
  return with_kings(bm, wm, i % m_king_block);
}

}  // namespace duel::games::checkers::egdb
