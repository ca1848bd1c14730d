#pragma once
// The shared core of `search`, `solve`, `table` and `bench`: one named
// search algorithm on a state (src/duel/registry/search.hpp, which the
// Python module uses too).
#include "duel/registry/search.hpp"

namespace duel::cli {

using registry::AlgoRequest;
using registry::check_algo;
using registry::run_algorithm;

}  // namespace duel::cli
