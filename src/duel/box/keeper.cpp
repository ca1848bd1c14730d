// A kept box, from outside (keeper.hpp).
#include "duel/box/keeper.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "duel/box/keeper_wire.hpp"
#include "duel/core/subprocess.hpp"

namespace duel::box {
namespace {

// A reply the keeper owes comes within this (it is ours, and small; only
// a machine on its knees makes it slower): past it the box is lost.
constexpr double kAnswerSeconds = 10.0;

std::mutex g_keepers_mutex;
std::set<pid_t> g_keepers;  // bwrap's pid of every kept box up in this process

[[nodiscard]] Usage usage_of(const wire::Message& m) {
  return {static_cast<double>(m.user_us) * 1e-6, static_cast<double>(m.system_us) * 1e-6};
}

// Reads packets until one of `kind` or `other` (true) or the end, an error
// or the deadline (false); a kEnded on the way sets `ended`.
[[nodiscard]] bool await(int socket, wire::Kind kind, wire::Message& m, bool& ended,
                         wire::Kind other = wire::Kind{}) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(kAnswerSeconds);
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{socket, POLLIN, 0};
    const int r = ::poll(&p, 1, static_cast<int>(left.count()));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0 || !wire::receive(socket, m)) return false;
    if (m.kind == wire::kEnded) ended = true;
    if (m.kind == kind || (other != wire::Kind{} && m.kind == other)) return true;
  }
}

}  // namespace

bool is_keeper(pid_t pid) {
  const std::scoped_lock lock(g_keepers_mutex);
  return g_keepers.count(pid) != 0;
}

Keeper::Keeper(Policy policy) : m_policy(std::move(policy)) {}

Keeper::~Keeper() {
  stop();
}

Result<bool> Keeper::open() {
  if (m_pid > 0) return true;
  auto up = start_box();
  if (!up) m_unavailable = true;
  return up;
}

Result<bool> Keeper::start_box() {
  // Step 1. Its budgets, its socket, its words; all made before fork. The
  // keeper is the `duel` binary, shown to the box by its path.
  const std::string duel = duel_binary();
  if (duel.empty() || duel.front() != '/' || ::access(duel.c_str(), X_OK) != 0) {
    return fail("cannot keep a box: no duel binary found (set DUEL_BIN)");
  }
  m_cgroups = Cgroups::make(m_policy.limits);
  ChildSteps steps = child_steps(m_policy.limits);
  m_cgroups.prepare(steps);
  int pair[2] = {-1, -1};
  int errors[2] = {-1, -1};
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0 ||
      ::pipe2(errors, O_CLOEXEC) != 0) {
    const int e = errno;
    for (const int fd : {pair[0], pair[1], errors[0], errors[1]}) {
      if (fd >= 0) ::close(fd);
    }
    return fail(fmt::format("cannot box: {}", std::strerror(e)));
  }
  constexpr int kSocket = 3;  // the keeper's end, in the box
  std::vector<std::string> words = keeper_command_line(m_policy, kSocket);
  std::vector<char*> argv;
  argv.reserve(words.size() + 1);
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const int null = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  const pid_t parent = ::getpid();
  // Step 2. bwrap, in a session of its own, in the box's cgroups.
  const pid_t pid = ::fork();
  if (pid == 0) {
    (void)::setsid();
    (void)::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    // The cgroups are joined before the socket takes descriptor 3, which
    // may be one of their files.
    if (::dup2(null, 0) < 0 || ::dup2(null, 1) < 0 || ::dup2(errors[1], 2) < 0 || !steps.run()) {
      ::_exit(127);
    }
    if (pair[1] == kSocket ? ::fcntl(kSocket, F_SETFD, 0) < 0 : ::dup2(pair[1], kSocket) < 0) {
      ::_exit(127);
    }
    close_from_3(kSocket);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  const int fork_errno = errno;
  for (const int fd : {pair[1], errors[1], null}) {
    if (fd >= 0) ::close(fd);
  }
  if (pid < 0) {
    ::close(pair[0]);
    ::close(errors[0]);
    return fail(fmt::format("cannot box: fork failed: {}", std::strerror(fork_errno)));
  }
  m_pid = pid;
  m_socket = pair[0];
  {
    const std::scoped_lock lock(g_keepers_mutex);
    g_keepers.insert(pid);
  }
  // Step 3. The keeper answers once it is up; bwrap says why it is not.
  wire::Message m;
  m.kind = wire::kPoll;
  bool ended = false;
  const bool up = wire::send(m_socket, m) && await(m_socket, wire::kUsage, m, ended);
  std::string said;
  if (!up) {
    ::fcntl(errors[0], F_SETFL, O_NONBLOCK);
    std::array<char, 512> buf{};
    const ssize_t n = ::read(errors[0], buf.data(), buf.size());
    if (n > 0) said.assign(buf.data(), static_cast<std::size_t>(n));
    if (const auto nl = said.find('\n'); nl != std::string::npos) said.resize(nl);
  }
  // bwrap keeps its stderr for the box's life: a write to a closed pipe
  // would kill it, and the box with it.
  m_errors = errors[0];
  if (!up) {
    stop();
    return fail(
        fmt::format("cannot keep a box: {}", said.empty() ? "its keeper did not start" : said));
  }
  return true;
}

