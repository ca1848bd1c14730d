#pragma once
// The box: how every program Duel did not write is started (docs/box.md).
//
// Why bubblewrap and not our own clone/mount code: the namespaces, the
// read-only system folders, the private /proc, /dev and /tmp and the
// no_new_privs flag are what bwrap exists for and is maintained for; Duel
// only says what the box holds. What bwrap does not do (a user of its own
// when Duel runs as root, budgets for the whole process tree, counting what
// hit a limit) is here: a uid per box (setpriv, from Debian's util-linux,
// drops to it inside the box, after bwrap has mounted as root), cgroups
// (cgroup.hpp) and rlimits set before bwrap starts.
//
// The library gives the words to run (`command_line`) and what the child
// does before exec (`ChildSteps`, called between fork and exec with no
// allocation); referee/spawn.cpp, core/subprocess and `duel box` use them.
#include <sys/resource.h>
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "duel/core/result.hpp"

namespace duel::box {

// Each default is a course's program's need with room to spare
// (docs/box.md): a JVM starts in 2 GiB and ~30 threads, the hand-outs'
// Python agents in far less.
struct Limits {
  std::uint64_t memory = std::uint64_t{2048} << 20;    // bytes, the whole tree
  int processes = 128;                                 // processes and threads
  int open_files = 512;                                // descriptors a process
  std::uint64_t file_size = std::uint64_t{256} << 20;  // the largest file written
  std::uint64_t tmp = std::uint64_t{64} << 20;         // its private /tmp
};

// What one box holds. `dir` is the program's working folder, its HOME and
// the only place it can write (with /tmp); each of `read_only` is visible at
// its own path; nothing else of the machine's folders is there but the
// system's programs and libraries.
struct Policy {
  std::filesystem::path dir;
  std::vector<std::filesystem::path> read_only;
  std::vector<std::string> env;  // NAME=VALUE besides PATH, HOME and LANG
  Limits limits;
};

// The PATH inside every box.
inline constexpr const char* kPath = "/usr/local/bin:/usr/bin:/bin";

// Whether this machine can box: bwrap found and able to make a box (and,
// as root, setpriv). The error is one line saying what is missing and how
// to get it.
[[nodiscard]] Result<bool> check();

// The wall time of making and ending an empty box here (the median of five
// runs of /bin/true in one, measured at the first call): what a run boxed on
// its own holds besides the program's own wall time. 0 where none can box.
[[nodiscard]] double startup_seconds();

// The words that run `argv` in the box: bwrap, its options, (as root)
// setpriv dropping to the box's own uid, then `argv`. As root it also hands
// `policy.dir` (and what it holds) to that uid, so the program can write its
// files; a box that must read a path only its owner may read runs in a user
// namespace instead, as without root. `argv[0]` is looked up on the
// box's PATH by the box when it has no '/'.
[[nodiscard]] std::vector<std::string> command_line(const Policy& policy,
                                                    const std::vector<std::string>& argv);

// The words that start a kept box's keeper (keeper.hpp) on descriptor
// `socket`: bwrap as command_line's, the keeper as the box's PID 1 (as
// root, the box's uid on its command line: it drops to it for each program),
// and `duel` shown read-only.
[[nodiscard]] std::vector<std::string> keeper_command_line(const Policy& policy, int socket);

// The part of starting a boxed program done between fork and exec: only
// system calls, no allocation (it may run in a vfork child).
struct ChildSteps {
  rlimit nofile{RLIM_INFINITY, RLIM_INFINITY};
  rlimit fsize{RLIM_INFINITY, RLIM_INFINITY};
  rlimit as{RLIM_INFINITY, RLIM_INFINITY};  // only without a memory cgroup
  int cgroup_fds[2] = {-1, -1};             // cgroup.procs files to join
  bool set_as = false;
  // Sets the limits and joins the cgroups; false (errno set) on failure.
  [[nodiscard]] bool run() const noexcept;
};

// The `duel` program, for `duel box`: this program when it is duel, else
// $DUEL_BIN, else a duel beside this program, else duel on PATH.
[[nodiscard]] std::string duel_binary();

// The rlimits of `limits` (descriptors, file size) for ChildSteps.
[[nodiscard]] ChildSteps child_steps(const Limits& limits) noexcept;

}  // namespace duel::box
