// One run of an agent program: spawn, watch, charge, kill, reap (process.hpp).
#include "duel/referee/process.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "duel/box/cgroup.hpp"
#include "duel/box/keeper.hpp"
#include "duel/core/clock.hpp"
#include "duel/referee/spawn.hpp"
#include "duel/referee/watch.hpp"

namespace duel::referee {
namespace {

using detail::close_streams;
using detail::drain;
using detail::folder_bytes;
using detail::output_of;
using detail::raise_to;
using detail::spawn;
using detail::Spawned;
using detail::Stream;

constexpr double kMaxPollSeconds = 0.05;

// Step 1. Reading /proc.

// What /proc/PID/stat says about one process (proc(5) field numbers).
struct ProcInfo {
  pid_t pid = 0;
  char state = '?';              // (3); 'Z' is a zombie
  pid_t ppid = 0;                // (4)
  pid_t pgid = 0;                // (5)
  pid_t sid = 0;                 // (6)
  long long user_ticks = 0;      // utime + cutime, (14) and (16)
  long long system_ticks = 0;    // stime + cstime, (15) and (17)
  unsigned long long start = 0;  // (22) start time: with pid, the process's identity
};

[[nodiscard]] bool read_proc(pid_t pid, ProcInfo& out) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[1024];
  const ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return false;
  buf[n] = '\0';
  // The command name (2) is in parentheses and may hold spaces or ')'.
  const char* p = std::strrchr(buf, ')');
  if (p == nullptr || p[1] == '\0' || p[2] == '\0') return false;
  out.pid = pid;
  out.state = p[2];
  p += 3;
  long long field[20] = {};  // field[i] is proc(5) field i + 4
  for (int i = 0; i < 19; ++i) {
    char* end = nullptr;
    field[i] = std::strtoll(p, &end, 10);
    if (end == p) return false;
    p = end;
  }
  out.ppid = static_cast<pid_t>(field[0]);
  out.pgid = static_cast<pid_t>(field[1]);
  out.sid = static_cast<pid_t>(field[2]);
  out.user_ticks = field[10] + field[12];
  out.system_ticks = field[11] + field[13];
  out.start = static_cast<unsigned long long>(field[18]);
  return true;
}

[[nodiscard]] std::vector<ProcInfo> read_all_procs() {
  std::vector<ProcInfo> out;
  DIR* dir = ::opendir("/proc");
  if (dir == nullptr) return out;
  while (const dirent* e = ::readdir(dir)) {
    if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
    char* end = nullptr;
    const long pid = std::strtol(e->d_name, &end, 10);
    if (*end != '\0') continue;
    ProcInfo info;
    if (read_proc(static_cast<pid_t>(pid), info)) out.push_back(info);
  }
  ::closedir(dir);
  return out;
}

[[nodiscard]] CpuTime cpu_of(const rusage& ru) {
  const auto seconds = [](const timeval& tv) {
    return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6;
  };
  return {seconds(ru.ru_utime), seconds(ru.ru_stime)};
}

void sleep_seconds(double s) {
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(s);
  ts.tv_nsec = static_cast<long>((s - static_cast<double>(ts.tv_sec)) * 1e9);
  ::nanosleep(&ts, nullptr);
}

// Step 2. The agent's process tree.

// Which processes belong to one agent run, how much CPU they used, and how
// to get rid of them. A process belongs when it is the agent's main process,
// was seen belonging before (same pid and start time), is in a process group
// or session one of them made, has a parent that belongs, or (adopt_strays)
// is an orphan handed to us.
class Tree {
 public:
  Tree(pid_t root, bool adopt_strays)
      : m_root(root),
        m_self(::getpid()),
        m_self_pgid(::getpgrp()),
        m_self_sid(::getsid(0)),
        m_adopt(adopt_strays),
        m_tick(1.0 / static_cast<double>(::sysconf(_SC_CLK_TCK))) {
    m_groups.insert(root);  // the child calls setsid(): its session and group are its pid
    m_sessions.insert(root);
  }

