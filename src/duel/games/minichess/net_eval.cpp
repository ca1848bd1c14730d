// n1's weights (the one file that includes the generated n1_weights.hpp) and
// its forward pass, compiled twice: for the build's baseline and for AVX2.
#include "duel/games/minichess/net_eval.hpp"

#include <bit>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "duel/games/minichess/eval.hpp"
#include "duel/games/minichess/n1_weights.hpp"

namespace duel::games::minichess::n1 {

namespace {
// Integers once, at compile time.
template <class Rules>
constexpr Quantized kQuantized = quantize(kNet<Rules>);
static_assert(accumulators_fit(kNet<Gardner>), "n1: a first-layer sum may not fit in 16 bits");
static_assert(accumulators_fit(kNet<Cs3243>), "n1: a first-layer sum may not fit in 16 bits");

using Sums = Accumulators::Sums;

// The row of first-layer weights of a piece of `owner` of type `t` on square
// `sq` (the board as it stands), in `side`'s accumulator: Black sees the
// board mirrored top to bottom.
[[gnu::always_inline]] inline const std::int16_t* row(const Quantized& n, Player side, Player owner,
                                                      int t, int sq) noexcept {
  const int rel = owner == side ? 0 : 1;
  const int seen = square(file_of(sq), relative_rank(side, sq));
  return &n.w1[static_cast<std::size_t>((rel * kPieceTypes + t) * kSquares + seen) * kHidden];
}

// `sums`, kept for `from`, made the sums of `to`: the rows of what left a
// square subtracted, of what arrived added. The sums stay in local arrays,
// which no row of weights can alias, so the compiler works on a vector of
// units an instruction. Sums wrap as 16-bit integers do; accumulators_fit
// makes every final sum fit, so the order of the steps does not matter.
[[gnu::always_inline]] inline void update_sums(const Quantized& n, const Pieces& from,
                                               const Pieces& to,
                                               std::array<Sums, 2>& sums) noexcept {
  Sums white = sums[0];
  Sums black = sums[1];
  for (int o = 0; o < 2; ++o) {
    const Player owner = o == 0 ? Player::First : Player::Second;
    for (int t = 0; t < kPieceTypes; ++t) {
      const auto i = static_cast<std::size_t>(o * kPieceTypes + t);
      for (Bitboard b = from[i] & ~to[i]; b != 0; b &= b - 1) {
        const int sq = lowest(b);
        const std::int16_t* w = row(n, Player::First, owner, t, sq);
        const std::int16_t* k = row(n, Player::Second, owner, t, sq);
        for (std::size_t u = 0; u < kHidden; ++u) {
          white[u] = static_cast<std::int16_t>(white[u] - w[u]);
          black[u] = static_cast<std::int16_t>(black[u] - k[u]);
        }
      }
      for (Bitboard b = to[i] & ~from[i]; b != 0; b &= b - 1) {
        const int sq = lowest(b);
        const std::int16_t* w = row(n, Player::First, owner, t, sq);
        const std::int16_t* k = row(n, Player::Second, owner, t, sq);
        for (std::size_t u = 0; u < kHidden; ++u) {
          white[u] = static_cast<std::int16_t>(white[u] + w[u]);
          black[u] = static_cast<std::int16_t>(black[u] + k[u]);
        }
      }
    }
  }
  sums[0] = white;
  sums[1] = black;
}

// Both sides' sums from scratch: the biases, then every piece arriving on
// an empty board.
[[gnu::always_inline]] inline void full_sums(const Quantized& n, const Pieces& pieces,
                                             std::array<Sums, 2>& sums) noexcept {
  sums = {n.b1, n.b1};
  update_sums(n, Pieces{}, pieces, sums);
}

// The second layer's sums, from its inputs (the mover's clipped units, then
// the other side's). A multiply-add of 16-bit pairs (w2's layout) gives one
// pair of inputs' share in 8 units (AVX2) or 4 at once; a pair of zeros,
// common after clipping, adds nothing and is skipped.
using Layer2 = std::array<std::int32_t, kHidden2>;
using Inputs = std::array<std::int16_t, 2 * kHidden>;

[[nodiscard]] inline std::int32_t input_pair(const Inputs& in, std::size_t p) noexcept {
  std::int32_t pair = 0;
  std::memcpy(&pair, &in[2 * p], sizeof pair);  // in[2p] low, in[2p + 1] high
  return pair;
}

#if defined(__x86_64__)
[[gnu::always_inline]] inline Layer2 layer2_sse2(const Quantized& n, const Inputs& in) noexcept {
  static_assert(kHidden2 == 16, "four vectors of four units");
  // A plain array: std::array would drop __m128i's alignment attribute.
  __m128i sum[4];
  for (std::size_t v = 0; v < 4; ++v) {
    sum[v] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&n.b2[4 * v]));
  }
  for (std::size_t p = 0; p < kHidden; ++p) {
    const std::int32_t pair = input_pair(in, p);
    if (pair == 0) continue;
    const __m128i a = _mm_set1_epi32(pair);
    const auto* w = reinterpret_cast<const __m128i*>(&n.w2[p * kHidden2 * 2]);
    for (std::size_t v = 0; v < 4; ++v) {
      sum[v] = _mm_add_epi32(sum[v], _mm_madd_epi16(_mm_loadu_si128(w + v), a));
    }
  }
  Layer2 out;
  for (std::size_t v = 0; v < 4; ++v) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(&out[4 * v]), sum[v]);
  }
  return out;
}

