#include "duel/course/judge.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "duel/arena/glicko2.hpp"
#include "duel/core/file.hpp"
#include "duel/core/subprocess.hpp"

extern char** environ;  // NOLINT: POSIX

namespace duel::course {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A file a judge's run wrote, up to `max` bytes ("" when there is none).
std::string read_text(const fs::path& p, std::uint64_t max = 1 << 20) {
  return read_own_file(p, 0, max).value_or("");
}

json read_json(const fs::path& p) {
  const auto text = read_own_file(p, 0, 256 << 20);
  if (!text) return nullptr;
  return json::parse(*text, nullptr, false);
}

// The last non-empty line of a log, for a failed job's message.
std::string last_line(const fs::path& log) {
  std::istringstream in(read_text(log));
  std::string line;
  std::string last;
  while (std::getline(in, line)) {
    if (!line.empty()) last = line;
  }
  return last;
}

fs::path self_folder() {
  std::error_code ec;
  return fs::read_symlink("/proc/self/exe", ec).parent_path();
}

// Copies a submission's files into `to` (a class folder's entry).
void copy_submission(const fs::path& from, const fs::path& to) {
  fs::create_directories(to);
  for (const auto& e : fs::directory_iterator(from)) {
    if (e.is_regular_file()) {
      fs::copy_file(e.path(), to / e.path().filename(), fs::copy_options::overwrite_existing);
    }
  }
}

// The tournament's PYTHONPATH logic for the CS3243 match (cmd_tournament.cpp).
std::string python_path(const fs::path& duel) {
  if (const char* p = std::getenv("DUEL_PYTHONPATH"); p != nullptr) return p;
  return (duel.parent_path().parent_path() / "python").string();
}

}  // namespace

Judges::Judges(Store& store, Config config, fs::path dir, JudgeOptions options)
    : m_store(store),
      m_config(std::move(config)),
      m_dir(std::move(dir)),
      m_options(std::move(options)) {
  if (m_options.duel_binary.empty()) m_options.duel_binary = (self_folder() / "duel").string();
}

Judges::~Judges() {
  stop();
}

void Judges::start() {
  m_stopping = false;
  for (int i = 0; i < std::max(1, m_options.workers); ++i) {
    m_threads.emplace_back([this, i] { work(i); });
  }
}

void Judges::stop() {
  // SIGTERM first (a tournament stops cleanly, its journal kept), SIGKILL
  // to what is left after 5 s: a journal makes either safe to resume.
  {
    std::unique_lock lock(m_mutex);
    m_stopping = true;
    for (const int group : m_running) ::kill(-group, SIGTERM);
    if (!m_ended.wait_for(lock, std::chrono::seconds(5), [&] { return m_running.empty(); })) {
      for (const int group : m_running) ::kill(-group, SIGKILL);
    }
  }
  m_wake.notify_all();
  for (auto& t : m_threads) {
    if (t.joinable()) t.join();
  }
  m_threads.clear();
}

void Judges::poke() {
  {
    const std::lock_guard lock(m_mutex);
    ++m_pokes;
  }
  m_wake.notify_all();
}

fs::path Judges::job_dir(std::int64_t job) const {
  return m_dir / "jobs" / std::to_string(job);
}
fs::path Judges::run_dir(std::int64_t run) const {
  return m_dir / "runs" / std::to_string(run);
}
fs::path Judges::submission_dir(std::int64_t submission) const {
  return m_dir / "submissions" / std::to_string(submission);
}

void Judges::work(int /*index*/) {
  while (true) {
    {
      const std::lock_guard lock(m_mutex);
      if (m_stopping) return;
    }
    std::optional<Job> job;
    try {
      job = m_store.claim_job();
      if (!job && m_config.ladder) {
        plan_ladder();
        job = m_store.claim_job();
      }
      if (job) run_job(*job);
    } catch (const std::exception& e) {
      // A broken disk or database, or a bug: the job fails with the reason
      // and the judge goes on (an exception must not end the server).
      std::cerr << "duel course: judge: " << e.what() << std::endl;
      if (job) {
        try {
          m_store.fail_job(*job, fmt::format("the judge failed: {}", e.what()));
        } catch (const std::exception&) {  // NOLINT(bugprone-empty-catch): the database is gone
        }
        continue;
      }
    }
    if (job) continue;
    // Idle until poked (a submission, a run) or a minute passes.
    std::unique_lock lock(m_mutex);
    const long seen = m_pokes;
    m_wake.wait_for(lock, std::chrono::seconds(60), [&] { return m_stopping || m_pokes != seen; });
  }
}