  // Reads /proc, returns the CPU time charged so far (never decreasing)
  // and reaps the agent's zombies that are our children (not the root).
  CpuTime poll() {
    const auto members = scan();
    account(members);
    for (const auto& p : members) {
      if (p.pid != m_root && p.ppid == m_self && p.state == 'Z') reap(p.pid);
    }
    return m_charged;
  }

  // Kills (SIGKILL) and reaps every member but the root (left a zombie for
  // reap_root), again until none is left (`done`) or `seconds` have passed.
  // Returns how many were alive at the first look.
  int clear(double seconds, bool& done) {
    done = false;
    int leftovers = -1;
    WallClock clock;
    while (true) {
      const auto members = scan();
      account(members);
      // The root's group (its number stays ours while the root is unreaped).
      if (!m_root_reaped) ::kill(-m_root, SIGKILL);
      int alive = 0;
      bool busy = false;
      for (const auto& p : members) {
        if (p.pid == m_root) {
          if (p.state != 'Z') ::kill(p.pid, SIGKILL);
          continue;
        }
        busy = true;
        if (p.state != 'Z') {
          ::kill(p.pid, SIGKILL);
          ++alive;
        } else if (p.ppid == m_self) {
          reap(p.pid);
        }
      }
      if (leftovers < 0) leftovers = alive;
      done = !busy;
      if (!busy || clock.seconds() >= seconds) break;
      sleep_seconds(0.001);
    }
    return leftovers;
  }

  // Reaps the root (after it ended or was killed): its status, and the
  // charge with its rusage folded in.
  int reap_root() {
    int status = 0;
    rusage ru{};
    pid_t r = -1;
    do {
      r = ::wait4(m_root, &status, 0, &ru);
    } while (r < 0 && errno == EINTR);
    m_root_reaped = true;
    if (r == m_root) {
      const CpuTime root = cpu_of(ru);
      raise_to(m_charged, {m_reaped.user + root.user, m_reaped.system + root.system});
    }
    return status;
  }

  [[nodiscard]] CpuTime charged() const noexcept { return m_charged; }

 private:
  // The charge: what we reaped plus every member's own and reaped children's time.
  void account(const std::vector<ProcInfo>& members) {
    CpuTime now = m_reaped;
    for (const auto& p : members) {
      now.user += static_cast<double>(p.user_ticks) * m_tick;
      now.system += static_cast<double>(p.system_ticks) * m_tick;
    }
    raise_to(m_charged, now);
  }

  // The members among all processes now, learning new groups and sessions.
  std::vector<ProcInfo> scan() {
    const auto all = read_all_procs();
    std::map<pid_t, const ProcInfo*> by_pid;
    for (const auto& p : all) by_pid[p.pid] = &p;
    std::set<pid_t> in;
    const auto known = [&](const ProcInfo& p) {
      if (p.pid == m_self) return false;
      if (p.pid == m_root) return !m_root_reaped;
      const auto it = m_known.find(p.pid);
      if (it != m_known.end() && it->second == p.start) return true;
      if (m_groups.count(p.pgid) != 0 || m_sessions.count(p.sid) != 0) return true;
      // Not a kept box of another game's agent: that is no stray.
      return m_adopt && p.ppid == m_self && !box::is_keeper(p.pid);
    };
    // A fixed point: parents bring in children, members bring in their
    // groups and sessions.
    for (bool grew = true; grew;) {
      grew = false;
      for (const auto& p : all) {
        if (in.count(p.pid) != 0) continue;
        if (known(p) || (p.ppid != m_self && in.count(p.ppid) != 0)) {
          in.insert(p.pid);
          m_known[p.pid] = p.start;
          if (p.pgid != m_self_pgid) m_groups.insert(p.pgid);
          if (p.sid != m_self_sid) m_sessions.insert(p.sid);
          grew = true;
        }
      }
    }
    std::vector<ProcInfo> out;
    out.reserve(in.size());
    for (const pid_t pid : in) out.push_back(*by_pid[pid]);
    return out;
  }

