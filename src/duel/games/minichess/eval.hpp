#pragma once
// Heuristics `e1` and `e2` for the 5x5 chess rule sets (RULES.md §2: "Duel
// ships e0 and at least two better ones"). Both count in
// centipawns and return White's view on e0's scale (a pawn = kE0Scale), far
// below one payoff point (kUnit).
//
// Why these terms: e0 only counts material with a king worth 999, so it sees
// no difference between a pawn on its start square and one about to promote,
// nor between a knight in a corner and one in the centre. On a 5x5 board every
// piece is one or two moves from the enemy king, so what pieces attack matters
// as much as what they are:
//   e1 = material with chess values + piece-square terms (pawn advance while
//        promotion is possible, central minor pieces and queen, the king at
//        home) + mobility (squares each piece attacks, weighted by piece) +
//        the side to move's best capture (a one-move static exchange, so a
//        leaf in the middle of an exchange is not misjudged).
//   e2 = e1 + the opponent's threats, pressure on the squares around each
//        king, under king capture (COMP 472) a king the side to move can
//        take, and a lead that shrinks as the draw clock runs out.
// docs/experiments/minichess.md shows the measured difference (arena runs).
#include <algorithm>
#include <array>
#include <bit>
#include <string_view>

#include "duel/games/minichess/minichess.hpp"

