#pragma once
// Limits for the search tests, one field at a time.
//
// Why: `Limits{.depth = 3}` names only some members, which -Wextra reports
// (-Wmissing-field-initializers) whenever a member has no default initializer;
// these helpers keep the tests quiet whatever Limits grows.
#include <atomic>
#include <cstdint>

#include "duel/search/limits.hpp"

namespace duel::test_support {

[[nodiscard]] inline search::Limits depth_limit(int depth) {
  search::Limits l;
  l.depth = depth;
  return l;
}
[[nodiscard]] inline search::Limits node_limit(std::uint64_t nodes) {
  search::Limits l;
  l.nodes = nodes;
  return l;
}
[[nodiscard]] inline search::Limits time_limit(double seconds) {
  search::Limits l;
  l.time = seconds;
  return l;
}
[[nodiscard]] inline search::Limits stop_limit(const std::atomic<bool>* stop) {
  search::Limits l;
  l.stop = stop;
  return l;
}

}  // namespace duel::test_support
