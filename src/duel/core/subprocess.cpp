// A child process with pipes, never blocking past a deadline (subprocess.hpp).
#include "duel/core/subprocess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include <fmt/format.h>

namespace duel {
namespace {

constexpr std::size_t kMaxLine = std::size_t{1} << 20;

[[nodiscard]] bool is_executable_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// Milliseconds from now to `deadline` for poll(), rounded up so that a poll
// never returns just before the deadline and spins; 0 once it has passed.
[[nodiscard]] int poll_ms(Subprocess::Deadline deadline) {
  const auto left = deadline - Subprocess::Clock::now();
  if (left <= Subprocess::Clock::duration::zero()) return 0;
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
  return ms > 1'000'000 ? 1'000'000 : static_cast<int>(ms);
}

void sleep_ms(long ms) {
  timespec ts{ms / 1000, (ms % 1000) * 1'000'000};
  while (::nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

[[nodiscard]] std::string describe_signal(int sig) {
  if (const char* abbrev = ::sigabbrev_np(sig)) return fmt::format("{} (SIG{})", sig, abbrev);
  return std::to_string(sig);
}

// A write to a pipe whose reader is gone raises SIGPIPE, which would kill the
// whole program. Blocking it in this thread for the write, and taking back a
// SIGPIPE the write raised, leaves the process-wide disposition alone (other
// threads and the embedding program keep theirs).
class SigpipeGuard {
 public:
  SigpipeGuard() {
    sigemptyset(&m_set);
    sigaddset(&m_set, SIGPIPE);
    ::pthread_sigmask(SIG_BLOCK, &m_set, &m_old);
    sigset_t pending;
    sigemptyset(&pending);
    ::sigpending(&pending);
    m_was_pending = sigismember(&pending, SIGPIPE) == 1;
  }
  ~SigpipeGuard() {
    if (m_raised && !m_was_pending) {
      const timespec zero{0, 0};
      while (::sigtimedwait(&m_set, nullptr, &zero) < 0 && errno == EINTR) {
      }
    }
    ::pthread_sigmask(SIG_SETMASK, &m_old, nullptr);
  }
  SigpipeGuard(const SigpipeGuard&) = delete;
  SigpipeGuard& operator=(const SigpipeGuard&) = delete;
  void raised() noexcept { m_raised = true; }

 private:
  sigset_t m_set{};
  sigset_t m_old{};
  bool m_was_pending = false;
  bool m_raised = false;
};

// `fd` moved above 0-2 if it is one of them (a program started with a closed
// stdin gets fd 0 from its next open): the child's dup2() onto 0, 1 and 2
// must never overwrite one of its own sources.
[[nodiscard]] int above_stdio(int fd) {
  if (fd < 0 || fd > 2) return fd;
  const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  ::close(fd);
  return moved;
}

}  // namespace

Result<std::string> resolve_program(const std::string& name) {
  if (name.empty()) return fail("empty program name");
  if (name.find('/') != std::string::npos) {
    struct stat st {};
    if (::stat(name.c_str(), &st) != 0) return fail(fmt::format("'{}' does not exist", name));
    if (!S_ISREG(st.st_mode)) return fail(fmt::format("'{}' is not a file", name));
    if (::access(name.c_str(), X_OK) != 0) {
      return fail(fmt::format("'{}' is not executable", name));
    }
    return name;
  }
  const char* path = std::getenv("PATH");
  std::string_view dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  while (true) {
    const auto colon = dirs.find(':');
    const std::string_view dir = dirs.substr(0, colon);
    // An empty PATH entry means the current directory (POSIX).
    const std::string candidate = fmt::format("{}/{}", dir.empty() ? "." : dir, name);
    if (is_executable_file(candidate)) return candidate;
    if (colon == std::string_view::npos) break;
    dirs.remove_prefix(colon + 1);
  }
  return fail(fmt::format("'{}' is not in PATH", name));
}

void close_from_3(int keep) noexcept {
  if (keep < 3) {
    ::close_range(3, UINT_MAX, 0);
    return;
  }
  if (keep > 3) ::close_range(3, static_cast<unsigned>(keep) - 1, 0);
  ::close_range(static_cast<unsigned>(keep) + 1, UINT_MAX, 0);
}
Result<std::unique_ptr<Subprocess>> Subprocess::start(const std::vector<std::string>& argv,
                                                      const std::filesystem::path& err_log) {
  // Step 1. Everything the child needs is made before fork(): after it, only
  // async-signal-safe calls (other threads may hold the allocator's locks).
  if (argv.empty()) return fail("no program to start");
  const auto program = resolve_program(argv[0]);
  if (!program) return fail(program.error());
  std::vector<std::string> args = argv;
  std::vector<char*> cargv;
  cargv.reserve(args.size() + 1);
  for (auto& a : args) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  // O_CLOEXEC everywhere: an engine started by another thread at the same
  // moment must not inherit our pipe ends (it would keep them open, and our
  // child would never see its input close).
  int to_child[2] = {-1, -1};
  int from_child[2] = {-1, -1};
  int status_pipe[2] = {-1, -1};
  int err = err_log.empty()
                ? ::open("/dev/null", O_WRONLY | O_CLOEXEC)
                : ::open(err_log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  const auto close_all = [&] {
    for (const int fd : {to_child[0], to_child[1], from_child[0], from_child[1], status_pipe[0],
                         status_pipe[1], err}) {
      if (fd >= 0) ::close(fd);
    }
  };
  if (err < 0 || ::pipe2(to_child, O_CLOEXEC) != 0 || ::pipe2(from_child, O_CLOEXEC) != 0 ||
      ::pipe2(status_pipe, O_CLOEXEC) != 0) {
    const int e = errno;
    close_all();
    return fail(fmt::format("cannot make pipes for '{}': {}", argv[0], std::strerror(e)));
  }
  err = above_stdio(err);
  to_child[0] = above_stdio(to_child[0]);
  from_child[1] = above_stdio(from_child[1]);
  if (err < 0 || to_child[0] < 0 || from_child[1] < 0) {
    const int e = errno;
    close_all();
    return fail(fmt::format("cannot make pipes for '{}': {}", argv[0], std::strerror(e)));
  }

  // Step 2. The child: default signals, its own process group, the pipes as
  // stdin and stdout, then exec; an exec failure sends errno back.
  const std::string& exe = *program;
  const pid_t pid = ::fork();
  if (pid == 0) {
    const auto die = [&](int e) {
      (void)!::write(status_pipe[1], &e, sizeof e);
      ::_exit(127);
    };
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; ++sig) {
      if (sig != SIGKILL && sig != SIGSTOP) ::sigaction(sig, &dfl, nullptr);
    }
    if (::setpgid(0, 0) != 0) die(errno);
    if (::dup2(to_child[0], 0) < 0 || ::dup2(from_child[1], 1) < 0 || ::dup2(err, 2) < 0) {
      die(errno);
    }
    close_from_3(status_pipe[1]);
    ::execv(exe.c_str(), cargv.data());
    die(errno);
  }
  const int fork_errno = errno;
  if (pid < 0) {
    close_all();
    return fail(
        fmt::format("cannot start '{}': fork failed: {}", argv[0], std::strerror(fork_errno)));
  }
  // Both sides set the group, so it is set whichever runs first (a kill of
  // the group right after start must not miss the child).
  ::setpgid(pid, pid);

  // Step 3. The parent keeps its pipe ends and learns whether exec worked.
  ::close(status_pipe[1]);
  status_pipe[1] = -1;
  int child_errno = 0;
  ssize_t n = -1;
  do {
    n = ::read(status_pipe[0], &child_errno, sizeof child_errno);
  } while (n < 0 && errno == EINTR);
  const int in = to_child[1];
  const int out = from_child[0];
  to_child[1] = -1;
  from_child[0] = -1;
  close_all();
  if (n == static_cast<ssize_t>(sizeof child_errno)) {
    ::close(in);
    ::close(out);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return fail(fmt::format("cannot start '{}': {}", argv[0], std::strerror(child_errno)));
  }
  // Writes never block: a child that stops reading cannot hang us.
  ::fcntl(in, F_SETFL, ::fcntl(in, F_GETFL) | O_NONBLOCK);
  return std::unique_ptr<Subprocess>(new Subprocess(pid, in, out));
}

Subprocess::~Subprocess() {
  stop({}, 0.2);
}

bool Subprocess::write_line(std::string_view line, Deadline deadline) {
  if (m_in < 0) return false;
  std::string data(line);
  data += '\n';
  SigpipeGuard guard;
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(m_in, data.data() + done, data.size() - done);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd p{m_in, POLLOUT, 0};
      const int ms = poll_ms(deadline);
      if (ms == 0) return false;
      const int r = ::poll(&p, 1, ms);
      if (r < 0 && errno != EINTR) return false;
      if (r > 0 && (p.revents & (POLLERR | POLLHUP)) != 0 && (p.revents & POLLOUT) == 0) {
        return false;
      }
      continue;
    }
    if (n < 0 && errno == EPIPE) guard.raised();
    return false;
  }
  return true;
}

Subprocess::Read Subprocess::read_line(std::string& line, Deadline deadline) {
  while (true) {
    // A whole line (or a piece of an endless one) already here.
    const auto nl = m_buffer.find('\n');
    if (nl != std::string::npos || m_buffer.size() >= kMaxLine || (m_eof && !m_buffer.empty())) {
      const std::size_t len =
          nl != std::string::npos ? nl : (m_buffer.size() < kMaxLine ? m_buffer.size() : kMaxLine);
      line.assign(m_buffer, 0, len);
      m_buffer.erase(0, nl != std::string::npos ? nl + 1 : len);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return Read::Line;
    }
    if (m_eof || m_out < 0) return Read::Closed;
    pollfd p{m_out, POLLIN, 0};
    const int r = ::poll(&p, 1, poll_ms(deadline));
    if (r < 0) {
      if (errno == EINTR) continue;
      m_eof = true;
      continue;
    }
    if (r == 0) {
      if (Clock::now() >= deadline) return Read::Timeout;
      continue;
    }
    char chunk[4096];
    const ssize_t n = ::read(m_out, chunk, sizeof chunk);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) {
      m_eof = true;
      continue;
    }
    m_buffer.append(chunk, static_cast<std::size_t>(n));
  }
}

