#pragma once
// The 8x8 checkers board (RULES.md §5): the 32 dark squares, moves as jump
// paths, precomputed neighbour and jump tables, Zobrist keys.
//
// Why: one bit per dark square fits a side in 32 bits. Bit i is the standard
// square number i + 1: square 1 is b8 (top left dark square; a8 is light),
// 4 is h8, 5 is a7, 29 is a1, 32 is g1. Black starts on 1-12 at the top and
// moves first, White on 21-32. Every step and jump is a table look-up built
// at compile time.
#include <array>
#include <bit>
#include <cstdint>
#include <type_traits>

#include "duel/core/types.hpp"
#include "duel/core/zobrist.hpp"

namespace duel::games::checkers {

using Bitboard = std::uint32_t;

inline constexpr int kSquares = 32;
inline constexpr int kMaxPieces = 12;  // per side; from_text enforces it (bounds kMaxMoves)

// Rows count from the top (row 0 = rank 8), files from the left (0 = a).
[[nodiscard]] constexpr int row_of(int sq) noexcept {
  return sq / 4;
}
[[nodiscard]] constexpr int file_of(int sq) noexcept {
  return 2 * (sq % 4) + (row_of(sq) % 2 == 0 ? 1 : 0);
}
[[nodiscard]] constexpr int rank_of(int sq) noexcept {
  return 8 - row_of(sq);
}
// The square at (row, file), or -1 when it is off the board or light.
[[nodiscard]] constexpr int square_at(int row, int file) noexcept {
  if (row < 0 || row > 7 || file < 0 || file > 7 || (row + file) % 2 == 0) return -1;
  return row * 4 + file / 2;
}
[[nodiscard]] constexpr Bitboard bit(int sq) noexcept {
  return Bitboard{1} << sq;
}
[[nodiscard]] inline int lowest(Bitboard b) noexcept {
  return std::countr_zero(b);
}

// The far rows where men are crowned: Black's on row 7, White's on row 0.
inline constexpr Bitboard kTopRow = 0x0000000FU;
inline constexpr Bitboard kBottomRow = 0xF0000000U;
[[nodiscard]] constexpr Bitboard crown_row(Player side) noexcept {
  return side == Player::First ? kBottomRow : kTopRow;
}
[[nodiscard]] constexpr Bitboard home_row(Player side) noexcept {
  return side == Player::First ? kTopRow : kBottomRow;
}

// Directions: 0 up-left, 1 up-right, 2 down-left, 3 down-right ("up" is
// towards row 0). Black's men move down (2, 3), White's up (0, 1).
inline constexpr int kDirections = 4;
[[nodiscard]] constexpr int first_forward(Player side) noexcept {
  return side == Player::First ? 2 : 0;
}

namespace detail {

constexpr std::array<std::array<std::int8_t, kSquares>, kDirections> make_table(int distance) {
  constexpr std::array<std::array<int, 2>, kDirections> kDelta = {
      {{-1, -1}, {-1, 1}, {1, -1}, {1, 1}}};
  std::array<std::array<std::int8_t, kSquares>, kDirections> t{};
  for (int d = 0; d < kDirections; ++d) {
    for (int sq = 0; sq < kSquares; ++sq) {
      t[d][sq] = static_cast<std::int8_t>(
          square_at(row_of(sq) + distance * kDelta[d][0], file_of(sq) + distance * kDelta[d][1]));
    }
  }
  return t;
}

}  // namespace detail

// kStep[d][sq]: the neighbour of sq in direction d (-1 off the board);
// kJump[d][sq]: the square beyond it, where a jump lands.
inline constexpr auto kStep = detail::make_table(1);
inline constexpr auto kJump = detail::make_table(2);

// The direction back: up-left (0) <-> down-right (3), up-right (1) <-> down-left (2).
[[nodiscard]] constexpr int opposite(int d) noexcept {
  return kDirections - 1 - d;
}

// Whole-set steps. Why: moving every piece at once with two shifts is what
// makes perft fast (no loop over squares). Rows alternate between two
// layouts, so a step in direction d adds one of two offsets to a square's
// index: 4 on one row parity, 3 or 5 on the other (up: -4, and -5 or -3).
// The masks pick each offset's squares and drop those at the board's edge.
namespace detail {

constexpr int near_offset(int d) noexcept {
  return d < 2 ? -4 : 4;
}
constexpr int far_offset(int d) noexcept {
  constexpr std::array<int, kDirections> kFar = {-5, -3, 3, 5};
  return kFar[d];
}
constexpr Bitboard offset_mask(int d, int offset) noexcept {
  Bitboard m = 0;
  for (int sq = 0; sq < kSquares; ++sq) {
    if (kStep[d][sq] >= 0 && kStep[d][sq] == sq + offset) m |= bit(sq);
  }
  return m;
}
template <int Offset>
constexpr Bitboard shift(Bitboard b) noexcept {
  if constexpr (Offset > 0) {
    return b << Offset;
  } else {
    return b >> -Offset;
  }
}
// Every square that has a neighbour in d takes one of the two offsets.
constexpr bool offsets_cover_board() noexcept {
  for (int d = 0; d < kDirections; ++d) {
    Bitboard has = 0;
    for (int sq = 0; sq < kSquares; ++sq) has |= kStep[d][sq] >= 0 ? bit(sq) : 0;
    if ((offset_mask(d, near_offset(d)) | offset_mask(d, far_offset(d))) != has) return false;
  }
  return true;
}
static_assert(offsets_cover_board());

}  // namespace detail

// The squares one step in direction D from the squares of `b`.
template <int D>
[[nodiscard]] constexpr Bitboard step(Bitboard b) noexcept {
  constexpr int kNear = detail::near_offset(D);
  constexpr int kFar = detail::far_offset(D);
  constexpr Bitboard kNearMask = detail::offset_mask(D, kNear);
  constexpr Bitboard kFarMask = detail::offset_mask(D, kFar);
  return detail::shift<kNear>(b & kNearMask) | detail::shift<kFar>(b & kFarMask);
}

// Where the pieces `movers` land jumping in direction D: over one of
// `theirs` onto an empty square.
template <int D>
[[nodiscard]] constexpr Bitboard jump_landings(Bitboard movers, Bitboard theirs,
                                               Bitboard empty) noexcept {
  return step<D>(step<D>(movers) & theirs) & empty;
}

// The squares of `movers` that can jump in direction D: the neighbour is one
// of `theirs` and the square beyond is empty (found backwards from `empty`).
template <int D>
[[nodiscard]] constexpr Bitboard can_jump_toward(Bitboard movers, Bitboard theirs,
                                                 Bitboard empty) noexcept {
  constexpr int kBack = opposite(D);
  return movers & step<kBack>(step<kBack>(empty) & theirs);
}

// A move: the from square, the landing square, and for a jump the direction
// of each jump (2 bits each) and the captured set. A path is what tells two
// jumps with the same ends and captures apart (OEIS A133046 counts both).
// At most 12 jumps (one per opponent piece), so 24 bits hold every path.
class Move {
 public:
  Move() noexcept = default;
  // A simple step.
  static constexpr Move step(int from, int to) noexcept { return Move(from, to, 0, 0, 0); }
  // A jump path of `jumps` jumps in directions `dirs` (jump i in bits 2i, 2i+1).
  static constexpr Move jump(int from, int to, Bitboard captured, std::uint32_t dirs,
                             int jumps) noexcept {
    return Move(from, to, captured, dirs, jumps);
  }
  [[nodiscard]] constexpr int from() const noexcept { return m_from; }
  [[nodiscard]] constexpr int to() const noexcept { return m_to; }
  [[nodiscard]] constexpr Bitboard captured() const noexcept { return m_captured; }
  [[nodiscard]] constexpr int jumps() const noexcept { return static_cast<int>(m_path >> 24); }
  [[nodiscard]] constexpr bool is_jump() const noexcept { return m_captured != 0; }
  [[nodiscard]] constexpr int direction(int i) const noexcept {
    return static_cast<int>((m_path >> (2 * i)) & 3U);
  }
  // The square where jump i (0-based) lands.
  [[nodiscard]] constexpr int landing(int i) const noexcept {
    int sq = m_from;
    for (int j = 0; j <= i; ++j) sq = kJump[direction(j)][sq];
    return sq;
  }
  friend constexpr bool operator==(const Move&, const Move&) = default;

