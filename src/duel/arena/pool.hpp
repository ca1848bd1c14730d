#pragma once
// The one scheduler of every multi-game command: jobs 0..count-1 taken in
// order by `concurrency` threads, each job run once.
//
// Why one: `duel arena` (its matches, SPRTs and round-robins) and `duel
// tournament` (a class's grading and competitions) schedule the same way,
// so a game is played the same whichever command asked for it, and a
// change to how games are spread over threads is made once.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <thread>
#include <vector>

namespace duel::arena {

// Runs `job(i)` for i = 0, 1, ... on up to `concurrency` threads (the
// calling thread alone when 1). A job returning false, or `stop` set, ends
// the run: no new job starts, and the jobs already running finish.
inline void run_pool(std::size_t count, int concurrency,
                     const std::function<bool(std::size_t)>& job,
                     const std::atomic<bool>* stop = nullptr) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> ended{false};
  const auto worker = [&] {
    while (!ended.load() && (stop == nullptr || !stop->load())) {
      const std::size_t i = next.fetch_add(1);
      if (i >= count) return;
      if (!job(i)) ended = true;
    }
  };
  const int threads =
      std::max(1, std::min(concurrency, static_cast<int>(std::min<std::size_t>(count, 1 << 20))));
  if (threads == 1) {
    worker();
    return;
  }
  std::vector<std::jthread> pool;
  pool.reserve(static_cast<std::size_t>(threads));
  for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
}

}  // namespace duel::arena
