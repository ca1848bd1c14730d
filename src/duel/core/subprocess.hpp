#pragma once
// A persistent child process spoken to through pipes, line by line: the UCI
// agent's engine (docs/uci.md), or any other long-lived helper program.
//
// Why its own class (and not referee/process.hpp): the referee runs a program
// once and watches its CPU time through /proc; an engine lives for a whole
// game and answers many requests, so what matters here is that no read or
// write ever blocks past a deadline, that a dead or hostile child never takes
// us down (SIGPIPE) or hangs us, and that nothing is left behind. Several
// games may run their engines on different threads at once, so there is no
// global state and no waitpid(-1): only the child's own pid and process
// group are waited for.
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "duel/core/result.hpp"

namespace duel {

// `name` as execvp() would find it: a name with a '/' is taken as a path,
// any other is searched in $PATH. Errors say why it cannot be run
// ("'/x/y' does not exist", "'z' is not executable", "'w' is not in PATH").
[[nodiscard]] Result<std::string> resolve_program(const std::string& name);

// Closes every descriptor from 3 up except `keep` (-1: none), so that a
// child inherits nothing but its standard three: not a journal, a socket or
// a pipe a flag forgot. Async-signal-safe (between fork and exec).
void close_from_3(int keep) noexcept;

class Subprocess {
 public:
  using Clock = std::chrono::steady_clock;
  using Deadline = Clock::time_point;

  enum class Read : std::uint8_t {
    Line,     // a line arrived (without its "\n" or "\r\n")
    Timeout,  // the deadline passed first
    Closed,   // the child closed its output (usually: it ended)
  };

  // Starts argv[0] (resolved by resolve_program) with arguments argv in its
  // own process group, stdin and stdout as pipes, stderr appended to
  // `err_log` (empty: /dev/null), the working directory ours.
  [[nodiscard]] static Result<std::unique_ptr<Subprocess>> start(
      const std::vector<std::string>& argv, const std::filesystem::path& err_log = {});

  Subprocess(const Subprocess&) = delete;
  Subprocess& operator=(const Subprocess&) = delete;
  // stop("", 0.2): a last chance to exit by itself once its input closes.
  ~Subprocess();

  // Writes `line` + "\n". False when the child no longer reads (it closed
  // its input or ended) or the pipe stayed full until `deadline`.
  [[nodiscard]] bool write_line(std::string_view line, Deadline deadline);
  // The next line of output, waiting at most until `deadline`. A line longer
  // than 1 MiB is returned in 1 MiB pieces, so a child writing without end
  // cannot exhaust memory.
  [[nodiscard]] Read read_line(std::string& line, Deadline deadline);

  // How the child ended ("exited with status 1", "killed by signal 11
  // (SIGSEGV)"), waiting up to `seconds` for it; nothing while it runs. The
  // child is not reaped here, so its process group id stays ours to kill.
  [[nodiscard]] std::optional<std::string> ended(double seconds = 0.0);
  [[nodiscard]] bool alive() { return !ended(); }

  // Ends the child: writes `last_line` (if not empty), closes its input,
  // waits up to `grace` seconds for it to exit, then sends SIGTERM and waits
  // up to 0.2 s more, then SIGKILLs its whole
  // process group and reaps the child (and any of the group that became our
  // children). Idempotent; after it, every call above reports a dead child.
  void stop(std::string_view last_line, double grace);
  void kill_all() { stop({}, 0.0); }

  [[nodiscard]] pid_t pid() const noexcept { return m_pid; }

 private:
  Subprocess(pid_t pid, int in, int out) noexcept : m_pid(pid), m_in(in), m_out(out) {}

  pid_t m_pid;
  int m_in;   // the child's stdin (ours to write), -1 once closed
  int m_out;  // the child's stdout (ours to read), -1 once closed
  bool m_stopped = false;
  bool m_eof = false;
  bool m_reaped = false;  // reaped by someone else: its pid is no longer ours to signal
  std::optional<std::string> m_ended;  // how it ended, once known
  std::string m_buffer;                // output read but not yet returned as lines
};

}  // namespace duel
