#pragma once
// Heuristic n1: a small network trained on self-play positions
// (scripts/train-net.py, docs/net.md), seen from both sides as NNUE's are.
//
// Inputs, per side: its own and the enemy's pieces by type on their squares,
// the board mirrored top to bottom for Black (2 x 6 x 25 = 300). One shared
// layer of kHidden units turns each side's inputs into an accumulator; the
// side to move's and the other side's, clipped to [0, 1], feed kHidden2
// clipped units, then one output in pawns from the side to move's view.
// The draw clock scales it as it scales e3 (the network cannot see the
// clock).
//
// Exactly colour-symmetric: a colour-flipped position gives each side the
// same inputs, so the same integer sums, and the negated value.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "duel/games/minichess/minichess.hpp"
#include "duel/search/concepts.hpp"

namespace duel::games::minichess::n1 {

inline constexpr int kInputs = 2 * kPieceTypes * kSquares;
inline constexpr int kHidden = 64;
inline constexpr int kHidden2 = 16;

template <int H>
struct Net {
  std::array<float, static_cast<std::size_t>(kInputs) * H> w1;  // input x hidden
  std::array<float, H> b1;
  std::array<float, static_cast<std::size_t>(kHidden2) * 2 * H> w2;  // unit x (mover's, other's)
  std::array<float, kHidden2> b2;
  std::array<float, kHidden2> w3;
  float b3;
};

// A position and the trained network's output there in pawns (the side to
// move's view, before the draw clock), as the training script computed it:
// n1_weights.hpp holds kChecks of them a rule set, for a test.
struct Check {
  std::string_view fen;
  float pawns;
};
inline constexpr std::size_t kChecks = 4;

// In play the network runs in integers, as NNUE's do: the shared layer's
// weights times kActivation (an accumulator clipped to [0, kActivation]
// stands for [0, 1]), the second layer's times kWeightScale. Integer sums
// do not depend on their order, and 16-bit lanes let the compiler work on
// eight units an instruction.
// NNUE's 127 and 64 (sized for 8-bit weights) left the output up to a fifth
// of a pawn from the trained network's in full middle games; 16-bit weights
// have room for finer steps. A unit's 1.0 is kActivation in the first layer
// and kActivation x kWeightScale in the second, which keeps its sum's
// precision, so the output is in pawns x kOutputScale.
inline constexpr int kActivation = 1024;
inline constexpr int kWeightScale = 256;
inline constexpr std::int64_t kOutputScale =
    std::int64_t{kActivation} * kWeightScale * kWeightScale;

struct Quantized {
  std::array<std::int16_t, static_cast<std::size_t>(kInputs) * kHidden> w1;
  std::array<std::int16_t, kHidden> b1;
  std::array<std::int16_t, static_cast<std::size_t>(kHidden2) * 2 * kHidden> w2;
  std::array<std::int32_t, kHidden2> b2;  // x kActivation x kWeightScale
  std::array<std::int32_t, kHidden2> w3;  // x kWeightScale
  std::int64_t b3;                        // x kOutputScale
};

// Rounded half away from zero (std::lround is not constexpr before C++23).
[[nodiscard]] constexpr std::int64_t round_to_int(double x) noexcept {
  const auto whole = static_cast<std::int64_t>(x);  // towards zero
  const double rest = x - static_cast<double>(whole);
  if (rest >= 0.5) return whole + 1;
  if (rest <= -0.5) return whole - 1;
  return whole;
}

// Whether every first-layer sum fits in 16 bits: a square holds one piece,
// so a unit's sum is at most its bias plus, for each square, the largest
// weight of any piece there, in integers.
[[nodiscard]] constexpr bool accumulators_fit(const Net<kHidden>& n) noexcept {
  const auto magnitude = [](double w) { return w < 0 ? -w : w; };
  for (std::size_t u = 0; u < kHidden; ++u) {
    double worst = magnitude(n.b1[u]);
    for (std::size_t sq = 0; sq < kSquares; ++sq) {
      double largest = 0.0;
      for (std::size_t piece = 0; piece < 2 * kPieceTypes; ++piece) {
        largest = std::max(largest, magnitude(n.w1[(piece * kSquares + sq) * kHidden + u]));
      }
      worst += largest;
    }
    if (worst * kActivation >= 32767.0) return false;
  }
  return true;
}

[[nodiscard]] constexpr Quantized quantize(const Net<kHidden>& n) noexcept {
  Quantized q{};
  for (std::size_t i = 0; i < q.w1.size(); ++i) {
    q.w1[i] = static_cast<std::int16_t>(round_to_int(double{n.w1[i]} * kActivation));
  }
  for (std::size_t i = 0; i < q.b1.size(); ++i) {
    q.b1[i] = static_cast<std::int16_t>(round_to_int(double{n.b1[i]} * kActivation));
  }
  for (std::size_t i = 0; i < q.w2.size(); ++i) {
    q.w2[i] = static_cast<std::int16_t>(round_to_int(double{n.w2[i]} * kWeightScale));
  }
  for (std::size_t j = 0; j < q.b2.size(); ++j) {
    q.b2[j] = static_cast<std::int32_t>(
        round_to_int(static_cast<double>(n.b2[j]) * kActivation * kWeightScale));
    q.w3[j] = static_cast<std::int32_t>(round_to_int(static_cast<double>(n.w3[j]) * kWeightScale));
  }
  q.b3 = round_to_int(static_cast<double>(n.b3) * static_cast<double>(kOutputScale));
  return q;
}

// The trained weights in integers (n1_weights.hpp, included by net_eval.cpp only).
template <class Rules>
[[nodiscard]] const Quantized& net() noexcept;

// A bitboard seen from `side`: Black's mirrored top to bottom.
[[nodiscard]] constexpr Bitboard seen_by(Player side, Bitboard b) noexcept {
  if (side == Player::First) return b;
  Bitboard m = 0;
  for (int rank = 0; rank < kRanks; ++rank) {
    m |= ((b >> (rank * kFiles)) & 0x1FU) << ((kRanks - 1 - rank) * kFiles);
  }
  return m;
}

// The accumulator of `side`: the shared layer's sum over its inputs, clipped.
// The sum is kept in a local array, which no row of weights can alias, so
// the compiler adds eight units an instruction.
template <class Pos>
std::array<std::int16_t, kHidden> accumulate(const Pos& p, Player side,
                                             const Quantized& n) noexcept {
  std::array<std::int16_t, kHidden> acc = n.b1;
  for (int rel = 0; rel < 2; ++rel) {
    const Player owner = rel == 0 ? side : other(side);
    for (int t = 0; t < kPieceTypes; ++t) {
      Bitboard b = seen_by(side, p.pieces(owner, static_cast<Piece>(t)));
      while (b != 0) {
        const int sq = lowest(b);
        b &= b - 1;
        const std::int16_t* row =
            &n.w1[static_cast<std::size_t>((rel * kPieceTypes + t) * kSquares + sq) * kHidden];
        std::array<std::int16_t, kHidden> add;
        std::copy_n(row, kHidden, add.begin());
        for (std::size_t i = 0; i < kHidden; ++i) {
          acc[i] = static_cast<std::int16_t>(acc[i] + add[i]);
        }
      }
    }
  }
  for (auto& x : acc) x = std::clamp<std::int16_t>(x, 0, kActivation);
  return acc;
}

// The network's output in pawns x kOutputScale, from the side to move's view.
template <class Pos>
std::int64_t forward(const Pos& p, Player us, const Quantized& n) noexcept {
  const std::array<std::int16_t, kHidden> mine = accumulate(p, us, n);
  const std::array<std::int16_t, kHidden> theirs = accumulate(p, other(us), n);
  std::int64_t out = n.b3;
  for (int j = 0; j < kHidden2; ++j) {
    const std::int16_t* w = &n.w2[static_cast<std::size_t>(j) * 2 * kHidden];
    std::int32_t sum = n.b2[static_cast<std::size_t>(j)];
    for (int i = 0; i < kHidden; ++i) sum += w[i] * mine[static_cast<std::size_t>(i)];
    for (int i = 0; i < kHidden; ++i) sum += w[kHidden + i] * theirs[static_cast<std::size_t>(i)];
    out += std::int64_t{n.w3[static_cast<std::size_t>(j)]} *
           std::clamp(sum, 0, kActivation * kWeightScale);
  }
  return out;
}

// n1 in Value units from White's view, scaled by the draw clock as e3 is.
template <class Rules>
[[nodiscard]] Value evaluate(const State<Rules>& s) noexcept {
  const Player us = s.to_move();
  std::int64_t v = s.scaled_by_draw_clock(forward(s.position(), us, net<Rules>()));
  // Division truncates towards zero: symmetric about zero.
  v = v * kE0Scale / kOutputScale;
  v = std::clamp<std::int64_t>(v, -kUnit, kUnit);
  return search::clamp_estimate(static_cast<Value>(us == Player::First ? v : -v));
}

}  // namespace duel::games::minichess::n1

namespace duel::games::minichess {

struct N1 {
  static constexpr std::string_view kName = "n1";
  static constexpr std::string_view kAbout =
      "small network (both sides' pieces on squares, 64 + 16 clipped units) trained on "
      "self-play positions (scripts/train-net.py); gardner only";
  explicit N1(std::uint64_t /*seed*/ = 0) noexcept {}
  template <class Rules>
  [[nodiscard]] Value operator()(const State<Rules>& s) const noexcept {
    return n1::evaluate(s);
  }
};

static_assert(NamedHeuristic<N1, GardnerState>);

}  // namespace duel::games::minichess
