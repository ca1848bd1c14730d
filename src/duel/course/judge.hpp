#pragma once
// The judges: threads that claim jobs from the store and run each one as a
// `duel tournament` (or, for a CS3243 ladder match, `python3 -m duel.cs3243
// match`) process, then file its result.
//
// Why a process a job: the students' programs already run in the box
// (docs/box.md) under the tournament; running the tournament itself as a
// child keeps a judge that crashes or is killed from taking the server
// with it, and lets the same job resume from its journal when the server
// restarts. The child dies with its judge thread's process (PDEATHSIG), and
// its own guard then ends everything it started.
#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "duel/course/course.hpp"
#include "duel/course/store.hpp"

namespace duel::course {

struct JudgeOptions {
  int workers = 2;          // jobs at once
  std::string scheduler;    // tcp://HOST:PORT: the tournaments run their tasks on Dask
  std::string duel_binary;  // the `duel` to run (default: beside this program)
  int max_attempts = 3;     // a job whose judge dies this often fails
};

class Judges {
 public:
  Judges(Store& store, Config config, std::filesystem::path dir, JudgeOptions options);
  ~Judges();
  Judges(const Judges&) = delete;
  Judges& operator=(const Judges&) = delete;

  void start();
  // Stops the judges: running jobs are killed and stay queued for the next start.
  void stop();
  // Wakes an idle judge (a job was added).
  void poke();
  // Jobs finished since start (tests wait on it).
  [[nodiscard]] long finished() const { return m_finished.load(); }

  // Where a job's files go.
  [[nodiscard]] std::filesystem::path job_dir(std::int64_t job) const;
  [[nodiscard]] std::filesystem::path run_dir(std::int64_t run) const;
  [[nodiscard]] std::filesystem::path submission_dir(std::int64_t submission) const;

  // The judge's summary of a finished judge job's folder (results.json and
  // the feedback): what the pages show. Public for tests.
  [[nodiscard]] static nlohmann::json summarize(Kind kind, const std::filesystem::path& out,
                                                const std::string& student);
  // The tests finished so far in a running job's journal.
  [[nodiscard]] static nlohmann::json progress(const std::filesystem::path& out);

 private:
  void work(int index);
  void run_job(const Job& job);
  // Runs argv to the end (killed by stop(), or after `limit` seconds when
  // positive: "time-limit"); "" when it exited 0, else how it ended.
  std::string run_process(std::vector<std::string> argv, const std::filesystem::path& log,
                          const std::vector<std::string>& env, double limit = 0);
  void plan_ladder();

  Store& m_store;
  Config m_config;
  std::filesystem::path m_dir;
  JudgeOptions m_options;
  std::vector<std::thread> m_threads;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  std::condition_variable m_ended;  // a child was reaped
  bool m_stopping = false;
  std::vector<int> m_running;  // process groups of running children, guarded by m_mutex
  long m_pokes = 0;            // guarded by m_mutex: work added since a judge last looked
  std::atomic<long> m_finished{0};
};

}  // namespace duel::course
