#pragma once
// Seeded pseudo-random numbers (xoshiro256** seeded by SplitMix64).
//
// Why: everything random in Duel is reproducible from one seed, so a game, a
// table or a failing test can be run again exactly.
#include <cstdint>
#include <string_view>

namespace duel {

[[nodiscard]] constexpr std::uint64_t splitmix64(std::uint64_t& state) noexcept {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// A stateless 64-bit mix of one word, for hashing.
[[nodiscard]] constexpr std::uint64_t mix64(std::uint64_t x) noexcept {
  std::uint64_t s = x;
  return splitmix64(s);
}

// FNV-1a, 64 bits, of the bytes of `s`, from `basis` (FNV's offset basis
// unless a caller keeps an older one for names already on disk).
inline constexpr std::uint64_t kFnvBasis = 0xcbf29ce484222325ULL;
[[nodiscard]] constexpr std::uint64_t fnv1a(std::string_view s,
                                            std::uint64_t basis = kFnvBasis) noexcept {
  std::uint64_t h = basis;
  for (const char c : s) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return h;
}

// The top 53 bits of `x` as a double in [0, 1), each value equally likely.
[[nodiscard]] constexpr double unit_interval(std::uint64_t x) noexcept {
  return static_cast<double>(x >> 11) * 0x1.0p-53;
}

class Rng {
 public:
  explicit constexpr Rng(std::uint64_t seed = 0) noexcept {
    std::uint64_t s = seed;
    for (auto& w : m_s) w = splitmix64(s);
  }
  constexpr std::uint64_t next() noexcept {
    const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
    const std::uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return result;
  }
  // Uniform in [0, n) for n > 0 (Lemire's multiply-shift; bias below 2^-32 for
  // the small n used here).
  constexpr std::uint64_t below(std::uint64_t n) noexcept {
    __extension__ using U128 = unsigned __int128;
    return static_cast<std::uint64_t>((static_cast<U128>(next()) * n) >> 64);
  }
  // Uniform in [0, 1).
  constexpr double unit() noexcept { return unit_interval(next()); }
  // Uniform in [lo, hi].
  constexpr std::int64_t between(std::int64_t lo, std::int64_t hi) noexcept {
    return lo + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(hi - lo) + 1));
  }

 private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) noexcept {
    return (x << k) | (x >> (64 - k));
  }
  std::uint64_t m_s[4]{};
};

}  // namespace duel