std::optional<std::string> Subprocess::ended(double seconds) {
  if (m_ended) return m_ended;
  const auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(seconds));
  while (true) {
    siginfo_t info{};
    // WNOWAIT: look without reaping, so the pid (and the group id) cannot be
    // reused by another process before stop() kills the group.
    const int r = ::waitid(P_PID, static_cast<id_t>(m_pid), &info, WEXITED | WNOHANG | WNOWAIT);
    if (r == 0 && info.si_pid == m_pid) {
      if (info.si_code == CLD_EXITED) {
        m_ended = fmt::format("exited with status {}", info.si_status);
      } else {
        m_ended = fmt::format("killed by signal {}", describe_signal(info.si_status));
      }
      return m_ended;
    }
    if (r != 0 && errno != EINTR) {
      // ECHILD: reaped already (by stop(), or by the kernel when SIGCHLD is
      // ignored: then its pid may be someone else's by now).
      m_reaped = true;
      m_ended = "ended";
      return m_ended;
    }
    if (Clock::now() >= until) return std::nullopt;
    sleep_ms(1);
  }
}

void Subprocess::stop(std::string_view last_line, double grace) {
  if (m_stopped) return;
  m_stopped = true;
  const auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(grace));
  if (!last_line.empty()) (void)write_line(last_line, until);
  if (m_in >= 0) ::close(m_in);
  m_in = -1;
  bool gone = ended(grace).has_value();
  // A last word before the kill: a supervisor such as `duel box` then ends
  // and reaps what it started itself.
  if (!gone && !m_reaped) {
    ::kill(m_pid, SIGTERM);
    gone = ended(0.2).has_value();
  }
  // Step 1. The whole group, even when the child itself has ended: helpers
  // it started are in its group. The child is not reaped yet, so the group
  // id cannot belong to anyone else.
  if (m_reaped) {
    if (m_out >= 0) ::close(m_out);
    m_out = -1;
    m_eof = true;
    return;
  }
  ::kill(-m_pid, SIGKILL);
  if (!gone) ::kill(m_pid, SIGKILL);  // in case it left the group
  // Step 2. Reap the child (SIGKILL cannot be ignored, so this ends), then
  // any group member handed to us as an orphan (when this process is a
  // child subreaper, as the referee makes it).
  int status = 0;
  while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!m_ended) {
    m_ended = WIFSIGNALED(status)
                  ? fmt::format("killed by signal {}", describe_signal(WTERMSIG(status)))
                  : fmt::format("exited with status {}", WEXITSTATUS(status));
  }
  for (int tries = 0; tries < 200; ++tries) {
    const pid_t r = ::waitpid(-m_pid, &status, WNOHANG);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) break;  // ECHILD: no child of ours is left in the group
    if (r == 0) sleep_ms(1);
  }
  if (m_out >= 0) ::close(m_out);
  m_out = -1;
  m_eof = true;
}

}  // namespace duel
