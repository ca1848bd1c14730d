#pragma once
// The forward pass of nnue.hpp's network, included by the one file of each
// game that instantiates it (its net_eval.cpp, with DUEL_NNUE_INSTANTIATE),
// compiled twice there: for the build's baseline and for AVX2.
//
// Why a header of definitions: each game's board is a template argument, and
// each game compiles its network once, beside its weights.
#include <bit>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "duel/games/net/nnue.hpp"

namespace duel::games::nnue::detail {

// The row of first-layer weights of a piece of `owner` of type `t` on square
// `sq` (the board as it stands), in `side`'s accumulator, which sees the
// board from its own side (B::seen).
template <class B>
[[gnu::always_inline]] inline const std::int16_t* row(const Quantized<B>& n, Player side,
                                                      Player owner, int t, int sq) noexcept {
  const int rel = owner == side ? 0 : 1;
  const int seen = B::seen(side, sq);
  return &n.w1[static_cast<std::size_t>((rel * B::kPieceTypes + t) * B::kSquares + seen) *
               B::kHidden];
}

// `sums`, kept for `from`, made the sums of `to`: the rows of what left a
// square subtracted, of what arrived added. The sums stay in local arrays,
// which no row of weights can alias, so the compiler works on a vector of
// units an instruction. Sums wrap as 16-bit integers do; accumulators_fit
// makes every final sum fit, so the order of the steps does not matter.
template <class B>
[[gnu::always_inline]] inline void update_sums(
    const Quantized<B>& n, const Pieces<B>& from, const Pieces<B>& to,
    std::array<typename Accumulators<B>::Sums, 2>& sums) noexcept {
  auto first = sums[0];
  auto second = sums[1];
  for (int o = 0; o < 2; ++o) {
    const Player owner = o == 0 ? Player::First : Player::Second;
    for (int t = 0; t < B::kPieceTypes; ++t) {
      const auto i = static_cast<std::size_t>(o * B::kPieceTypes + t);
      for (auto b = from[i] & ~to[i]; b != 0; b &= b - 1) {
        const int sq = std::countr_zero(b);
        const std::int16_t* w = row(n, Player::First, owner, t, sq);
        const std::int16_t* k = row(n, Player::Second, owner, t, sq);
        for (std::size_t u = 0; u < B::kHidden; ++u) {
          first[u] = static_cast<std::int16_t>(first[u] - w[u]);
          second[u] = static_cast<std::int16_t>(second[u] - k[u]);
        }
      }
      for (auto b = to[i] & ~from[i]; b != 0; b &= b - 1) {
        const int sq = std::countr_zero(b);
        const std::int16_t* w = row(n, Player::First, owner, t, sq);
        const std::int16_t* k = row(n, Player::Second, owner, t, sq);
        for (std::size_t u = 0; u < B::kHidden; ++u) {
          first[u] = static_cast<std::int16_t>(first[u] + w[u]);
          second[u] = static_cast<std::int16_t>(second[u] + k[u]);
        }
      }
    }
  }
  sums[0] = first;
  sums[1] = second;
}

// Both sides' sums from scratch: the biases, then every piece arriving on
// an empty board.
template <class B>
[[gnu::always_inline]] inline void full_sums(
    const Quantized<B>& n, const Pieces<B>& pieces,
    std::array<typename Accumulators<B>::Sums, 2>& sums) noexcept {
  sums = {n.b1, n.b1};
  update_sums<B>(n, Pieces<B>{}, pieces, sums);
}

// The second layer's sums, from its inputs (the mover's clipped units, then
// the other side's). A multiply-add of 16-bit pairs (w2's layout) gives one
// pair of inputs' share in 8 units (AVX2) or 4 at once; a pair of zeros,
// common after clipping, adds nothing and is skipped.
using Layer2 = std::array<std::int32_t, kHidden2>;
template <class B>
using Inputs = std::array<std::int16_t, 2 * B::kHidden>;

template <class B>
[[nodiscard]] inline std::int32_t input_pair(const Inputs<B>& in, std::size_t p) noexcept {
  std::int32_t pair = 0;
  std::memcpy(&pair, &in[2 * p], sizeof pair);  // in[2p] low, in[2p + 1] high
  return pair;
}

#if defined(__x86_64__)
template <class B>
[[gnu::always_inline]] inline Layer2 layer2_sse2(const Quantized<B>& n,
                                                 const Inputs<B>& in) noexcept {
  static_assert(kHidden2 == 16, "four vectors of four units");
  // A plain array: std::array would drop __m128i's alignment attribute.
  __m128i sum[4];
  for (std::size_t v = 0; v < 4; ++v) {
    sum[v] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&n.b2[4 * v]));
  }
  for (std::size_t p = 0; p < B::kHidden; ++p) {
    const std::int32_t pair = input_pair<B>(in, p);
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

template <class B>
[[gnu::target("avx2")]] Layer2 layer2_avx2(const Quantized<B>& n, const Inputs<B>& in) noexcept {
  static_assert(kHidden2 == 16, "two vectors of eight units");
  // B::kHidden input pairs, eight a vector, 64 a word of `live`.
  static_assert(B::kHidden % 64 == 0, "whole words of input pairs");
  constexpr std::size_t kWords = B::kHidden / 64;
  // Which input pairs are not both zero, found eight at a time: the loop
  // below visits only those, with no branch on the data to mispredict.
  std::array<std::uint64_t, kWords> live{};
  const __m256i zero = _mm256_setzero_si256();
  for (std::size_t v = 0; v < B::kHidden / 8; ++v) {
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
      const __m256i a = _mm256_set1_epi32(input_pair<B>(in, p));
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
template <class B>
[[gnu::always_inline]] inline Layer2 layer2_plain(const Quantized<B>& n,
                                                  const Inputs<B>& in) noexcept {
  Layer2 sum = n.b2;
  for (std::size_t p = 0; p < B::kHidden; ++p) {
    const std::int32_t a0 = in[2 * p];
    const std::int32_t a1 = in[2 * p + 1];
    const std::int16_t* w = &n.w2[p * kHidden2 * 2];
    for (std::size_t j = 0; j < kHidden2; ++j) sum[j] += w[2 * j] * a0 + w[2 * j + 1] * a1;
  }
  return sum;
}
#endif

// The second and third layers, on the clipped sums of the side to move `us`.
template <class B, bool Avx2>
[[gnu::always_inline]] inline std::int64_t output(
    const Quantized<B>& n, const std::array<typename Accumulators<B>::Sums, 2>& sums,
    Player us) noexcept {
  const auto& mine = sums[static_cast<std::size_t>(index(us))];
  const auto& theirs = sums[static_cast<std::size_t>(index(other(us)))];
  Inputs<B> in;
  for (std::size_t i = 0; i < B::kHidden; ++i) {
    in[i] = std::clamp<std::int16_t>(mine[i], 0, kActivation);
    in[B::kHidden + i] = std::clamp<std::int16_t>(theirs[i], 0, kActivation);
  }
  Layer2 sum;
#if defined(__x86_64__)
  if constexpr (Avx2) {
    sum = layer2_avx2<B>(n, in);
  } else {
    sum = layer2_sse2<B>(n, in);
  }
#else
  sum = layer2_plain<B>(n, in);
#endif
  std::int64_t out = n.b3;
  for (std::size_t j = 0; j < kHidden2; ++j) {
    out += std::int64_t{n.w3[j]} * std::clamp(sum[j], 0, kActivation * kWeightScale);
  }
  return out;
}

// The steps, each compiled twice from the same source: `flatten` inlines
// every call inside each copy, so each is compiled whole for its own
// instructions (an AVX2 copy runs only where has_avx2()).
#define DUEL_NNUE_STEPS(SUFFIX, AVX2, ...)                                                         \
  template <class B>                                                                               \
  __VA_ARGS__ std::int64_t forward_##SUFFIX(const Quantized<B>& n, const Pieces<B>& pieces,        \
                                            Player us) noexcept {                                  \
    std::array<typename Accumulators<B>::Sums, 2> sums;                                            \
    full_sums<B>(n, pieces, sums);                                                                 \
    return output<B, AVX2>(n, sums, us);                                                           \
  }                                                                                                \
  template <class B>                                                                               \
  __VA_ARGS__ void full_##SUFFIX(const Quantized<B>& n, const Pieces<B>& pieces,                   \
                                 std::array<typename Accumulators<B>::Sums, 2>& sums) noexcept {   \
    full_sums<B>(n, pieces, sums);                                                                 \
  }                                                                                                \
  template <class B>                                                                               \
  __VA_ARGS__ void update_##SUFFIX(const Quantized<B>& n, const Pieces<B>& from,                   \
                                   const Pieces<B>& to,                                            \
                                   std::array<typename Accumulators<B>::Sums, 2>& sums) noexcept { \
    update_sums<B>(n, from, to, sums);                                                             \
  }                                                                                                \
  template <class B>                                                                               \
  __VA_ARGS__ std::int64_t output_##SUFFIX(                                                        \
      const Quantized<B>& n, const std::array<typename Accumulators<B>::Sums, 2>& sums,            \
      Player us) noexcept {                                                                        \
    return output<B, AVX2>(n, sums, us);                                                           \
  }
