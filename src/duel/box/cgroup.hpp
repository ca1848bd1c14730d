#pragma once
// The budgets of one box's whole process tree: a memory and a pids cgroup
// (v1 controllers or v2's unified tree, whichever the machine has and lets
// us write), made before the program starts, joined by its first process
// before exec, read while it runs, and emptied and removed when it ends.
//
// Why cgroups and not rlimits alone: RLIMIT_AS and RLIMIT_NPROC count per
// process or per user, so a program that forks escapes the first and the
// second counts every program of the same uid; a cgroup counts the tree,
// and no process can leave it. Where none can be made (not root, no
// controller), `active()` is false and the box falls back to the rlimits
// (box.hpp's ChildSteps), as docs/box.md says.
#include <array>
#include <cstdint>
#include <string>

#include "duel/box/box.hpp"

namespace duel::box {

class Cgroups {
 public:
  enum class Over : std::uint8_t { None, Memory, Processes };

  // One box's cgroups with `limits`; inactive where they cannot be made.
  [[nodiscard]] static Cgroups make(const Limits& limits);

  Cgroups() = default;
  Cgroups(Cgroups&& other) noexcept;
  Cgroups& operator=(Cgroups&& other) noexcept;
  Cgroups(const Cgroups&) = delete;
  Cgroups& operator=(const Cgroups&) = delete;
  ~Cgroups();  // remove()

  [[nodiscard]] bool active() const noexcept { return m_memory_procs >= 0 || m_pids_procs >= 0; }
  [[nodiscard]] bool limits_memory() const noexcept { return m_memory_procs >= 0; }

  // Puts the join descriptors into `steps` (and, without a memory cgroup,
  // the address-space rlimit).
  void prepare(ChildSteps& steps) const noexcept;

  // Which budget the tree has gone over so far, if any.
  [[nodiscard]] Over over() const { return over_since({0, 0}); }

  // How often each budget (memory, processes) has been hit so far; and
  // which one was hit since such a count (a kept box's move).
  using Hits = std::array<std::uint64_t, 2>;
  [[nodiscard]] Hits hits() const;
  [[nodiscard]] Over over_since(const Hits& before) const;

  // Starts peak_memory() again from what the tree holds now (where the
  // kernel lets it: v1, and v2 from Linux 6.12 on reads since the box began).
  void reset_peak() const;

  // The most memory the tree has held, in bytes (0 when unknown).
  [[nodiscard]] std::uint64_t peak_memory() const;

  // SIGKILLs every process still in the cgroups; how many there were.
  int kill_all() const;

  // Kills what is left, waits (up to a second) for the cgroups to empty and
  // removes them. Idempotent.
  void remove();

 private:
  std::string m_memory;  // the cgroup folders ("" = none)
  std::string m_pids;
  int m_memory_procs = -1;  // their cgroup.procs, open for the child to join
  int m_pids_procs = -1;
  Limits m_limits;
};

// "memory limit 2048 MiB", "process limit 128".
[[nodiscard]] std::string over_text(Cgroups::Over over, const Limits& limits);

}  // namespace duel::box
