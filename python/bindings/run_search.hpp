#pragma once
// One named search on one state, for the Python module: the CLI's own core
// (registry/search.hpp: algorithm names, the game's default heuristic,
// engine options, error texts), after the range checks that CLI11 makes on
// `duel search`'s options, repeated here with CLI11's wording.
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "duel/core/result.hpp"
#include "duel/registry/search.hpp"

namespace duel::python {

// Keyword arguments as Python gives them (wide integers, checked below).
struct SearchRequest {
  long long depth = 0;                        // checked: fits the engine's ply range
  long long hash_mb = search::kSearchHashMb;  // the CLI's default
  registry::AlgoRequest algo;                 // everything else, and the checked values
};

// The CLI11 range checks of `duel search`, with CLI11's wording, so that a
// bad keyword argument reads exactly as the same bad option does.
[[nodiscard]] inline Result<registry::AlgoRequest> check_request(SearchRequest r) {
  if (r.depth < 0 || r.depth > kMaxPly - 2) {
    return fail(fmt::format("--depth: Value {} not in range 0 to {}", r.depth, kMaxPly - 2));
  }
  // CLI::NonNegativeNumber prints its bounds with std::to_string.
  if (!(r.algo.time >= 0)) {
    return fail(fmt::format("--time: Value {} not in range {} to {}", r.algo.time,
                            std::to_string(0.0),
                            std::to_string(std::numeric_limits<double>::max())));
  }
  if (r.hash_mb < 1 || r.hash_mb > static_cast<long long>(search::kMaxHashMb)) {
    return fail(
        fmt::format("--hash: Value {} not in range 1 to {}", r.hash_mb, search::kMaxHashMb));
  }
  r.algo.depth = static_cast<int>(r.depth);
  r.algo.hash_mb = static_cast<std::size_t>(r.hash_mb);
  // Then, as `duel search` does after parsing, the algorithm's name.
  return registry::check_algo(std::move(r.algo));
}

}  // namespace duel::python
