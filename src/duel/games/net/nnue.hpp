#pragma once
// A small network seen from both sides, as NNUE engines' are, for any board
// of bitboards: the shape of heuristic n1 in the 5x5 chess rule sets and in
// checkers (docs/net.md), trained by scripts/train-net.py.
//
// Inputs, per side: its own and the enemy's pieces by type on their squares,
// each side seeing the board from its own side (`B::seen`). One shared layer
// of B::kHidden units turns each side's inputs into an accumulator; the side
// to move's and the other side's, clipped to [0, 1], feed kHidden2 clipped
// units, then one output from the side to move's view.
//
// Why one template: the network, its integers, the kept sums and the output
// cache are the same whatever the pieces are; a game gives its board (`B`:
// the bitboard type, piece types, squares, units, how a side sees a square)
// and its weights, and its net_eval.cpp compiles the forward pass once
// (nnue_impl.hpp). Exactly colour-symmetric: a colour-flipped position gives
// each side the same inputs, so the same integer sums, and the negated value.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string_view>

#include "duel/core/types.hpp"

namespace duel::games::nnue {

inline constexpr int kHidden2 = 16;

template <class B>
inline constexpr int kInputs = 2 * B::kPieceTypes* B::kSquares;

// The trained network in floats, with H first-layer units, as the weights
// header (written by the script) holds it.
template <class B, std::size_t H>
struct Net {
  std::array<float, static_cast<std::size_t>(kInputs<B>) * H> w1;  // input x hidden
  std::array<float, H> b1;
  std::array<float, static_cast<std::size_t>(kHidden2) * 2 * H> w2;  // unit x (mover's, other's)
  std::array<float, kHidden2> b2;
  std::array<float, kHidden2> w3;
  float b3;
};

// A position and the trained network's output there (the side to move's
// view), as the training script computed it: the weights header holds
// kChecks of them a network, for a test.
struct Check {
  std::string_view fen;
  float output;
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
// precision, so the output is the trained one's x kOutputScale.
inline constexpr int kActivation = 1024;
inline constexpr int kWeightScale = 256;
inline constexpr std::int64_t kOutputScale =
    std::int64_t{kActivation} * kWeightScale * kWeightScale;

template <class B>
struct Quantized {
  static constexpr std::size_t kHidden = B::kHidden;
  std::array<std::int16_t, static_cast<std::size_t>(kInputs<B>) * kHidden> w1;
  std::array<std::int16_t, kHidden> b1;
  // The second layer by pairs of its inputs (the mover's units, then the
  // other side's): [pair][unit][2], so that one multiply-add of 16-bit
  // pairs gives a pair's share in every unit at once.
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
template <class B>
[[nodiscard]] constexpr bool accumulators_fit(const Net<B, B::kHidden>& n) noexcept {
  constexpr auto kHidden = static_cast<std::size_t>(B::kHidden);
  constexpr auto kSquares = static_cast<std::size_t>(B::kSquares);
  const auto magnitude = [](double w) { return w < 0 ? -w : w; };
  for (std::size_t u = 0; u < kHidden; ++u) {
    double worst = magnitude(n.b1[u]);
    for (std::size_t sq = 0; sq < kSquares; ++sq) {
      double largest = 0.0;
      for (std::size_t piece = 0; piece < 2 * B::kPieceTypes; ++piece) {
        largest = std::max(largest, magnitude(n.w1[(piece * kSquares + sq) * kHidden + u]));
      }
      worst += largest;
    }
    if (worst * kActivation >= 32767.0) return false;
  }
  return true;
}

template <class B>
[[nodiscard]] constexpr Quantized<B> quantize(const Net<B, B::kHidden>& n) noexcept {
  constexpr auto kHidden = static_cast<std::size_t>(B::kHidden);
  Quantized<B> q{};
  for (std::size_t i = 0; i < q.w1.size(); ++i) {
    q.w1[i] = static_cast<std::int16_t>(round_to_int(double{n.w1[i]} * kActivation));
  }
  for (std::size_t i = 0; i < q.b1.size(); ++i) {
    q.b1[i] = static_cast<std::int16_t>(round_to_int(double{n.b1[i]} * kActivation));
  }
  for (std::size_t j = 0; j < kHidden2; ++j) {
    for (std::size_t i = 0; i < 2 * kHidden; ++i) {
      q.w2[((i / 2) * kHidden2 + j) * 2 + i % 2] =
          static_cast<std::int16_t>(round_to_int(double{n.w2[j * 2 * kHidden + i]} * kWeightScale));
    }
  }
  for (std::size_t j = 0; j < q.b2.size(); ++j) {
    q.b2[j] = static_cast<std::int32_t>(
        round_to_int(static_cast<double>(n.b2[j]) * kActivation * kWeightScale));
    q.w3[j] = static_cast<std::int32_t>(round_to_int(static_cast<double>(n.w3[j]) * kWeightScale));
  }
  q.b3 = round_to_int(static_cast<double>(n.b3) * static_cast<double>(kOutputScale));
  return q;
}

// A position's pieces as the network reads them, [player x kPieceTypes +
// type], on the board as it stands (each side's accumulator sees them from
// its own side).
template <class B>
using Pieces = std::array<typename B::Bitboard, 2 * B::kPieceTypes>;

// The instructions the network runs with. Both give the same integers; AVX2
// works on sixteen 16-bit units an instruction where the baseline (the
// build's x86-64-v2) works on eight. Accumulators::forward without one
// picks AVX2 when the processor has it.
enum class Isa { Baseline, Avx2 };
[[nodiscard]] bool has_avx2() noexcept;

// The network's output x kOutputScale, from the side to move's view, from
// scratch: each side's accumulator sums a row of weights for every piece.
template <class B>
[[nodiscard]] std::int64_t forward(const Quantized<B>& n, const Pieces<B>& pieces, Player us,
                                   Isa isa) noexcept;

// The first layer's sums (each side's, before clipping) for the last few
// positions evaluated. A new position starts from the one that differs from
// it on the fewest squares and adds and subtracts only the rows of what
// changed: a search evaluates near relatives one after another (a capture
// changes three squares; a full sum adds a row for every piece). Integer
// sums do not depend on their order, so the output is exactly `forward`'s.
// Two kept positions did as well as eight (docs/net.md, "Speed").
template <class B>
class Accumulators {
 public:
  [[nodiscard]] std::int64_t forward(const Quantized<B>& n, const Pieces<B>& pieces, Player us,
                                     Isa isa) noexcept;
  [[nodiscard]] std::int64_t forward(const Quantized<B>& n, const Pieces<B>& pieces,
                                     Player us) noexcept {
    return forward(n, pieces, us, Isa::Avx2);  // the baseline where there is no AVX2
  }
  // How many sums were started from scratch and how many from a kept one.
  [[nodiscard]] std::uint64_t full_sums() const noexcept { return m_full; }
  [[nodiscard]] std::uint64_t updated_sums() const noexcept { return m_updated; }