Result<bool> Keeper::run(const std::vector<std::string>& argv, std::array<int, 3> fds) {
  if (auto up = open(); !up) return up;
  std::string words;
  for (const auto& a : argv) {
    if (a.find('\0') != std::string::npos) return fail("a word of the command holds a NUL byte");
    words += a;
    words += '\0';
  }
  if (words.size() + sizeof(wire::Message) > wire::kMaxPacket)
    return fail("the command is too long");
  m_last = {};
  m_over_before = m_cgroups.hits();
  m_cgroups.reset_peak();
  wire::Message m;
  m.kind = wire::kRun;
  bool ended = false;
  if (!wire::send(m_socket, m, words, fds) ||
      !await(m_socket, wire::kStarted, m, ended, wire::kFailed)) {
    lose();
    return fail("the box ended before the program started");
  }
  if (m.kind == wire::kFailed) {
    return fail(
        fmt::format("cannot start {}: {}", argv.empty() ? "" : argv[0], std::strerror(m.value)));
  }
  m_ended = ended;
  return true;
}

bool Keeper::ended() {
  while (!m_ended && m_socket >= 0) {
    wire::Message m;
    pollfd p{m_socket, POLLIN, 0};
    if (::poll(&p, 1, 0) <= 0) break;
    if (!wire::receive(m_socket, m)) {
      lose();
      break;
    }
    if (m.kind == wire::kEnded) m_ended = true;
  }
  return m_ended || m_socket < 0;
}

Usage Keeper::usage() {
  if (m_socket < 0) return m_last.usage;
  wire::Message m;
  m.kind = wire::kPoll;
  if (!wire::send(m_socket, m) || !await(m_socket, wire::kUsage, m, m_ended)) {
    lose();
    return m_last.usage;
  }
  m_last.usage = usage_of(m);
  return m_last.usage;
}

Keeper::Cleared Keeper::clear() {
  if (m_socket < 0) {
    m_last.lost = true;
    return m_last;
  }
  wire::Message m;
  m.kind = wire::kClear;
  if (!wire::send(m_socket, m) || !await(m_socket, wire::kCleared, m, m_ended)) {
    lose();
    m_last.lost = true;
    return m_last;
  }
  m_ended = true;
  m_last.status = m.value;
  m_last.usage = usage_of(m);
  m_last.leftovers = m.leftovers;
  return m_last;
}

Cgroups::Over Keeper::over() const {
  return m_cgroups.over_since(m_over_before);
}

std::uint64_t Keeper::peak_memory() const {
  return m_cgroups.peak_memory();
}

void Keeper::lose() {
  // Everything in the box goes; its cgroups stay to say what it hit.
  if (m_pid > 0) ::kill(-m_pid, SIGKILL);
  (void)m_cgroups.kill_all();
  const Cgroups::Hits before = m_over_before;
  Cgroups kept = std::move(m_cgroups);
  stop();
  m_cgroups = std::move(kept);
  m_over_before = before;
}

void Keeper::stop() {
  // The keeper ends the box when its socket closes; bwrap then exits.
  for (int* fd : {&m_socket, &m_errors}) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
  m_ended = true;
  if (m_pid > 0) {
    // Woken the moment bwrap exits (for at most a second).
    if (const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, m_pid, 0)); pidfd >= 0) {
      pollfd p{pidfd, POLLIN, 0};
      (void)::poll(&p, 1, 1000);
      ::close(pidfd);
    }
    int status = 0;
    const pid_t r = ::waitpid(m_pid, &status, WNOHANG);
    if (r == 0) {
      ::kill(-m_pid, SIGKILL);
      while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
      }
    }
    const std::scoped_lock lock(g_keepers_mutex);
    g_keepers.erase(m_pid);
  }
  m_pid = -1;
  m_cgroups.remove();
}

}  // namespace duel::box
