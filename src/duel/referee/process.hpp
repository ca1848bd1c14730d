#pragma once
// Running one untrusted agent program once (RULES.md §5, seed 003): in its
// own directory and session, charged the CPU time of everything it starts,
// killed at a CPU or wall-clock limit, and never allowed to leave anything
// running behind it.
//
// Why a process tracker of our own: the seed charges CPU time "of all
// threads and children", which neither wall clocks nor wait4() alone give
// while a program runs (children not yet reaped are invisible to rusage),
// and a hostile program can fork helpers that leave its process group or
// session. So the runner polls /proc for every process that descends from
// the agent (by parent link, process group or session), adds up their CPU
// times, and at the end kills and reaps exactly those processes. It makes
// this process a child subreaper (prctl PR_SET_CHILD_SUBREAPER) so orphans
// of the agent come back to us instead of to init, and it never calls
// waitpid(-1): only pids it found in the agent's tree are reaped, so other
// threads may run agents at the same time.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "duel/box/box.hpp"

namespace duel::box {
class Keeper;
}  // namespace duel::box

namespace duel::referee {

// The course charged what `/usr/bin/time -f "%U"` printed: user CPU in
// whole 10 ms ticks, rounded down (RULES.md §6a).
inline constexpr double kCourseTick = 0.01;

// What a program's CPU time is charged as. The course's referee measured
// user time (`/usr/bin/time -f "%U"`): the default. UserSystem adds the
// kernel's time on the program's behalf.
enum class Charge : std::uint8_t { User, UserSystem };

// CPU seconds of a program and all its descendants.
struct CpuTime {
  double user = 0.0;
  double system = 0.0;
  [[nodiscard]] double charge(Charge c) const noexcept {
    return c == Charge::User ? user : user + system;
  }
};

struct RunSpec {
  std::string command;            // run as `/bin/sh -c COMMAND`
  std::filesystem::path dir;      // the working directory (must exist)
  std::filesystem::path out_log;  // stdout is appended here (empty: /dev/null)
  std::filesystem::path err_log;  // stderr is appended here (empty: /dev/null)
  double cpu_limit = 0.0;         // seconds of CPU charged (all processes); 0 = none
  Charge charge = Charge::User;   // what cpu_limit and cpu_seconds count
  double wall_limit = 0.0;        // seconds of wall clock; 0 = none
  double poll_seconds = 0.005;    // /proc is read this often near a limit (at most 50 ms apart)
  // Largest file the agent may write (RLIMIT_FSIZE; more is SIGXFSZ, a
  // crash); 0 = no limit. Core dumps are always off.
  std::uint64_t file_size_limit = std::uint64_t{256} << 20;
  // Output goes through pipes the runner drains: at most this many bytes
  // of each stream reach its log per run, the rest is counted and dropped,
  // so a program that floods its output never fills a log.
  std::uint64_t log_limit = std::uint64_t{1} << 20;
  // More output than this in one run (both streams) kills the program:
  // Stop::OutputLimit; 0 = no limit.
  std::uint64_t output_limit = 0;
  // The most the files under `dir` may hold (checked while it runs and at
  // the end; past it the program is killed: Stop::DiskLimit); 0 = no limit.
  std::uint64_t disk_limit = 0;
  // Also kill and reap every orphan that was re-parented to this process,
  // even one never seen in the agent's tree (a double fork between two
  // polls). Only for a process that starts no other children while the
  // agent runs, such as `duel referee`; never in a threaded arena.
  bool adopt_strays = false;
  // Set by another thread or a signal handler: stop and clean up now.
  const std::atomic<bool>* cancel = nullptr;
  // Run it in a box (box/box.hpp; its dir is `dir` when empty): its limits
  // replace file_size_limit, and going over one is Stop::MemoryLimit or
  // Stop::ProcessLimit. None: run with our rights (Duel's own programs,
  // or --no-sandbox).
  std::optional<box::Policy> box;
  // With `box`: run it in this box kept for the game (box/keeper.hpp), made
  // by its first run; where no box can be kept, in a box of its own.
  box::Keeper* keeper = nullptr;
};

enum class Stop : std::uint8_t {
  Exited,          // the program ended by itself (exit_code says how)
  Signaled,        // it died of a signal not sent by us (signal says which)
  CpuLimit,        // we killed it: its CPU time passed cpu_limit
  WallLimit,       // we killed it: its wall time passed wall_limit
  Cancelled,       // we killed it: `cancel` was set
  DiskLimit,       // we killed it: its folder passed disk_limit
  OutputLimit,     // we killed it: it wrote more than output_limit
  MemoryLimit,     // its box's tree went over the memory limit
  ProcessLimit,    // its box's tree went over the process limit
  SystemCpuLimit,  // we killed it: its system CPU passed cpu_limit (boxed only)
  SpawnFailed,     // it never ran (error says why)
};

struct RunResult {
  Stop stop = Stop::SpawnFailed;
  int exit_code = -1;             // for Stop::Exited
  int signal = 0;                 // for Stop::Signaled
  double cpu_seconds = 0.0;       // the charge (RunSpec::charge) of the agent and its descendants
  CpuTime cpu;                    // both parts of it
  double wall_seconds = 0.0;      // from start to the end of the agent's main process
  int leftovers = 0;              // descendants still alive when it ended, killed by us
  std::uint64_t dropped = 0;      // bytes of output past log_limit, not logged
  std::uint64_t disk_bytes = 0;   // what its folder held when last measured (with a disk_limit)
  std::string error;              // for Stop::SpawnFailed
  std::string limit;              // for MemoryLimit, ProcessLimit: "memory limit 2048 MiB"
  std::uint64_t peak_memory = 0;  // boxed with a memory cgroup: the tree's most, in bytes
  bool kept = false;              // it ran in a kept box (no box was made for it)

  [[nodiscard]] bool clean_exit() const noexcept { return stop == Stop::Exited && exit_code == 0; }
  // One line: "exit status 3", "killed by signal 11 (SIGSEGV)", ...
  [[nodiscard]] std::string describe() const;
};

// Runs `spec.command` to the end (or a limit) and returns how it went. After
// it returns, no process of the agent's tree that the runner could see is
// left alive or unreaped (see docs/referee.md for what it cannot see).
[[nodiscard]] RunResult run_agent(const RunSpec& spec);

// The name of a signal: "SIGSEGV" ("signal 77" when unknown).
[[nodiscard]] std::string signal_name(int signal);

// Shell-quotes `word` for /bin/sh ('it'\''s').
[[nodiscard]] std::string shell_quote(const std::string& word);

}  // namespace duel::referee