[[gnu::target("avx2")]] Layer2 layer2_avx2(const Quantized& n, const Inputs& in) noexcept {
  static_assert(kHidden2 == 16, "two vectors of eight units");
  // kHidden input pairs, eight a vector, 64 a word of `live`.
  static_assert(kHidden % 64 == 0, "whole words of input pairs");
  constexpr std::size_t kWords = kHidden / 64;
  // Which input pairs are not both zero, found eight at a time: the loop
  // below visits only those, with no branch on the data to mispredict.
  std::array<std::uint64_t, kWords> live{};
  const __m256i zero = _mm256_setzero_si256();
  for (std::size_t v = 0; v < kHidden / 8; ++v) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&in[16 * v]));
    const auto zeros =
        static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(x, zero))));
    live[v / 8] |= static_cast<std::uint64_t>(~zeros & 0xffU) << (8 * (v % 8));
  }
  __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&n.b2[0]));
  __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&n.b2[8]));
  for (std::size_t word = 0; word < kWords; ++word) {
    for (std::uint64_t b = live[word]; b != 0; b &= b - 1) {
      const std::size_t p = 64 * word + static_cast<std::size_t>(std::countr_zero(b));
      const __m256i a = _mm256_set1_epi32(input_pair(in, p));
      const auto* w = reinterpret_cast<const __m256i*>(&n.w2[p * kHidden2 * 2]);
      lo = _mm256_add_epi32(lo, _mm256_madd_epi16(_mm256_loadu_si256(w), a));
      hi = _mm256_add_epi32(hi, _mm256_madd_epi16(_mm256_loadu_si256(w + 1), a));
    }
  }
  Layer2 out;
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(&out[0]), lo);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(&out[8]), hi);
  return out;
}
#else
// Elsewhere, the same sums one unit at a time.
[[gnu::always_inline]] inline Layer2 layer2_plain(const Quantized& n, const Inputs& in) noexcept {
  Layer2 sum = n.b2;
  for (std::size_t p = 0; p < kHidden; ++p) {
    const std::int32_t a0 = in[2 * p];
    const std::int32_t a1 = in[2 * p + 1];
    const std::int16_t* w = &n.w2[p * kHidden2 * 2];
    for (std::size_t j = 0; j < kHidden2; ++j) sum[j] += w[2 * j] * a0 + w[2 * j + 1] * a1;
  }
  return sum;
}
#endif

// The second and third layers, on the clipped sums.
template <bool Avx2>
[[gnu::always_inline]] inline std::int64_t output(const Quantized& n, const Sums& mine,
                                                  const Sums& theirs) noexcept {
  Inputs in;
  for (std::size_t i = 0; i < kHidden; ++i) {
    in[i] = std::clamp<std::int16_t>(mine[i], 0, kActivation);
    in[kHidden + i] = std::clamp<std::int16_t>(theirs[i], 0, kActivation);
  }
  Layer2 sum;
#if defined(__x86_64__)
  if constexpr (Avx2) {
    sum = layer2_avx2(n, in);
  } else {
    sum = layer2_sse2(n, in);
  }
#else
  sum = layer2_plain(n, in);
#endif
  std::int64_t out = n.b3;
  for (std::size_t j = 0; j < kHidden2; ++j) {
    out += std::int64_t{n.w3[j]} * std::clamp(sum[j], 0, kActivation * kWeightScale);
  }
  return out;
}

template <bool Avx2>
[[gnu::always_inline]] inline std::int64_t output_for(const Quantized& n,
                                                      const std::array<Sums, 2>& sums,
                                                      Player us) noexcept {
  return output<Avx2>(n, sums[static_cast<std::size_t>(index(us))],
                      sums[static_cast<std::size_t>(index(other(us)))]);
}

