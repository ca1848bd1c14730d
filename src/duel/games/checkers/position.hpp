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
  // The moves of the side to move as a template argument: its forward
  // directions become constants, so whole-set steps compile to fixed shifts.
  template <Player Us>
  void moves_of(Moves& out) const noexcept;

  std::array<Bitboard, 2> m_side{};  // by colour, Player::First = Black
  Bitboard m_kings = 0;              // both colours
  std::uint64_t m_key = 0;
  Player m_to_move = Player::First;
  std::uint8_t m_clock = 0;
};

// ---------------------------------------------------------------------------
// Hot-path definitions.

namespace detail {

// A side's directions as constants: men move forward only (RULES.md §5),
// Black's down (2, 3), White's up (0, 1); kings also take the other two.
template <Player Us>
inline constexpr int kForward = first_forward(Us);
template <Player Us>
inline constexpr int kBackward = 2 - kForward<Us>;

// The pieces of `own` (side Us) that can jump, found for all pieces at once.
template <Player Us>
[[nodiscard]] inline Bitboard jumpers(Bitboard own, Bitboard kings, Bitboard theirs,
                                      Bitboard empty) noexcept {
  constexpr int kF = kForward<Us>;
  constexpr int kB = kBackward<Us>;
  Bitboard found =
      can_jump_toward<kF>(own, theirs, empty) | can_jump_toward<kF + 1>(own, theirs, empty);
  if (const Bitboard k = own & kings; k != 0) {
    found |= can_jump_toward<kB>(k, theirs, empty) | can_jump_toward<kB + 1>(k, theirs, empty);
  }
  return found;
}

// How many simple steps `own` has: one per (piece, direction) with an empty
// neighbour, counted a direction at a time without listing them.
template <Player Us>
[[nodiscard]] inline int step_count(Bitboard own, Bitboard kings, Bitboard empty) noexcept {
  constexpr int kF = kForward<Us>;
  constexpr int kB = kBackward<Us>;
  int n = std::popcount(step<kF>(own) & empty) + std::popcount(step<kF + 1>(own) & empty);
  if (const Bitboard k = own & kings; k != 0) {
    n += std::popcount(step<kB>(k) & empty) + std::popcount(step<kB + 1>(k) & empty);
  }
  return n;
}

// Calls visit(move) for every maximal jump path that goes on from `sq`, where
// the piece of side Us that left `from` stands after `jumps` jumps in
// directions `dirs`, having captured `captured`. `theirs` no longer holds the
// captured pieces (none is jumped twice); `empty` includes `from`, since the
// mover has left it: a king may land on or pass over it (RULES.md §5).
template <Player Us, class Visit>
void jump_paths(int from, int sq, bool king, Bitboard theirs, Bitboard empty, Bitboard captured,
                std::uint32_t dirs, int jumps, Visit& visit) noexcept {
  const int d0 = king ? 0 : kForward<Us>;
  const int d1 = king ? kDirections : kForward<Us> + 2;
  bool extended = false;
  for (int d = d0; d < d1; ++d) {
    const int land = kJump[d][sq];
    if (land < 0) continue;
    const Bitboard mid = bit(kStep[d][sq]);
    if ((theirs & mid) == 0 || (empty & bit(land)) == 0) continue;
    extended = true;
    const std::uint32_t next_dirs = dirs | (static_cast<std::uint32_t>(d) << (2 * jumps));
    if (!king && (crown_row(Us) & bit(land)) != 0) {
      // Crowning ends the move (RULES.md §5): no further jump as a king.
      visit(Move::jump(from, land, captured | mid, next_dirs, jumps + 1));
    } else {
      jump_paths<Us>(from, land, king, theirs & ~mid, empty, captured | mid, next_dirs, jumps + 1,
                     visit);
    }
  }
  if (!extended && jumps > 0) visit(Move::jump(from, sq, captured, dirs, jumps));
}

// Every jump of the pieces in `jumping` (of side Us), piece by piece.
template <Player Us, class Visit>
void jumps_of(Bitboard jumping, Bitboard kings, Bitboard theirs, Bitboard empty,
              Visit& visit) noexcept {
  for (Bitboard b = jumping; b != 0; b &= b - 1) {
    const int sq = lowest(b);
    jump_paths<Us>(sq, sq, (kings & bit(sq)) != 0, theirs, empty | bit(sq), 0, 0, 0, visit);
  }
}

}  // namespace detail

