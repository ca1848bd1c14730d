#pragma once
// Endgame tables for checkers: material signatures and the combinatorial
// index of a signature's positions (docs/egdb.md, "The index").
//
// Why stored with Black to move only: the position turned 180 degrees with
// the colours swapped (`Position::flipped`) has the same value, so White to
// move in material (bm, bk, wm, wk) is Black to move in (wm, wk, bm, bk).
// Every signature's table then holds only Black-to-move positions, and the
// index is a pure placement index.
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "duel/games/checkers/board.hpp"

namespace duel::games::checkers::egdb {

// The most pieces a table set may have (the index's binomials go this far).
inline constexpr int kMaxTablePieces = 7;

// The game-theoretic value from the side to move's view, with unlimited play
// (a position repeated forever is a draw; the 50-ply clock is ignored). The
// numbers are the 2-bit codes of the files.
enum class Wld : std::uint8_t { Draw = 0, Win = 1, Loss = 2 };

[[nodiscard]] constexpr Wld negate(Wld v) noexcept {
  return v == Wld::Win ? Wld::Loss : v == Wld::Loss ? Wld::Win : Wld::Draw;
}

// The material of a position: men and kings of each colour. Why a struct of
// four counts: it names a table, orders the build, and gives the sizes of
// the index's four parts.
struct Signature {
  int black_men = 0;
  int black_kings = 0;
  int white_men = 0;
  int white_kings = 0;

  [[nodiscard]] constexpr int pieces() const noexcept {
    return black_men + black_kings + white_men + white_kings;
  }
  [[nodiscard]] constexpr int men() const noexcept { return black_men + white_men; }
  // Both sides have a piece (else the side without one has lost: no table).
  [[nodiscard]] constexpr bool playable() const noexcept {
    return black_men + black_kings > 0 && white_men + white_kings > 0;
  }
  // The colours swapped: White to move here is Black to move there.
  [[nodiscard]] constexpr Signature flipped() const noexcept {
    return {white_men, white_kings, black_men, black_kings};
  }
  // A dense number below 8^4, for arrays of tables.
  [[nodiscard]] constexpr int id() const noexcept {
    return ((black_men * 8 + black_kings) * 8 + white_men) * 8 + white_kings;
  }
  [[nodiscard]] static constexpr Signature of(Bitboard black, Bitboard white,
                                              Bitboard kings) noexcept {
    return {std::popcount(black & ~kings), std::popcount(black & kings),
            std::popcount(white & ~kings), std::popcount(white & kings)};
  }
  // "2.1-1.0": black men.kings - white men.kings.
  [[nodiscard]] std::string name() const {
    return std::to_string(black_men) + "." + std::to_string(black_kings) + "-" +
           std::to_string(white_men) + "." + std::to_string(white_kings);
  }
  friend constexpr auto operator<=>(const Signature&, const Signature&) = default;
};
inline constexpr int kSignatureIds = 8 * 8 * 8 * 8;

// Every signature of exactly n pieces (both sides or not), in a fixed order.
[[nodiscard]] std::vector<Signature> signatures_of(int pieces, bool playable_only);

// The squares a man may stand on: Black's never on row 7, White's never on
// row 0 (it would have been crowned).
inline constexpr Bitboard kBlackManSquares = ~kBottomRow;
inline constexpr Bitboard kWhiteManSquares = ~kTopRow;

// C(n, k) for n <= 32, k <= kMaxTablePieces.
inline constexpr auto kChoose = [] {
  std::array<std::array<std::uint64_t, kMaxTablePieces + 1>, kSquares + 1> c{};
  for (int n = 0; n <= kSquares; ++n) {
    c[n][0] = 1;
    for (int k = 1; k <= kMaxTablePieces && k <= n; ++k) {
      c[n][k] = c[n - 1][k - 1] + (k <= n - 1 ? c[n - 1][k] : 0);
    }
  }
  return c;
}();
[[nodiscard]] constexpr std::uint64_t choose(int n, int k) noexcept {
  return n < 0 || k < 0 || k > n ? 0 : kChoose[n][k];
}

// The colex rank of the squares `set` among the squares `allowed`: each
// square counts as its position among `allowed` (0 for the lowest), and the
// i-th smallest (from 0) adds C(position, i + 1). Ranks run over
// 0 .. C(|allowed|, |set|) - 1.
[[nodiscard]] inline std::uint64_t rank_of(Bitboard set, Bitboard allowed) noexcept {
  std::uint64_t r = 0;
  int i = 1;
  for (Bitboard b = set; b != 0; b &= b - 1, ++i) {
    const int pos = std::popcount(allowed & ((b & (0U - b)) - 1));
    r += kChoose[pos][i];
  }
  return r;
}

// The `n`-th (from 0) square of `allowed`.
[[nodiscard]] inline int nth_square(Bitboard allowed, int n) noexcept {
  for (; n > 0; --n) allowed &= allowed - 1;
  return std::countr_zero(allowed);
}

// The set of `k` squares of `allowed` with colex rank `r` (rank_of's inverse).
[[nodiscard]] inline Bitboard unrank(std::uint64_t r, int k, Bitboard allowed) noexcept {
  Bitboard set = 0;
  int pos = std::popcount(allowed);
  for (int i = k; i >= 1; --i) {
    do {
      --pos;
    } while (kChoose[pos][i] > r);
    r -= kChoose[pos][i];
    set |= bit(nth_square(allowed, pos));
  }
  return set;
}

// Bit i to bit 31 - i: the board turned 180 degrees (square s to 33 - s).
[[nodiscard]] constexpr Bitboard reverse(Bitboard b) noexcept {
  b = ((b >> 1) & 0x55555555U) | ((b & 0x55555555U) << 1);
  b = ((b >> 2) & 0x33333333U) | ((b & 0x33333333U) << 2);
  b = ((b >> 4) & 0x0F0F0F0FU) | ((b & 0x0F0F0F0FU) << 4);
  b = ((b >> 8) & 0x00FF00FFU) | ((b & 0x00FF00FFU) << 8);
  return (b >> 16) | (b << 16);
}

// A placement by bitboards, Black to move.
struct Placement {
  Bitboard black = 0;
  Bitboard white = 0;
  Bitboard kings = 0;
  friend constexpr bool operator==(const Placement&, const Placement&) = default;
};

// The index of one signature: black men, then white men, then black kings,
// then white kings, each a colex rank among the squares still free to it.
//
// Why this order and the offsets table: men are confined to 28 squares each,
// and a Black man on rows 1..6 takes a square a White man could use, so the
// number of White-men placements depends on the Black men. `m_men_offset`
// holds, for each Black-men rank, where its block starts; the kings come last
// because the squares left to them (32 - men) do not depend on where the men
// stand. So the index is dense: size() is exactly the number of placements.
class Indexer {
 public:
  Indexer() = default;
  explicit Indexer(Signature sig);

