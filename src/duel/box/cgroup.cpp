// One box's cgroups (cgroup.hpp).
#include "duel/box/cgroup.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include <fmt/format.h>

namespace duel::box {
namespace {

constexpr const char* kRoot = "/sys/fs/cgroup";

[[nodiscard]] bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

[[nodiscard]] bool put(const std::string& file, const std::string& text) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  return ok;
}

[[nodiscard]] std::string slurp(const std::string& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The number after `key` in a "key value" file (memory.events, pids.events,
// memory.oom_control); 0 when absent.
[[nodiscard]] std::uint64_t field(const std::string& file, const std::string& key) {
  std::istringstream in(slurp(file));
  std::string k;
  std::uint64_t v = 0;
  while (in >> k >> v) {
    if (k == key) return v;
  }
  return 0;
}

[[nodiscard]] std::uint64_t number(const std::string& file) {
  return std::strtoull(slurp(file).c_str(), nullptr, 10);
}

// Removes the empty cgroups of Duel processes that died without removing
// them (killed with SIGKILL): box-PID-N whose PID is gone.
void sweep(const std::string& base) {
  std::error_code ec;
  for (std::filesystem::directory_iterator it(base, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with("box-")) continue;
    const long pid = std::strtol(name.c_str() + 4, nullptr, 10);
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
      (void)::rmdir(it->path().c_str());  // fails, harmlessly, while not empty
    }
  }
}

// A fresh cgroup folder under `parent/duel`, or "" when it cannot be made.
[[nodiscard]] std::string make_under(const std::string& parent) {
  static std::atomic<unsigned> counter{0};
  const std::string base = parent + "/duel";
  if (::mkdir(base.c_str(), 0755) != 0 && errno != EEXIST) return {};
  if (counter.load() == 0) sweep(base);  // once a process
  std::string dir =
      fmt::format("{}/box-{}-{}", base, static_cast<int>(::getpid()), counter.fetch_add(1));
  if (::mkdir(dir.c_str(), 0755) != 0) return {};
  return dir;
}

void kill_listed(const std::string& dir, int& killed) {
  std::istringstream in(slurp(dir + "/cgroup.procs"));
  long pid = 0;
  while (in >> pid) {
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), SIGKILL) == 0) ++killed;
  }
}

void sleep_ms(long ms) {
  timespec ts{0, ms * 1000000L};
  ::nanosleep(&ts, nullptr);
}

}  // namespace

Cgroups Cgroups::make(const Limits& limits) {
  Cgroups c;
  c.m_limits = limits;
  if (::geteuid() != 0) return c;
  const std::string root = kRoot;
  const std::string mem = std::to_string(limits.memory);
  const std::string pids = std::to_string(limits.processes);
  if (exists(root + "/memory/memory.limit_in_bytes")) {
    // Step 1 (v1). A memory cgroup: the limit, and no swap past it.
    c.m_memory = make_under(root + "/memory");
    if (!c.m_memory.empty() && put(c.m_memory + "/memory.limit_in_bytes", mem)) {
      (void)put(c.m_memory + "/memory.memsw.limit_in_bytes", mem);
      c.m_memory_procs = ::open((c.m_memory + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
    }
    if (exists(root + "/pids/cgroup.procs")) {
      c.m_pids = make_under(root + "/pids");
      if (!c.m_pids.empty() && put(c.m_pids + "/pids.max", pids)) {
        c.m_pids_procs = ::open((c.m_pids + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
      }
    }
  } else if (slurp(root + "/cgroup.controllers").find("memory") != std::string::npos) {
    // Step 1 (v2). One cgroup holds both budgets.
    (void)put(root + "/cgroup.subtree_control", "+memory +pids");
    if (::mkdir((root + "/duel").c_str(), 0755) == 0 || errno == EEXIST) {
      (void)put(root + "/duel/cgroup.subtree_control", "+memory +pids");
    }
    c.m_memory = make_under(root);
    if (!c.m_memory.empty() && put(c.m_memory + "/memory.max", mem)) {
      (void)put(c.m_memory + "/memory.swap.max", "0");
      if (put(c.m_memory + "/pids.max", pids)) c.m_pids = c.m_memory;
      c.m_memory_procs = ::open((c.m_memory + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
    }
  }
  return c;
}

Cgroups::Cgroups(Cgroups&& other) noexcept {
  *this = std::move(other);
}

Cgroups& Cgroups::operator=(Cgroups&& other) noexcept {
  if (this != &other) {
    remove();
    m_memory = std::exchange(other.m_memory, {});
    m_pids = std::exchange(other.m_pids, {});
    m_memory_procs = std::exchange(other.m_memory_procs, -1);
    m_pids_procs = std::exchange(other.m_pids_procs, -1);
    m_limits = other.m_limits;
  }
  return *this;
}

Cgroups::~Cgroups() {
  remove();
}

void Cgroups::prepare(ChildSteps& steps) const noexcept {
  steps.cgroup_fds[0] = m_memory_procs;
  steps.cgroup_fds[1] = m_pids_procs;
  steps.set_as = m_memory_procs < 0;
  if (steps.set_as) steps.as = {m_limits.memory, m_limits.memory};
}

Cgroups::Hits Cgroups::hits() const {
  Hits h{0, 0};
  if (!m_memory.empty()) {
    h[0] = exists(m_memory + "/memory.oom_control")
               ? field(m_memory + "/memory.oom_control", "oom_kill")
               : field(m_memory + "/memory.events", "oom_kill");
  }
  if (!m_pids.empty()) h[1] = field(m_pids + "/pids.events", "max");
  return h;
}

Cgroups::Over Cgroups::over_since(const Hits& before) const {
  const Hits now = hits();
  if (now[0] > before[0]) return Over::Memory;
  if (now[1] > before[1]) return Over::Processes;
  return Over::None;
}

void Cgroups::reset_peak() const {
  if (!m_memory.empty() && exists(m_memory + "/memory.max_usage_in_bytes")) {
    (void)put(m_memory + "/memory.max_usage_in_bytes", "0");
  }
}

std::uint64_t Cgroups::peak_memory() const {
  if (m_memory.empty()) return 0;
  if (exists(m_memory + "/memory.max_usage_in_bytes")) {
    return number(m_memory + "/memory.max_usage_in_bytes");
  }
  return number(m_memory + "/memory.peak");
}

int Cgroups::kill_all() const {
  int killed = 0;
  for (const std::string* dir : {&m_memory, &m_pids}) {
    if (!dir->empty()) kill_listed(*dir, killed);
  }
  return killed;
}

void Cgroups::remove() {
  for (int* fd : {&m_memory_procs, &m_pids_procs}) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
  for (std::string* dir : {&m_memory, &m_pids}) {
    if (dir->empty()) continue;
    // Killed processes leave their cgroup once they are gone: up to a second.
    for (int tries = 0; tries < 200; ++tries) {
      int killed = 0;
      kill_listed(*dir, killed);
      if (::rmdir(dir->c_str()) == 0 || errno == ENOENT) break;
      sleep_ms(5);
    }
    if (m_pids == *dir && dir != &m_pids) m_pids.clear();  // v2: one folder for both
    dir->clear();
  }
}

std::string over_text(Cgroups::Over over, const Limits& limits) {
  switch (over) {
    case Cgroups::Over::Memory: return fmt::format("memory limit {} MiB", limits.memory >> 20);
    case Cgroups::Over::Processes: return fmt::format("process limit {}", limits.processes);
    case Cgroups::Over::None: break;
  }
  return {};
}

}  // namespace duel::box
