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
#include <limits>
#include <memory>
#include <string_view>

#include "duel/games/minichess/minichess.hpp"
#include "duel/search/concepts.hpp"

namespace duel::games::minichess::n1 {

inline constexpr int kInputs = 2 * kPieceTypes * kSquares;
inline constexpr int kHidden = 128;
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

// The trained weights in integers (n1_weights.hpp, included by net_eval.cpp only).
template <class Rules>
[[nodiscard]] const Quantized& net() noexcept;

// A position's pieces as n1 reads them, [player x kPieceTypes + type], on
// the board as it stands (each side's accumulator mirrors them as it needs).
using Pieces = std::array<Bitboard, 2 * kPieceTypes>;

template <class Pos>
[[nodiscard]] Pieces pieces_of(const Pos& p) noexcept {
  Pieces out{};
  for (int t = 0; t < kPieceTypes; ++t) {
    out[static_cast<std::size_t>(t)] = p.pieces(Player::First, static_cast<Piece>(t));
    out[static_cast<std::size_t>(kPieceTypes + t)] =
        p.pieces(Player::Second, static_cast<Piece>(t));
  }
  return out;
}

// The instructions the network runs with. Both give the same integers; AVX2
// works on sixteen 16-bit units an instruction where the baseline (the
// build's x86-64-v2) works on eight. Accumulators::forward without one
// picks AVX2 when the processor has it.
enum class Isa { Baseline, Avx2 };
[[nodiscard]] bool has_avx2() noexcept;

// The network's output in pawns x kOutputScale, from the side to move's
// view, from scratch: each side's accumulator sums a row of weights for
// every piece.
[[nodiscard]] std::int64_t forward(const Quantized& n, const Pieces& pieces, Player us,
                                   Isa isa) noexcept;

// The first layer's sums (each side's, before clipping) for the last few
// positions evaluated. A new position starts from the one that differs from
// it on the fewest squares and adds and subtracts only the rows of what
// changed: a search evaluates near relatives one after another (a capture
// changes three squares; a full sum adds a row for every piece). Integer
// sums do not depend on their order, so the output is exactly `forward`'s.
// Two kept positions did as well as eight (docs/net.md, "Speed").
class Accumulators {
 public:
  [[nodiscard]] std::int64_t forward(const Quantized& n, const Pieces& pieces, Player us,
                                     Isa isa) noexcept;
  [[nodiscard]] std::int64_t forward(const Quantized& n, const Pieces& pieces, Player us) noexcept;
  // How many sums were started from scratch and how many from a kept one.
  [[nodiscard]] std::uint64_t full_sums() const noexcept { return m_full; }
  [[nodiscard]] std::uint64_t updated_sums() const noexcept { return m_updated; }

  static constexpr std::size_t kKept = 2;
  using Sums = std::array<std::int16_t, kHidden>;

 private:
  struct Entry {
    Pieces pieces{};
    std::array<Sums, 2> sums{};  // White's view, Black's view
    std::uint64_t last_used = 0;
  };
  std::array<Entry, kKept> m_kept{};
  const Quantized* m_net = nullptr;  // the network the kept sums belong to
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

  // The output for `key` under network `n`, from `compute()` unless held.
  template <class F>
  [[nodiscard]] std::int64_t get(const Quantized& n, std::uint64_t key, F&& compute) {
    if (m_net != &n || !m_slots) {
      if (!m_slots) m_slots = std::make_unique<Slot[]>(kSlots);
      if (m_net != nullptr) std::fill_n(m_slots.get(), kSlots, Slot{});
      m_net = &n;
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
  const Quantized* m_net = nullptr;
  std::uint64_t m_hits = 0;
  std::uint64_t m_misses = 0;
};

// The network's output `out` (pawns x kOutputScale, the side to move's
// view) in Value units from White's view, scaled by the draw clock as e3 is.
template <class Rules>
[[nodiscard]] Value to_value(const State<Rules>& s, std::int64_t out) noexcept {
  const Player us = s.to_move();
  std::int64_t v = s.scaled_by_draw_clock(out);
  // Division truncates towards zero: symmetric about zero.
  v = v * kE0Scale / kOutputScale;
  v = std::clamp<std::int64_t>(v, -kUnit, kUnit);
  return search::clamp_estimate(static_cast<Value>(us == Player::First ? v : -v));
}

// n1 in Value units from White's view, scaled by the draw clock as e3 is.
template <class Rules>
[[nodiscard]] Value evaluate(const State<Rules>& s, Accumulators& acc) noexcept {
  return to_value(s, acc.forward(net<Rules>(), pieces_of(s.position()), s.to_move()));
}

// The same, the output read from `cache` where it holds the position.
template <class Rules>
[[nodiscard]] Value evaluate(const State<Rules>& s, Accumulators& acc,
                             OutputCache& cache) noexcept {
  const Quantized& n = net<Rules>();
  return to_value(s, cache.get(n, s.key(), [&] {
    return acc.forward(n, pieces_of(s.position()), s.to_move());
  }));
}

}  // namespace duel::games::minichess::n1

namespace duel::games::minichess {

struct N1 {
  static constexpr std::string_view kName = "n1";
  static constexpr std::string_view kAbout =
      "small network (both sides' pieces on squares, 128 + 16 clipped units) trained on "
      "self-play positions (scripts/train-net.py); gardner and gardner-cs3243";
  explicit N1(std::uint64_t /*seed*/ = 0) noexcept {}
  // Not const: it keeps the sums of the positions it saw last (one search
  // at a time; each engine owns its heuristic).
  template <class Rules>
  [[nodiscard]] Value operator()(const State<Rules>& s) noexcept {
    return n1::evaluate(s, m_acc, m_cache);
  }
  [[nodiscard]] const n1::OutputCache& cache() const noexcept { return m_cache; }
  // search::HasPrefetch: the output cache's slot for `s`.
  template <class Rules>
  void prefetch(const State<Rules>& s) const noexcept {
    m_cache.prefetch(s.key());
  }

 private:
  n1::Accumulators m_acc;
  n1::OutputCache m_cache;
};

static_assert(NamedHeuristic<N1, GardnerState> && NamedHeuristic<N1, Cs3243State>);
// The search loads the cache slot ahead (docs/BENCHMARKS.md): keep the hook bound.
static_assert(search::HasPrefetch<N1, GardnerState> && search::HasPrefetch<N1, Cs3243State>);

}  // namespace duel::games::minichess