template <Player Us>
void Position::moves_of(Moves& out) const noexcept {
  out.clear();
  const Bitboard own = m_side[index(Us)];
  const Bitboard theirs = m_side[index(Us) ^ 1];
  const Bitboard empty = ~(own | theirs);
  // Step 1. Jumps are compulsory: every maximal path of every piece that can
  // jump, in square order.
  if (const Bitboard jumping = detail::jumpers<Us>(own, m_kings, theirs, empty); jumping != 0) {
    auto push = [&out](const Move& m) { out.push_back(m); };
    detail::jumps_of<Us>(jumping, m_kings, theirs, empty, push);
    return;
  }
  // Step 2. Otherwise the simple steps, piece by piece in square order (the
  // order the game's lists have always had: seeded games and divide rely on it).
  for (Bitboard b = own; b != 0; b &= b - 1) {
    const int sq = lowest(b);
    const bool king = (m_kings & bit(sq)) != 0;
    for (int d = king ? 0 : detail::kForward<Us>;
         d < (king ? kDirections : detail::kForward<Us> + 2); ++d) {
      const int to = kStep[d][sq];
      if (to >= 0 && (empty & bit(to)) != 0) out.push_back(Move::step(sq, to));
    }
  }
}

inline void Position::moves(Moves& out) const noexcept {
  if (m_to_move == Player::First) {
    moves_of<Player::First>(out);
  } else {
    moves_of<Player::Second>(out);
  }
}

inline bool Position::can_jump() const noexcept {
  const Bitboard own = m_side[index(m_to_move)];
  const Bitboard theirs = m_side[index(m_to_move) ^ 1];
  const Bitboard empty = ~(own | theirs);
  return (m_to_move == Player::First
              ? detail::jumpers<Player::First>(own, m_kings, theirs, empty)
              : detail::jumpers<Player::Second>(own, m_kings, theirs, empty)) != 0;
}

