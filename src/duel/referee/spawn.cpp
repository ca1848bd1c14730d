// Starting an agent program (spawn.hpp).
#include "duel/referee/spawn.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include <fmt/format.h>

#include "duel/core/clock.hpp"
#include "duel/core/subprocess.hpp"

namespace duel::referee::detail {

// Reads what the pipe holds now (or, `to_end`, until every writer is gone,
// for at most a second), logging up to `limit` bytes in all and counting
// the rest.
void drain(Stream& s, std::uint64_t limit, bool to_end, std::uint64_t stop_past) {
  if (s.pipe < 0) return;
  std::array<char, 65536> buffer{};
  const WallClock clock;
  while (true) {
    const ssize_t n = ::read(s.pipe, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN && to_end) {
      pollfd p{s.pipe, POLLIN, 0};
      // A writer we could not kill may hold it open: give up after a while.
      if (clock.seconds() > 1.0 || ::poll(&p, 1, 100) <= 0) return;
      continue;
    }
    if (n <= 0) return;
    const auto got = static_cast<std::uint64_t>(n);
    const std::uint64_t keep = s.written >= limit ? 0 : std::min(got, limit - s.written);
    if (keep > 0 && s.log >= 0) (void)!::write(s.log, buffer.data(), keep);
    s.written += keep;
    s.dropped += got - keep;
    if (!to_end && stop_past > 0 && s.written + s.dropped > stop_past) return;
  }
}

[[nodiscard]] std::uint64_t output_of(const Spawned& child) {
  std::uint64_t n = 0;
  for (const auto& s : child.streams) n += s.written + s.dropped;
  return n;
}

// The bytes under `dir`, or more than `limit` as soon as that is certain
// (a folder of more than 100,000 entries counts as over it).
[[nodiscard]] std::uint64_t folder_bytes(const std::filesystem::path& dir, std::uint64_t limit) {
  std::uint64_t bytes = 0;
  int entries = 0;
  std::error_code ec;
  for (std::filesystem::recursive_directory_iterator it(dir, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (++entries > 100000) return limit + 1;
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) == 0)
      bytes += static_cast<std::uint64_t>(st.st_blocks) * 512;
    if (bytes > limit) return bytes;
  }
  return bytes;
}

// A command that is only words (letters, digits, `/._-+=:,@%`, or a word
// in single quotes as shell_quote makes them): its words, to run without a
// shell in between (a shell's start-up costs a move a millisecond of CPU
// and a process). Anything else: none, and /bin/sh -c runs it.
[[nodiscard]] std::vector<std::string> direct_words(const std::string& command) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < command.size()) {
    const char c = command[i];
    if (c == ' ' || c == '\t') {
      ++i;
      continue;
    }
    std::string word;
    if (c == '\'') {
      const std::size_t end = command.find('\'', i + 1);
      if (end == std::string::npos) return {};
      word = command.substr(i + 1, end - i - 1);
      i = end + 1;
      if (i < command.size() && command[i] != ' ' && command[i] != '\t') return {};
    } else {
      while (i < command.size() && command[i] != ' ' && command[i] != '\t') {
        const char w = command[i];
        const bool plain = std::isalnum(static_cast<unsigned char>(w)) != 0 ||
                           std::string_view("/._-+=:,@%").find(w) != std::string_view::npos;
        if (!plain) return {};
        word += w;
        ++i;
      }
    }
    words.push_back(std::move(word));
  }
  if (!words.empty() && words[0].find('=') != std::string::npos) return {};  // VAR=value cmd
  return words;
}

namespace {

// The program a first word names, as the shell would find it from `dir`:
// a path (relative to `dir`), or the first executable of that name on
// PATH; "" when there is none (the shell then says so).
[[nodiscard]] std::string program_path(const std::string& word, const std::filesystem::path& dir) {
  const auto runnable = [](const std::filesystem::path& p) {
    std::error_code ec;
    return std::filesystem::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
  };
  if (word.find('/') != std::string::npos) {
    const std::filesystem::path p = word.front() == '/' ? std::filesystem::path(word) : dir / word;
    return runnable(p) ? p.string() : std::string();
  }
  const char* path = std::getenv("PATH");
  std::string_view dirs = path != nullptr ? path : "/usr/bin:/bin";
  while (!dirs.empty()) {
    const auto colon = dirs.find(':');
    const std::string_view d = dirs.substr(0, colon);
    const std::filesystem::path candidate =
        (d.empty() ? std::filesystem::path(".") : std::filesystem::path(std::string(d))) / word;
    if (runnable(d.empty() ? dir / word : candidate)) return candidate.string();
    dirs.remove_prefix(colon == std::string_view::npos ? dirs.size() : colon + 1);
  }
  return {};
}

// What the child does between clone() and exec, all made beforehand: it
// shares our memory until it execs, so it only reads this and makes system
// calls.
struct ChildSetup {
  const char* program = nullptr;
  char** argv = nullptr;
  const char* dir = nullptr;
  std::array<int, 3> fds{};  // its stdin, stdout, stderr
  int error_pipe = -1;       // gets errno if it cannot exec
  pid_t parent = 0;
  rlimit core{0, 0};
  rlimit fsize{RLIM_INFINITY, RLIM_INFINITY};
  const box::ChildSteps* steps = nullptr;  // boxed: its rlimits and cgroups
};

int child_main(void* arg) {
  const auto& c = *static_cast<const ChildSetup*>(arg);
  const auto die = [&](int e) {
    (void)!::write(c.error_pipe, &e, sizeof e);
    ::_exit(127);
  };
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sig != SIGKILL && sig != SIGSTOP) ::sigaction(sig, &dfl, nullptr);
  }
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  if (::setsid() < 0) die(errno);
  // If the referee dies, the agent's main process dies with it.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != c.parent) ::_exit(127);
  if (::dup2(c.fds[0], 0) < 0 || ::dup2(c.fds[1], 1) < 0 || ::dup2(c.fds[2], 2) < 0) die(errno);
  ::setrlimit(RLIMIT_CORE, &c.core);
  ::setrlimit(RLIMIT_FSIZE, &c.fsize);
  if (c.steps != nullptr && !c.steps->run()) die(errno);
  if (::chdir(c.dir) != 0) die(errno);
  // Nothing of ours is inherited: not a journal, a socket or a pipe that a
  // flag forgot (the error pipe closes on exec).
  close_from_3(c.error_pipe);
  ::execve(c.program, c.argv, environ);
  die(errno);
  return 127;
}

}  // namespace

