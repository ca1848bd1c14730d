// duel box [OPTIONS] -- PROGRAM [ARG...]: runs one program in Duel's box
// (src/duel/box, docs/box.md), for front ends that start outside programs
// themselves (the CS3243 grader's child, a boxed UCI engine). Its standard
// streams pass through; it ends with the program's status (128 + N for a
// signal N), and --status writes how it went as JSON.
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <memory>

#include <nlohmann/json.hpp>

#include "common.hpp"
#include "duel/box/cgroup.hpp"
#include "duel/core/clock.hpp"
#include "duel/core/subprocess.hpp"

namespace duel::cli {
namespace {

struct BoxArgs {
  std::string dir;
  std::vector<std::string> read_only;
  std::vector<std::string> env;
  std::uint64_t memory_mib = box::Limits{}.memory >> 20;
  int processes = box::Limits{}.processes;
  int files = box::Limits{}.open_files;
  std::uint64_t file_size_mib = box::Limits{}.file_size >> 20;
  std::uint64_t tmp_mib = box::Limits{}.tmp >> 20;
  std::string status;
  bool check = false;
  std::vector<std::string> argv;
};

volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void on_box_stop(int sig) {
  g_stop_signal = sig;
}

[[nodiscard]] double seconds(const timeval& tv) {
  return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6;
}

int run_box(const BoxArgs& a) {
  // Step 1. The machine, the options.
  if (auto ok = box::check(); !ok) return bad_input("box: " + ok.error());
  if (a.check) return 0;
  if (a.dir.empty()) return bad_input("box: give the program's folder with --dir");
  if (a.argv.empty()) return bad_input("box: give the program after --");
  std::error_code ec;
  if (!std::filesystem::is_directory(a.dir, ec)) {
    return bad_input(fmt::format("box: --dir {} is not a folder", a.dir));
  }
  for (const auto& e : a.env) {
    if (e.find('=') == std::string::npos || e.front() == '=') {
      return bad_input(fmt::format("box: --env {}: give NAME=VALUE", e));
    }
  }
  box::Policy policy;
  policy.dir = std::filesystem::absolute(a.dir, ec);
  policy.read_only.assign(a.read_only.begin(), a.read_only.end());
  policy.env = a.env;
  policy.limits.memory = a.memory_mib << 20;
  policy.limits.processes = a.processes;
  policy.limits.open_files = a.files;
  policy.limits.file_size = a.file_size_mib << 20;
  policy.limits.tmp = a.tmp_mib << 20;

  // Step 2. Start it: cgroups and rlimits first, nothing of ours inherited.
  box::Cgroups cgroups = box::Cgroups::make(policy.limits);
  box::ChildSteps steps = box::child_steps(policy.limits);
  cgroups.prepare(steps);
  std::vector<std::string> words = box::command_line(policy, a.argv);
  std::vector<char*> argv;
  argv.reserve(words.size() + 1);
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  std::cout.flush();
  // What the box leaves when killed (bwrap's init, orphaned) comes back to
  // us and is reaped below, not by whoever would adopt it.
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  const WallClock clock;
  const pid_t pid = ::fork();
  if (pid < 0) return bad_input(fmt::format("box: fork failed: {}", std::strerror(errno)));
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (!steps.run()) ::_exit(126);
    close_from_3(-1);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }

  // Step 3. Wait, ending it early when its tree goes over a budget, or when
  // we are asked to stop (SIGTERM, SIGINT, SIGHUP): then the box goes first,
  // and is reaped here, not left to whoever adopts it.
  struct sigaction sa {};
  sa.sa_handler = on_box_stop;
  sigemptyset(&sa.sa_mask);
  for (const int sig : {SIGTERM, SIGINT, SIGHUP}) ::sigaction(sig, &sa, nullptr);
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  box::Cgroups::Over over = box::Cgroups::Over::None;
  int status = 0;
  rusage ru{};
  while (true) {
    const pid_t r = ::wait4(pid, &status, WNOHANG, &ru);
    if (r == pid || (r < 0 && errno != EINTR)) break;
    if (g_stop_signal != 0) ::kill(pid, SIGKILL);
    if (over == box::Cgroups::Over::None && cgroups.active()) {
      over = cgroups.over();
      if (over != box::Cgroups::Over::None) ::kill(pid, SIGKILL);
    }
    pollfd p{pidfd, POLLIN, 0};
    if (pidfd >= 0) {
      ::poll(&p, 1, 50);
    } else {
      ::usleep(20000);
    }
  }
  const double wall = clock.seconds();
  if (pidfd >= 0) ::close(pidfd);
  // Every orphan handed to us, killed with its cgroups and reaped (at most
  // a second: they die with bwrap's init).
  for (int tries = 0; tries < 1000; ++tries) {
    cgroups.kill_all();
    int orphan = 0;
    const pid_t r = ::waitpid(-1, &orphan, WNOHANG);
    if (r < 0 && errno == ECHILD) break;
    if (r <= 0) ::usleep(1000);
  }
  if (over == box::Cgroups::Over::None && cgroups.active()) over = cgroups.over();
  cgroups.remove();

  // Step 4. How it went.
  int code = 0;
  std::optional<int> signal;
  if (WIFSIGNALED(status)) {
    signal = WTERMSIG(status);
  } else if (WIFEXITED(status)) {
    code = WEXITSTATUS(status);
    if (code > 128 && code < 128 + NSIG) signal = code - 128;  // bwrap's way
  }
  if (!a.status.empty()) {
    nlohmann::json j = {{"exit", signal ? nlohmann::json() : nlohmann::json(code)},
                        {"signal", signal ? nlohmann::json(*signal) : nlohmann::json()},
                        {"limit", box::over_text(over, policy.limits)},
                        {"user", seconds(ru.ru_utime)},
                        {"system", seconds(ru.ru_stime)},
                        {"wall", wall}};
    std::ofstream(a.status, std::ios::trunc) << j.dump() << '\n';
  }
  return signal ? 128 + *signal : code;
}

}  // namespace

Command add_box(CLI::App& app) {
  auto a = std::make_shared<BoxArgs>();
  CLI::App* sub = app.add_subcommand(
      "box", "Run a program in Duel's box: its own user, folder, processes and no network");
  sub->add_flag("--check", a->check, "Only say whether this machine can box (exit 0) or not");
  sub->add_option("--dir", a->dir, "The program's folder: its working directory, HOME, writable");
  sub->add_option("--read-only", a->read_only, "Also show this path, read-only (repeatable)")
      ->allow_extra_args(false);
  sub->add_option("--env", a->env, "NAME=VALUE for its environment (repeatable)")
      ->allow_extra_args(false);
  sub->add_option("--memory", a->memory_mib, "MiB for all its processes")
      ->check(CLI::Range(16, 1 << 20))
      ->capture_default_str();
  sub->add_option("--processes", a->processes, "Processes and threads")
      ->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
  sub->add_option("--files", a->files, "Open files a process")
      ->check(CLI::Range(16, 1 << 20))
      ->capture_default_str();
  sub->add_option("--file-size", a->file_size_mib, "MiB of the largest file it writes")
      ->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
  sub->add_option("--tmp", a->tmp_mib, "MiB of its private /tmp")
      ->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
  sub->add_option("--status", a->status, "Write how it went here (JSON)");
  sub->add_option("program", a->argv, "The program and its arguments, after --");
  return {sub, [a] { return run_box(*a); }};
}

}  // namespace duel::cli
