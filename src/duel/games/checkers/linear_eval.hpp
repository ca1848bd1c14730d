#pragma once
// Heuristic `tuned` for checkers: a linear evaluation, weights · features,
// whose weights are fitted to game results by `duel tune checkers` (Texel's
// method, docs/tuning.md, "Checkers").
//
// Why this shape: the terms of `positional` (material, men's advance, the
// back row, the centre, mobility) plus the ones it lacks (runaway men, the
// side to move, trading down when ahead, the bridge), written as counts so
// that the tuner fits their worth instead of guessing it. `positional` is
// these features with the starting weights (its hand-made terms, tested
// against a count square by square), so a fit starts from the heuristic
// that played the games and the two share one piece of code. Every feature is Black's count
// minus White's, each side seen from its own side of the board, so a
// position turned 180 degrees with colours swapped has exactly the negated
// value (tested on random games).
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string_view>

#include "duel/games/checkers/checkers.hpp"
#include "duel/games/checkers/egdb_probe.hpp"
#include "duel/search/concepts.hpp"

namespace duel::games::checkers::linear {

// Step 1. The features.
enum Feature : int {
  kMen,      // men (a man on its own back row counts this alone)
  kKings,    // kings
  kAdvance,  // men on rows 1..6 counted from their own back row: six features
  kCentreMen = kAdvance + 6,
  kCentreKings,
  kMobileMen,    // steps to empty squares, men
  kMobileKings,  // the same, kings
  kRunaway,      // men whose every square ahead, up to the crowning row, is empty
  kRunawayRows,  // their rows from their own back row, summed (1 to 6 each)
  kBridge,       // both bridge squares (Black's 1 and 3, White's 30 and 32) held by men
  kToMove,       // the side to move (+1 for Black to move, -1 for White)
  kTrade,        // (Black's pieces - White's) * (24 - all pieces): trading down when ahead
  kFeatures
};

using Features = std::array<double, kFeatures>;
using Weights = std::array<double, kFeatures>;

[[nodiscard]] constexpr std::string_view feature_name(int i) noexcept {
  constexpr std::array<std::string_view, kFeatures> kNames = {"men",
                                                              "kings",
                                                              "men on row 1",
                                                              "men on row 2",
                                                              "men on row 3",
                                                              "men on row 4",
                                                              "men on row 5",
                                                              "men on row 6",
                                                              "men in the centre",
                                                              "kings in the centre",
                                                              "men's steps",
                                                              "kings' steps",
                                                              "runaway men",
                                                              "runaway men's rows",
                                                              "bridge",
                                                              "side to move",
                                                              "trade when ahead"};
  return i >= 0 && i < kFeatures ? kNames[static_cast<std::size_t>(i)] : "?";
}

// `positional`'s terms as weights: a man 100 and 10 more on its own back
// row, 3 a row of advance, 5 a piece in the centre, 2 a step, a king 150.
// The fit starts here and its pull (l2) points here.
[[nodiscard]] constexpr Weights start_weights() noexcept {
  Weights w{};
  w[kMen] = 110;
  w[kKings] = 150;
  for (int r = 1; r <= 6; ++r) w[static_cast<std::size_t>(kAdvance + r - 1)] = 3 * r - 10;
  w[kCentreMen] = 5;
  w[kCentreKings] = 5;
  w[kMobileMen] = 2;
  w[kMobileKings] = 2;
  return w;
}

namespace detail {

// The eight central squares (standard 10, 11, 14, 15, 18, 19, 22, 23).
inline constexpr Bitboard kCentre =
    bit(9) | bit(10) | bit(13) | bit(14) | bit(17) | bit(18) | bit(21) | bit(22);
// Black's bridge (standard 1 and 3) and White's (30 and 32).
inline constexpr Bitboard kBlackBridge = bit(0) | bit(2);
inline constexpr Bitboard kWhiteBridge = bit(29) | bit(31);

// The squares a man of `side` on `sq` can reach by steps ahead, up to the
// crowning row (not `sq` itself).
constexpr std::array<std::array<Bitboard, kSquares>, 2> make_cones() {
  std::array<std::array<Bitboard, kSquares>, 2> cones{};
  for (int side = 0; side < 2; ++side) {
    const int fwd = first_forward(side == 0 ? Player::First : Player::Second);
    for (int sq = 0; sq < kSquares; ++sq) {
      Bitboard frontier = bit(sq);
      Bitboard cone = 0;
      while (frontier != 0) {
        Bitboard next = 0;
        for (Bitboard b = frontier; b != 0; b &= b - 1) {
          const int from = std::countr_zero(b);
          for (int d = fwd; d < fwd + 2; ++d) {
            const int to = kStep[static_cast<std::size_t>(d)][static_cast<std::size_t>(from)];
            if (to >= 0) next |= bit(to);
          }
        }
        cone |= next;
        frontier = next;
      }
      cones[static_cast<std::size_t>(side)][static_cast<std::size_t>(sq)] = cone;
    }
  }
  return cones;
}
inline constexpr auto kCones = make_cones();

// Step 2. One side's counts, sent to `add(feature, amount)`.
template <class Add>
constexpr void side_features(const Position& p, Player side, Add&& add) {
  const Bitboard men = p.men(side);
  const Bitboard kings = p.kings(side);
  const Bitboard occupied = p.occupied();
  const Bitboard empty = ~occupied;
  const bool black = side == Player::First;
  const auto& cones = kCones[black ? 0 : 1];
  add(kMen, std::popcount(men));
  add(kKings, std::popcount(kings));
  add(kCentreMen, std::popcount(men & kCentre));
  add(kCentreKings, std::popcount(kings & kCentre));
  const Bitboard bridge = black ? kBlackBridge : kWhiteBridge;
  add(kBridge, (men & bridge) == bridge ? 1 : 0);
  const int fwd = first_forward(side);
  int men_steps = 0;
  for (Bitboard b = men; b != 0; b &= b - 1) {
    const int sq = lowest(b);
    const int row = black ? row_of(sq) : 7 - row_of(sq);
    if (row > 0) add(kAdvance + row - 1, 1);
    if ((cones[static_cast<std::size_t>(sq)] & occupied) == 0) {
      add(kRunaway, 1);
      add(kRunawayRows, row);
    }
    for (int d = fwd; d < fwd + 2; ++d) {
      const int to = kStep[static_cast<std::size_t>(d)][static_cast<std::size_t>(sq)];
      if (to >= 0 && (empty & bit(to)) != 0) ++men_steps;
    }
  }
  add(kMobileMen, men_steps);
  int king_steps = 0;
  for (Bitboard b = kings; b != 0; b &= b - 1) {
    const int sq = lowest(b);
    for (int d = 0; d < kDirections; ++d) {
      const int to = kStep[static_cast<std::size_t>(d)][static_cast<std::size_t>(sq)];
      if (to >= 0 && (empty & bit(to)) != 0) ++king_steps;
    }
  }
  add(kMobileKings, king_steps);
}

// Every feature, Black's count minus White's, sent to `add(feature, amount)`.
template <class Add>
constexpr void all_features(const State& s, Add&& add) {
  const Position& p = s.position();
  side_features(p, Player::First, [&](int i, int n) { add(i, n); });
  side_features(p, Player::Second, [&](int i, int n) { add(i, -n); });
  add(kToMove, s.to_move() == Player::First ? 1 : -1);
  const int black = std::popcount(p.men(Player::First) | p.kings(Player::First));
  const int white = std::popcount(p.men(Player::Second) | p.kings(Player::Second));
  add(kTrade, (black - white) * (24 - black - white));
}

}  // namespace detail

// The features of a position, for the tuner.
[[nodiscard]] inline Features features(const State& s) noexcept {
  Features f{};
  detail::all_features(s, [&](int i, int n) { f[static_cast<std::size_t>(i)] += n; });
  return f;
}

// Step 3. The heuristic. The weights are taken in sixteenths of a unit, so
// the sum is an integer whatever the order and a flipped position gets
// exactly the negated value.
inline constexpr int kFixed = 16;
using FixedWeights = std::array<std::int32_t, kFeatures>;
[[nodiscard]] constexpr FixedWeights to_fixed(const Weights& w) noexcept {
  FixedWeights f{};
  for (std::size_t i = 0; i < f.size(); ++i) {
    const double x = w[i] * kFixed;
    f[i] = static_cast<std::int32_t>(x < 0 ? x - 0.5 : x + 0.5);
  }
  return f;
}

[[nodiscard]] constexpr Value evaluate(const State& s, const FixedWeights& w) noexcept {
  std::int64_t sum = 0;
  detail::all_features(
      s, [&](int i, int n) { sum += std::int64_t{w[static_cast<std::size_t>(i)]} * n; });
  return search::clamp_estimate(static_cast<int>(sum / kFixed));
}

// The fitted weights (tuned_weights.hpp, written by `duel tune checkers`).
[[nodiscard]] const Weights& tuned_weights() noexcept;
[[nodiscard]] const FixedWeights& tuned_fixed_weights() noexcept;

}  // namespace duel::games::checkers::linear

