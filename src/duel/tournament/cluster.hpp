#pragma once
// Task documents (tasks.hpp) run on a Dask cluster instead of this
// machine's threads: the Python bridge (python/duel/cluster) is started as a
// child, handed each task as a JSON line, and hands back each journal entry
// as the task ends on some worker (docs/cluster.md).
//
// Why a bridge and not a client of our own: Dask's scheduler speaks its own
// protocol through its own client library, which is Python; the bridge is
// that client and nothing more, and the C++ side stays the only place that
// plans, journals and scores.
#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "duel/core/result.hpp"
#include "duel/core/subprocess.hpp"

namespace duel::tournament {

// Where the Python package `duel` is: $DUEL_PYTHONPATH, else build/python
// beside this binary's build/bin. Empty when neither holds it.
[[nodiscard]] std::filesystem::path python_package_dir();

// A scratch folder for a run that has no output folder of its own (an
// arena, a solve): the bridge's log and the tasks' files, removed at the
// end. `dir` is empty when it could not be made.
struct ScratchDir {
  std::filesystem::path dir;
  explicit ScratchDir(const std::string& prefix);
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
};

class Cluster {
 public:
  struct Settings {
    std::string scheduler;      // tcp://HOST:PORT
    std::filesystem::path out;  // the tournament's folder
    bool shared = false;        // `out` is on every host at the same path
    std::string worker_duel;    // where workers look for duel first ("": this binary's path)
  };

  // Starts the bridge and waits until it has reached the scheduler; errors
  // (no Python package, no Dask, no scheduler there) are one line.
  [[nodiscard]] static Result<std::unique_ptr<Cluster>> connect(const Settings& settings);
  ~Cluster();
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  [[nodiscard]] int workers() const noexcept { return m_workers; }

  // What the caller says after an entry: go on, cancelling the tasks it no
  // longer needs (by key), or stop.
  struct Reply {
    bool go_on = true;
    std::vector<std::string> cancel;
  };
  using OnEntry = std::function<Reply(const nlohmann::json&)>;

  // Runs `tasks` (each gets this build's id, so a worker of another build
  // refuses it), calling `on_entry` with each entry as it ends, in the order
  // they end. Returns true when all have ended or been cancelled; false when
  // `cancel` is set or `on_entry` says stop (the tasks not yet ended are
  // cancelled on the cluster, running ones stopped); the error (one line)
  // when the cluster fails. Entries handed over stay handed over.
  [[nodiscard]] Result<bool> run(const std::vector<const nlohmann::json*>& tasks,
                                 const OnEntry& on_entry, const std::atomic<bool>* cancel);

 private:
  explicit Cluster(std::unique_ptr<Subprocess> bridge) : m_bridge(std::move(bridge)) {}
  std::unique_ptr<Subprocess> m_bridge;
  std::filesystem::path m_log;
  int m_workers = 0;
};

}  // namespace duel::tournament
