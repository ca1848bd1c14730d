// The keeper inside a kept box (keeper.hpp): `duel box-keeper`, the box's
// PID 1. It waits for a request on its socket and answers it; between
// requests it only wakes when the move's program ends.
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "duel/box/keeper.hpp"
#include "duel/box/keeper_wire.hpp"
#include "duel/core/subprocess.hpp"

extern char** environ;

namespace duel::box {
namespace {

struct Settings {
  int socket = -1;
  uid_t uid = 0;  // the program's; 0: the keeper's own
};

[[nodiscard]] double seconds(const timeval& tv) {
  return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6;
}

// One move: its program's pid, what the keeper reaped of it, how it ended.
struct Move {
  pid_t root = -1;
  int pidfd = -1;
  bool ended = false;
  bool told = false;
  int status = 0;
  Usage reaped;
};

// Reaps what has ended; `clear`: kills and reaps every process but this
// one, each wait after a kill(-1) (a fork's new child is never missed: the
// kernel either signals it or fails the fork of a parent it signalled).
void reap(Move& move, int flags, bool clear = false) {
  while (true) {
    if (clear) (void)::kill(-1, SIGKILL);
    int status = 0;
    rusage ru{};
    const pid_t pid = ::wait4(-1, &status, flags | __WALL, &ru);
    if (pid < 0 && errno == EINTR) continue;
    if (pid <= 0) return;
    move.reaped.user += seconds(ru.ru_utime);
    move.reaped.system += seconds(ru.ru_stime);
    if (pid == move.root) {
      move.ended = true;
      move.status = status;
    }
  }
}

// The CPU of the box's processes now (all but this one), their own and
// their reaped children's, and how many are running (not `except`).
[[nodiscard]] Usage live(int& running, pid_t except) {
  Usage u;
  running = 0;
  const double tick = 1.0 / static_cast<double>(::sysconf(_SC_CLK_TCK));
  DIR* dir = ::opendir("/proc");
  if (dir == nullptr) return u;
  while (const dirent* e = ::readdir(dir)) {
    char* end = nullptr;
    const long pid = std::strtol(e->d_name, &end, 10);
    if (pid <= 1 || *end != '\0') continue;
    const std::string path = "/proc/" + std::string(e->d_name) + "/stat";
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    std::array<char, 1024> buf{};
    const ssize_t n = ::read(fd, buf.data(), buf.size() - 1);
    ::close(fd);
    if (n <= 0) continue;
    // The command name may hold anything: the fields start after the last ')'.
    const char* p = std::strrchr(buf.data(), ')');
    if (p == nullptr || p[1] == '\0' || p[2] == '\0') continue;
    const char state = p[2];
    p += 3;
    std::array<long long, 14> field{};  // proc(5) fields 4..17
    for (auto& f : field) f = std::strtoll(p, const_cast<char**>(&p), 10);
    u.user += static_cast<double>(field[10] + field[12]) * tick;
    u.system += static_cast<double>(field[11] + field[13]) * tick;
    if (state != 'Z' && pid != except) ++running;
  }
  ::closedir(dir);
  return u;
}

// The move's process from fork to exec: its session, descriptors, limits
// and (as root) the box's user with no capability left; errno to `error`
// if it cannot exec.
[[noreturn]] void become(const Settings& s, std::vector<char*>& argv, const std::array<int, 3>& fds,
                         int error) {
  const auto die = [&] {
    const int e = errno;
    (void)!::write(error, &e, sizeof e);
    ::_exit(127);
  };
  if (::setsid() < 0) die();
  for (int k = 0; k < 3; ++k) {
    if (::dup2(fds[static_cast<std::size_t>(k)], k) < 0) die();
  }
  // The box's other limits came with bwrap (box.hpp's ChildSteps).
  const rlimit no_core{0, 0};
  if (::setrlimit(RLIMIT_CORE, &no_core) != 0) die();
  if (s.uid != 0) {
    // As setpriv --clear-groups --bounding-set=-all --inh-caps=-all does.
    for (int cap = 0; cap < 64; ++cap) (void)::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
    if (::setgroups(0, nullptr) != 0 || ::setresgid(s.uid, s.uid, s.uid) != 0 ||
        ::setresuid(s.uid, s.uid, s.uid) != 0) {
      die();
    }
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    std::array<__user_cap_data_struct, 2> none{};
    if (::syscall(SYS_capset, &header, none.data()) != 0) die();
    (void)::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  }
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) die();
  close_from_3(error);
  ::execvpe(argv[0], argv.data(), environ);
  die();
  ::_exit(127);  // not reached: die() exits
}

// Starts a move's program; its errno when it cannot.
[[nodiscard]] int start(const Settings& s, Move& move, const std::string& words,
                        const std::array<int, 3>& fds) {
  std::vector<std::string> parts;
  for (std::size_t at = 0; at < words.size();) {
    const std::size_t end = words.find('\0', at);
    if (end == std::string::npos) break;
    parts.push_back(words.substr(at, end - at));
    at = end + 1;
  }
  if (parts.empty() || fds[2] < 0) return EINVAL;
  std::vector<char*> argv;
  argv.reserve(parts.size() + 1);
  for (auto& p : parts) argv.push_back(p.data());
  argv.push_back(nullptr);
  int pipe[2] = {-1, -1};
  if (::pipe2(pipe, O_CLOEXEC) != 0) return errno;
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(pipe[0]);
    become(s, argv, fds, pipe[1]);
  }
  const int fork_errno = errno;
  ::close(pipe[1]);
  if (pid < 0) {
    ::close(pipe[0]);
    return fork_errno;
  }
  int child_errno = 0;
  ssize_t n = -1;
  do {
    n = ::read(pipe[0], &child_errno, sizeof child_errno);
  } while (n < 0 && errno == EINTR);
  ::close(pipe[0]);
  if (n == static_cast<ssize_t>(sizeof child_errno)) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return child_errno;
  }
  move = Move{};
  move.root = pid;
  move.pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  return 0;
}