DUEL_NNUE_STEPS(baseline, false, [[gnu::flatten]])
DUEL_NNUE_STEPS(avx2, true, [[gnu::flatten, gnu::target("avx2")]])
#undef DUEL_NNUE_STEPS

template <class B>
[[nodiscard]] int squares_apart(const Pieces<B>& a, const Pieces<B>& b) noexcept {
  int n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) n += std::popcount(a[i] ^ b[i]);
  return n;
}

template <class B>
[[nodiscard]] int pieces_on_board(const Pieces<B>& p) noexcept {
  int n = 0;
  for (const auto b : p) n += std::popcount(b);
  return n;
}

}  // namespace duel::games::nnue::detail

namespace duel::games::nnue {

template <class B>
std::int64_t forward(const Quantized<B>& n, const Pieces<B>& pieces, Player us, Isa isa) noexcept {
  return isa == Isa::Avx2 && has_avx2() ? detail::forward_avx2<B>(n, pieces, us)
                                        : detail::forward_baseline<B>(n, pieces, us);
}

template <class B>
std::int64_t Accumulators<B>::forward(const Quantized<B>& n, const Pieces<B>& pieces, Player us,
                                      Isa isa) noexcept {
  const bool avx2 = isa == Isa::Avx2 && has_avx2();
  if (m_net != &n) {
    m_kept = {};
    m_net = &n;
  }
  // The nearest kept position, and the least recently used slot.
  Entry* nearest = nullptr;
  int apart = detail::pieces_on_board<B>(pieces);  // past this, a sum from scratch is cheaper
  Entry* oldest = &m_kept[0];
  for (Entry& e : m_kept) {
    if (e.last_used != 0) {
      const int d = detail::squares_apart<B>(e.pieces, pieces);
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
      detail::full_avx2<B>(n, pieces, target->sums);
    } else {
      detail::full_baseline<B>(n, pieces, target->sums);
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
      detail::update_avx2<B>(n, nearest->pieces, pieces, target->sums);
    } else {
      detail::update_baseline<B>(n, nearest->pieces, pieces, target->sums);
    }
    target->pieces = pieces;
  }
  target->last_used = m_clock;
  return avx2 ? detail::output_avx2<B>(n, target->sums, us)
              : detail::output_baseline<B>(n, target->sums, us);
}

}  // namespace duel::games::nnue

// A game's network, compiled once: in its net_eval.cpp, at namespace scope.
#define DUEL_NNUE_INSTANTIATE(BOARD)                                                       \
  template std::int64_t duel::games::nnue::forward<BOARD>(                                 \
      const duel::games::nnue::Quantized<BOARD>&, const duel::games::nnue::Pieces<BOARD>&, \
      duel::Player, duel::games::nnue::Isa) noexcept;                                      \
  template class duel::games::nnue::Accumulators<BOARD>