 private:
  constexpr Move(int from, int to, Bitboard captured, std::uint32_t dirs, int jumps) noexcept
      : m_captured(captured),
        m_path(dirs | (static_cast<std::uint32_t>(jumps) << 24)),
        m_from(static_cast<std::uint8_t>(from)),
        m_to(static_cast<std::uint8_t>(to)) {}

  // No member initialisers: a trivial default constructor lets a 612-move
  // list skip zeroing (move_list.hpp); `Move{}` is still all zero.
  Bitboard m_captured;
  std::uint32_t m_path;  // directions in bits 0-23, jump count in bits 24-27
  std::uint8_t m_from;
  std::uint8_t m_to;
};
static_assert(sizeof(Move) == 12);
static_assert(std::is_trivially_default_constructible_v<Move>);

// Zobrist keys: one per (side, man or king, square), plus White to move.
inline constexpr auto kZobrist = make_zobrist<2 * 2 * kSquares + 1>(0xC4EC7E25D4A06475ULL);
[[nodiscard]] constexpr std::uint64_t zobrist(Player side, bool king, int sq) noexcept {
  return kZobrist[(index(side) * 2 + (king ? 1 : 0)) * kSquares + sq];
}
inline constexpr std::uint64_t kZobristWhiteToMove = kZobrist[2 * 2 * kSquares];

}  // namespace duel::games::checkers