namespace duel::games::minichess {

namespace eval_detail {

// Centipawn values by piece type (the king's is never counted: a missing king
// ends the game before any heuristic is asked).
inline constexpr std::array<int, kPieceTypes + 1> kValue = {100, 300, 310, 500, 900, 0, 0};

// Centre weights: 2 in the centre, 1 on the eight squares around it, 0 on the rim.
inline constexpr std::array<int, kSquares> kCentre = {
    0, 0, 0, 0, 0,  //
    0, 1, 1, 1, 0,  //
    0, 1, 2, 1, 0,  //
    0, 1, 1, 1, 0,  //
    0, 0, 0, 0, 0,
};

// Pawn bonus by relative rank: with promotion a pawn grows as it nears the
// last rank; without it (CS3243) a pawn on the last rank is dead weight and
// one rank short of it only attacks that rank.
template <class Rules>
[[nodiscard]] constexpr int pawn_bonus(int rank) noexcept {
  if constexpr (Rules::kPromotions != 0) {
    constexpr std::array<int, kRanks> kAdvance = {0, 0, 20, 90, 0};
    return kAdvance[static_cast<std::size_t>(rank)];
  } else {
    constexpr std::array<int, kRanks> kAdvance = {0, 0, 10, 10, -80};
    return kAdvance[static_cast<std::size_t>(rank)];
  }
}

// Step 1. e1's terms for one side.
template <class Rules>
[[nodiscard]] int static_terms(const Position<Rules>& p, Player side) noexcept {
  int score = 0;
  for (int t = 0; t < kPieceTypes - 1; ++t) {
    const auto type = static_cast<Piece>(t);
    for (Bitboard b = p.pieces(side, type); b != 0; b &= b - 1) {
      const int sq = lowest(b);
      score += kValue[static_cast<std::size_t>(t)];
      switch (type) {
        case Piece::Pawn: score += pawn_bonus<Rules>(relative_rank(side, sq)); break;
        case Piece::Knight: score += 12 * kCentre[sq] - 8; break;
        case Piece::Bishop: score += 6 * kCentre[sq]; break;
        case Piece::Queen: score += 4 * kCentre[sq]; break;
        default: break;
      }
    }
  }
  // A king that walks out early is a target on so small a board.
  if (const Bitboard k = p.pieces(side, Piece::King); k != 0) {
    score -= 10 * relative_rank(side, lowest(k));
  }
  return score;
}

// The squares a piece of `side` on `sq` attacks.
[[nodiscard]] inline Bitboard attacks_of(Piece type, Player side, int sq, Bitboard occ) noexcept {
  switch (type) {
    case Piece::Pawn: return kPawnAttacks[index(side)][sq];
    case Piece::Knight: return kKnightAttacks[sq];
    case Piece::Bishop: return bishop_attacks(sq, occ);
    case Piece::Rook: return rook_attacks(sq, occ);
    case Piece::Queen: return bishop_attacks(sq, occ) | rook_attacks(sq, occ);
    case Piece::King: return kKingAttacks[sq];
    default: return 0;
  }
}

// What one side's pieces attack, in total and by the cheapest attacker.
struct AttackMap {
  Bitboard all = 0;
  std::array<Bitboard, kPieceTypes> by_type{};
  int mobility = 0;  // weighted count of attacked squares not holding own pieces
};

// What `side` attacks, each piece's attacked squares also shown to
// `on_piece(type, attacks)` (e3 counts its features there).
template <class Rules, class OnPiece>
[[nodiscard]] AttackMap attack_map(const Position<Rules>& p, Player side,
                                   OnPiece&& on_piece) noexcept {
  AttackMap map;
  const Bitboard occ = p.occupied();
  for (int t = 0; t < kPieceTypes; ++t) {
    const auto type = static_cast<Piece>(t);
    for (Bitboard b = p.pieces(side, type); b != 0; b &= b - 1) {
      const Bitboard a = attacks_of(type, side, lowest(b), occ);
      map.by_type[static_cast<std::size_t>(t)] |= a;
      map.all |= a;
      on_piece(type, a);
    }
  }
  return map;
}

// With e1's mobility: weighted squares attacked that hold no own piece.
template <class Rules>
[[nodiscard]] AttackMap attack_map(const Position<Rules>& p, Player side) noexcept {
  static constexpr std::array<int, kPieceTypes> kMobility = {0, 4, 4, 3, 2, 0};
  const Bitboard own = p.pieces(side);
  int mobility = 0;
  AttackMap map = attack_map(p, side, [&](Piece type, Bitboard a) {
    mobility += kMobility[static_cast<std::size_t>(type_index(type))] * std::popcount(a & ~own);
  });
  map.mobility = mobility;
  return map;
}

// The cheapest piece type of the map attacking `sq` (kPieceTypes if none).
[[nodiscard]] inline int cheapest_attacker(const AttackMap& map, int sq) noexcept {
  for (int t = 0; t < kPieceTypes; ++t) {
    if ((map.by_type[static_cast<std::size_t>(t)] & bit(sq)) != 0) return t;
  }
  return kPieceTypes;
}

// Step 2. The best material gain of one capture by `side`, assuming a
// defended victim recaptures the attacker (a one-move static exchange).
template <class Rules>
[[nodiscard]] int best_capture(const Position<Rules>& p, Player side, const AttackMap& mine,
                               const AttackMap& theirs) noexcept {
  int best = 0;
  for (Bitboard b = mine.all & p.pieces(other(side)); b != 0; b &= b - 1) {
    const int sq = lowest(b);
    const int victim = kValue[static_cast<std::size_t>(type_index(p.piece_on(sq)))];
    const int attacker = cheapest_attacker(mine, sq);
    const int cost = (theirs.all & bit(sq)) != 0 && attacker < kPieceTypes - 1
                         ? kValue[static_cast<std::size_t>(attacker)]
                         : 0;
    best = std::max(best, victim - cost);
  }
  return best;
}

// Centipawns to the Value scale shared with e0 (a pawn = kE0Scale).
[[nodiscard]] constexpr Value to_value(int centipawns) noexcept {
  return search::clamp_estimate(centipawns * kE0Scale / 100);
}

}  // namespace eval_detail

// Heuristic `e1`: material, piece-square terms, mobility and the side to
// move's best capture.
struct E1 {
  static constexpr std::string_view kName = "e1";
  static constexpr std::string_view kAbout =
      "material (P 1, N 3, B 3.1, R 5, Q 9) + pawn advance, central pieces, king at home, "
      "mobility, side to move's best capture";
  explicit E1(std::uint64_t /*seed*/ = 0) noexcept {}
  template <class Rules>
  [[nodiscard]] Value operator()(const State<Rules>& s) const noexcept {
    using namespace eval_detail;
    const auto& p = s.position();
    const AttackMap white = attack_map(p, Player::First);
    const AttackMap black = attack_map(p, Player::Second);
    int score = static_terms(p, Player::First) - static_terms(p, Player::Second) + white.mobility -
                black.mobility;
    // The side to move cashes most of its best capture (a one-move exchange).
    const bool white_moves = s.to_move() == Player::First;
    const int gain = white_moves ? best_capture(p, Player::First, white, black)
                                 : best_capture(p, Player::Second, black, white);
    score += (white_moves ? 1 : -1) * (9 * gain / 10);
    return to_value(score);
  }
};

// Heuristic `e2`: e1 + the opponent's threats, pressure around each king,
// (king capture rules) a king en prise, and the draw clock.
struct E2 {
  static constexpr std::string_view kName = "e2";
  static constexpr std::string_view kAbout =
      "e1 + threats + pressure around the kings + king en prise + draw clock";
  explicit E2(std::uint64_t /*seed*/ = 0) noexcept {}
  template <class Rules>
  [[nodiscard]] Value operator()(const State<Rules>& s) const noexcept {
    using namespace eval_detail;
    const auto& p = s.position();
    const Player us = s.to_move();
    const Player them = other(us);
    const AttackMap mine = attack_map(p, us);
    const AttackMap theirs = attack_map(p, them);
    // Step 1. From the side to move's view.
    int score = static_terms(p, us) - static_terms(p, them);
    score += mine.mobility - theirs.mobility;
    if constexpr (Rules::kMoveRule == MoveRule::KingCapture) {
      // The side to move takes the king next: as good as won.
      if ((mine.all & p.pieces(them, Piece::King)) != 0) score += 5000;
    }
    // The mover cashes its best capture; the opponent's threats still cost a
    // little since the mover can parry only one of them.
    score += 9 * best_capture(p, us, mine, theirs) / 10;
    score -= best_capture(p, them, theirs, mine) / 5;
    // Step 2. Enemy attacks on the squares around each king.
    const auto pressure = [&](Player side, const AttackMap& enemy) {
      const Bitboard k = p.pieces(side, Piece::King);
      return k == 0 ? 0 : 12 * std::popcount(kKingAttacks[lowest(k)] & enemy.all);
    };
    score += pressure(them, mine) - pressure(us, theirs);
    // Step 3. The draw clock: the nearer the limit, the less a lead is worth,
    // so the side ahead makes progress instead of drifting into a draw.
    score = s.scaled_by_draw_clock(score);
    return to_value(us == Player::First ? score : -score);
  }
};

static_assert(NamedHeuristic<E1, GardnerState>);
static_assert(NamedHeuristic<E2, Comp472State>);

}  // namespace duel::games::minichess
