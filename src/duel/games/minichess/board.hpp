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

// The 8 directions a slider moves in; the first four run towards higher
// square indices.
inline constexpr std::array<std::array<int, 2>, 8> kDirections = {
    {{0, 1}, {1, 0}, {1, 1}, {-1, 1}, {0, -1}, {-1, 0}, {-1, -1}, {1, -1}}};

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

// Step 2. Sliders. A slider's attacks along one line (a rank, a file or a
// diagonal) depend only on which of that line's at most five squares are
// occupied, so they are a table of 32 entries a square and a line, indexed
// by that pattern bit by bit (the rank's squares by file, the file's by
// rank, a diagonal's by file). A rank's pattern is a shift. A diagonal has at
// most one square a file; multiplying it by the a-file's mask adds copies of
// it shifted up 0..4 ranks, no two on one bit (no carries), and rank 5 of
// the product holds each square's bit on its own file. A file's squares
// (moved to the a-file) are gathered by the same kind of multiply onto bits
// 27..31, one rank each (docs/BENCHMARKS.md,
// "Slider tables and two copies").
// Why: a look-up has no branch; the ray scan it replaces (the nearest
// blocker on each of four rays a piece) was a tenth of the search's time.
namespace detail {

inline constexpr Bitboard kFileA = 0x108421;  // a1, a2, a3, a4, a5
// Bit 5r of (a square of the a-file) x kFileGather lands on bit 27 + r: the
// terms are 5r + 27 - 4k for k = 0..4; those for k = r are bits 27..31, the
// others fall below bit 27 on ten distinct bits or above bit 31.
inline constexpr std::uint64_t kFileGather =
    (1ULL << 27) | (1ULL << 23) | (1ULL << 19) | (1ULL << 15) | (1ULL << 11);

// The ray scan, one step at a time: the table's reference.
constexpr Bitboard slide(int sq, Bitboard occupied, int d) {
  Bitboard out = 0;
  int f = file_of(sq) + kDirections[static_cast<std::size_t>(d)][0];
  int r = rank_of(sq) + kDirections[static_cast<std::size_t>(d)][1];
  while (on_board(f, r)) {
    out |= bit(square(f, r));
    if ((occupied & bit(square(f, r))) != 0) break;
    f += kDirections[static_cast<std::size_t>(d)][0];
    r += kDirections[static_cast<std::size_t>(d)][1];
  }
  return out;
}

// The lines: 0 rank, 1 file, 2 diagonal (a1-e5), 3 anti-diagonal (e1-a5),
// each as its two directions in kDirections.
inline constexpr std::array<std::array<int, 2>, 4> kLineDirections = {
    {{1, 5}, {0, 4}, {2, 6}, {3, 7}}};

constexpr std::array<Bitboard, kSquares> line_masks(int line) {
  std::array<Bitboard, kSquares> out{};
  const auto& dirs = kLineDirections[static_cast<std::size_t>(line)];
  for (int sq = 0; sq < kSquares; ++sq) {
    out[static_cast<std::size_t>(sq)] = bit(sq) | slide(sq, 0, dirs[0]) | slide(sq, 0, dirs[1]);
  }
  return out;
}

using LineTable = std::array<std::array<Bitboard, 32>, kSquares>;

// Entry [sq][pattern]: the attacks along `line` from `sq` when the line's
// squares picked by `pattern` (bit i: the one on file i, or rank i for a
// file) are occupied.
constexpr LineTable line_table(int line) {
  LineTable out{};
  const auto mask = line_masks(line);
  const auto& dirs = kLineDirections[static_cast<std::size_t>(line)];
  for (int sq = 0; sq < kSquares; ++sq) {
    for (int pattern = 0; pattern < 32; ++pattern) {
      Bitboard occupied = 0;
      for (int s = 0; s < kSquares; ++s) {
        const int i = line == 1 ? rank_of(s) : file_of(s);
        if ((mask[static_cast<std::size_t>(sq)] & bit(s)) != 0 && ((pattern >> i) & 1) != 0) {
          occupied |= bit(s);
        }
      }
      out[static_cast<std::size_t>(sq)][static_cast<std::size_t>(pattern)] =
          slide(sq, occupied, dirs[0]) | slide(sq, occupied, dirs[1]);
    }
  }
  return out;
}

inline constexpr auto kDiagonalMask = line_masks(2);
inline constexpr auto kAntiDiagonalMask = line_masks(3);
inline constexpr auto kRankTable = line_table(0);
inline constexpr auto kFileTable = line_table(1);
inline constexpr auto kDiagonalTable = line_table(2);
inline constexpr auto kAntiDiagonalTable = line_table(3);

[[nodiscard]] constexpr std::size_t rank_pattern(int sq, Bitboard occupied) noexcept {
  return (occupied >> (kFiles * rank_of(sq))) & 31;
}
[[nodiscard]] constexpr std::size_t file_pattern(int sq, Bitboard occupied) noexcept {
  return static_cast<std::size_t>(
      ((std::uint64_t{(occupied >> file_of(sq)) & kFileA} * kFileGather) >> 27) & 31);
}
[[nodiscard]] constexpr std::size_t diagonal_pattern(Bitboard line, Bitboard occupied) noexcept {
  return static_cast<std::size_t>(((std::uint64_t{occupied & line} * kFileA) >> 20) & 31);
}

}  // namespace detail

[[nodiscard]] constexpr Bitboard rook_attacks(int sq, Bitboard occupied) noexcept {
  const auto s = static_cast<std::size_t>(sq);
  return detail::kRankTable[s][detail::rank_pattern(sq, occupied)] |
         detail::kFileTable[s][detail::file_pattern(sq, occupied)];
}
[[nodiscard]] constexpr Bitboard bishop_attacks(int sq, Bitboard occupied) noexcept {
  const auto s = static_cast<std::size_t>(sq);
  return detail::kDiagonalTable[s][detail::diagonal_pattern(detail::kDiagonalMask[s], occupied)] |
         detail::kAntiDiagonalTable[s][detail::diagonal_pattern(detail::kAntiDiagonalMask[s],
                                                                occupied)];
}

// Step 3. Zobrist keys: one per (side, piece type, square), plus the side to move.
inline constexpr auto kZobrist =
    make_zobrist<2 * kPieceTypes * kSquares + 1>(0x5ADD1E5CA5CADE55ULL);
[[nodiscard]] constexpr std::uint64_t zobrist(Player side, Piece type, int sq) noexcept {
  return kZobrist[(index(side) * kPieceTypes + type_index(type)) * kSquares + sq];
}
inline constexpr std::uint64_t kZobristBlackToMove = kZobrist[2 * kPieceTypes * kSquares];

}  // namespace duel::games::minichess
