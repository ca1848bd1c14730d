#pragma once
// The course's database: students, sign-in sessions, submissions, the
// judges' jobs, the teacher's runs and the ladder (SQLite, db.hpp).
//
// Why jobs are rows: a submission is judged by a job that a judge claims,
// runs and finishes in one transaction with its result; a server killed at
// any moment comes back with every job either finished (its result kept)
// or queued again (requeue_running), so nothing is lost and nothing is
// judged twice into the results.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "duel/course/db.hpp"

namespace duel::course {

struct Student {
  std::string id;
  std::string name;
  std::string email;
  std::string nickname;  // shown on the ladder instead of the name when set
  bool teacher = false;
};

struct Submission {
  std::int64_t id = 0;
  std::string student;
  double created = 0;                              // seconds since the epoch
  nlohmann::json files = nlohmann::json::array();  // the file names
  std::string language;
  bool late = false;
  std::string status;               // queued, running, done, failed
  nlohmann::json result = nullptr;  // the judge's summary (judge.hpp)
  double points = 0;
  std::string error;  // failed: why (the judge's, not the student's)
};

// A job's kinds: judge (a submission), ladder (two submissions' match),
// grading and competition (a teacher's run over the class).
struct Job {
  std::int64_t id = 0;
  std::string kind;
  std::int64_t submission = 0;  // judge, ladder: the first player's submission
  std::int64_t opponent = 0;    // ladder: the second's
  std::int64_t run = 0;         // grading, competition
  std::string status;           // queued, running, done, failed
  int attempts = 0;
  double created = 0;
};

struct Run {
  std::int64_t id = 0;
  std::string kind;  // grading, competition
  double created = 0;
  std::string status;
  nlohmann::json students = nlohmann::json::array();  // [[student, submission], ...]
  std::string error;
};

struct Rating {
  std::string student;
  std::int64_t submission = 0;  // the program that plays for the student
  double rating = 1500, rd = 350, volatility = 0.06;
  int games = 0, wins = 0, draws = 0, losses = 0;
};

struct LadderGame {
  std::int64_t id = 0;
  std::int64_t job = 0;
  std::int64_t white = 0, black = 0;  // submissions ("white": the side that moved first)
  std::string white_student, black_student;
  double score = 0.5;  // White's
  std::string reason;
  std::string record;  // path under the course folder
};

double now_seconds();

class Store {
 public:
  [[nodiscard]] static Result<std::unique_ptr<Store>> open(const std::string& path);
  Db& db() { return *m_db; }

  // Students and sign-in.
  void add_student(const Student& s, const std::string& token_hash);
  void set_token(const std::string& student, const std::string& token_hash);
  std::optional<Student> student(const std::string& id);
  std::vector<Student> students();
  std::optional<Student> by_token_hash(const std::string& hash);
  void set_nickname(const std::string& id, const std::string& nickname);
  void add_session(const std::string& hash, const std::string& student);
  std::optional<Student> by_session(const std::string& hash);
  void drop_session(const std::string& hash);

  // Settings (the deadline: seconds since the epoch, or none).
  std::optional<double> deadline();
  void set_deadline(std::optional<double> when);

  // Submissions and their judge jobs, added together. `place`, given, puts
  // the files where the new id says before the rows are committed (false:
  // nothing is added, 0 returned): a crash leaves a row with its files, or
  // neither.
  std::int64_t add_submission(const Submission& s,
                              const std::function<bool(std::int64_t)>& place = {});
  std::optional<Submission> submission(std::int64_t id);
  std::vector<Submission> submissions(const std::string& student = {});  // newest first
  int submissions_since(const std::string& student, double since);
  // A judge job's place among the queued judge jobs (1: next), 0 if not queued.
  int queue_place(std::int64_t submission);
  // Each student's latest judged submission that can play (no error), on
  // time only when `on_time`.
  std::vector<Submission> latest_valid(bool on_time);
  // Each student's latest submission before the deadline, judged or not:
  // what a grading run grades, as the course graded what was handed in.
  std::vector<Submission> latest_on_time();
  // Rejudge: a new judge job for the submission (queued again).
  void rejudge(std::int64_t submission);

  // Jobs.
  std::int64_t add_job(const Job& job);
  // The next queued job (judge jobs first, then runs, then ladder), now
  // running; none when the queue is empty.
  std::optional<Job> claim_job();
  std::optional<Job> job(std::int64_t id);
  int queued_jobs(const std::string& kind = {});
  // Jobs left running by a server that died: queued again. Returns how many.
  int requeue_running();
  void finish_judge(const Job& job, const nlohmann::json& result, double points);
  void fail_job(const Job& job, const std::string& error);
  void requeue(const Job& job);

  // Teacher's runs.
  std::int64_t add_run(const Run& run);
  std::optional<Run> run(std::int64_t id);
  std::vector<Run> runs();
  void finish_run(const Job& job, const std::string& status, const std::string& error);

  // The ladder.
  std::vector<Rating> ratings();
  std::optional<Rating> rating(const std::string& student);
  void put_rating(const Rating& r);
  int pair_games(std::int64_t a, std::int64_t b);
  bool ladder_job_pending();
  // Records a match's games and the new ratings, and finishes its job, at once.
  void finish_ladder(const Job& job, const std::vector<LadderGame>& games,
                     const std::vector<Rating>& ratings);
  std::vector<LadderGame> ladder_games(const std::string& student = {});

 private:
  explicit Store(std::unique_ptr<Db> db) : m_db(std::move(db)) {}
  std::unique_ptr<Db> m_db;
};

}  // namespace duel::course
