#pragma once
// Zobrist keys: a fixed table of random words, one per (feature), made at
// compile time from a seed so every build and run agrees.
#include <array>
#include <cstddef>
#include <cstdint>

#include "duel/core/rng.hpp"

namespace duel {

template <std::size_t N>
[[nodiscard]] constexpr std::array<std::uint64_t, N> make_zobrist(std::uint64_t seed) noexcept {
  std::array<std::uint64_t, N> table{};
  std::uint64_t s = seed;
  for (auto& w : table) w = splitmix64(s);
  return table;
}

}  // namespace duel
