#pragma once
// Starting an agent program (process.hpp's run_agent, step 1): its output
// through pipes the runner drains into bounded logs, the command run
// directly when it is only words (else through /bin/sh), and the child made
// with clone(CLONE_VM | CLONE_VFORK) so that starting it costs the same in a
// busy threaded tournament as in a small one. Internal to referee/.
#include <sys/types.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "duel/referee/process.hpp"

namespace duel::referee::detail {

// One output stream of the program: the pipe's reading end, and the log
// its first `limit` bytes go to.
struct Stream {
  int pipe = -1;
  int log = -1;
  std::uint64_t written = 0;
  std::uint64_t dropped = 0;
};

struct Spawned {
  pid_t pid = -1;
  std::string error;
  std::array<Stream, 2> streams;  // stdout, stderr
};

// The program's three descriptors (`ends`: stdin from /dev/null; stdout and
// stderr each a pipe whose reading end is in `made.streams`, or /dev/null
// when it has no log); "" or why they could not be made (nothing is left
// open then).
[[nodiscard]] std::string open_streams(const RunSpec& spec, Spawned& made,
                                       std::array<int, 3>& ends);
// Closes the reading ends and logs of `made.streams`.
void close_streams(Spawned& made);

// Starts `spec.command` in `spec.dir`, in a session of its own, with its
// limits set, nothing open but its standard three, and (`spec.box`) in its
// box, the child taking `steps` (its cgroups and rlimits) before exec; on
// failure `pid` is -1 and `error` says why.
[[nodiscard]] Spawned spawn(const RunSpec& spec, const box::ChildSteps* steps = nullptr);

// Reads what the pipe holds now (or, `to_end`, until every writer is gone,
// for at most a second), logging up to `limit` bytes in all and counting
// the rest. Not `to_end`, it stops reading once the stream has passed
// `stop_past` bytes (0 = never): a flood then waits on a full pipe for the
// output limit's kill instead of running on.
void drain(Stream& s, std::uint64_t limit, bool to_end, std::uint64_t stop_past = 0);

// Bytes written to both streams so far, logged or dropped.
[[nodiscard]] std::uint64_t output_of(const Spawned& child);

// The bytes under `dir`, or more than `limit` as soon as that is certain
// (a folder of more than 100,000 entries counts as over it).
[[nodiscard]] std::uint64_t folder_bytes(const std::filesystem::path& dir, std::uint64_t limit);

// A command's words when it can run without a shell (tests/referee).
[[nodiscard]] std::vector<std::string> direct_words(const std::string& command);

}  // namespace duel::referee::detail
