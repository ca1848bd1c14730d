#pragma once
// A box kept up for a whole game, in which each of an agent's moves runs
// (docs/box.md, "One box a game").
//
// Why: making a box (bwrap's namespaces and mounts, then tearing them down)
// costs about 15 ms, as much as a Python agent's whole move; made once a
// move it cost a class tournament 40% of its games a minute. A kept box is
// made once a game: inside it Duel's own small process (`duel box-keeper`,
// the box's PID 1, as root without the capabilities a program could use)
// starts each move's program as the box's user, tells when it ended, counts
// its CPU from the box's own /proc and, after the move, kills everything
// the move left and reaps it. Nothing of one move outlives it; only its
// folder (as in the course) and the box's /tmp stay for the next.
//
// The keeper is trusted as bwrap is: it runs Duel's code under a uid the
// program does not have; as PID 1 of the box no signal from inside reaches
// it, and it is not dumpable, so it cannot be traced.
#include <sys/types.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "duel/box/box.hpp"
#include "duel/box/cgroup.hpp"
#include "duel/core/result.hpp"

namespace duel::box {

// CPU seconds of a move's processes.
struct Usage {
  double user = 0.0;
  double system = 0.0;
};

class Keeper {
 public:
  // A keeper for boxes of `policy` (started by the first run).
  explicit Keeper(Policy policy);
  Keeper(const Keeper&) = delete;
  Keeper& operator=(const Keeper&) = delete;
  ~Keeper();  // stop()

  [[nodiscard]] const Policy& policy() const noexcept { return m_policy; }

  // Whether making the box failed (then it is not tried again: each run
  // makes a box of its own instead, as without a keeper).
  [[nodiscard]] bool unavailable() const noexcept { return m_unavailable; }

  // Makes the box if it is not up (before a move's clock starts: making it
  // is not the program's time). The error says why it could not.
  [[nodiscard]] Result<bool> open();

  // Starts `argv` (argv[0] found on the box's PATH) in the box, in its
  // folder, with `fds` as its stdin, stdout and stderr; first makes the box
  // if it is not up. The error says why it could not start.
  [[nodiscard]] Result<bool> run(const std::vector<std::string>& argv, std::array<int, 3> fds);

  // Readable when the keeper has something to say (the program ended).
  [[nodiscard]] int fd() const noexcept { return m_socket; }

  // Whether the program has ended (or the box is gone); never blocks.
  [[nodiscard]] bool ended();

  // The CPU time of the program and everything it started, so far.
  [[nodiscard]] Usage usage();

  // What a move's end gives: the program's wait status, the CPU of all its
  // processes, how many were still running (killed), and whether the box
  // itself was lost (its budget's kill took the keeper, or it stopped
  // answering): then status and usage are what was last known.
  struct Cleared {
    int status = 0;
    Usage usage;
    int leftovers = 0;
    bool lost = false;
  };
  // Kills every process of the move and reaps it.
  [[nodiscard]] Cleared clear();

  // The box's budgets: which one this move went over, and its peak memory.
  [[nodiscard]] Cgroups::Over over() const;
  [[nodiscard]] std::uint64_t peak_memory() const;

  // Ends the box and everything in it. Idempotent; a later run makes a new one.
  void stop();

 private:
  [[nodiscard]] Result<bool> start_box();
  void lose();

  Policy m_policy;
  pid_t m_pid = -1;   // bwrap
  int m_socket = -1;  // to the keeper
  int m_errors = -1;  // bwrap's stderr
  bool m_ended = true;
  bool m_unavailable = false;
  Cleared m_last;  // what the keeper said last about the run
  Cgroups m_cgroups;
  std::array<std::uint64_t, 2> m_over_before{};  // the budgets' counts when the move began
};

// Whether `pid` is the bwrap of a kept box of this process (a process
// tracker that adopts strays must leave it alone).
[[nodiscard]] bool is_keeper(pid_t pid);

// `duel box-keeper FD UID`: the keeper inside the box, on the socket FD
// (docs/box.md). UID 0: the programs keep the keeper's uid.
int keeper_main(int argc, char** argv);

}  // namespace duel::box