  void reap(pid_t pid) {
    rusage ru{};
    int status = 0;
    if (::wait4(pid, &status, WNOHANG, &ru) == pid) {
      const CpuTime c = cpu_of(ru);
      m_reaped.user += c.user;
      m_reaped.system += c.system;
      m_known.erase(pid);
    }
  }

  pid_t m_root;
  pid_t m_self;
  pid_t m_self_pgid;
  pid_t m_self_sid;
  bool m_adopt;
  double m_tick;
  bool m_root_reaped = false;
  CpuTime m_reaped;                             // CPU of the members we reaped ourselves
  CpuTime m_charged;                            // the largest totals seen
  std::map<pid_t, unsigned long long> m_known;  // pid -> start time
  std::set<pid_t> m_groups;
  std::set<pid_t> m_sessions;
};

// Waits up to `seconds` for the root to end (woken at once by its pidfd)
// or for output to drain (up to just past `stop_past` bytes a stream).
void wait_a_little(int pidfd, std::array<Stream, 2>& streams, std::uint64_t limit,
                   std::uint64_t stop_past, double seconds) {
  std::array<pollfd, 3> p{};
  nfds_t n = 0;
  for (const int fd : {pidfd, streams[0].pipe, streams[1].pipe}) {
    if (fd >= 0) p[n++] = {fd, POLLIN, 0};
  }
  timespec ts{};
  ts.tv_nsec = static_cast<long>(seconds * 1e9);
  if (n == 0) {
    sleep_seconds(seconds);
  } else {
    ::ppoll(p.data(), n, &ts, nullptr);
  }
  for (auto& s : streams) drain(s, limit, false, stop_past);
}

[[nodiscard]] bool root_ended(pid_t pid) {
  siginfo_t info{};
  if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
    return errno != EINTR;  // ECHILD: someone reaped it (SIGCHLD ignored)
  }
  return info.si_pid == pid;
}

}  // namespace

std::string signal_name(int signal) {
  if (const char* abbrev = ::sigabbrev_np(signal)) return fmt::format("SIG{}", abbrev);
  return fmt::format("signal {}", signal);
}

