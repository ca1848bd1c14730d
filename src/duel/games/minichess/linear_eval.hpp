#pragma once
// Heuristic `e3` for the 5x5 chess rule sets: a linear evaluation, weights ·
// features(position), whose weights are fitted to game results by `duel
// tune` (Texel's method, tune/texel.hpp; docs/tuning.md).
//
// Why linear: e1 and e2 are hand-guessed centipawn terms. Written as a dot
// product, the same kind of terms (and more of them: a piece-square table
// per piece, mobility per piece, king safety, pawn structure) can be fitted
// to thousands of games by exact gradient descent, per rule set, since
// promotion, check and king capture change what a square or a pawn is worth.
// The starting weights reproduce e2, so an untuned rule set plays e2's terms
// and the tuner's "error before" is e2's.
//
// Every feature is White's count minus Black's (Black's squares mirrored top
// to bottom), so colour-flipping a position negates every feature and the
// evaluation exactly; terms about the side to move (tempo, its best capture,
// the other side's threat) are signed by the side they favour. The piece-
// square tables are folded left to right (file a = e, b = d): 15 squares per
// piece instead of 25, and the fold makes top-to-bottom and point mirroring
// (COMP 472's start is point-symmetric) the same thing.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "duel/games/minichess/eval.hpp"
#include "duel/games/minichess/minichess.hpp"

