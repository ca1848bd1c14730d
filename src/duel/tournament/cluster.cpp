#include "duel/tournament/cluster.hpp"

#include <cstdlib>
#include <fstream>
#include <set>
#include <system_error>

#include <fmt/format.h>

#include "duel/core/build_id.hpp"
#include "duel/core/text.hpp"

namespace duel::tournament {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = Subprocess::Clock;

// The bridge's last word on stderr (Python's traceback ends with the error).
[[nodiscard]] std::string last_line(const fs::path& log) {
  std::ifstream in(log);
  std::string line;
  std::string last;
  while (std::getline(in, line)) {
    if (!trim(line).empty()) last = std::string(trim(line));
  }
  return last.size() > 300 ? last.substr(0, 300) + "..." : last;
}

}  // namespace

ScratchDir::ScratchDir(const std::string& prefix) {
  std::string pattern = (fs::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) != nullptr) dir = pattern;
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  if (!dir.empty()) fs::remove_all(dir, ec);
}

fs::path python_package_dir() {
  std::error_code ec;
  if (const char* env = std::getenv("DUEL_PYTHONPATH"); env != nullptr && *env != '\0') {
    return fs::path(env);
  }
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  const fs::path beside = self.parent_path().parent_path() / "python";
  return fs::is_regular_file(beside / "duel/__init__.py", ec) ? beside : fs::path();
}

Result<std::unique_ptr<Cluster>> Cluster::connect(const Settings& s) {
  // Step 1. The bridge: Debian's Python with the package beside this binary.
  const fs::path package = python_package_dir();
  std::error_code ec;
  if (package.empty() || !fs::is_regular_file(package / "duel/cluster/__main__.py", ec)) {
    return fail(
        "cluster: the Python package duel (build/python, with duel.cluster) is not beside this "
        "binary; set DUEL_PYTHONPATH");
  }
  std::string path = package.string();
  if (const char* old = std::getenv("PYTHONPATH"); old != nullptr && *old != '\0') {
    path += std::string(":") + old;
  }
  ::setenv("PYTHONPATH", path.c_str(), 1);
  const std::string duel =
      s.worker_duel.empty() ? fs::read_symlink("/proc/self/exe", ec).string() : s.worker_duel;
  std::vector<std::string> argv = {"/usr/bin/python3", "-m",        "duel.cluster", "tasks",
                                   "--scheduler",      s.scheduler, "--out",        s.out.string(),
                                   "--duel",           duel};
  if (s.shared) argv.emplace_back("--shared");
  const fs::path log = s.out / "cluster.log";
  auto bridge = Subprocess::start(argv, log);
  if (!bridge) return fail("cluster: cannot start the bridge: " + bridge.error());
  std::unique_ptr<Cluster> cluster(new Cluster(std::move(*bridge)));
  cluster->m_log = log;

  // Step 2. Its first line: ready, or why not.
  std::string line;
  const auto r = cluster->m_bridge->read_line(line, Clock::now() + std::chrono::seconds(60));
  if (r != Subprocess::Read::Line) {
    const std::string said = last_line(log);
    return fail(fmt::format("cluster: the bridge to {} ended before it was ready{}", s.scheduler,
                            said.empty() ? "" : " (" + said + ")"));
  }
  const auto hello = json::parse(line, nullptr, false);
  if (hello.is_discarded() || !hello.is_object()) {
    return fail("cluster: the bridge said something else than JSON: " + line.substr(0, 200));
  }
  if (hello.contains("error")) return fail("cluster: " + hello["error"].get<std::string>());
  cluster->m_workers = hello.value("workers", 0);
  return cluster;
}

Cluster::~Cluster() {
  if (m_bridge) m_bridge->stop("", 5.0);
}

Result<bool> Cluster::run(const std::vector<const json*>& tasks, const OnEntry& on_entry,
                          const std::atomic<bool>* cancel) {
  // Step 1. Every task, with this build's id.
  std::set<std::string> waiting;
  for (const json* t : tasks) {
    json task = *t;
    task["build"] = kBuildId;
    waiting.insert(task["key"].get<std::string>());
    if (!m_bridge->write_line(json{{"task", task}}.dump(),
                              Clock::now() + std::chrono::seconds(60))) {
      return fail("cluster: the bridge stopped reading" + std::string(" (") + last_line(m_log) +
                  ")");
    }
  }
  // Step 2. Entries as they come, until each task has one.
  std::string line;
  while (!waiting.empty()) {
    if (cancel != nullptr && cancel->load()) {
      (void)m_bridge->write_line(R"({"cancel": true})", Clock::now() + std::chrono::seconds(2));
      return false;
    }
    const auto r = m_bridge->read_line(line, Clock::now() + std::chrono::milliseconds(200));
    if (r == Subprocess::Read::Timeout) continue;
    if (r == Subprocess::Read::Closed) {
      const std::string said = last_line(m_log);
      return fail("cluster: the bridge ended" + (said.empty() ? "" : " (" + said + ")"));
    }
    const auto message = json::parse(line, nullptr, false);
    if (message.is_discarded() || !message.is_object()) continue;
    if (message.contains("error")) return fail("cluster: " + message["error"].get<std::string>());
    if (!message.contains("entry") || !message.contains("key")) continue;
    const std::string key = message["key"];
    if (waiting.erase(key) == 0) continue;  // one entry a task, whatever Dask did
    const Reply reply = on_entry(message["entry"]);
    if (!reply.go_on) {
      (void)m_bridge->write_line(R"({"cancel": true})", Clock::now() + std::chrono::seconds(2));
      return false;
    }
    json dropped = json::array();
    for (const auto& k : reply.cancel) {
      if (waiting.erase(k) > 0) dropped.push_back(k);
    }
    if (!dropped.empty() && !m_bridge->write_line(json{{"cancel_keys", dropped}}.dump(),
                                                  Clock::now() + std::chrono::seconds(60))) {
      return fail("cluster: the bridge stopped reading (" + last_line(m_log) + ")");
    }
  }
  return true;
}

}  // namespace duel::tournament
