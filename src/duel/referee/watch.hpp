#pragma once
// Watching one started run to its end (process.hpp's run_agent, steps 2-4),
// whichever way it was started: a process tree of ours found through /proc
// (process.cpp), or a move in a kept box, whose keeper counts and clears it
// (kept.cpp). Internal to referee/.
//
// Why one watcher for both: the limits, their order, the logs and how an
// ending is told are the referee's rules; only how the CPU is counted and
// the leftovers are killed differs.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "duel/box/cgroup.hpp"
#include "duel/core/clock.hpp"
#include "duel/referee/process.hpp"
#include "duel/referee/spawn.hpp"

namespace duel::referee::detail {

// The larger of two readings, part by part: a charge never goes down.
inline void raise_to(CpuTime& charged, const CpuTime& now) {
  charged.user = std::max(charged.user, now.user);
  charged.system = std::max(charged.system, now.system);
}

class Watched {
 public:
  Watched() = default;
  Watched(const Watched&) = delete;
  Watched& operator=(const Watched&) = delete;
  virtual ~Watched() = default;

  // Readable (or -1: none) when the program may have ended.
  [[nodiscard]] virtual int wake_fd() const = 0;
  [[nodiscard]] virtual bool ended() = 0;
  // The CPU charged so far (never decreasing).
  [[nodiscard]] virtual CpuTime poll() = 0;
  // Which budget of its box it went over (None without a box).
  [[nodiscard]] virtual box::Cgroups::Over over() const = 0;
  // Kills and reaps everything of the run: the program's wait status, or
  // -1 when it is not known (`lost()` then says why); `leftovers` gets how
  // many of its processes were still running.
  [[nodiscard]] virtual int finish(int& leftovers) = 0;
  // The final charge, after finish().
  [[nodiscard]] virtual CpuTime charged() const = 0;
  [[nodiscard]] virtual std::uint64_t peak_memory() const = 0;
  [[nodiscard]] virtual std::string lost() const { return {}; }
};

// Watches `child` (already started) until it ends or passes a limit of
// `spec`, drains its output, then finishes it; `clock` started with it.
[[nodiscard]] RunResult watch(const RunSpec& spec, Spawned& child, Watched& watched,
                              const WallClock& clock);

// run_agent for a spec with a keeper (kept.cpp): none when the keeper
// cannot keep a box here, and the run must be boxed on its own.
[[nodiscard]] std::optional<RunResult> run_kept(const RunSpec& spec);

}  // namespace duel::referee::detail