  static constexpr std::size_t kKept = 2;
  using Sums = std::array<std::int16_t, B::kHidden>;

 private:
  struct Entry {
    Pieces<B> pieces{};
    std::array<Sums, 2> sums{};  // Player::First's view, Player::Second's
    std::uint64_t last_used = 0;
  };
  std::array<Entry, kKept> m_kept{};
  const Quantized<B>* m_net = nullptr;  // the network the kept sums belong to
  std::uint64_t m_clock = 0;
  std::uint64_t m_full = 0;
  std::uint64_t m_updated = 0;
};

// The network's outputs of the positions evaluated last, by their key (the
// pieces and the side to move: all the network sees). A search meets the
// same positions again, each iteration's tree growing out of the last one's,
// and a position's output is then read instead of computed: exactly the
// same integer, so the search is the same, only faster (docs/net.md,
// "Speed"). One slot a key's low bits, the newest result kept; a slot holds
// the whole key, so a hit is the same position (or another with the same
// 64-bit key). A copy starts empty; the slots are allocated on first use.
class OutputCache {
 public:
  static constexpr std::size_t kSlots =
      std::size_t{1} << 18;  // 4 MiB: 2^16 saved 8%, 2^18 10% (docs/BENCHMARKS.md)

  OutputCache() = default;
  OutputCache(const OutputCache& /*other*/) noexcept {}
  OutputCache& operator=(const OutputCache& other) noexcept {
    if (this != &other) clear();
    return *this;
  }
  OutputCache(OutputCache&&) noexcept = default;
  OutputCache& operator=(OutputCache&&) noexcept = default;
  ~OutputCache() = default;

  // The output for `key` under network `n` (any object that names it),
  // from `compute()` unless held.
  template <class F>
  [[nodiscard]] std::int64_t get(const void* n, std::uint64_t key, F&& compute) {
    if (m_net != n || !m_slots) {
      if (!m_slots) m_slots = std::make_unique<Slot[]>(kSlots);
      if (m_net != nullptr) std::fill_n(m_slots.get(), kSlots, Slot{});
      m_net = n;
    }
    Slot& slot = m_slots[key & (kSlots - 1)];
    if (slot.filled != 0 && slot.key == key) {
      ++m_hits;
      return slot.output;
    }
    const std::int64_t v = compute();
    // Only what an int32 holds is kept (every output of the trained network).
    using Limits = std::numeric_limits<std::int32_t>;
    if (v >= Limits::min() && v <= Limits::max()) slot = Slot{key, static_cast<std::int32_t>(v), 1};
    ++m_misses;
    return v;
  }
  // Starts loading `key`'s slot (a search calls it when it makes a child,
  // some time before the child is evaluated).
  void prefetch(std::uint64_t key) const noexcept {
    if (m_slots) __builtin_prefetch(&m_slots[key & (kSlots - 1)]);
  }
  void clear() noexcept {
    m_slots.reset();
    m_net = nullptr;
    m_hits = 0;
    m_misses = 0;
  }
  [[nodiscard]] std::uint64_t hits() const noexcept { return m_hits; }
  [[nodiscard]] std::uint64_t misses() const noexcept { return m_misses; }

 private:
  struct Slot {
    std::uint64_t key = 0;
    std::int32_t output = 0;
    std::uint32_t filled = 0;
  };
  std::unique_ptr<Slot[]> m_slots;
  const void* m_net = nullptr;
  std::uint64_t m_hits = 0;
  std::uint64_t m_misses = 0;
};

}  // namespace duel::games::nnue