[[nodiscard]] bool answer(int socket, wire::Kind kind, const Usage& u, int value = 0,
                          int leftovers = 0) {
  wire::Message m;
  m.kind = kind;
  m.value = value;
  m.leftovers = leftovers;
  m.user_us = wire::micros(u.user);
  m.system_us = wire::micros(u.system);
  return wire::send(socket, m);
}

[[nodiscard]] bool tell_ended(int socket, Move& move) {
  if (!move.ended || move.told) return true;
  move.told = true;
  if (move.pidfd >= 0) ::close(move.pidfd);
  move.pidfd = -1;
  return answer(socket, wire::kEnded, move.reaped);
}

[[nodiscard]] bool parse(int argc, char** argv, Settings& s) {
  if (argc != 4) return false;
  const auto num = [](const char* text, unsigned long long& out) {
    char* end = nullptr;
    errno = 0;
    out = std::strtoull(text, &end, 10);
    return errno == 0 && end != text && *end == '\0';
  };
  unsigned long long fd = 0;
  unsigned long long uid = 0;
  if (!num(argv[2], fd) || !num(argv[3], uid) || fd > 1024) return false;
  s.socket = static_cast<int>(fd);
  s.uid = static_cast<uid_t>(uid);
  return true;
}

}  // namespace

int keeper_main(int argc, char** argv) {
  Settings s;
  if (!parse(argc, argv, s)) {
    std::fputs("duel box-keeper: Duel starts this inside a box (docs/box.md)\n", stderr);
    return 2;
  }
  // Not traceable, not readable through /proc, even by a program of its uid.
  (void)::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  Move move;
  while (true) {
    // Step 1. Wait for a request, or for the move's program to end.
    std::array<pollfd, 2> p = {pollfd{s.socket, POLLIN, 0}, pollfd{move.pidfd, POLLIN, 0}};
    if (::poll(p.data(), move.pidfd >= 0 ? 2 : 1, -1) < 0 && errno != EINTR) break;
    if ((p[1].revents & POLLIN) != 0) {
      reap(move, WNOHANG);
      if (!tell_ended(s.socket, move)) break;
    }
    if (p[0].revents == 0) continue;
    // Step 2. The request; the end of the socket ends the box.
    wire::Message m;
    std::string tail;
    std::array<int, 3> fds{};
    if (!wire::receive(s.socket, m, &tail, &fds)) break;
    bool ok = true;
    if (m.kind == wire::kRun) {
      const int e = move.root >= 0 ? EBUSY : start(s, move, tail, fds);
      ok = answer(s.socket, e == 0 ? wire::kStarted : wire::kFailed, {}, e);
    } else if (m.kind == wire::kPoll) {
      reap(move, WNOHANG);
      int running = 0;
      const Usage now = live(running, -1);
      ok = answer(s.socket, wire::kUsage,
                  {move.reaped.user + now.user, move.reaped.system + now.system}) &&
           tell_ended(s.socket, move);
    } else if (m.kind == wire::kClear) {
      // Step 3. The move's end: everything but this process killed and reaped.
      reap(move, WNOHANG);
      int running = 0;
      (void)live(running, move.ended ? -1 : move.root);
      reap(move, 0, true);
      if (move.pidfd >= 0) ::close(move.pidfd);
      ok = answer(s.socket, wire::kCleared, move.reaped, move.ended ? move.status : -1, running);
      move = Move{};
    }
    for (const int fd : fds) {
      if (fd >= 0) ::close(fd);
    }
    if (!ok) break;
  }
  (void)::kill(-1, SIGKILL);
  return 0;
}

}  // namespace duel::box
