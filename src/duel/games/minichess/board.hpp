#pragma once
// The 5x5 board shared by every minichess rule set: squares, pieces, moves,
// precomputed attack tables and Zobrist keys.
//
// Why: 25 squares fit in one 32-bit word (a1 = bit 0, b1 = bit 1, ..., e5 =
// bit 24), so a position is a handful of words and every attack is a table
// look-up or a short ray scan. All tables are built at compile time, so there
// is no initialisation order to get wrong and nothing to set up at run time.
#include <array>
#include <bit>
#include <cstdint>

#include "duel/core/types.hpp"
#include "duel/core/zobrist.hpp"

namespace duel::games::minichess {

using Bitboard = std::uint32_t;

inline constexpr int kFiles = 5;
inline constexpr int kRanks = 5;
inline constexpr int kSquares = kFiles * kRanks;
inline constexpr Bitboard kAll = (Bitboard{1} << kSquares) - 1;

[[nodiscard]] constexpr int file_of(int sq) noexcept {
  return sq % kFiles;
}
[[nodiscard]] constexpr int rank_of(int sq) noexcept {
  return sq / kFiles;
}
// Rank counted from `side`'s own back rank (0..4): the rank its pawns start
// next to is 1, the one they promote on 4.
[[nodiscard]] constexpr int relative_rank(Player side, int sq) noexcept {
  return side == Player::First ? rank_of(sq) : kRanks - 1 - rank_of(sq);
}
[[nodiscard]] constexpr int square(int file, int rank) noexcept {
  return rank * kFiles + file;
}
[[nodiscard]] constexpr Bitboard bit(int sq) noexcept {
  return Bitboard{1} << sq;
}
[[nodiscard]] constexpr bool on_board(int file, int rank) noexcept {
  return file >= 0 && file < kFiles && rank >= 0 && rank < kRanks;
}
[[nodiscard]] constexpr Bitboard rank_mask(int rank) noexcept {
  return Bitboard{0x1F} << (rank * kFiles);
}
// Index of the lowest set square; `b` must not be empty.
[[nodiscard]] inline int lowest(Bitboard b) noexcept {
  return std::countr_zero(b);
}

// Piece types in value order; the colour is kept apart (one mask per side).
enum class Piece : std::uint8_t { Pawn = 0, Knight, Bishop, Rook, Queen, King, None };
inline constexpr int kPieceTypes = 6;

[[nodiscard]] constexpr int type_index(Piece p) noexcept {
  return static_cast<int>(p);
}

// A move: from and to squares (5 bits each) and the promotion piece (3 bits,
// Piece::None when there is none) packed into 2 bytes, so a move list of 256
// moves is 512 bytes.
class Move {
 public:
  constexpr Move() noexcept = default;
  constexpr Move(int from, int to, Piece promotion = Piece::None) noexcept
      : m_bits(static_cast<std::uint16_t>(from | (to << 5) | (type_index(promotion) << 10))) {}
  [[nodiscard]] constexpr int from() const noexcept { return m_bits & 31; }
  [[nodiscard]] constexpr int to() const noexcept { return (m_bits >> 5) & 31; }
  [[nodiscard]] constexpr Piece promotion() const noexcept {
    return static_cast<Piece>((m_bits >> 10) & 7);
  }
  [[nodiscard]] constexpr std::uint16_t bits() const noexcept { return m_bits; }
  friend constexpr bool operator==(const Move&, const Move&) = default;

 private:
  std::uint16_t m_bits = type_index(Piece::None) << 10;
};
static_assert(sizeof(Move) == 2);

// Step 1. Leaper and pawn tables, built by walking offsets from each square.
namespace detail {

template <std::size_t N>
constexpr std::array<Bitboard, kSquares> leaper(const std::array<std::array<int, 2>, N>& deltas) {
  std::array<Bitboard, kSquares> table{};
  for (int sq = 0; sq < kSquares; ++sq) {
    for (const auto& d : deltas) {
      const int f = file_of(sq) + d[0];
      const int r = rank_of(sq) + d[1];
      if (on_board(f, r)) table[sq] |= bit(square(f, r));
    }
  }
  return table;
}

// Rays in 8 directions; the first four run towards higher square indices.
inline constexpr std::array<std::array<int, 2>, 8> kDirections = {
    {{0, 1}, {1, 0}, {1, 1}, {-1, 1}, {0, -1}, {-1, 0}, {-1, -1}, {1, -1}}};

constexpr std::array<std::array<Bitboard, kSquares>, 8> make_rays() {
  std::array<std::array<Bitboard, kSquares>, 8> rays{};
  for (int d = 0; d < 8; ++d) {
    for (int sq = 0; sq < kSquares; ++sq) {
      int f = file_of(sq) + kDirections[d][0];
      int r = rank_of(sq) + kDirections[d][1];
      while (on_board(f, r)) {
        rays[d][sq] |= bit(square(f, r));
        f += kDirections[d][0];
        r += kDirections[d][1];
      }
    }
  }
  return rays;
}

}  // namespace detail

inline constexpr auto kKnightAttacks =
    detail::leaper<8>({{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}});
inline constexpr auto kKingAttacks =
    detail::leaper<8>({{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}});
// kPawnAttacks[side][sq]: the squares a pawn of `side` on `sq` attacks.
inline constexpr std::array<std::array<Bitboard, kSquares>, 2> kPawnAttacks = {
    detail::leaper<2>({{{-1, 1}, {1, 1}}}), detail::leaper<2>({{{-1, -1}, {1, -1}}})};
// kPawnPush[side][sq]: the square in front of a pawn of `side` (0 on the last rank).
inline constexpr std::array<std::array<Bitboard, kSquares>, 2> kPawnPush = {
    detail::leaper<1>({{{0, 1}}}), detail::leaper<1>({{{0, -1}}})};
inline constexpr auto kRays = detail::make_rays();

// Step 2. Sliders: for a ray towards higher indices the nearest blocker is the
// lowest set bit, towards lower indices the highest; the squares beyond it are
// that blocker's own ray in the same direction.
template <int D>
[[nodiscard]] inline Bitboard ray_attacks(int sq, Bitboard occupied) noexcept {
  const Bitboard ray = kRays[D][sq];
  const Bitboard blockers = ray & occupied;
  if (blockers == 0) return ray;
  const int first = D < 4 ? std::countr_zero(blockers) : 31 - std::countl_zero(blockers);
  return ray ^ kRays[D][first];
}
[[nodiscard]] inline Bitboard rook_attacks(int sq, Bitboard occupied) noexcept {
  return ray_attacks<0>(sq, occupied) | ray_attacks<1>(sq, occupied) |
         ray_attacks<4>(sq, occupied) | ray_attacks<5>(sq, occupied);
}
[[nodiscard]] inline Bitboard bishop_attacks(int sq, Bitboard occupied) noexcept {
  return ray_attacks<2>(sq, occupied) | ray_attacks<3>(sq, occupied) |
         ray_attacks<6>(sq, occupied) | ray_attacks<7>(sq, occupied);
}

// Step 3. Zobrist keys: one per (side, piece type, square), plus the side to move.
inline constexpr auto kZobrist =
    make_zobrist<2 * kPieceTypes * kSquares + 1>(0x5ADD1E5CA5CADE55ULL);
[[nodiscard]] constexpr std::uint64_t zobrist(Player side, Piece type, int sq) noexcept {
  return kZobrist[(index(side) * kPieceTypes + type_index(type)) * kSquares + sq];
}
inline constexpr std::uint64_t kZobristBlackToMove = kZobrist[2 * kPieceTypes * kSquares];

}  // namespace duel::games::minichess
