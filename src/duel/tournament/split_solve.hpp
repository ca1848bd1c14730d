#pragma once
// `duel solve --scheduler`: a game solved on a Dask cluster (docs/cluster.md).
//
// The driver expands the first `split` plies itself (siblings that play the
// same, by the game's symmetry-reduced key, once), hands each position at
// that depth to the cluster as a "solve" task (tasks.hpp; the worker runs
// the single-machine solver on it), and combines the values by negamax as
// they come back. A node whose mover has a proven win of the game's best
// payoff is decided at once, and the tasks below it that no other node
// needs are cancelled (queued ones never run, running ones stop).
//
// Why split by hand rather than share one table: the workers are processes
// on other hosts; a subtree per task keeps each task's table its own, and
// the driver's part a few thousand nodes.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "duel/core/result.hpp"
#include "duel/core/types.hpp"
#include "duel/registry/games.hpp"

namespace duel::tournament {

struct SplitOptions {
  std::string scheduler;    // tcp://HOST:PORT
  std::string worker_duel;  // where workers look for duel first
  int split = 2;            // plies the driver expands before the tasks
  std::size_t hash_mb = 256;
  // Solve every subtree at the split (nothing cancelled): the plies to the
  // end are then exact, as the single-machine solve's.
  bool all_subtrees = false;
};

struct SplitResult {
  Value value = 0;       // Player::First's view, as search::solve's
  bool shortest = true;  // false: a cut-off decided a win, a faster one may exist
  std::vector<std::string> pv;
  std::uint64_t nodes = 0;   // the workers' nodes, every task that ended
  int positions = 0;         // the driver's tree
  int tasks = 0;             // positions at the split, each once
  int solved = 0;            // tasks that ended
  int cancelled = 0;         // tasks no longer needed
  long task_max_rss_kb = 0;  // the largest task's peak memory (its table and tree)
  double seconds = 0.0;
};

// Progress lines (tasks ended, cancelled, of how many).
using OnSplitProgress = std::function<void(const std::string&)>;

[[nodiscard]] Result<SplitResult> solve_split(const registry::AnyGame& root,
                                              const SplitOptions& options,
                                              const OnSplitProgress& progress);

// A worker's side: {"key", "kind": "solve", "game": spec, "start": position,
// "hash": MB} solved to the end; the entry carries "value" (First's view,
// from that position), "pv" (move texts), "nodes" and "seconds".
[[nodiscard]] nlohmann::json solve_task(const nlohmann::json& task);

}  // namespace duel::tournament