std::string Judges::run_process(std::vector<std::string> argv, const fs::path& log,
                                const std::vector<std::string>& env, double limit) {
  // Step 1. Fork: the child gets its own process group, dies with us
  // (SIGKILL, PDEATHSIG), runs at nice 10, inherits only 0-2 and writes to `log`; its
  // environment is ours and `env` (made before the fork).
  const pid_t parent = ::getpid();
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  std::vector<std::string> environment;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    const auto key = entry.substr(0, entry.find('=') + 1);
    if (std::none_of(env.begin(), env.end(), [&](const auto& x) { return x.rfind(key, 0) == 0; })) {
      environment.push_back(entry);
    }
  }
  environment.insert(environment.end(), env.begin(), env.end());
  std::vector<char*> envp;
  envp.reserve(environment.size() + 1);
  for (auto& e : environment) envp.push_back(e.data());
  envp.push_back(nullptr);
  const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  const int in = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  std::unique_lock lock(m_mutex);
  if (m_stopping) {
    if (out >= 0) ::close(out);
    if (in >= 0) ::close(in);
    return "stopped";
  }
  const pid_t pid = ::fork();
  if (pid == 0) {
    // Nice 10: the pages stay quick while judges work; a program's clock is
    // its CPU time, which niceness does not change.
    ::setpriority(PRIO_PROCESS, 0, 10);
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    if (in >= 0) ::dup2(in, 0);
    if (out >= 0) {
      ::dup2(out, 1);
      ::dup2(out, 2);
    }
    close_from_3(-1);
    ::execve(args[0], args.data(), envp.data());
    ::_exit(127);
  }
  if (out >= 0) ::close(out);
  if (in >= 0) ::close(in);
  if (pid < 0) return fmt::format("cannot start {}: {}", argv[0], std::strerror(errno));
  m_running.push_back(pid);
  lock.unlock();
  // Step 2. Wait for it (stop() signals its group); past `limit` seconds a
  // watchdog kills it (its own guard then ends what it started).
  bool over = false;
  std::thread watchdog;
  if (limit > 0) {
    watchdog = std::thread([&] {
      std::unique_lock held(m_mutex);
      const auto gone = [&] {
        return std::find(m_running.begin(), m_running.end(), pid) == m_running.end();
      };
      if (!m_ended.wait_for(held, std::chrono::duration<double>(limit), gone)) {
        over = true;
        ::kill(-pid, SIGKILL);
      }
    });
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  lock.lock();
  std::erase(m_running, pid);
  m_ended.notify_all();
  lock.unlock();
  if (watchdog.joinable()) watchdog.join();
  lock.lock();
  if (m_stopping) return "stopped";
  if (over) return "time-limit";
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
  const std::string why = WIFEXITED(status) ? fmt::format("exit status {}", WEXITSTATUS(status))
                                            : fmt::format("killed by signal {}", WTERMSIG(status));
  const std::string line = last_line(log);
  return line.empty() ? why : fmt::format("{}: {}", why, line);
}