std::string shell_quote(const std::string& word) {
  std::string out = "'";
  for (const char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string RunResult::describe() const {
  switch (stop) {
    case Stop::Exited:
      // A shell reports a child killed by signal N as status 128 + N.
      if (exit_code > 128 && exit_code < 128 + NSIG) {
        return fmt::format("exit status {} (a child killed by signal {}, {})", exit_code,
                           exit_code - 128, signal_name(exit_code - 128));
      }
      return fmt::format("exit status {}", exit_code);
    case Stop::Signaled:
      return fmt::format("killed by signal {} ({})", signal, signal_name(signal));
    case Stop::CpuLimit: return fmt::format("stopped at the CPU limit after {:.3f} s", cpu_seconds);
    case Stop::WallLimit:
      return fmt::format("stopped at the wall-clock limit after {:.3f} s (CPU {:.3f} s)",
                         wall_seconds, cpu_seconds);
    case Stop::Cancelled: return "cancelled";
    case Stop::DiskLimit:
      return fmt::format("its folder passed the disk limit ({} bytes); killed", disk_bytes);
    case Stop::OutputLimit: return "it passed the output limit; killed";
    case Stop::MemoryLimit:
    case Stop::ProcessLimit: return limit;
    case Stop::SystemCpuLimit:
      return fmt::format("stopped: its system CPU passed the limit ({:.3f} s)", cpu.system);
    case Stop::SpawnFailed: return error;
  }
  return "unknown";
}

namespace detail {

RunResult watch(const RunSpec& spec, Spawned& child, Watched& watched, const WallClock& clock) {
  RunResult r;
  // Step 2. Watch until it ends or passes a limit, draining its output.
  // The CPU is read once a poll interval, not on every wake-up (output
  // wakes us too), and not before the first interval: most moves end
  // before it, and the finish below reads it once for them.
  std::optional<Stop> ours;
  double next_disk_check = 0.0;
  double cpu = 0.0;
  // Often near a limit, less often far from one (a 300 s budget needs no
  // 5 ms polls).
  const auto interval = [&](double wall) {
    double room = 1e9;
    if (spec.cpu_limit > 0.0) room = std::min(room, spec.cpu_limit - cpu);
    if (spec.wall_limit > 0.0) room = std::min(room, spec.wall_limit - wall);
    return std::clamp(room / 8.0, spec.poll_seconds, std::max(spec.poll_seconds, kMaxPollSeconds));
  };
  double next_scan = interval(0.0);
  double system = 0.0;
  box::Cgroups::Over over = box::Cgroups::Over::None;
  while (true) {
    if (watched.ended()) break;
    double wall = clock.seconds();
    if (wall >= next_scan) {
      const CpuTime now = watched.poll();
      cpu = now.charge(spec.charge);
      system = now.system;
      over = watched.over();
      wall = clock.seconds();
      next_scan = wall + interval(wall);
    }
    if (spec.disk_limit > 0 && wall >= next_disk_check) {
      // Often, but never more than a fifth of the time: a folder of many
      // files takes a while to measure.
      const WallClock measuring;
      r.disk_bytes = folder_bytes(spec.dir, spec.disk_limit);
      next_disk_check = clock.seconds() + std::max(kMaxPollSeconds, 4.0 * measuring.seconds());
    }
    if (spec.cancel != nullptr && spec.cancel->load()) {
      ours = Stop::Cancelled;
    } else if (spec.cpu_limit > 0.0 && cpu > spec.cpu_limit) {
      ours = Stop::CpuLimit;
    } else if (spec.wall_limit > 0.0 && wall > spec.wall_limit) {
      ours = Stop::WallLimit;
    } else if (spec.disk_limit > 0 && r.disk_bytes > spec.disk_limit) {
      ours = Stop::DiskLimit;
    } else if (spec.output_limit > 0 && output_of(child) > spec.output_limit) {
      ours = Stop::OutputLimit;
    } else if (over != box::Cgroups::Over::None) {
      ours = over == box::Cgroups::Over::Memory ? Stop::MemoryLimit : Stop::ProcessLimit;
    } else if (spec.box && spec.cpu_limit > 0.0 && system > spec.cpu_limit) {
      // The kernel's time on its behalf is not charged, but has its own cap.
      ours = Stop::SystemCpuLimit;
    }
    if (ours) break;
    // The wake-up descriptor tells at once when it ends.
    double until = next_scan - wall;
    if (spec.wall_limit > 0.0) until = std::min(until, spec.wall_limit - wall);
    if (spec.disk_limit > 0) until = std::min(until, next_disk_check - wall);
    wait_a_little(watched.wake_fd(), child.streams, spec.log_limit, spec.output_limit,
                  std::max(until, 0.0005));
  }
  r.wall_seconds = clock.seconds();

  // Step 3. Whatever is left of it is killed and reaped.
  const int status = watched.finish(r.leftovers);
  // The kernel's own count: what hit a limit.
  if (!ours && watched.over() != box::Cgroups::Over::None) {
    ours = watched.over() == box::Cgroups::Over::Memory ? Stop::MemoryLimit : Stop::ProcessLimit;
  }
  r.peak_memory = watched.peak_memory();
  if (ours == Stop::MemoryLimit || ours == Stop::ProcessLimit) {
    r.limit = box::over_text(
        ours == Stop::MemoryLimit ? box::Cgroups::Over::Memory : box::Cgroups::Over::Processes,
        spec.box->limits);
  }
  r.cpu = watched.charged();
  r.cpu_seconds = r.cpu.charge(spec.charge);
  // Step 4. What is left in the pipes, then a line for what was dropped.
  for (auto& st : child.streams) {
    drain(st, spec.log_limit, true);
    if (st.dropped > 0 && st.log >= 0) {
      const std::string note =
          fmt::format("\n[duel: {} more bytes of output dropped; {} bytes a run are kept]\n",
                      st.dropped, spec.log_limit);
      (void)!::write(st.log, note.data(), note.size());
    }
    r.dropped += st.dropped;
  }
  close_streams(child);
  if (spec.disk_limit > 0 && !ours) {
    r.disk_bytes = folder_bytes(spec.dir, spec.disk_limit);
    if (r.disk_bytes > spec.disk_limit) ours = Stop::DiskLimit;
  }
  if (ours) {
    r.stop = *ours;
    r.leftovers = 0;
  } else if (status < 0) {
    r.stop = Stop::SpawnFailed;
    r.error = watched.lost();
  } else if (WIFSIGNALED(status)) {
    r.stop = Stop::Signaled;
    r.signal = WTERMSIG(status);
  } else {
    r.stop = Stop::Exited;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  return r;
}

}  // namespace detail

namespace {

// A run we started ourselves: its tree found through /proc, its pidfd, and
// (boxed) its own cgroups.
class TreeWatch final : public detail::Watched {
 public:
  TreeWatch(const RunSpec& spec, pid_t pid, box::Cgroups& cgroups)
      : m_pid(pid),
        m_pidfd(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0))),
        m_boxed(spec.box.has_value()),
        m_tree(pid, spec.adopt_strays),
        m_cgroups(cgroups) {}
  ~TreeWatch() override {
    if (m_pidfd >= 0) ::close(m_pidfd);
  }
  TreeWatch(const TreeWatch&) = delete;
  TreeWatch& operator=(const TreeWatch&) = delete;

  [[nodiscard]] int wake_fd() const override { return m_pidfd; }
  [[nodiscard]] bool ended() override { return root_ended(m_pid); }
  [[nodiscard]] CpuTime poll() override { return m_tree.poll(); }
  [[nodiscard]] box::Cgroups::Over over() const override {
    if (m_finished) return m_over;
    return m_cgroups.active() ? m_cgroups.over() : box::Cgroups::Over::None;
  }
  [[nodiscard]] int finish(int& leftovers) override {
    bool cleared = false;
    leftovers = m_tree.clear(2.0, cleared);
    int status = m_tree.reap_root();
    if (!cleared) (void)m_tree.clear(0.5, cleared);  // the first ran out of time
    if (m_cgroups.active()) {
      m_over = m_cgroups.over();
      m_peak = m_cgroups.peak_memory();
      m_cgroups.remove();
    }
    // bwrap reports its program's death by signal N as status 128 + N.
    if (m_boxed && WIFEXITED(status) && WEXITSTATUS(status) > 128 &&
        WEXITSTATUS(status) < 128 + NSIG) {
      status = WEXITSTATUS(status) - 128;  // the wait status of that signal
    }
    m_finished = true;
    return status;
  }
  [[nodiscard]] CpuTime charged() const override { return m_tree.charged(); }
  [[nodiscard]] std::uint64_t peak_memory() const override { return m_peak; }

 private:
  pid_t m_pid;
  int m_pidfd;
  bool m_boxed;
  Tree m_tree;
  box::Cgroups& m_cgroups;
  bool m_finished = false;
  box::Cgroups::Over m_over = box::Cgroups::Over::None;
  std::uint64_t m_peak = 0;
};

}  // namespace

RunResult run_agent(const RunSpec& spec) {
  // Orphans of the agent come back to us, not to init (process-wide, idempotent).
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  // A move in a box kept for the game, where there is one.
  if (spec.keeper != nullptr && spec.box) {
    if (auto kept = detail::run_kept(spec)) return *kept;
  }
  // Step 1. A boxed program's budgets: its cgroups, made before it starts.
  box::Cgroups cgroups;
  box::ChildSteps steps;
  if (spec.box) {
    cgroups = box::Cgroups::make(spec.box->limits);
    steps = box::child_steps(spec.box->limits);
    cgroups.prepare(steps);
  }
  const WallClock clock;
  Spawned child = spawn(spec, spec.box ? &steps : nullptr);
  if (child.pid < 0) {
    RunResult r;
    r.error = child.error;
    return r;
  }
  TreeWatch watched(spec, child.pid, cgroups);
  return detail::watch(spec, child, watched, clock);
}

}  // namespace duel::referee