inline bool Position::has_move() const noexcept {
  const Bitboard own = m_side[index(m_to_move)];
  const Bitboard empty = ~occupied();
  const int steps = m_to_move == Player::First
                        ? detail::step_count<Player::First>(own, m_kings, empty)
                        : detail::step_count<Player::Second>(own, m_kings, empty);
  return steps > 0 || can_jump();
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

// Perft on the pieces alone. Why: perft needs neither the key nor the clock,
// so a node is three bitboards, the side to move is a template argument, and
// simple moves are made a direction at a time from whole-set shifts without
// a move list. The last ply only counts (leaf_count).
namespace detail {

template <Player Us, bool Dedupe>
[[nodiscard]] std::uint64_t perft_pieces(Bitboard own, Bitboard theirs, Bitboard kings,
                                         int depth) noexcept;

// How many maximal jump paths the men `men` of side Us have, counted on
// sets. Why no captured set or vacated square: a man jumps forward only, so
// the pieces it has taken and the square it left lie behind it, out of reach
// of its next jumps; most paths end after one jump, found for all men at once.
template <Player Us>
[[nodiscard]] std::uint64_t men_jump_count(Bitboard men, Bitboard theirs, Bitboard empty) noexcept;

// The same from the squares where the first jumps land, in each forward
// direction (two men may land on one square, one from each side: two paths).
template <Player Us>
[[nodiscard]] inline std::uint64_t men_paths(Bitboard land_a, Bitboard land_b, Bitboard theirs,
                                             Bitboard empty) noexcept {
  // Crowning ends the move (RULES.md §5); elsewhere a man that can jump on must.
  const Bitboard go_on = jumpers<Us>((land_a | land_b) & ~crown_row(Us), 0, theirs, empty);
  auto n =
      static_cast<std::uint64_t>(std::popcount(land_a & ~go_on) + std::popcount(land_b & ~go_on));
  for (Bitboard b = go_on & land_a; b != 0; b &= b - 1) {
    n += men_jump_count<Us>(b & (0U - b), theirs, empty);
  }
  for (Bitboard b = go_on & land_b; b != 0; b &= b - 1) {
    n += men_jump_count<Us>(b & (0U - b), theirs, empty);
  }
  return n;
}

template <Player Us>
std::uint64_t men_jump_count(Bitboard men, Bitboard theirs, Bitboard empty) noexcept {
  return men_paths<Us>(jump_landings<kForward<Us>>(men, theirs, empty),
                       jump_landings<kForward<Us> + 1>(men, theirs, empty), theirs, empty);
}

// Calls visit(to, captured) at the end of every maximal jump path that goes
// on from the single square `at`, as jump_paths does, but on sets: perft
// needs neither the path's directions nor square numbers, and the jumps from
// one square are two whole-set shifts per direction.
template <Player Us, bool King, class Visit>
void jump_ends(Bitboard at, Bitboard theirs, Bitboard empty, Bitboard captured,
               Visit& visit) noexcept {
  bool extended = false;
  auto toward = [&]<int D>() {
    const Bitboard mid = step<D>(at) & theirs;
    const Bitboard land = step<D>(mid) & empty;
    if (land == 0) return;
    extended = true;
    if (!King && (land & crown_row(Us)) != 0) {
      visit(land, captured | mid);  // crowning ends the move (RULES.md §5)
    } else {
      jump_ends<Us, King>(land, theirs & ~mid, empty, captured | mid, visit);
    }
  };
  toward.template operator()<kForward<Us>>();
  toward.template operator()<kForward<Us> + 1>();
  if constexpr (King) {
    toward.template operator()<kBackward<Us>>();
    toward.template operator()<kBackward<Us> + 1>();
  }
  if (!extended && captured != 0) visit(at, captured);
}

// Every jump path of the pieces `jumping` (of side Us), as jump_ends calls.
// The mover has left its square: a king may land on or pass over it.
template <Player Us, class Visit>
void jump_ends_of(Bitboard jumping, Bitboard kings, Bitboard theirs, Bitboard empty,
                  Visit& visit) noexcept {
  for (Bitboard b = jumping; b != 0; b &= b - 1) {
    const Bitboard from = b & (0U - b);
    if ((kings & from) != 0) {
      jump_ends<Us, true>(from, theirs, empty | from, 0, visit);
    } else {
      jump_ends<Us, false>(from, theirs, empty | from, 0, visit);
    }
  }
}

// How many legal moves side Us has: perft's last ply, counted, not made.
template <Player Us>
[[nodiscard]] inline std::uint64_t leaf_count(Bitboard own, Bitboard theirs,
                                              Bitboard kings) noexcept {
  const Bitboard empty = ~(own | theirs);
  if ((own & kings) == 0) {
    // Men only (the common case): the landings tell whether there is a jump.
    const Bitboard land_a = jump_landings<kForward<Us>>(own, theirs, empty);
    const Bitboard land_b = jump_landings<kForward<Us> + 1>(own, theirs, empty);
    if ((land_a | land_b) != 0) return men_paths<Us>(land_a, land_b, theirs, empty);
    return static_cast<std::uint64_t>(step_count<Us>(own, 0, empty));
  }
  const Bitboard jumping = jumpers<Us>(own, kings, theirs, empty);
  if (jumping == 0) return static_cast<std::uint64_t>(step_count<Us>(own, kings, empty));
  std::uint64_t n = men_jump_count<Us>(jumping & ~kings, theirs, empty);
  if ((jumping & kings) != 0) {
    auto count = [&n](Bitboard /*to*/, Bitboard /*captured*/) { ++n; };
    jump_ends_of<Us>(jumping & kings, kings, theirs, empty, count);
  }
  return n;
}

// The count below the child where the piece on `from` went to `to` (single
// bits, equal on a king's round trip), capturing `captured`.
template <Player Us, bool Dedupe>
[[nodiscard]] inline std::uint64_t perft_child(Bitboard own, Bitboard theirs, Bitboard kings,
                                               Bitboard from, Bitboard to, Bitboard captured,
                                               int depth) noexcept {
  Bitboard k = kings & ~captured;
  k = (k & from) != 0 ? (k & ~from) | to : k | (to & crown_row(Us));
  theirs &= ~captured;
  own = (own & ~from) | to;
  // The last ply inline: most calls land here.
  if (!Dedupe && depth == 2) return leaf_count<other(Us)>(theirs, own, k);
  return perft_pieces<other(Us), Dedupe>(theirs, own, k, depth - 1);
}

// The counts below every simple step in direction D of the pieces `movers`.
template <Player Us, bool Dedupe, int D>
[[nodiscard]] inline std::uint64_t perft_steps(Bitboard movers, Bitboard own, Bitboard theirs,
                                               Bitboard kings, Bitboard empty, int depth) noexcept {
  std::uint64_t total = 0;
  for (Bitboard b = step<D>(movers) & empty; b != 0; b &= b - 1) {
    const Bitboard to = b & (0U - b);
    total += perft_child<Us, Dedupe>(own, theirs, kings, step<opposite(D)>(to), to, 0, depth);
  }
  return total;
}

template <Player Us, bool Dedupe>
std::uint64_t perft_pieces(Bitboard own, Bitboard theirs, Bitboard kings, int depth) noexcept {
  if (!Dedupe && depth == 1) return leaf_count<Us>(own, theirs, kings);
  const Bitboard empty = ~(own | theirs);
  const Bitboard jumping = jumpers<Us>(own, kings, theirs, empty);
  // Step 1. No jump: the simple steps.
  if (jumping == 0) {
    if (depth == 1) return static_cast<std::uint64_t>(step_count<Us>(own, kings, empty));
    constexpr int kF = kForward<Us>;
    constexpr int kB = kBackward<Us>;
    std::uint64_t total = perft_steps<Us, Dedupe, kF>(own, own, theirs, kings, empty, depth) +
                          perft_steps<Us, Dedupe, kF + 1>(own, own, theirs, kings, empty, depth);
    if (const Bitboard k = own & kings; k != 0) {
      total += perft_steps<Us, Dedupe, kB>(k, own, theirs, kings, empty, depth) +
               perft_steps<Us, Dedupe, kB + 1>(k, own, theirs, kings, empty, depth);
    }
    return total;
  }
  // Step 2. Jumps. Only a king's paths can share a start, end and captured
  // set (a man takes one piece per row on rising rows, so its captures fix
  // its path): --dedupe lists and merges paths only when a king can jump.
  std::uint64_t total = 0;
  if (Dedupe && (jumping & kings) != 0) {
    Moves moves;
    auto push = [&moves](const Move& m) { moves.push_back(m); };
    jumps_of<Us>(jumping, kings, theirs, empty, push);
    dedupe(moves);
    if (depth == 1) return moves.size();
    for (const Move& m : moves) {
      total += perft_child<Us, Dedupe>(own, theirs, kings, bit(m.from()), bit(m.to()), m.captured(),
                                       depth);
    }
    return total;
  }
  if (depth == 1) return leaf_count<Us>(own, theirs, kings);
  for (Bitboard b = jumping; b != 0; b &= b - 1) {
    const Bitboard from = b & (0U - b);
    auto child = [&](Bitboard to, Bitboard captured) {
      total += perft_child<Us, Dedupe>(own, theirs, kings, from, to, captured, depth);
    };
    jump_ends_of<Us>(from, kings, theirs, empty, child);
  }
  return total;
}

template <bool Dedupe>
[[nodiscard]] inline std::uint64_t perft_from(const Position& p, int depth) noexcept {
  if (depth <= 0) return 1;
  const Bitboard black = p.pieces(Player::First);
  const Bitboard white = p.pieces(Player::Second);
  return p.to_move() == Player::First
             ? perft_pieces<Player::First, Dedupe>(black, white, p.kings(), depth)
             : perft_pieces<Player::Second, Dedupe>(white, black, p.kings(), depth);
}

}  // namespace detail

inline std::uint64_t Position::count_moves() const noexcept {
  return detail::perft_from<false>(*this, 1);
}

// Perft (OEIS A133046): every maximal jump path is its own move; draw rules
// and the end of the game are ignored (a side without moves has no children).
[[nodiscard]] inline std::uint64_t perft(const Position& p, int depth) noexcept {
  return detail::perft_from<false>(p, depth);
}

// Perft with duplicate paths merged (RULES.md §5 `--dedupe`: d12 388617999).
[[nodiscard]] inline std::uint64_t perft_dedupe(const Position& p, int depth) noexcept {
  return detail::perft_from<true>(p, depth);
}

}  // namespace duel::games::checkers