void Judges::run_job(const Job& job) {
  // Step 1. The command and the folders.
  const fs::path dir =
      job.kind == "grading" || job.kind == "competition" ? run_dir(job.run) : job_dir(job.id);
  fs::create_directories(dir);
  const fs::path out = dir / "out";
  const std::string& course = m_config.course;
  std::vector<std::string> argv;
  std::string student;
  std::vector<Submission> players;
  const auto add_common = [&](const std::vector<std::string>& extra) {
    argv.insert(argv.end(), {"--out", out.string(), "--quiet"});
    if (!m_options.scheduler.empty()) {
      argv.insert(argv.end(), {"--scheduler", m_options.scheduler});
    } else {
      argv.insert(argv.end(), {"--concurrency", "1"});
    }
    argv.insert(argv.end(), extra.begin(), extra.end());
  };
  if (job.kind == "judge") {
    const auto sub = m_store.submission(job.submission);
    if (!sub) return m_store.fail_job(job, "the submission is gone");
    student = sub->student;
    argv = {m_options.duel_binary, "tournament", course, submission_dir(job.submission).string()};
    add_common(m_config.practice);
  } else if (job.kind == "ladder") {
    for (const auto id : {job.submission, job.opponent}) {
      auto sub = m_store.submission(id);
      if (!sub) return m_store.fail_job(job, "a submission of the match is gone");
      copy_submission(submission_dir(id) / sub->student, dir / "class" / sub->student);
      players.push_back(*sub);
    }
    if (m_config.kind() == Kind::Cs3243) {
      argv = {"/usr/bin/python3",
              "-m",
              "duel.cs3243",
              "match",
              (dir / "class" / players[0].student / "AB.py").string(),
              (dir / "class" / players[1].student / "AB.py").string(),
              "--out",
              out.string(),
              "--games",
              std::to_string(m_config.ladder_games),
              "--names",
              players[0].student + "," + players[1].student};
    } else {
      const std::string game = m_config.kind() == Kind::Csci561 ? "checkers" : m_config.course;
      argv = {m_options.duel_binary,
              "tournament",
              game,
              (dir / "class").string(),
              "--format",
              "round-robin",
              "--games",
              std::to_string(m_config.ladder_games)};
      add_common(m_config.ladder_args);
    }
  } else {
    const auto run = m_store.run(job.run);
    if (!run) return m_store.fail_job(job, "the run is gone");
    for (const auto& pair : run->students) {
      const std::string who = pair.at(0).get<std::string>();
      copy_submission(submission_dir(pair.at(1).get<std::int64_t>()) / who, dir / "class" / who);
    }
    argv = {m_options.duel_binary, "tournament", course, (dir / "class").string()};
    if (job.kind == "competition") argv.insert(argv.end(), {"--format", "competition"});
    add_common(job.kind == "competition" ? m_config.competition : m_config.grading);
  }
  // Step 2. Run it. A judge that dies is run again (its journal keeps what
  // it finished); one that keeps dying fails the job with its last words.
  std::vector<std::string> env;
  if (m_config.kind() == Kind::Cs3243) {
    env = {"DUEL_BIN=" + m_options.duel_binary, "PYTHONPATH=" + python_path(m_options.duel_binary)};
  }
  const double limit = job.kind == "judge" ? m_config.feedback_seconds : 0.0;
  const std::string ended = run_process(argv, dir / "judge.log", env, limit);
  if (ended == "stopped") return m_store.requeue(job);
  if (ended == "time-limit") {
    // The platform's limit on a whole feedback run (CS3243: CodePost's
    // 30 s): the student is told; the program still plays on the ladder.
    m_store.finish_judge(
        job,
        {{"course", m_config.course},
         {"points", 0},
         {"playable", true},
         {"error", ""},
         {"timed_out", true},
         {"message", fmt::format("The tests did not finish within {} s, the platform's time limit "
                                 "for a submission's feedback: make your moves faster.",
                                 limit)}},
        0);
    ++m_finished;
    return;
  }
  if (!ended.empty()) {
    if (job.attempts < m_options.max_attempts) return m_store.requeue(job);
    m_store.fail_job(job, fmt::format("the judge failed: {}", ended));
    ++m_finished;
    return;
  }
  // Step 3. File the result.
  if (job.kind == "judge") {
    json summary = summarize(m_config.kind(), out, student);
    if (summary.is_null()) {
      m_store.fail_job(job, "the judge left no results.json");
    } else {
      const double points = summary.value("points", 0.0);
      m_store.finish_judge(job, summary, points);
    }
  } else if (job.kind == "ladder") {
    const json doc = read_json(out / "results.json");
    std::vector<LadderGame> games;
    if (m_config.kind() == Kind::Cs3243) {
      for (const auto& g : doc.value("games", json::array())) {
        LadderGame lg;
        const bool a_white = g.value("white", "") == players[0].student;
        lg.white = a_white ? players[0].id : players[1].id;
        lg.black = a_white ? players[1].id : players[0].id;
        lg.white_student = a_white ? players[0].student : players[1].student;
        lg.black_student = a_white ? players[1].student : players[0].student;
        const auto result = g.value("result", "1/2-1/2");
        lg.score = result == "1-0" ? 1.0 : result == "0-1" ? 0.0 : 0.5;
        lg.reason = g.value("reason", "");
        const fs::path pgn = out / fmt::format("game-{}.pgn", g.value("game", 0));
        (void)write_file_atomic(pgn, g.value("pgn", ""));
        lg.record = fs::relative(pgn, m_dir).string();
        games.push_back(std::move(lg));
      }
    } else {
      // Each game once, from the first player's entry.
      for (const auto& s : doc.value("students", json::array())) {
        if (s.value("name", "") != players[0].student) continue;
        for (const auto& g : s.value("games", json::array())) {
          LadderGame lg;
          const bool a_first = g.value("colour", "") == "Black";  // Black moves first
          lg.white = a_first ? players[0].id : players[1].id;
          lg.black = a_first ? players[1].id : players[0].id;
          lg.white_student = a_first ? players[0].student : players[1].student;
          lg.black_student = a_first ? players[1].student : players[0].student;
          const std::string r = g.value("result", "draw");
          const double a_score = r == "win" ? 1.0 : r == "loss" ? 0.0 : 0.5;
          lg.score = a_first ? a_score : 1.0 - a_score;
          lg.reason = g.value("reason", "");
          lg.record = fs::relative(out / g.value("record", ""), m_dir).string();
          games.push_back(std::move(lg));
        }
      }
    }
    // Glicko-2, game by game (each game a rating period of its own).
    Rating a =
        m_store.rating(players[0].student).value_or(Rating{players[0].student, players[0].id});
    Rating b =
        m_store.rating(players[1].student).value_or(Rating{players[1].student, players[1].id});
    for (const auto& g : games) {
      const double a_score = g.white == players[0].id ? g.score : 1.0 - g.score;
      const arena::glicko2::Rating ra{a.rating, a.rd, a.volatility};
      const arena::glicko2::Rating rb{b.rating, b.rd, b.volatility};
      const auto na = arena::glicko2::update(ra, {{rb, a_score}});
      const auto nb = arena::glicko2::update(rb, {{ra, 1.0 - a_score}});
      a.rating = na.rating, a.rd = na.deviation, a.volatility = na.volatility;
      b.rating = nb.rating, b.rd = nb.deviation, b.volatility = nb.volatility;
      ++a.games, ++b.games;
      (a_score == 1.0 ? a.wins : a_score == 0.0 ? a.losses : a.draws)++;
      (a_score == 1.0 ? b.losses : a_score == 0.0 ? b.wins : b.draws)++;
    }
    if (games.empty()) {
      m_store.fail_job(job, "the match left no games");
    } else {
      m_store.finish_ladder(job, games, {a, b});
    }
  } else {
    const bool ok = fs::exists(out / "results.csv");
    m_store.finish_run(job, ok ? "done" : "failed", ok ? "" : "the run left no results.csv");
  }
  ++m_finished;
}

