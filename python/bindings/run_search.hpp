#pragma once
// One named search on one state, for the Python module: the CLI's own core
// (registry/search.hpp: limits and their ranges, algorithm names, the game's
// default heuristic, engine options, error texts).
#include <cstdint>
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

// The ranges `duel search` has (registry::check_search_limits), named as
// the keywords are, then the algorithm's name as `duel search` checks it.
[[nodiscard]] inline Result<registry::AlgoRequest> check_request(SearchRequest r) {
  if (auto e = registry::check_search_limits(r.depth, r.algo.time, r.hash_mb)) {
    return fail("search(): " + *e);
  }
  r.algo.depth = static_cast<int>(r.depth);
  r.algo.hash_mb = static_cast<std::size_t>(r.hash_mb);
  // Then, as `duel search` does after parsing, the algorithm's name.
  return registry::check_algo(std::move(r.algo));
}

}  // namespace duel::python
