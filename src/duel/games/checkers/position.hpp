#pragma once
// A checkers position without game history: pieces, side to move, the
// no-progress clock, the Zobrist key; the move generator and perft.
//
// Why apart from `State`: perft needs only this 24-byte value, while the game
// state adds the repetition history (800 bytes). Perft copies positions, the
// game copies states: each pays for what it uses (as minichess does).
#include <array>
#include <cassert>
#include <cstdint>

#include "duel/core/move_list.hpp"
#include "duel/core/types.hpp"
#include "duel/games/checkers/board.hpp"

namespace duel::games::checkers {

// The move bound. Simple moves: 12 pieces x 4 directions = 48. Jumps: a jump
// path crosses each captured piece once, lands on squares of one class of 8
// (a jump moves 2 rows and 2 files), and each piece square is the midpoint of
// at most one edge between squares of a class; so a piece's maximal paths are
// distinct non-empty trails in that class's jump graph. Enumerating every
// trail on the full graph gives at most 51 from any square (the test
// `CheckersBounds.TrailsPerSquare` recomputes it from kJump), so 12 x 51 = 612
// bounds the jumps of a side, and jumps and simple moves never mix.
inline constexpr int kMaxTrailsPerSquare = 51;
inline constexpr std::size_t kMaxMoves = kMaxPieces * kMaxTrailsPerSquare;
using Moves = MoveList<Move, kMaxMoves>;

class Position {
 public:
  // An empty board, Black to move (fill it with `put`).
  Position() = default;

  // Step 1. Queries.
  [[nodiscard]] Player to_move() const noexcept { return m_to_move; }
  [[nodiscard]] Bitboard pieces(Player side) const noexcept { return m_side[index(side)]; }
  [[nodiscard]] Bitboard kings() const noexcept { return m_kings; }
  [[nodiscard]] Bitboard kings(Player side) const noexcept { return m_side[index(side)] & m_kings; }
  [[nodiscard]] Bitboard men(Player side) const noexcept { return m_side[index(side)] & ~m_kings; }
  [[nodiscard]] Bitboard occupied() const noexcept { return m_side[0] | m_side[1]; }
  // Plies since the last capture or crowning.
  [[nodiscard]] int clock() const noexcept { return m_clock; }
  [[nodiscard]] std::uint64_t key() const noexcept { return m_key; }
  // The key of the placement alone (RULES.md §5: the same placement of all
  // pieces, whoever is to move).
  [[nodiscard]] std::uint64_t placement_key() const noexcept {
    return m_to_move == Player::Second ? m_key ^ kZobristWhiteToMove : m_key;
  }

  // Step 2. Moves.
  // The legal moves: every maximal jump path if any piece can jump, else
  // every simple step.
  void moves(Moves& out) const noexcept;
  // How many legal moves there are, without listing them (perft's leaves).
  [[nodiscard]] std::uint64_t count_moves() const noexcept;
  [[nodiscard]] bool has_move() const noexcept;
  [[nodiscard]] bool can_jump() const noexcept;
  // The position after the legal move `m` (copy-make).
  [[nodiscard]] Position play(const Move& m) const noexcept;
  // Whether `m` crowns a man.
  [[nodiscard]] bool crowns(const Move& m) const noexcept {
    return (m_kings & bit(m.from())) == 0 && (crown_row(m_to_move) & bit(m.to())) != 0;
  }

  // Step 3. Building positions (text, tests); the key follows every change.
  void put(Player side, bool king, int sq) noexcept {
    assert((occupied() & bit(sq)) == 0);
    m_side[index(side)] |= bit(sq);
    if (king) m_kings |= bit(sq);
    m_key ^= zobrist(side, king, sq);
  }
  void set_to_move(Player side) noexcept {
    if (side != m_to_move) m_key ^= kZobristWhiteToMove;
    m_to_move = side;
  }
  void set_clock(int plies) noexcept { m_clock = static_cast<std::uint8_t>(plies); }
  [[nodiscard]] std::uint64_t compute_key() const noexcept {
    std::uint64_t k = m_to_move == Player::Second ? kZobristWhiteToMove : 0;
    for (const Player side : {Player::First, Player::Second}) {
      for (Bitboard b = pieces(side); b != 0; b &= b - 1) {
        k ^= zobrist(side, (m_kings & bit(lowest(b))) != 0, lowest(b));
      }
    }
    return k;
  }
  // The position turned 180 degrees with the colours swapped (square s goes
  // to 33 - s in standard numbers); the side to move swaps too.
  [[nodiscard]] Position flipped() const noexcept {
    Position f;
    for (const Player side : {Player::First, Player::Second}) {
      for (Bitboard b = pieces(side); b != 0; b &= b - 1) {
        const int sq = lowest(b);
        f.put(other(side), (m_kings & bit(sq)) != 0, kSquares - 1 - sq);
      }
    }
    f.set_to_move(other(m_to_move));
    f.m_clock = m_clock;
    return f;
  }