void Judges::plan_ladder() {
  if (m_store.ladder_job_pending() || m_store.queued_jobs() > 0) return;
  // Step 1. The players: each student's latest playable program, its
  // rating carried over (a new program starts with the deviation raised).
  std::vector<Rating> entries;
  for (const auto& sub : m_store.latest_valid(false)) {
    Rating r = m_store.rating(sub.student).value_or(Rating{sub.student, sub.id});
    if (r.submission != sub.id) {
      r.submission = sub.id;
      r.rd = std::max(r.rd, 150.0);
    }
    m_store.put_rating(r);
    entries.push_back(r);
  }
  if (entries.size() < 2) return;
  // Step 2. The player with fewest games who still has an opponent, against
  // the nearest rating among those it has met fewer than the cap.
  std::sort(entries.begin(), entries.end(), [](const Rating& x, const Rating& y) {
    return x.games != y.games ? x.games < y.games : x.student < y.student;
  });
  for (const auto& a : entries) {
    const Rating* best = nullptr;
    for (const auto& b : entries) {
      if (b.student == a.student) continue;
      if (m_store.pair_games(a.submission, b.submission) >= m_config.ladder_pair_cap) continue;
      if (best == nullptr || std::abs(b.rating - a.rating) < std::abs(best->rating - a.rating)) {
        best = &b;
      }
    }
    if (best != nullptr) {
      Job j;
      j.kind = "ladder";
      j.submission = a.submission;
      j.opponent = best->submission;
      m_store.add_job(j);
      return;
    }
  }
}