namespace duel::games::minichess::e3 {

// Step 1. The feature layout: groups of consecutive indices.
inline constexpr int kPstSquares = kRanks * 3;  // 5 relative ranks x 3 folded files
inline constexpr int kMaterial = 0;             // P N B R Q: counts
inline constexpr int kPst = kMaterial + 5;      // 6 piece types x 15 squares
inline constexpr int kMobility = kPst + kPieceTypes * kPstSquares;  // N B R Q K
inline constexpr int kKingZone = kMobility + 5;         // squares next to the enemy king attacked
inline constexpr int kKingAttackers = kKingZone + 1;    // pieces attacking them
inline constexpr int kPawnShield = kKingAttackers + 1;  // own pawns just in front of the king
inline constexpr int kDoubled = kPawnShield + 1;        // pawns beyond the first on a file
inline constexpr int kIsolated = kDoubled + 1;          // pawns without a pawn on a next file
inline constexpr int kProtected = kIsolated + 1;        // pawns defended by a pawn
inline constexpr int kPassed = kProtected + 1;          // passed pawns by relative rank (5)
inline constexpr int kRookOpen = kPassed + kRanks;      // rooks on a file without own pawns
inline constexpr int kBestCapture = kRookOpen + 1;      // the mover's best capture gain (pawns)
inline constexpr int kThreat = kBestCapture + 1;  // the other side's best capture gain (pawns)
inline constexpr int kTempo = kThreat + 1;        // +1 White to move, -1 Black
inline constexpr int kKingEnPrise = kTempo + 1;   // king capture: the mover attacks the king
// Threats and king danger (added 2026-11-24, after the 116 above; a rule
// set's weights block written before them leaves them 0). The five threat
// terms come twice: the side to move's threats (it may take first), then
// the other side's; each signed by the side that makes them.
inline constexpr int kHanging = kKingEnPrise + 1;     // enemy pieces attacked, not defended
inline constexpr int kPawnThreat = kHanging + 1;      // enemy pieces attacked by own pawns
inline constexpr int kMinorThreat = kPawnThreat + 1;  // enemy rooks and queens attacked by minors
inline constexpr int kRookThreat = kMinorThreat + 1;  // enemy queens attacked by rooks
inline constexpr int kPushThreat = kRookThreat + 1;   // enemy pieces a safe pawn push would attack
inline constexpr int kThreatTerms = 5;                // also the offset of the other side's five
inline constexpr int kKingDanger = kHanging + 2 * kThreatTerms;  // zone squares x attackers
inline constexpr int kPassedFree = kKingDanger + 1;  // passed pawns with the square ahead empty
inline constexpr int kFeatures = kPassedFree + 1;

using Features = std::array<double, kFeatures>;
using Weights = std::array<double, kFeatures>;

[[nodiscard]] constexpr int fold_file(int file) noexcept {
  return file < kFiles - 1 - file ? file : kFiles - 1 - file;
}
// The piece-square index of a `side` piece of type `type` on `sq`.
[[nodiscard]] constexpr int pst_index(Piece type, Player side, int sq) noexcept {
  return kPst + type_index(type) * kPstSquares + relative_rank(side, sq) * 3 +
         fold_file(file_of(sq));
}
// The same as a table by side and square (the type adds kPstSquares each).
inline constexpr std::array<std::array<std::uint8_t, kSquares>, 2> kPstSquare = [] {
  std::array<std::array<std::uint8_t, kSquares>, 2> t{};
  for (int side = 0; side < 2; ++side) {
    for (int sq = 0; sq < kSquares; ++sq) {
      t[static_cast<std::size_t>(side)][static_cast<std::size_t>(sq)] =
          static_cast<std::uint8_t>(pst_index(Piece::Pawn, static_cast<Player>(side), sq) - kPst);
    }
  }
  return t;
}();

// Step 2. Pawn masks: a file's squares; the squares a passed pawn of `side`
// on `sq` must find free of enemy pawns (its file and the next ones, ahead
// of it).
inline constexpr std::array<Bitboard, kFiles> kFileMask = [] {
  std::array<Bitboard, kFiles> m{};
  for (int sq = 0; sq < kSquares; ++sq) m[static_cast<std::size_t>(file_of(sq))] |= bit(sq);
  return m;
}();
inline constexpr std::array<std::array<Bitboard, kSquares>, 2> kPassedMask = [] {
  std::array<std::array<Bitboard, kSquares>, 2> m{};
  for (int side = 0; side < 2; ++side) {
    for (int sq = 0; sq < kSquares; ++sq) {
      for (int other_sq = 0; other_sq < kSquares; ++other_sq) {
        const int df = file_of(other_sq) - file_of(sq);
        const int dr = rank_of(other_sq) - rank_of(sq);
        if (df >= -1 && df <= 1 && (side == 0 ? dr > 0 : dr < 0)) {
          m[static_cast<std::size_t>(side)][static_cast<std::size_t>(sq)] |= bit(other_sq);
        }
      }
    }
  }
  return m;
}();

// What one side's pieces attack (as eval_detail::AttackMap, for best_capture)
// with the side's features that come from the same loop.
struct SideAttacks {
  eval_detail::AttackMap map;
  std::array<int, 5> mobility{};  // N B R Q K: attacked squares not holding own pieces
  int zone_squares = 0;           // squares next to the enemy king attacked
  int zone_attackers = 0;         // pieces attacking any of them
};

template <class Rules>
[[nodiscard]] SideAttacks side_attacks(const Position<Rules>& p, Player side) noexcept {
  SideAttacks a;
  const Bitboard own = p.pieces(side);
  const Bitboard enemy_king = p.pieces(other(side), Piece::King);
  const Bitboard zone = enemy_king == 0 ? 0 : kKingAttacks[lowest(enemy_king)];
  a.map = eval_detail::attack_map(p, side, [&](Piece type, Bitboard at) {
    const int t = type_index(type);
    if (t > 0) a.mobility[static_cast<std::size_t>(t - 1)] += std::popcount(at & ~own);
    if ((at & zone) != 0) ++a.zone_attackers;
  });
  a.zone_squares = std::popcount(a.map.all & zone);
  return a;
}

// Step 3. The features, as integer amounts sent to a sink, `add(index,
// amount)`: the tuner's sink fills a vector (features), e3's sums fixed-point
// products (E3). One walk over the position serves both, so what is tuned
// is what plays. Amounts are counts, except the capture terms: centipawns,
// which the feature vector holds in pawns (feature_unit).
[[nodiscard]] constexpr int feature_unit(int i) noexcept {
  return i == kBestCapture || i == kThreat ? 100 : 1;
}

// One side's terms, with `sign` +1 for White's and -1 for Black's.
template <class Rules, class Sink>
void add_side(const Position<Rules>& p, Player side, const SideAttacks& mine,
              const SideAttacks& theirs, Sink& sink) noexcept {
  const int sign = side == Player::First ? 1 : -1;
  const Player them = other(side);
  // Material and piece-square tables.
  const auto& squares = kPstSquare[index(side)];
  for (int t = 0; t < kPieceTypes; ++t) {
    const Bitboard pieces = p.pieces(side, static_cast<Piece>(t));
    if (pieces == 0) continue;
    if (t < kPieceTypes - 1) sink.add(kMaterial + t, sign * std::popcount(pieces));
    const int base = kPst + t * kPstSquares;
    for (Bitboard b = pieces; b != 0; b &= b - 1) sink.add(base + squares[lowest(b)], sign);
  }
  // Mobility and pressure on the enemy king.
  for (std::size_t t = 0; t < mine.mobility.size(); ++t) {
    sink.add(kMobility + static_cast<int>(t), sign * mine.mobility[t]);
  }
  sink.add(kKingZone, sign * mine.zone_squares);
  sink.add(kKingAttackers, sign * mine.zone_attackers);
  // Pawns in front of the own king: the three squares on the next rank.
  const Bitboard pawns = p.pieces(side, Piece::Pawn);
  if (const Bitboard k = p.pieces(side, Piece::King); k != 0) {
    const int ksq = lowest(k);
    const int ahead = rank_of(ksq) + (side == Player::First ? 1 : -1);
    if (ahead >= 0 && ahead < kRanks) {
      sink.add(kPawnShield, sign * std::popcount(pawns & kKingAttacks[ksq] & rank_mask(ahead)));
    }
  }
  // Pawn structure.
  const Bitboard enemy_pawns = p.pieces(them, Piece::Pawn);
  Bitboard pawn_attacks = 0;
  for (Bitboard b = pawns; b != 0; b &= b - 1) pawn_attacks |= kPawnAttacks[index(side)][lowest(b)];
  // The files holding pawns as 5 bits; times kRankSpread, those files' squares.
  constexpr Bitboard kRankSpread = 0x108421;  // a1, a2, a3, a4, a5
  const Bitboard files =
      (pawns | pawns >> 5 | pawns >> 10 | pawns >> 15 | pawns >> 20) & rank_mask(0);
  const Bitboard lonely = files & ~(files << 1 | files >> 1);
  sink.add(kDoubled, sign * (std::popcount(pawns) - std::popcount(files)));
  sink.add(kIsolated, sign * std::popcount(pawns & lonely * kRankSpread));
  sink.add(kProtected, sign * std::popcount(pawns & pawn_attacks));
  const Bitboard occupied = p.occupied();
  for (Bitboard b = pawns; b != 0; b &= b - 1) {
    const int sq = lowest(b);
    if ((kPassedMask[index(side)][static_cast<std::size_t>(sq)] & enemy_pawns) == 0) {
      sink.add(kPassed + relative_rank(side, sq), sign);
      // Free to advance: the square ahead is on the board and empty.
      const Bitboard ahead = kPawnPush[index(side)][static_cast<std::size_t>(sq)];
      if (ahead != 0 && (ahead & occupied) == 0) sink.add(kPassedFree, sign);
    }
  }
  for (Bitboard b = p.pieces(side, Piece::Rook); b != 0; b &= b - 1) {
    if ((pawns & kFileMask[static_cast<std::size_t>(file_of(lowest(b)))]) == 0) {
      sink.add(kRookOpen, sign);
    }
  }
  // Threats: what this side attacks of the other's (kings aside).
  const int shift = side == p.to_move() ? 0 : kThreatTerms;  // the mover's or the other's
  const auto by = [](const SideAttacks& a, Piece type) {
    return a.map.by_type[static_cast<std::size_t>(type_index(type))];
  };
  const Bitboard enemy = p.pieces(them) & ~p.pieces(them, Piece::King);
  const Bitboard enemy_pieces = enemy & ~enemy_pawns;
  const Bitboard heavy = p.pieces(them, Piece::Rook) | p.pieces(them, Piece::Queen);
  sink.add(kHanging + shift, sign * std::popcount(enemy & mine.map.all & ~theirs.map.all));
  sink.add(kPawnThreat + shift, sign * std::popcount(enemy_pieces & pawn_attacks));
  sink.add(kMinorThreat + shift,
           sign * std::popcount(heavy & (by(mine, Piece::Knight) | by(mine, Piece::Bishop))));
  sink.add(kRookThreat + shift,
           sign * std::popcount(p.pieces(them, Piece::Queen) & by(mine, Piece::Rook)));
  // A push to an empty square that the other side's pawns do not attack and
  // its other pieces do not hold alone (Stockfish's "safe" push).
  const Bitboard pushed = side == Player::First ? pawns << kFiles : pawns >> kFiles;
  const Bitboard safe = ~by(theirs, Piece::Pawn) & (~theirs.map.all | mine.map.all);
  Bitboard push_attacks = 0;
  for (Bitboard b = pushed & ~occupied & safe & kAll; b != 0; b &= b - 1) {
    push_attacks |= kPawnAttacks[index(side)][lowest(b)];
  }
  sink.add(kPushThreat + shift, sign * std::popcount(push_attacks & enemy_pieces));
  sink.add(kKingDanger, sign * mine.zone_squares * mine.zone_attackers);
}

// Every term of a position (not terminal), White's view.
template <class Rules, class Sink>
void collect(const State<Rules>& s, Sink& sink) noexcept {
  const auto& p = s.position();
  const SideAttacks white = side_attacks(p, Player::First);
  const SideAttacks black = side_attacks(p, Player::Second);
  add_side(p, Player::First, white, black, sink);
  add_side(p, Player::Second, black, white, sink);
  // The side to move: tempo, its best capture (a one-move exchange, as e1's)
  // and the best capture it must parry (as e2's threat), in centipawns.
  const Player us = s.to_move();
  const int sign = us == Player::First ? 1 : -1;
  const SideAttacks& mine = us == Player::First ? white : black;
  const SideAttacks& theirs = us == Player::First ? black : white;
  sink.add(kTempo, sign);
  sink.add(kBestCapture, sign * eval_detail::best_capture(p, us, mine.map, theirs.map));
  sink.add(kThreat, -sign * eval_detail::best_capture(p, other(us), theirs.map, mine.map));
  if constexpr (Rules::kMoveRule == MoveRule::KingCapture) {
    if ((mine.map.all & p.pieces(other(us), Piece::King)) != 0) sink.add(kKingEnPrise, sign);
  }
}

// The feature vector (capture terms in pawns), for the tuner and tests.
template <class Rules>
[[nodiscard]] Features features(const State<Rules>& s) noexcept {
  struct Fill {
    Features f{};
    void add(int i, int amount) noexcept {
      f[static_cast<std::size_t>(i)] += static_cast<double>(amount) / feature_unit(i);
    }
  } fill;
  collect(s, fill);
  return fill.f;
}

// e2's draw clock: the nearer the limit, the less any lead is worth (so the
// side ahead makes progress). It multiplies every feature, so the
// evaluation stays linear in the weights.
template <class Rules>
[[nodiscard]] double draw_scale(const State<Rules>& s) noexcept {
  const int limit = s.draw_limit_plies();
  if (limit <= 0) return 1.0;
  return static_cast<double>(2 * limit - s.position().clock()) / (2 * limit);
}

// The evaluation in centipawns as the tuner computes it (doubles).
template <class Rules>
[[nodiscard]] double centipawns(const State<Rules>& s, const Weights& w) noexcept {
  const Features f = features(s);
  double sum = 0.0;
  for (std::size_t i = 0; i < f.size(); ++i) sum += w[i] * f[i];
  return sum * draw_scale(s);
}

// e3 in play sums integers: weights in 1/kFixed centipawn (per centipawn
// for the capture terms). Integer sums do not depend on the order of the
// terms, so a colour-flipped position gets exactly the negated value, and
// the search pays for no feature vector.
inline constexpr int kFixed = 1024;
using FixedWeights = std::array<std::int32_t, kFeatures>;
[[nodiscard]] constexpr FixedWeights to_fixed(const Weights& w) noexcept {
  FixedWeights fixed{};
  for (int i = 0; i < kFeatures; ++i) {
    const double x = w[static_cast<std::size_t>(i)] * kFixed / feature_unit(i);
    fixed[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(x < 0 ? x - 0.5 : x + 0.5);
  }
  return fixed;
}

// The evaluation in Value units (a pawn = kE0Scale), clamped.
template <class Rules>
[[nodiscard]] Value evaluate(const State<Rules>& s, const FixedWeights& w) noexcept {
  struct Sum {
    const FixedWeights& w;
    std::int64_t total = 0;
    void add(int i, int amount) noexcept {
      total += static_cast<std::int64_t>(w[static_cast<std::size_t>(i)]) * amount;
    }
  } sum{w};
  collect(s, sum);
  std::int64_t score = s.scaled_by_draw_clock(sum.total);
  // Division truncates towards zero in C++: symmetric about zero.
  score = score * kE0Scale / (100 * kFixed);
  constexpr std::int64_t kLimit = kUnit;
  return search::clamp_estimate(static_cast<Value>(std::clamp(score, -kLimit, kLimit)));
}

// Step 4. The starting weights: e2's terms (eval.hpp) in this layout.
template <class Rules>
[[nodiscard]] constexpr Weights start_weights() noexcept {
  Weights w{};
  for (int t = 0; t < kPieceTypes - 1; ++t) {
    w[static_cast<std::size_t>(kMaterial + t)] = eval_detail::kValue[static_cast<std::size_t>(t)];
  }
  for (int rank = 0; rank < kRanks; ++rank) {
    for (int file = 0; file < 3; ++file) {
      const double c = eval_detail::kCentre[static_cast<std::size_t>(square(file, rank))];
      const auto at = [&](Piece type) {
        return static_cast<std::size_t>(kPst + type_index(type) * kPstSquares + rank * 3 + file);
      };
      w[at(Piece::Pawn)] = eval_detail::pawn_bonus<Rules>(rank);
      w[at(Piece::Knight)] = 12 * c - 8;
      w[at(Piece::Bishop)] = 6 * c;
      w[at(Piece::Queen)] = 4 * c;
      w[at(Piece::King)] = -10.0 * rank;
    }
  }
  constexpr std::array<double, 5> kMobilityStart = {4, 4, 3, 2, 0};  // e1's, N B R Q K
  for (std::size_t t = 0; t < kMobilityStart.size(); ++t) w[kMobility + t] = kMobilityStart[t];
  w[kKingZone] = 12;
  w[kBestCapture] = 90;
  w[kThreat] = 20;
  w[kKingEnPrise] = Rules::kMoveRule == MoveRule::KingCapture ? 5000 : 0;
  return w;
}

// The weights e3 plays with: e3_weights.hpp's block for the rule set (or
// the starting weights when it has none). Defined in linear_eval.cpp, the
// one file that includes e3_weights.hpp, so retuning recompiles one file.
template <class Rules>
[[nodiscard]] const Weights& tuned_weights() noexcept;
template <class Rules>
[[nodiscard]] const FixedWeights& tuned_fixed_weights() noexcept;

// A feature's name, for the generated header and reports: "material N",
// "pst K c2" (files folded: a stands for a and e), "passed rank 4".
[[nodiscard]] inline std::string feature_name(int i) {
  static constexpr std::string_view kPieces = "PNBRQK";
  const auto piece = [](int t) { return std::string(1, kPieces[static_cast<std::size_t>(t)]); };
  if (i < kPst) return "material " + piece(i - kMaterial);
  if (i < kMobility) {
    const int sq = (i - kPst) % kPstSquares;
    return "pst " + piece((i - kPst) / kPstSquares) + " " +
           std::string(1, static_cast<char>('a' + sq % 3)) + std::to_string(sq / 3 + 1);
  }
  if (i < kKingZone) return "mobility " + piece(i - kMobility + 1);
  if (i >= kPassed && i < kRookOpen) return "passed rank " + std::to_string(i - kPassed + 1);
  if (i >= kHanging && i < kKingDanger) {
    static constexpr std::array<std::string_view, kThreatTerms> kThreats = {
        "hanging", "pawn threat", "minor threat", "rook threat", "push threat"};
    const int t = i - kHanging;
    return std::string(kThreats[static_cast<std::size_t>(t % kThreatTerms)]) +
           (t < kThreatTerms ? " (mover)" : " (other)");
  }
  switch (i) {
    case kKingZone: return "king zone attacked";
    case kKingAttackers: return "king zone attackers";
    case kPawnShield: return "pawn shield";
    case kDoubled: return "doubled pawns";
    case kIsolated: return "isolated pawns";
    case kProtected: return "protected pawns";
    case kRookOpen: return "rook on open file";
    case kBestCapture: return "best capture";
    case kThreat: return "threat";
    case kTempo: return "tempo";
    case kKingEnPrise: return "king en prise";
    case kKingDanger: return "king danger";
    case kPassedFree: return "passed free";
    default: return "?";
  }
}
// The C++ name of a rule set's type (the generated header names it).
template <class Rules>
[[nodiscard]] constexpr std::string_view rules_type_name() noexcept {
  if constexpr (std::is_same_v<Rules, Gardner>) {
    return "Gardner";
  } else if constexpr (std::is_same_v<Rules, Cs3243>) {
    return "Cs3243";
  } else {
    return "Comp472";
  }
}

}  // namespace duel::games::minichess::e3

namespace duel::games::minichess {

// Heuristic `e3`: the linear evaluation with the tuned weights of its rule set.
struct E3 {
  static constexpr std::string_view kName = "e3";
  static constexpr std::string_view kAbout =
      "tuned linear eval (duel tune): material, piece-square tables, mobility, king safety, "
      "pawn structure, threats, best capture and threat, tempo, draw clock";
  explicit E3(std::uint64_t /*seed*/ = 0) noexcept {}
  template <class Rules>
  [[nodiscard]] Value operator()(const State<Rules>& s) const noexcept {
    return e3::evaluate(s, e3::tuned_fixed_weights<Rules>());
  }
};

static_assert(NamedHeuristic<E3, GardnerState>);

}  // namespace duel::games::minichess