  [[nodiscard]] Signature signature() const noexcept { return m_sig; }
  [[nodiscard]] std::uint64_t size() const noexcept { return m_size; }
  // Men placements (black and white men together) and, for each, how many
  // placements of the kings follow it.
  [[nodiscard]] std::uint64_t men_blocks() const noexcept { return m_men_offset.back(); }
  [[nodiscard]] std::uint64_t king_block() const noexcept { return m_king_block; }

  // The index of a placement of this signature (unchecked: the counts must
  // match and no man may stand on its crowning row).
  [[nodiscard]] std::uint64_t index(const Placement& p) const noexcept {
    const Bitboard bm = p.black & ~p.kings;
    const Bitboard wm = p.white & ~p.kings;
    const Bitboard free = ~(bm | wm);
    const std::uint64_t men =
        m_men_offset[rank_of(bm, kBlackManSquares)] + rank_of(wm, kWhiteManSquares & ~bm);
    const std::uint64_t kings = rank_of(p.black & p.kings, free) * m_white_king_count +
                                rank_of(p.white & p.kings, free & ~p.black);
    return men * m_king_block + kings;
  }

  // The placement at index i < size().
  [[nodiscard]] Placement placement(std::uint64_t i) const noexcept;
  // The men of men block `block` (black men, white men).
  [[nodiscard]] std::pair<Bitboard, Bitboard> men_of(std::uint64_t block) const noexcept;
  // The kings of king rank `k` < king_block() beside the men `bm`, `wm`.
  [[nodiscard]] Placement with_kings(Bitboard bm, Bitboard wm, std::uint64_t k) const noexcept {
    const Bitboard free = ~(bm | wm);
    const Bitboard bk = unrank(k / m_white_king_count, m_sig.black_kings, free);
    const Bitboard wk = unrank(k % m_white_king_count, m_sig.white_kings, free & ~bk);
    return {bm | bk, wm | wk, bk | wk};
  }

 private:
  Signature m_sig;
  std::vector<std::uint64_t> m_men_offset{0};  // per Black-men rank, and the total
  std::uint64_t m_king_block = 1;
  std::uint64_t m_white_king_count = 1;
  std::uint64_t m_size = 0;
};

}  // namespace duel::games::checkers::egdb
