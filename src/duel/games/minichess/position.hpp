#pragma once
// A 5x5 chess position without game history: pieces, side to move, the
// progress clock, and the Zobrist key; the move generator for every rule set.
//
// Why apart from `State`: perft and the generator need only this 40-byte value,
// while the game state adds the repetition history (800 bytes in `gardner`).
// Perft copies positions, the game copies states: each pays for what it uses.
#include <array>
#include <cassert>
#include <cstdint>

#include "duel/core/move_list.hpp"
#include "duel/core/types.hpp"
#include "duel/games/minichess/board.hpp"
#include "duel/games/minichess/rules.hpp"

namespace duel::games::minichess {

// A side has at most 12 x 13 (from, to) pairs on 25 squares, plus 3 extra
// promotion choices for each of at most 5 pawns with 3 moves each: 201.
inline constexpr std::size_t kMaxMoves = 256;
using Moves = MoveList<Move, kMaxMoves>;

template <class Rules>
class Position {
 public:
  // An empty board, White to move (fill it with `put`).
  Position() = default;

  // Step 1. Queries.
  [[nodiscard]] Player to_move() const noexcept { return m_to_move; }
  [[nodiscard]] Bitboard pieces(Player side) const noexcept { return m_side[index(side)]; }
  [[nodiscard]] Bitboard pieces(Piece type) const noexcept { return m_type[type_index(type)]; }
  [[nodiscard]] Bitboard pieces(Player side, Piece type) const noexcept {
    return m_side[index(side)] & m_type[type_index(type)];
  }
  [[nodiscard]] Bitboard occupied() const noexcept { return m_side[0] | m_side[1]; }
  [[nodiscard]] Piece piece_on(int sq) const noexcept {
    const Bitboard b = bit(sq);
    for (int t = 0; t < kPieceTypes; ++t) {
      if ((m_type[t] & b) != 0) return static_cast<Piece>(t);
    }
    return Piece::None;
  }
  // Plies since the last capture (or pawn move where that resets the clock).
  [[nodiscard]] int clock() const noexcept { return m_clock; }
  [[nodiscard]] int fullmove() const noexcept { return m_fullmove; }
  [[nodiscard]] std::uint64_t key() const noexcept { return m_key; }
  [[nodiscard]] bool has_king(Player side) const noexcept { return pieces(side, Piece::King) != 0; }
  // True when a piece of `by` attacks `sq` on the current board.
  [[nodiscard]] bool attacked(int sq, Player by) const noexcept {
    return attackers(sq, occupied(), m_side[index(by)], other(by)) != 0;
  }
  // The side to move's king is attacked (false without a king).
  [[nodiscard]] bool in_check() const noexcept { return king_attacked(m_to_move); }
  // The side that just moved left its king attacked (CS3243: it has lost).
  [[nodiscard]] bool exposed() const noexcept { return king_attacked(other(m_to_move)); }
  [[nodiscard]] bool king_attacked(Player side) const noexcept {
    const Bitboard k = pieces(side, Piece::King);
    return k != 0 && attacked(lowest(k), other(side));
  }

  // Step 2. Moves.
  // Every pseudo-legal move of the side to move (king safety ignored).
  void pseudo_moves(Moves& out) const noexcept {
    out.clear();
    visit_pseudo_moves([&out](Move m) {
      out.push_back(m);
      return false;
    });
  }
  // Calls `stop(m)` on each pseudo-legal move in pseudo_moves' order until
  // it returns true; whether it did. The game's end tests ask only for a
  // first move of a kind, usually the first one generated.
  // With kTacticalOnly, only the captures and promotions (State::is_tactical's
  // moves), in the same relative order.
  template <bool kTacticalOnly = false, class F>
  bool visit_pseudo_moves(F&& stop) const noexcept;
  [[nodiscard]] bool has_pseudo_move() const noexcept {
    return visit_pseudo_moves([](Move) { return true; });
  }
  // Whether the mover's king is safe after the pseudo-legal move `m` (true
  // when the mover has no king).
  [[nodiscard]] bool is_safe(Move m) const noexcept;
  // The pseudo-legal moves that keep the mover's king safe.
  // Out of check, a move of a piece other than the king that is not pinned
  // to it keeps the king safe (no en passant here): only the king's moves
  // and the pinned pieces' are tested. The same moves in the same order as
  // testing every one.
  // With kTacticalOnly, only the captures and promotions among them.
  template <bool kTacticalOnly = false>
  void safe_moves(Moves& out) const noexcept {
    out.clear();
    const Bitboard king = pieces(m_to_move, Piece::King);
    const Bitboard test = king == 0 ? 0 : in_check() ? kAll : king | pinned(lowest(king));
    visit_pseudo_moves<kTacticalOnly>([this, &out, test](Move m) {
      if ((bit(m.from()) & test) == 0 || is_safe(m)) out.push_back(m);
      return false;
    });
  }
  // The pseudo-legal captures and promotions (king safety ignored).
  void pseudo_tactical_moves(Moves& out) const noexcept {
    out.clear();
    visit_pseudo_moves<true>([&out](Move m) {
      out.push_back(m);
      return false;
    });
  }
  // The mover's pieces that stand alone between its king on `ksq` and an
  // enemy slider aiming at it.
  [[nodiscard]] Bitboard pinned(int ksq) const noexcept;
  [[nodiscard]] bool has_safe_move() const noexcept {
    return visit_pseudo_moves([this](Move m) { return is_safe(m); });
  }
  // The position after the pseudo-legal move `m` (copy-make).
  [[nodiscard]] Position play(Move m) const noexcept;
  // Static exchange evaluation: whether the capture sequence on m's target
  // square, each side taking with its least valuable piece while that pays,
  // wins the mover at least `threshold` (pawn = 100). Pins, checks and
  // promotions on the way are ignored; x-rays behind a piece that takes are
  // seen. A king takes last (only when nothing of the other side attacks).
  [[nodiscard]] bool see_ge(Move m, int threshold) const noexcept;