// The steps, each compiled twice from the same source: `flatten` inlines
// every call inside each copy, so each is compiled whole for its own
// instructions (an AVX2 copy runs only where has_avx2()).
#define DUEL_N1_STEPS(SUFFIX, AVX2, ...)                                                        \
  __VA_ARGS__ std::int64_t forward_##SUFFIX(const Quantized& n, const Pieces& pieces,           \
                                            Player us) noexcept {                               \
    std::array<Sums, 2> sums;                                                                   \
    full_sums(n, pieces, sums);                                                                 \
    return output_for<AVX2>(n, sums, us);                                                       \
  }                                                                                             \
  __VA_ARGS__ void full_##SUFFIX(const Quantized& n, const Pieces& pieces,                      \
                                 std::array<Sums, 2>& sums) noexcept {                          \
    full_sums(n, pieces, sums);                                                                 \
  }                                                                                             \
  __VA_ARGS__ void update_##SUFFIX(const Quantized& n, const Pieces& from, const Pieces& to,    \
                                   std::array<Sums, 2>& sums) noexcept {                        \
    update_sums(n, from, to, sums);                                                             \
  }                                                                                             \
  __VA_ARGS__ std::int64_t output_##SUFFIX(const Quantized& n, const std::array<Sums, 2>& sums, \
                                           Player us) noexcept {                                \
    return output_for<AVX2>(n, sums, us);                                                       \
  }
DUEL_N1_STEPS(baseline, false, [[gnu::flatten]])
DUEL_N1_STEPS(avx2, true, [[gnu::flatten, gnu::target("avx2")]])
#undef DUEL_N1_STEPS

[[nodiscard]] int squares_apart(const Pieces& a, const Pieces& b) noexcept {
  int n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) n += std::popcount(a[i] ^ b[i]);
  return n;
}

[[nodiscard]] int pieces_on_board(const Pieces& p) noexcept {
  int n = 0;
  for (const Bitboard b : p) n += std::popcount(b);
  return n;
}
}  // namespace

template <class Rules>
const Quantized& net() noexcept {
  return kQuantized<Rules>;
}

template const Quantized& net<Gardner>() noexcept;
template const Quantized& net<Cs3243>() noexcept;

bool has_avx2() noexcept {
  static const bool kHas = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return kHas;
}

std::int64_t forward(const Quantized& n, const Pieces& pieces, Player us, Isa isa) noexcept {
  return isa == Isa::Avx2 && has_avx2() ? forward_avx2(n, pieces, us)
                                        : forward_baseline(n, pieces, us);
}

std::int64_t Accumulators::forward(const Quantized& n, const Pieces& pieces, Player us,
                                   Isa isa) noexcept {
  const bool avx2 = isa == Isa::Avx2 && has_avx2();
  if (m_net != &n) {
    m_kept = {};
    m_net = &n;
  }
  // The nearest kept position, and the least recently used slot.
  Entry* nearest = nullptr;
  int apart = pieces_on_board(pieces);  // past this, a sum from scratch is cheaper
  Entry* oldest = &m_kept[0];
  for (Entry& e : m_kept) {
    if (e.last_used != 0) {
      const int d = squares_apart(e.pieces, pieces);
      if (d < apart) {
        apart = d;
        nearest = &e;
      }
    }
    if (e.last_used < oldest->last_used) oldest = &e;
  }
  ++m_clock;
  Entry* target = nearest;
  if (nearest == nullptr) {
    ++m_full;
    target = oldest;
    target->pieces = pieces;
    if (avx2) {
      full_avx2(n, pieces, target->sums);
    } else {
      full_baseline(n, pieces, target->sums);
    }
  } else if (apart > 0) {
    // The kept position stays for its other relatives: the new one takes
    // the oldest slot.
    ++m_updated;
    if (target != oldest) {
      oldest->sums = nearest->sums;
      nearest->last_used = m_clock;
      target = oldest;
    }
    if (avx2) {
      update_avx2(n, nearest->pieces, pieces, target->sums);
    } else {
      update_baseline(n, nearest->pieces, pieces, target->sums);
    }
    target->pieces = pieces;
  }
  target->last_used = m_clock;
  return avx2 ? output_avx2(n, target->sums, us) : output_baseline(n, target->sums, us);
}

std::int64_t Accumulators::forward(const Quantized& n, const Pieces& pieces, Player us) noexcept {
  return forward(n, pieces, us, Isa::Avx2);  // the baseline where there is no AVX2
}

}  // namespace duel::games::minichess::n1
