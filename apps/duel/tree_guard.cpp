// The guard that kills a dead command's processes (tree_guard.hpp).
#include "tree_guard.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include <fmt/format.h>

namespace duel::cli {
namespace {

// The guard makes no allocation after fork() (the command may have had other
// threads holding the allocator's lock): everything it reads goes here.
char g_environ[1 << 22];  // a process's /proc/PID/environ (its first 4 MiB)
char g_mark[64];          // "[PID.NANOSECONDS]", as DUEL_TREE holds it
char g_dirents[1 << 15];  // getdents64 of /proc

void sleep_ms(long ms) {
  timespec ts{ms / 1000, (ms % 1000) * 1000000L};
  ::nanosleep(&ts, nullptr);
}

double now_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Whether the environment process `pid` started with holds the mark.
bool carries_mark(const char* pid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%s/environ", pid);
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  std::size_t size = 0;
  ssize_t n = 0;
  while (size < sizeof g_environ &&
         (n = ::read(fd, g_environ + size, sizeof g_environ - size)) > 0) {
    size += static_cast<std::size_t>(n);
  }
  ::close(fd);
  return ::memmem(g_environ, size, g_mark, std::strlen(g_mark)) != nullptr;
}

// SIGKILL to every process carrying the mark but this one; how many were alive.
int kill_marked() {
  const int dir = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return 0;
  const pid_t self = ::getpid();
  int alive = 0;
  while (true) {
    const long n = ::syscall(SYS_getdents64, dir, g_dirents, sizeof g_dirents);
    if (n <= 0) break;
    for (long at = 0; at < n;) {
      // struct linux_dirent64: ino (8), off (8), reclen (2), type (1), name.
      unsigned short reclen = 0;
      std::memcpy(&reclen, g_dirents + at + 16, sizeof reclen);
      const char* name = g_dirents + at + 19;
      at += reclen;
      char* end = nullptr;
      const long pid = std::strtol(name, &end, 10);
      if (pid <= 0 || *end != '\0' || pid == self) continue;
      if (carries_mark(name) && ::kill(static_cast<pid_t>(pid), SIGKILL) == 0) ++alive;
    }
  }
  ::close(dir);
  return alive;
}

// The guard's life: wait for the command (pidfd, or its parent changing),
// then kill the marked processes until none is left or 10 s have passed.
[[noreturn]] void guard(pid_t command, int pidfd) {
  ::setsid();
  if (::chdir("/") != 0) {
    // Stays where it was: it opens no relative path.
  }
  const int null = ::open("/dev/null", O_RDWR);
  for (int fd = 0; fd < 3; ++fd) {
    if (null >= 0) ::dup2(null, fd);
  }
  // Nothing else of the command's stays open (a pipe it writes, a lock).
  const int keep = pidfd >= 0 ? ::fcntl(pidfd, F_DUPFD_CLOEXEC, 3) : -1;
  for (int fd = 3; fd < 1024; ++fd) {
    if (fd != keep) ::close(fd);
  }
  if (keep >= 0) {
    pollfd p{keep, POLLIN, 0};
    while (::poll(&p, 1, -1) < 0 && errno == EINTR) {
    }
  } else {
    while (::getppid() == command) sleep_ms(100);
  }
  const double start = now_seconds();
  while (kill_marked() > 0 && now_seconds() - start < 10.0) sleep_ms(10);
  ::_exit(0);
}

}  // namespace

std::string guard_process_tree() {
  // Step 1. The mark, added to any the command inherited (a guarded command
  // started by another keeps the outer mark: both guards know its processes).
  const pid_t self = ::getpid();
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  const std::string mark = fmt::format("[{}.{}{:09}]", self, ts.tv_sec, ts.tv_nsec);
  if (mark.size() >= sizeof g_mark) return "";
  std::memcpy(g_mark, mark.c_str(), mark.size() + 1);
  const char* outer = std::getenv(kTreeVariable);
  const std::string value = (outer != nullptr ? std::string(outer) : std::string()) + mark;
  ::setenv(kTreeVariable, value.c_str(), 1);

  // Step 2. The guard. It is told of the command's end by a pidfd (which
  // stays valid when the command exec()s another program, as cs3243 does).
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, self, 0));
  const pid_t pid = ::fork();
  if (pid == 0) guard(self, pidfd);
  if (pidfd >= 0) ::close(pidfd);
  return pid > 0 ? mark : "";
}

}  // namespace duel::cli
