#include "duel/course/store.hpp"

#include <chrono>

#include <fmt/format.h>

namespace duel::course {
namespace {

constexpr const char* kSchema = R"(
CREATE TABLE IF NOT EXISTS students (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, nickname TEXT NOT NULL DEFAULT '',
  teacher INTEGER NOT NULL DEFAULT 0, token_hash TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS sessions (
  hash TEXT PRIMARY KEY, student TEXT NOT NULL REFERENCES students(id), created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS submissions (
  id INTEGER PRIMARY KEY, student TEXT NOT NULL REFERENCES students(id), created REAL NOT NULL,
  files TEXT NOT NULL, language TEXT NOT NULL, late INTEGER NOT NULL, status TEXT NOT NULL,
  result TEXT, points REAL NOT NULL DEFAULT 0, error TEXT NOT NULL DEFAULT '');
CREATE INDEX IF NOT EXISTS submissions_student ON submissions(student, id);
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY, kind TEXT NOT NULL, created REAL NOT NULL, status TEXT NOT NULL,
  students TEXT NOT NULL, error TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS jobs (
  id INTEGER PRIMARY KEY, kind TEXT NOT NULL, submission INTEGER NOT NULL DEFAULT 0,
  opponent INTEGER NOT NULL DEFAULT 0, run INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0, created REAL NOT NULL, finished REAL);
CREATE INDEX IF NOT EXISTS jobs_status ON jobs(status, id);
CREATE TABLE IF NOT EXISTS ratings (
  student TEXT PRIMARY KEY REFERENCES students(id), submission INTEGER NOT NULL,
  rating REAL NOT NULL, rd REAL NOT NULL, volatility REAL NOT NULL, games INTEGER NOT NULL,
  wins INTEGER NOT NULL, draws INTEGER NOT NULL, losses INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS ladder_games (
  id INTEGER PRIMARY KEY, job INTEGER NOT NULL, white INTEGER NOT NULL, black INTEGER NOT NULL,
  white_student TEXT NOT NULL, black_student TEXT NOT NULL, score REAL NOT NULL,
  reason TEXT NOT NULL, record TEXT NOT NULL);
)";

const char* kSubmissionColumns =
    "id, student, created, files, language, late, status, result, points, error";

Submission submission_of(const Row& r) {
  Submission s;
  s.id = r[0].as_int();
  s.student = r[1].s;
  s.created = r[2].as_real();
  s.files = nlohmann::json::parse(r[3].s, nullptr, false);
  s.language = r[4].s;
  s.late = r[5].as_int() != 0;
  s.status = r[6].s;
  s.result = r[7].null() ? nlohmann::json() : nlohmann::json::parse(r[7].s, nullptr, false);
  s.points = r[8].as_real();
  s.error = r[9].s;
  return s;
}

Student student_of(const Row& r) {
  return {r[0].s, r[1].s, r[2].s, r[3].s, r[4].as_int() != 0};
}

Job job_of(const Row& r) {
  Job j;
  j.id = r[0].as_int();
  j.kind = r[1].s;
  j.submission = r[2].as_int();
  j.opponent = r[3].as_int();
  j.run = r[4].as_int();
  j.status = r[5].s;
  j.attempts = static_cast<int>(r[6].as_int());
  j.created = r[7].as_real();
  return j;
}
const char* kJobColumns = "id, kind, submission, opponent, run, status, attempts, created";

Rating rating_of(const Row& r) {
  Rating x;
  x.student = r[0].s;
  x.submission = r[1].as_int();
  x.rating = r[2].as_real();
  x.rd = r[3].as_real();
  x.volatility = r[4].as_real();
  x.games = static_cast<int>(r[5].as_int());
  x.wins = static_cast<int>(r[6].as_int());
  x.draws = static_cast<int>(r[7].as_int());
  x.losses = static_cast<int>(r[8].as_int());
  return x;
}

}  // namespace

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

Result<std::unique_ptr<Store>> Store::open(const std::string& path) {
  auto db = Db::open(path);
  if (!db) return fail(db.error());
  try {
    (*db)->exec(kSchema);
  } catch (const std::exception& e) {
    return fail(fmt::format("the database {}: {}", path, e.what()));
  }
  return std::unique_ptr<Store>(new Store(std::move(*db)));
}

void Store::add_student(const Student& s, const std::string& token_hash) {
  m_db->exec(
      "INSERT INTO students (id, name, email, nickname, teacher, token_hash) VALUES (?,?,?,?,?,?)",
      {s.id, s.name, s.email, s.nickname, s.teacher ? 1 : 0, token_hash});
}

void Store::set_token(const std::string& student, const std::string& token_hash) {
  Db::Transaction t(*m_db);
  m_db->exec("UPDATE students SET token_hash = ? WHERE id = ?", {token_hash, student});
  m_db->exec("DELETE FROM sessions WHERE student = ?", {student});
  t.commit();
}

std::optional<Student> Store::student(const std::string& id) {
  auto r = m_db->one("SELECT id, name, email, nickname, teacher FROM students WHERE id = ?", {id});
  if (!r) return std::nullopt;
  return student_of(*r);
}

std::vector<Student> Store::students() {
  std::vector<Student> out;
  for (const auto& r : m_db->query("SELECT id, name, email, nickname, teacher FROM students WHERE "
                                   "teacher = 0 ORDER BY id")) {
    out.push_back(student_of(r));
  }
  return out;
}

std::optional<Student> Store::by_token_hash(const std::string& hash) {
  auto r = m_db->one(
      "SELECT id, name, email, nickname, teacher, token_hash FROM students WHERE token_hash = ?",
      {hash});
  if (!r) return std::nullopt;
  return student_of(*r);
}

void Store::set_nickname(const std::string& id, const std::string& nickname) {
  m_db->exec("UPDATE students SET nickname = ? WHERE id = ?", {nickname, id});
}

void Store::add_session(const std::string& hash, const std::string& student) {
  m_db->exec("INSERT INTO sessions (hash, student, created) VALUES (?,?,?)",
             {hash, student, now_seconds()});
}

std::optional<Student> Store::by_session(const std::string& hash) {
  auto r = m_db->one(
      "SELECT s.id, s.name, s.email, s.nickname, s.teacher FROM sessions x JOIN students s ON "
      "s.id = x.student WHERE x.hash = ?",
      {hash});
  if (!r) return std::nullopt;
  return student_of(*r);
}

void Store::drop_session(const std::string& hash) {
  m_db->exec("DELETE FROM sessions WHERE hash = ?", {hash});
}

std::optional<double> Store::deadline() {
  auto r = m_db->one("SELECT value FROM settings WHERE key = 'deadline'");
  if (!r || r->at(0).null()) return std::nullopt;
  return std::stod(r->at(0).s);
}

void Store::set_deadline(std::optional<double> when) {
  if (!when) {
    m_db->exec("DELETE FROM settings WHERE key = 'deadline'");
    return;
  }
  m_db->exec("INSERT OR REPLACE INTO settings (key, value) VALUES ('deadline', ?)",
             {fmt::format("{:.3f}", *when)});
}

std::int64_t Store::add_submission(const Submission& s,
                                   const std::function<bool(std::int64_t)>& place) {
  Db::Transaction t(*m_db);
  m_db->exec(
      "INSERT INTO submissions (student, created, files, language, late, status) VALUES "
      "(?,?,?,?,?, 'queued')",
      {s.student, s.created, s.files.dump(), s.language, s.late ? 1 : 0});
  const std::int64_t id = m_db->last_id();
  m_db->exec(
      "INSERT INTO jobs (kind, submission, status, created) VALUES ('judge', ?, 'queued', ?)",
      {id, s.created});
  if (place && !place(id)) return 0;  // rolled back
  t.commit();
  return id;
}

std::optional<Submission> Store::submission(std::int64_t id) {
  auto r =
      m_db->one(fmt::format("SELECT {} FROM submissions WHERE id = ?", kSubmissionColumns), {id});
  if (!r) return std::nullopt;
  return submission_of(*r);
}

std::vector<Submission> Store::submissions(const std::string& student) {
  std::vector<Submission> out;
  const auto rows =
      student.empty()
          ? m_db->query(
                fmt::format("SELECT {} FROM submissions ORDER BY id DESC", kSubmissionColumns))
          : m_db->query(fmt::format("SELECT {} FROM submissions WHERE student = ? ORDER BY id DESC",
                                    kSubmissionColumns),
                        {student});
  out.reserve(rows.size());
  for (const auto& r : rows) out.push_back(submission_of(r));
  return out;
}

int Store::submissions_since(const std::string& student, double since) {
  return static_cast<int>(
      m_db->one("SELECT COUNT(*) FROM submissions WHERE student = ? AND created >= ?",
                {student, since})
          ->at(0)
          .as_int());
}

int Store::queue_place(std::int64_t submission) {
  auto mine = m_db->one(
      "SELECT MAX(id) FROM jobs WHERE kind = 'judge' AND submission = ? AND status = 'queued'",
      {submission});
  if (!mine || mine->at(0).null()) return 0;
  return static_cast<int>(
      m_db->one("SELECT COUNT(*) FROM jobs WHERE kind = 'judge' AND status = 'queued' AND id <= ?",
                {mine->at(0).as_int()})
          ->at(0)
          .as_int());
}

std::vector<Submission> Store::latest_valid(bool on_time) {
  std::vector<Submission> out;
  const auto rows = m_db->query(fmt::format(
      "SELECT {} FROM submissions s WHERE status = 'done' AND json_extract(result, '$.playable') = "
      "1 "
      "{} AND id = (SELECT MAX(id) FROM submissions t WHERE t.student = s.student AND "
      "t.status = 'done' AND json_extract(t.result, '$.playable') = 1 {}) ORDER BY student",
      kSubmissionColumns, on_time ? "AND late = 0" : "", on_time ? "AND t.late = 0" : ""));
  out.reserve(rows.size());
  for (const auto& r : rows) out.push_back(submission_of(r));
  return out;
}

std::vector<Submission> Store::latest_on_time() {
  std::vector<Submission> out;
  for (const auto& r : m_db->query(
           fmt::format("SELECT {} FROM submissions s WHERE late = 0 AND id = (SELECT MAX(id) FROM "
                       "submissions t WHERE t.student = s.student AND t.late = 0) ORDER BY student",
                       kSubmissionColumns))) {
    out.push_back(submission_of(r));
  }
  return out;
}

void Store::rejudge(std::int64_t submission) {
  Db::Transaction t(*m_db);
  m_db->exec("UPDATE submissions SET status = 'queued', error = '' WHERE id = ?", {submission});
  m_db->exec(
      "INSERT INTO jobs (kind, submission, status, created) VALUES ('judge', ?, 'queued', ?)",
      {submission, now_seconds()});
  t.commit();
}

std::int64_t Store::add_job(const Job& job) {
  m_db->exec(
      "INSERT INTO jobs (kind, submission, opponent, run, status, created) VALUES (?,?,?,?, "
      "'queued', ?)",
      {job.kind, job.submission, job.opponent, job.run, now_seconds()});
  return m_db->last_id();
}

std::optional<Job> Store::claim_job() {
  Db::Transaction t(*m_db);
  auto r = m_db->one(fmt::format(
      "SELECT {} FROM jobs WHERE status = 'queued' ORDER BY CASE kind WHEN 'judge' THEN 0 WHEN "
      "'ladder' THEN 2 ELSE 1 END, id LIMIT 1",
      kJobColumns));
  if (!r) return std::nullopt;
  Job j = job_of(*r);
  m_db->exec("UPDATE jobs SET status = 'running', attempts = attempts + 1 WHERE id = ?", {j.id});
  if (j.kind == "judge") {
    m_db->exec("UPDATE submissions SET status = 'running' WHERE id = ?", {j.submission});
  } else if (j.kind == "grading" || j.kind == "competition") {
    m_db->exec("UPDATE runs SET status = 'running' WHERE id = ?", {j.run});
  }
  t.commit();
  j.status = "running";
  ++j.attempts;
  return j;
}

std::optional<Job> Store::job(std::int64_t id) {
  auto r = m_db->one(fmt::format("SELECT {} FROM jobs WHERE id = ?", kJobColumns), {id});
  if (!r) return std::nullopt;
  return job_of(*r);
}

int Store::queued_jobs(const std::string& kind) {
  const auto r =
      kind.empty()
          ? m_db->one("SELECT COUNT(*) FROM jobs WHERE status = 'queued'")
          : m_db->one("SELECT COUNT(*) FROM jobs WHERE status = 'queued' AND kind = ?", {kind});
  return static_cast<int>(r->at(0).as_int());
}

int Store::requeue_running() {
  Db::Transaction t(*m_db);
  m_db->exec("UPDATE jobs SET status = 'queued' WHERE status = 'running'");
  const int n = m_db->changes();
  m_db->exec("UPDATE submissions SET status = 'queued' WHERE status = 'running'");
  m_db->exec("UPDATE runs SET status = 'queued' WHERE status = 'running'");
  t.commit();
  return n;
}

void Store::finish_judge(const Job& job, const nlohmann::json& result, double points) {
  Db::Transaction t(*m_db);
  m_db->exec("UPDATE jobs SET status = 'done', finished = ? WHERE id = ?", {now_seconds(), job.id});
  m_db->exec(
      "UPDATE submissions SET status = 'done', result = ?, points = ?, error = '' WHERE id = ?",
      {result.dump(), points, job.submission});
  t.commit();
}

void Store::fail_job(const Job& job, const std::string& error) {
  Db::Transaction t(*m_db);
  m_db->exec("UPDATE jobs SET status = 'failed', finished = ? WHERE id = ?",
             {now_seconds(), job.id});
  if (job.kind == "judge") {
    m_db->exec("UPDATE submissions SET status = 'failed', error = ? WHERE id = ?",
               {error, job.submission});
  } else if (job.kind == "grading" || job.kind == "competition") {
    m_db->exec("UPDATE runs SET status = 'failed', error = ? WHERE id = ?", {error, job.run});
  }
  t.commit();
}

void Store::requeue(const Job& job) {
  m_db->exec("UPDATE jobs SET status = 'queued' WHERE id = ?", {job.id});
}

std::int64_t Store::add_run(const Run& run) {
  Db::Transaction t(*m_db);
  m_db->exec("INSERT INTO runs (kind, created, status, students) VALUES (?,?, 'queued', ?)",
             {run.kind, now_seconds(), run.students.dump()});
  const std::int64_t id = m_db->last_id();
  m_db->exec("INSERT INTO jobs (kind, run, status, created) VALUES (?, ?, 'queued', ?)",
             {run.kind, id, now_seconds()});
  t.commit();
  return id;
}

std::optional<Run> Store::run(std::int64_t id) {
  auto r =
      m_db->one("SELECT id, kind, created, status, students, error FROM runs WHERE id = ?", {id});
  if (!r) return std::nullopt;
  return Run{r->at(0).as_int(),
             r->at(1).s,
             r->at(2).as_real(),
             r->at(3).s,
             nlohmann::json::parse(r->at(4).s, nullptr, false),
             r->at(5).s};
}

std::vector<Run> Store::runs() {
  std::vector<Run> out;
  for (const auto& r : m_db->query(
           "SELECT id, kind, created, status, students, error FROM runs ORDER BY id DESC")) {
    out.push_back(Run{r[0].as_int(), r[1].s, r[2].as_real(), r[3].s,
                      nlohmann::json::parse(r[4].s, nullptr, false), r[5].s});
  }
  return out;
}

void Store::finish_run(const Job& job, const std::string& status, const std::string& error) {
  Db::Transaction t(*m_db);
  m_db->exec("UPDATE jobs SET status = 'done', finished = ? WHERE id = ?", {now_seconds(), job.id});
  m_db->exec("UPDATE runs SET status = ?, error = ? WHERE id = ?", {status, error, job.run});
  t.commit();
}

std::vector<Rating> Store::ratings() {
  std::vector<Rating> out;
  for (const auto& r : m_db->query(
           "SELECT student, submission, rating, rd, volatility, games, wins, draws, losses FROM "
           "ratings ORDER BY rating - 2 * rd DESC, student")) {
    out.push_back(rating_of(r));
  }
  return out;
}

std::optional<Rating> Store::rating(const std::string& student) {
  auto r = m_db->one(
      "SELECT student, submission, rating, rd, volatility, games, wins, draws, losses FROM ratings "
      "WHERE student = ?",
      {student});
  if (!r) return std::nullopt;
  return rating_of(*r);
}

void Store::put_rating(const Rating& x) {
  m_db->exec(
      "INSERT OR REPLACE INTO ratings (student, submission, rating, rd, volatility, games, wins, "
      "draws, losses) VALUES (?,?,?,?,?,?,?,?,?)",
      {x.student, x.submission, x.rating, x.rd, x.volatility, x.games, x.wins, x.draws, x.losses});
}

int Store::pair_games(std::int64_t a, std::int64_t b) {
  return static_cast<int>(
      m_db->one("SELECT COUNT(*) FROM ladder_games WHERE (white = ? AND black = ?) OR (white = ? "
                "AND black = ?)",
                {a, b, b, a})
          ->at(0)
          .as_int());
}

bool Store::ladder_job_pending() {
  return m_db->one(
                 "SELECT COUNT(*) FROM jobs WHERE kind = 'ladder' AND status IN ('queued', "
                 "'running')")
             ->at(0)
             .as_int() > 0;
}

void Store::finish_ladder(const Job& job, const std::vector<LadderGame>& games,
                          const std::vector<Rating>& ratings) {
  Db::Transaction t(*m_db);
  for (const auto& g : games) {
    m_db->exec(
        "INSERT INTO ladder_games (job, white, black, white_student, black_student, score, reason, "
        "record) VALUES (?,?,?,?,?,?,?,?)",
        {job.id, g.white, g.black, g.white_student, g.black_student, g.score, g.reason, g.record});
  }
  for (const auto& r : ratings) put_rating(r);
  m_db->exec("UPDATE jobs SET status = 'done', finished = ? WHERE id = ?", {now_seconds(), job.id});
  t.commit();
}

std::vector<LadderGame> Store::ladder_games(const std::string& student) {
  std::vector<LadderGame> out;
  const auto rows =
      student.empty()
          ? m_db->query(
                "SELECT id, job, white, black, white_student, black_student, score, reason, "
                "record FROM ladder_games ORDER BY id DESC")
          : m_db->query(
                "SELECT id, job, white, black, white_student, black_student, score, reason, "
                "record FROM ladder_games WHERE white_student = ? OR black_student = ? "
                "ORDER BY id DESC",
                {student, student});
  out.reserve(rows.size());
  for (const auto& r : rows) {
    out.push_back({r[0].as_int(), r[1].as_int(), r[2].as_int(), r[3].as_int(), r[4].s, r[5].s,
                   r[6].as_real(), r[7].s, r[8].s});
  }
  return out;
}

}  // namespace duel::course