namespace duel::games::checkers {

// Heuristic `positional` (the default until 2026-11-29): material + men's
// advance + back-row guard + centre + mobility, Black minus White; the
// features above with their starting weights.
struct Positional {
  static constexpr std::string_view kName = "positional";
  static constexpr std::string_view kAbout =
      "material + men's advance + back-row guard + centre + mobility, Black minus White";
  explicit Positional(std::uint64_t /*seed*/ = 0) noexcept {}
  [[nodiscard]] Value operator()(const State& s) const noexcept {
    static constexpr linear::FixedWeights kWeights = linear::to_fixed(linear::start_weights());
    return linear::evaluate(s, kWeights);
  }
};

// Heuristic `tuned`: linear::features with the fitted weights, Black minus White.
struct Tuned {
  static constexpr std::string_view kName = "tuned";
  static constexpr std::string_view kAbout =
      "positional's terms plus runaway men, side to move, trading down and the bridge, "
      "weights fitted to game results (duel tune)";
  explicit Tuned(std::uint64_t /*seed*/ = 0) noexcept : m_weights(&linear::tuned_fixed_weights()) {}
  [[nodiscard]] Value operator()(const State& s) const noexcept {
    return linear::evaluate(s, *m_weights);
  }
  // The endgame tables' value where the engine has them (egdb_probe.hpp).
  [[nodiscard]] std::optional<search::Known> known(const State& s) const {
    return egdb::known(s, [&] { return (*this)(s); });
  }

 private:
  const linear::FixedWeights* m_weights;
};

static_assert(NamedHeuristic<Positional, State>);
static_assert(NamedHeuristic<Tuned, State>);
static_assert(search::HasKnownValues<Tuned, State>);

}  // namespace duel::games::checkers