  // Step 3. Building positions (text, tests); the key follows every change.
  void put(Player side, Piece type, int sq) noexcept {
    assert((occupied() & bit(sq)) == 0);
    m_side[index(side)] |= bit(sq);
    m_type[type_index(type)] |= bit(sq);
    m_key ^= zobrist(side, type, sq);
  }
  void set_to_move(Player side) noexcept {
    if (side != m_to_move) m_key ^= kZobristBlackToMove;
    m_to_move = side;
  }
  void set_clock(int plies) noexcept { m_clock = static_cast<std::uint8_t>(plies); }
  void set_fullmove(int n) noexcept { m_fullmove = static_cast<std::uint16_t>(n); }
  // The key from scratch (tests compare it with the incremental one).
  [[nodiscard]] std::uint64_t compute_key() const noexcept {
    std::uint64_t k = m_to_move == Player::Second ? kZobristBlackToMove : 0;
    for (int s = 0; s < 2; ++s) {
      for (int t = 0; t < kPieceTypes; ++t) {
        for (Bitboard b = m_side[s] & m_type[t]; b != 0; b &= b - 1) {
          k ^= zobrist(static_cast<Player>(s), static_cast<Piece>(t), lowest(b));
        }
      }
    }
    return k;
  }

  friend bool operator==(const Position&, const Position&) = default;

 private:
  // Pieces of `theirs` attacking `sq` with occupancy `occ`; `defender` is the
  // colour whose square is attacked (pawns attack in their own direction).
  [[nodiscard]] Bitboard attackers(int sq, Bitboard occ, Bitboard theirs,
                                   Player defender) const noexcept {
    const Bitboard diagonal = m_type[type_index(Piece::Bishop)] | m_type[type_index(Piece::Queen)];
    const Bitboard straight = m_type[type_index(Piece::Rook)] | m_type[type_index(Piece::Queen)];
    Bitboard a = (kKnightAttacks[sq] & m_type[type_index(Piece::Knight)]) |
                 (kKingAttacks[sq] & m_type[type_index(Piece::King)]) |
                 (kPawnAttacks[index(defender)][sq] & m_type[type_index(Piece::Pawn)]);
    a &= theirs;
    if ((theirs & diagonal) != 0) a |= bishop_attacks(sq, occ) & diagonal & theirs;
    if ((theirs & straight) != 0) a |= rook_attacks(sq, occ) & straight & theirs;
    return a;
  }