std::string open_streams(const RunSpec& spec, Spawned& made, std::array<int, 3>& ends) {
  ends = {::open("/dev/null", O_RDONLY | O_CLOEXEC), -1, -1};
  bool opened = ends[0] >= 0;
  const std::array<const std::filesystem::path*, 2> logs = {&spec.out_log, &spec.err_log};
  for (std::size_t k = 0; k < 2 && opened; ++k) {
    if (logs[k]->empty()) {
      ends[k + 1] = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
      opened = ends[k + 1] >= 0;
      continue;
    }
    int p[2] = {-1, -1};
    made.streams[k].log =
        ::open(logs[k]->c_str(), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
    opened = made.streams[k].log >= 0 && ::pipe2(p, O_CLOEXEC) == 0;
    if (opened) {
      made.streams[k].pipe = p[0];
      ends[k + 1] = p[1];
      ::fcntl(p[0], F_SETFL, ::fcntl(p[0], F_GETFL) | O_NONBLOCK);
    }
  }
  if (opened) return {};
  const int e = errno;
  for (int& fd : ends) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  close_streams(made);
  return fmt::format("cannot open the agent's files: {}", std::strerror(e));
}

void close_streams(Spawned& made) {
  for (auto& st : made.streams) {
    for (int* fd : {&st.pipe, &st.log}) {
      if (*fd >= 0) ::close(*fd);
      *fd = -1;
    }
  }
}

[[nodiscard]] Spawned spawn(const RunSpec& spec, const box::ChildSteps* steps) {
  // Everything the child needs is made before clone(): after it, only
  // system calls (this may run in a threaded program).
  const std::string dir = spec.dir.string();
  std::vector<std::string> words = direct_words(spec.command);
  std::string program;
  if (spec.box) {
    // The box finds the program on its own PATH, from inside.
    if (words.empty()) words = {"/bin/sh", "-c", spec.command};
    box::Policy policy = *spec.box;
    if (policy.dir.empty()) policy.dir = spec.dir;
    words = box::command_line(policy, words);
    program = words[0];
  } else {
    program = words.empty() ? std::string() : program_path(words[0], spec.dir);
    if (program.empty()) {
      words = {"sh", "-c", spec.command};
      program = "/bin/sh";
    }
  }
  std::vector<char*> argv;
  argv.reserve(words.size() + 1);
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  Spawned made;
  std::array<int, 3> ends{};
  if (std::string e = open_streams(spec, made, ends); !e.empty()) {
    made.error = std::move(e);
    return made;
  }
  int pipefd[2] = {-1, -1};
  const auto close_child_ends = [&] {
    for (const int fd : {ends[0], ends[1], ends[2], pipefd[0], pipefd[1]}) {
      if (fd >= 0) ::close(fd);
    }
  };
  const auto close_all = [&] {
    close_child_ends();
    close_streams(made);
  };
  if (::pipe2(pipefd, O_CLOEXEC) != 0) {
    const int e = errno;
    close_all();
    made.error = fmt::format("cannot open the agent's files: {}", std::strerror(e));
    return made;
  }
  ChildSetup setup;
  setup.program = program.c_str();
  setup.argv = argv.data();
  setup.dir = dir.c_str();
  setup.fds = ends;
  setup.error_pipe = pipefd[1];
  setup.parent = ::getpid();
  if (spec.file_size_limit != 0) setup.fsize = {spec.file_size_limit, spec.file_size_limit};
  setup.steps = steps;
  // clone(CLONE_VM | CLONE_VFORK) on a stack of its own, as posix_spawn
  // does: no copy of this process's memory (a fork copies its page tables,
  // and every page a thread writes afterwards faults: in a tournament's pool
  // that cost more than the games), and this thread waits until the child
  // has exec'd. Signals are blocked meanwhile, so that no handler of ours
  // runs on the child's stack.
  std::vector<char> stack(std::size_t{64} << 10);
  sigset_t all;
  sigset_t old;
  sigfillset(&all);
  ::pthread_sigmask(SIG_SETMASK, &all, &old);
  const pid_t pid =
      ::clone(child_main, stack.data() + stack.size(), CLONE_VM | CLONE_VFORK | SIGCHLD, &setup);
  const int fork_errno = errno;
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  ::close(pipefd[1]);
  pipefd[1] = -1;
  if (pid < 0) {
    close_all();
    made.error = fmt::format("fork failed: {}", std::strerror(fork_errno));
    return made;
  }
  // The pipe closes on exec (nothing to read) or carries the child's errno.
  int child_errno = 0;
  ssize_t n = -1;
  do {
    n = ::read(pipefd[0], &child_errno, sizeof child_errno);
  } while (n < 0 && errno == EINTR);
  if (n == static_cast<ssize_t>(sizeof child_errno)) {
    close_all();
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    made.error = fmt::format("cannot start the agent in {}: {}", dir, std::strerror(child_errno));
    return made;
  }
  close_child_ends();
  made.pid = pid;
  return made;
}

}  // namespace duel::referee::detail
