#pragma once
// Runs one named search algorithm on a state: the core that `duel search`,
// `solve`, `table`, `bench` and the Python module's `duel.search` share, so
// the same request gives the same search and the same error text.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "duel/agents/search_agents.hpp"
#include "duel/core/result.hpp"
#include "duel/core/spec.hpp"
#include "duel/games/engines.hpp"
#include "duel/games/game.hpp"
#include "duel/search/options.hpp"
#include "duel/search/searcher.hpp"

namespace duel::registry {

struct AlgoRequest {
  std::string algo = "engine";  // minimax | alphabeta | engine
  int depth = 0;                // cut-off / depth limit; 0 = to the end
  double time = 0.0;            // seconds; 0 = none
  std::uint64_t nodes = 0;      // a node budget; 0 = none
  std::string eval;             // heuristic name; empty = the game's default
  std::size_t hash_mb = search::kSearchHashMb;
  int threads = 1;  // engine: search threads (lazy SMP)
  std::uint64_t seed = 0;
  bool ordering = true;                     // engine: killers, history and the game's move hints
  const std::atomic<bool>* stop = nullptr;  // set by another thread to stop early
  std::function<void(std::uint64_t, double)> progress;  // about every 2^20 nodes
  // Engine: after each finished iteration, with the principal variation as
  // move text.
  std::function<void(const search::SearchInfo&)> on_iteration;
};

// The ranges of a search's limits (the Python module's keywords; `duel
// search` states the same to CLI11): the spec's wording, else none.
[[nodiscard]] inline std::optional<std::string> check_search_limits(long long depth, double time,
                                                                    long long hash_mb) {
  if (auto e = out_of_range("depth", depth, 0, search::kMaxDepth)) return e;
  if (!(time >= 0)) return fmt::format("time={} must be 0 or more", time);
  return out_of_range("hash", hash_mb, 1, static_cast<long long>(search::kMaxHashMb));
}

inline Result<AlgoRequest> check_algo(AlgoRequest r) {
  if (r.algo != "minimax" && r.algo != "alphabeta" && r.algo != "engine") {
    return fail(fmt::format("unknown algorithm '{}' (known: minimax, alphabeta, engine)", r.algo));
  }
  return r;
}

template <games::PlayableGame S>
Result<search::SearchResult<typename S::Move>> run_algorithm(const S& state,
                                                             const AlgoRequest& req) {
  search::Limits limits;
  limits.depth = req.depth;
  limits.time = req.time;
  limits.nodes = req.nodes;
  limits.stop = req.stop;
  limits.progress = req.progress;
  if (req.algo != "engine") {
    auto plain = games::make_plain<S>(req.eval, req.seed, req.algo == "alphabeta");
    if (!plain) return fail(plain.error());
    return (*plain)->search(state, limits);
  }
  search::EngineOptions options;
  options.hash_mb = req.hash_mb;
  options.threads = req.threads;
  options.ordering = req.ordering;
  // With no limit at all the engine is a solver: start at full depth.
  if (req.depth == 0 && req.time == 0 && req.nodes == 0) options.first_depth = kMaxPly;
  // A limited search is timed (benchmarks): no page faults inside it.
  options.prefault = req.depth > 0 || req.time > 0 || req.nodes > 0;
  auto engine = games::make_engine<S>(req.eval, req.seed, options);
  if (!engine) return fail(engine.error());
  typename search::Searcher<S>::InfoFn info;
  if (req.on_iteration) {
    info = [&](const search::SearchInfo& i, const std::vector<typename S::Move>& pv) {
      search::SearchInfo with_pv = i;
      with_pv.pv = agents::pv_text(state, pv);
      req.on_iteration(with_pv);
    };
  }
  return (*engine)->search(state, limits, info);
}

}  // namespace duel::registry
