#pragma once
// The engine's options that a user sets for a reason of their own: the
// table's size, search threads, move ordering on or off (to see what it is
// worth), the share of a timed move after which no iteration starts, and
// contempt. What the search does beyond alpha-beta is the game's, fixed at
// compile time (features.hpp).
//
// Why its own file: every search thread (worker.hpp) and the engine that
// runs them (engine.hpp) read the same options, and the factories
// (games/engines.hpp) take them without the search's code.
#include <cstddef>

#include "duel/core/types.hpp"

namespace duel::search {

inline constexpr int kMaxThreads = 64;         // the most `threads` the engine accepts
inline constexpr int kMaxDepth = kMaxPly - 2;  // the deepest depth limit a user may set
// Transposition table sizes in MB: the largest a user may ask for, an
// agent's (one of several in an arena) and a one-off search's (duel search,
// solve, table, the Python module's search) unless asked.
inline constexpr std::size_t kMaxHashMb = 16384;
inline constexpr std::size_t kAgentHashMb = 64;
inline constexpr std::size_t kSearchHashMb = 256;

struct EngineOptions {
  std::size_t hash_mb = 16;  // transposition table size; 0 turns it off
  bool ordering = true;      // killers, history and the game's hints
  double soft_time = 0.5;    // do not start a new iteration past this share of the time
  int first_depth = 1;       // the first iteration's depth (solvers start deep)
  bool prefault = false;     // touch the whole table up front (timed play, benchmarks)
  // Contempt: what a draw is worth to the side to move at the root, in the
  // heuristic's units (the side not to move there gets the negation). 0
  // scores draws as the game does; above 0 the engine prefers a draw to a
  // position the heuristic rates below that (against a stronger opponent).
  // A draw with contempt is no longer the game's value: inexact.
  Value contempt = 0;
  // Search threads (lazy SMP, docs/engine.md): the main thread searches as
  // with one; threads - 1 helpers search the same root at the same time and
  // share only the transposition table. 1 is the single-threaded search,
  // node for node.
  int threads = 1;
};

}  // namespace duel::search