  std::array<Bitboard, kPieceTypes> m_type{};  // both colours, by piece type
  std::array<Bitboard, 2> m_side{};            // by colour, Player::First = White
  std::uint64_t m_key = 0;
  Player m_to_move = Player::First;
  std::uint8_t m_clock = 0;
  std::uint16_t m_fullmove = 1;
};

// ---------------------------------------------------------------------------
// Hot-path definitions.

template <class Rules>
bool Position<Rules>::see_ge(Move m, int threshold) const noexcept {
  // Piece values for the exchange, by type_index (the king never gets taken).
  static constexpr std::array<int, kPieceTypes + 1> kSee = {100, 300, 300, 500, 900, 20000, 0};
  const int from = m.from();
  const int to = m.to();
  // The swap list folded as in Stockfish's see_ge: `swap` is what the side
  // to move at each step must win back for the balance to stay >= threshold.
  int swap = kSee[type_index(piece_on(to))] - threshold;
  if (swap < 0) return false;
  swap = kSee[type_index(piece_on(from))] - swap;
  if (swap <= 0) return true;
  Bitboard occ = occupied() ^ bit(from) ^ bit(to);
  const Bitboard diagonal = m_type[type_index(Piece::Bishop)] | m_type[type_index(Piece::Queen)];
  const Bitboard straight = m_type[type_index(Piece::Rook)] | m_type[type_index(Piece::Queen)];
  Bitboard all =
      attackers(to, occ, m_side[0], Player::Second) | attackers(to, occ, m_side[1], Player::First);
  int side = index(m_to_move);
  bool win = true;  // the mover's result if the exchange stopped now
  for (;;) {
    side ^= 1;
    all &= occ;
    const Bitboard mine = all & m_side[side];
    if (mine == 0) break;
    win = !win;
    // The least valuable attacker takes; what it uncovers joins in.
    int t = 0;
    while ((mine & m_type[t]) == 0) ++t;
    if (static_cast<Piece>(t) == Piece::King) {
      // The king may take only if nothing of the other side still attacks.
      return (all & m_side[side ^ 1]) != 0 ? !win : win;
    }
    swap = kSee[t] - swap;
    if (swap < static_cast<int>(win)) break;
    occ ^= bit(lowest(mine & m_type[t]));
    if (t == type_index(Piece::Pawn) || t == type_index(Piece::Bishop) ||
        t == type_index(Piece::Queen)) {
      all |= bishop_attacks(to, occ) & diagonal;
    }
    if (t == type_index(Piece::Rook) || t == type_index(Piece::Queen)) {
      all |= rook_attacks(to, occ) & straight;
    }
  }
  return win;
}

template <class Rules>
template <bool kTacticalOnly, class F>
bool Position<Rules>::visit_pseudo_moves(F&& stop) const noexcept {
  const int us = index(m_to_move);
  const Bitboard own = m_side[us];
  const Bitboard theirs = m_side[us ^ 1];
  const Bitboard occ = own | theirs;
  const Bitboard targets = kTacticalOnly ? theirs : ~own & kAll;
  const Bitboard last_rank = rank_mask(m_to_move == Player::First ? kRanks - 1 : 0);
  // A pawn's step is tactical only when it promotes.
  const Bitboard steps = !kTacticalOnly ? kAll : Rules::kPromotions != 0 ? last_rank : 0;

  // Step 1. Pawns: a step to an empty square, a diagonal capture; on the last
  // rank each allowed promotion (or, with none allowed, the plain move).
  for (Bitboard b = own & m_type[type_index(Piece::Pawn)]; b != 0; b &= b - 1) {
    const int from = lowest(b);
    Bitboard to = (kPawnPush[us][from] & ~occ & steps) | (kPawnAttacks[us][from] & theirs);
    for (; to != 0; to &= to - 1) {
      const int sq = lowest(to);
      if constexpr (Rules::kPromotions != 0) {
        if ((bit(sq) & last_rank) != 0) {
          for (const Piece p : {Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight}) {
            if (((Rules::kPromotions >> type_index(p)) & 1U) != 0 && stop(Move(from, sq, p))) {
              return true;
            }
          }
          continue;
        }
      }
      if (stop(Move(from, sq))) return true;
    }
  }
  // Step 2. Pieces, by attack sets.
  const auto add = [&](int from, Bitboard to) {
    for (to &= targets; to != 0; to &= to - 1) {
      if (stop(Move(from, lowest(to)))) return true;
    }
    return false;
  };
  for (Bitboard b = own & m_type[type_index(Piece::Knight)]; b != 0; b &= b - 1) {
    if (add(lowest(b), kKnightAttacks[lowest(b)])) return true;
  }
  for (Bitboard b = own & m_type[type_index(Piece::Bishop)]; b != 0; b &= b - 1) {
    if (add(lowest(b), bishop_attacks(lowest(b), occ))) return true;
  }
  if constexpr (Rules::kRooks) {
    for (Bitboard b = own & m_type[type_index(Piece::Rook)]; b != 0; b &= b - 1) {
      if (add(lowest(b), rook_attacks(lowest(b), occ))) return true;
    }
  }
  for (Bitboard b = own & m_type[type_index(Piece::Queen)]; b != 0; b &= b - 1) {
    if (add(lowest(b), bishop_attacks(lowest(b), occ) | rook_attacks(lowest(b), occ))) return true;
  }
  for (Bitboard b = own & m_type[type_index(Piece::King)]; b != 0; b &= b - 1) {
    if (add(lowest(b), kKingAttacks[lowest(b)])) return true;
  }
  return false;
}

template <class Rules>
Bitboard Position<Rules>::pinned(int ksq) const noexcept {
  const Bitboard theirs = m_side[index(other(m_to_move))];
  const Bitboard queens = m_type[type_index(Piece::Queen)];
  const Bitboard straight = m_type[type_index(Piece::Rook)] | queens;
  const Bitboard diagonal = m_type[type_index(Piece::Bishop)] | queens;
  const Bitboard occ = occupied();
  const Bitboard own = m_side[index(m_to_move)];
  Bitboard result = 0;
  // Step 1. Each slider on a line with the king, the empty board's lines.
  const auto check = [&](Bitboard snipers, auto attacks) {
    for (; snipers != 0; snipers &= snipers - 1) {
      const int sq = lowest(snipers);
      const Bitboard between = attacks(ksq, bit(sq)) & attacks(sq, bit(ksq)) & occ;
      // Step 2. Pinned when exactly one piece stands between, and it is ours.
      if (between != 0 && (between & (between - 1)) == 0 && (between & own) != 0) {
        result |= between;
      }
    }
  };
  check(rook_attacks(ksq, 0) & straight & theirs, rook_attacks);
  check(bishop_attacks(ksq, 0) & diagonal & theirs, bishop_attacks);
  return result;
}

template <class Rules>
bool Position<Rules>::is_safe(Move m) const noexcept {
  const Bitboard king = pieces(m_to_move, Piece::King);
  if (king == 0) return true;
  const Bitboard from = bit(m.from());
  const Bitboard to = bit(m.to());
  const int ksq = (king & from) != 0 ? m.to() : lowest(king);
  const Bitboard occ = (occupied() ^ from) | to;
  const Bitboard theirs = m_side[index(other(m_to_move))] & ~to;
  return attackers(ksq, occ, theirs, m_to_move) == 0;
}

template <class Rules>
Position<Rules> Position<Rules>::play(Move m) const noexcept {
  Position next = *this;
  const Player us = m_to_move;
  const Player them = other(us);
  const int from = m.from();
  const int to = m.to();
  const Piece moving = piece_on(from);
  assert(moving != Piece::None && (m_side[index(us)] & bit(from)) != 0);

  // Step 1. A capture removes the enemy piece and resets the clock.
  bool reset = Rules::kPawnMoveResetsClock && moving == Piece::Pawn;
  if ((m_side[index(them)] & bit(to)) != 0) {
    const Piece captured = piece_on(to);
    next.m_type[type_index(captured)] ^= bit(to);
    next.m_side[index(them)] ^= bit(to);
    next.m_key ^= zobrist(them, captured, to);
    reset = true;
  }
  // Step 2. Move the piece, promoting it if asked.
  const Piece arriving = m.promotion() == Piece::None ? moving : m.promotion();
  next.m_type[type_index(moving)] ^= bit(from);
  next.m_type[type_index(arriving)] ^= bit(to);
  next.m_side[index(us)] ^= bit(from) | bit(to);
  next.m_key ^= zobrist(us, moving, from) ^ zobrist(us, arriving, to) ^ kZobristBlackToMove;
  // Step 3. Counters and the side to move.
  next.m_clock = reset ? 0 : static_cast<std::uint8_t>(m_clock < 255 ? m_clock + 1 : 255);
  if (us == Player::Second && m_fullmove < 65535) ++next.m_fullmove;
  next.m_to_move = them;
  return next;
}

// Perft on positions (Fairy-Stockfish's convention, RULES.md §1a/§1b/§2): the
// number of move paths of length `depth`. `gardner` and `gardner-cs3243`
// count legal moves only; `minichess-comp472` counts pseudo-legal moves, and a
// position without the mover's king (a king was captured) has none. Draw
// rules are ignored, as Fairy-Stockfish's perft does.
template <class Rules>
void perft_moves(const Position<Rules>& p, Moves& out) noexcept {
  if constexpr (Rules::kMoveRule == MoveRule::KingCapture) {
    if (!p.has_king(p.to_move())) {
      out.clear();
      return;
    }
    p.pseudo_moves(out);
  } else {
    p.safe_moves(out);
  }
}

template <class Rules>
[[nodiscard]] std::uint64_t perft(const Position<Rules>& p, int depth) noexcept {
  if (depth <= 0) return 1;
  Moves moves;
  perft_moves(p, moves);
  if (depth == 1) return moves.size();
  std::uint64_t total = 0;
  for (const Move m : moves) total += perft(p.play(m), depth - 1);
  return total;
}

}  // namespace duel::games::minichess