  friend bool operator==(const Position&, const Position&) = default;

 private:
  // Extends the jump path of the piece that left `from` and stands on `sq`;
  // `out` is a Moves list or a Counter (perft's last ply only counts).
  template <class Out>
  void extend(int from, int sq, bool king, Bitboard captured, std::uint32_t dirs, int jumps,
              Out& out) const noexcept;

  std::array<Bitboard, 2> m_side{};  // by colour, Player::First = Black
  Bitboard m_kings = 0;              // both colours
  std::uint64_t m_key = 0;
  Player m_to_move = Player::First;
  std::uint8_t m_clock = 0;
};

// ---------------------------------------------------------------------------
// Hot-path definitions.

// Counts moves where a list would hold them.
struct Counter {
  std::uint64_t n = 0;
  void push_back(const Move& /*m*/) noexcept { ++n; }
};

template <class Out>
void Position::extend(int from, int sq, bool king, Bitboard captured, std::uint32_t dirs, int jumps,
                      Out& out) const noexcept {
  const Bitboard theirs = m_side[index(m_to_move) ^ 1] & ~captured;
  // The mover has left `from`: a king may land on or pass over it.
  const Bitboard empty = ~occupied() | bit(from);
  const int d0 = king ? 0 : first_forward(m_to_move);
  const int d1 = king ? kDirections : d0 + 2;
  bool extended = false;
  for (int d = d0; d < d1; ++d) {
    const int land = kJump[d][sq];
    if (land < 0) continue;
    const int mid = kStep[d][sq];
    if ((theirs & bit(mid)) == 0 || (empty & bit(land)) == 0) continue;
    extended = true;
    const std::uint32_t next_dirs = dirs | (static_cast<std::uint32_t>(d) << (2 * jumps));
    const Bitboard next_captured = captured | bit(mid);
    if (!king && (crown_row(m_to_move) & bit(land)) != 0) {
      // Crowning ends the move (RULES.md §5): no further jump as a king.
      out.push_back(Move::jump(from, land, next_captured, next_dirs, jumps + 1));
    } else {
      extend(from, land, king, next_captured, next_dirs, jumps + 1, out);
    }
  }
  if (!extended && jumps > 0) out.push_back(Move::jump(from, sq, captured, dirs, jumps));
}

inline bool Position::can_jump() const noexcept {
  const Bitboard theirs = m_side[index(m_to_move) ^ 1];
  const Bitboard empty = ~occupied();
  const int fwd = first_forward(m_to_move);
  for (Bitboard b = m_side[index(m_to_move)]; b != 0; b &= b - 1) {
    const int sq = lowest(b);
    const bool king = (m_kings & bit(sq)) != 0;
    for (int d = king ? 0 : fwd; d < (king ? kDirections : fwd + 2); ++d) {
      const int land = kJump[d][sq];
      if (land >= 0 && (theirs & bit(kStep[d][sq])) != 0 && (empty & bit(land)) != 0) return true;
    }
  }
  return false;
}

inline bool Position::has_move() const noexcept {
  const Bitboard empty = ~occupied();
  const int fwd = first_forward(m_to_move);
  for (Bitboard b = m_side[index(m_to_move)]; b != 0; b &= b - 1) {
    const int sq = lowest(b);
    const bool king = (m_kings & bit(sq)) != 0;
    for (int d = king ? 0 : fwd; d < (king ? kDirections : fwd + 2); ++d) {
      const int to = kStep[d][sq];
      if (to >= 0 && (empty & bit(to)) != 0) return true;
    }
  }
  return can_jump();
}

inline void Position::moves(Moves& out) const noexcept {
  out.clear();
  const Bitboard own = m_side[index(m_to_move)];
  // Step 1. Jumps are compulsory: every maximal path of every piece.
  if (can_jump()) {
    for (Bitboard b = own; b != 0; b &= b - 1) {
      const int sq = lowest(b);
      extend(sq, sq, (m_kings & bit(sq)) != 0, 0, 0, 0, out);
    }
    return;
  }
  // Step 2. Otherwise the simple steps.
  const Bitboard empty = ~occupied();
  const int fwd = first_forward(m_to_move);
  for (Bitboard b = own; b != 0; b &= b - 1) {
    const int sq = lowest(b);
    const bool king = (m_kings & bit(sq)) != 0;
    for (int d = king ? 0 : fwd; d < (king ? kDirections : fwd + 2); ++d) {
      const int to = kStep[d][sq];
      if (to >= 0 && (empty & bit(to)) != 0) out.push_back(Move::step(sq, to));
    }
  }
}

inline std::uint64_t Position::count_moves() const noexcept {
  const Bitboard own = m_side[index(m_to_move)];
  Counter count;
  if (can_jump()) {
    for (Bitboard b = own; b != 0; b &= b - 1) {
      const int sq = lowest(b);
      extend(sq, sq, (m_kings & bit(sq)) != 0, 0, 0, 0, count);
    }
    return count.n;
  }
  const Bitboard empty = ~occupied();
  const int fwd = first_forward(m_to_move);
  for (Bitboard b = own; b != 0; b &= b - 1) {
    const int sq = lowest(b);
    const bool king = (m_kings & bit(sq)) != 0;
    for (int d = king ? 0 : fwd; d < (king ? kDirections : fwd + 2); ++d) {
      const int to = kStep[d][sq];
      count.n += (to >= 0 && (empty & bit(to)) != 0) ? 1 : 0;
    }
  }
  return count.n;
}

inline Position Position::play(const Move& m) const noexcept {
  Position next = *this;
  const Player us = m_to_move;
  const Player them = other(us);
  const int from = m.from();
  const int to = m.to();
  const bool king = (m_kings & bit(from)) != 0;
  assert((m_side[index(us)] & bit(from)) != 0);
  // Step 1. Remove the captured pieces (men and kings).
  for (Bitboard b = m.captured(); b != 0; b &= b - 1) {
    const int sq = lowest(b);
    next.m_key ^= zobrist(them, (m_kings & bit(sq)) != 0, sq);
  }
  next.m_side[index(them)] &= ~m.captured();
  next.m_kings &= ~m.captured();
  // Step 2. Move the piece (from may equal to: a king's round trip), crowning
  // a man on the far row.
  const bool crowned = !king && (crown_row(us) & bit(to)) != 0;
  next.m_side[index(us)] = (next.m_side[index(us)] & ~bit(from)) | bit(to);
  next.m_kings &= ~bit(from);
  if (king || crowned) next.m_kings |= bit(to);
  next.m_key ^= zobrist(us, king, from) ^ zobrist(us, king || crowned, to) ^ kZobristWhiteToMove;
  // Step 3. The clock counts plies without a capture or a crowning.
  next.m_clock = (m.captured() != 0 || crowned)
                     ? 0
                     : static_cast<std::uint8_t>(m_clock < 255 ? m_clock + 1 : 255);
  next.m_to_move = them;
  return next;
}

// Perft (OEIS A133046): every maximal jump path is its own move; draw rules
// and the end of the game are ignored (a side without moves has no children).
[[nodiscard]] inline std::uint64_t perft(const Position& p, int depth) noexcept {
  if (depth <= 0) return 1;
  if (depth == 1) return p.count_moves();
  Moves moves;
  p.moves(moves);
  std::uint64_t total = 0;
  for (const Move& m : moves) total += perft(p.play(m), depth - 1);
  return total;
}

// The legal moves with jump paths of the same start, end and captured set
// merged into one (the first generated stands for them).
inline void dedupe(Moves& moves) noexcept {
  std::size_t n = 0;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Move& m = moves[i];
    bool seen = false;
    if (m.jumps() > 1) {
      for (std::size_t j = 0; j < n && !seen; ++j) {
        seen = moves[j].from() == m.from() && moves[j].to() == m.to() &&
               moves[j].captured() == m.captured();
      }
    }
    if (!seen) moves[n++] = m;
  }
  moves.resize(n);
}

// Perft with duplicate paths merged (RULES.md §5 `--dedupe`: d12 388617999).
[[nodiscard]] inline std::uint64_t perft_dedupe(const Position& p, int depth) noexcept {
  if (depth <= 0) return 1;
  Moves moves;
  p.moves(moves);
  dedupe(moves);
  if (depth == 1) return moves.size();
  std::uint64_t total = 0;
  for (const Move& m : moves) total += perft_dedupe(p.play(m), depth - 1);
  return total;
}

}  // namespace duel::games::checkers