json Judges::summarize(Kind kind, const fs::path& out, const std::string& student) {
  const json doc = read_json(out / "results.json");
  if (!doc.is_object()) return nullptr;
  json s;
  for (const auto& e : doc.value("students", json::array())) {
    if (e.value("name", "") == student) s = e;
  }
  if (s.is_null()) return nullptr;
  json summary = {{"course", doc.value("course", "")},
                  {"points", s.value("points", 0.0)},
                  {"error", s.value("error", "")},
                  {"message", s.value("message", "")},
                  {"playable", s.value("error", "").empty()},
                  {"lost", s.value("lost", json::array())}};
  if (kind == Kind::Cs3243) {
    // The five test cases in the hand-out's order, and every game, from
    // the journal's row for the student (its result holds them).
    summary["max_points"] = s.value("max_points", 0.0);
    summary["notes"] = s.value("notes", json::array());
    summary["opponents"] = json::array();
    summary["games"] = json::array();
    std::istringstream in(read_text(out / "journal.jsonl", 64 << 20));
    std::string line;
    while (std::getline(in, line)) {
      const json row = json::parse(line, nullptr, false);
      if (!row.is_object() || row.value("student", "") != student || !row.contains("result") ||
          !row["result"].is_object()) {
        continue;
      }
      summary["opponents"] = json::array();
      summary["games"] = json::array();
      for (json o : row["result"].value("opponents", json::array())) {
        for (const auto& g : o.value("games", json::array())) summary["games"].push_back(g);
        o.erase("games");
        summary["opponents"].push_back(o);
      }
    }
    return summary;
  }
  summary["single_points"] = s.value("single_points", 0);
  summary["game_points"] = s.value("game_points", 0);
  summary["language"] = s.value("language", "");
  summary["calibration"] = s.value("calibration", "");
  json singles = json::array();
  for (const auto& x : s.value("singles", json::array())) {
    singles.push_back({{"position", x.value("position", 0)},
                       {"point", x.value("point", 0)},
                       {"move", x.value("move", "")},
                       {"reason", x.value("reason", "")},
                       {"detail", x.value("detail", "")},
                       {"output", x.value("output", "")},
                       {"cpu", x.value("cpu", 0.0)}});
  }
  summary["singles"] = singles;
  json games = json::array();
  for (const auto& g : s.value("games", json::array())) {
    games.push_back({{"task", g.value("task", "")},
                     {"opponent", g.value("opponent", "")},
                     {"colour", g.value("colour", "")},
                     {"result", g.value("result", "")},
                     {"reason", g.value("reason", "")},
                     {"plies", g.value("plies", 0)},
                     {"time_left", g.value("time_left", 0.0)},
                     {"close_call", g.value("close_call", false)},
                     {"record", g.value("record", "")}});
  }
  summary["games"] = games;
  std::string name = student;
  std::replace(name.begin(), name.end(), '/', '_');
  summary["feedback"] = read_text(out / "feedback" / (name + ".txt"), 256 << 10);
  return summary;
}

json Judges::progress(const fs::path& out) {
  json done = json::array();
  std::istringstream in(read_text(out / "journal.jsonl", 16 << 20));
  std::string line;
  while (std::getline(in, line)) {
    const json row = json::parse(line, nullptr, false);
    if (!row.is_object() || !row.contains("kind")) continue;
    const std::string kind = row.value("kind", "");
    if (kind == "single") {
      done.push_back({{"kind", "single"},
                      {"position", row.value("position", 0)},
                      {"point", row.value("point", 0)},
                      {"reason", row.value("reason", "")}});
    } else if (kind == "game") {
      done.push_back(
          {{"kind", "game"}, {"key", row.value("key", "")}, {"reason", row.value("reason", "")}});
    }
  }
  return done;
}

}  // namespace duel::course
