// The teacher's side of the course server: making a course, new tokens,
// and the teacher's pages (students, rejudging, the deadline, grading runs
// and their grades.csv).
#include "duel/course/server.hpp"

#include <sys/stat.h>

#include <fmt/format.h>

#include "duel/course/server_parts.hpp"
#include "duel/tournament/cells.hpp"

namespace duel::course {

using namespace parts;  // NOLINT(google-build-using-namespace): this file's own helpers

Result<Created> create_course(const fs::path& dir, const Config& config,
                              const std::vector<RosterEntry>& roster) {
  std::error_code ec;
  if (fs::exists(dir / "course.json", ec)) {
    return fail(fmt::format("{} holds a course already (course.json)", dir.string()));
  }
  fs::create_directories(dir, ec);
  if (ec) return fail(fmt::format("cannot make {}: {}", dir.string(), ec.message()));
  ::chmod(dir.c_str(), 0700);  // tokens' hashes, students' code: the teacher's only
  auto store = Store::open((dir / "course.db").string());
  if (!store) return fail(store.error());
  Created out;
  out.csv = "id,name,email,token,link\n";
  {
    Db::Transaction t((*store)->db());
    for (const auto& s : roster) {
      const std::string token = new_token();
      (*store)->add_student({s.id, s.name, s.email, "", false}, token_hash(token));
      out.csv +=
          fmt::format("{},{},{},{},{}\n", tournament::csv(s.id), tournament::csv(s.name),
                      tournament::csv(s.email), token, tournament::csv(link_for(config, token)));
    }
    const std::string teacher = new_token();
    (*store)->add_student({"teacher", "Teacher", "", "", true}, token_hash(teacher));
    out.teacher_link = link_for(config, teacher);
    t.commit();
  }
  if (auto w = write_file_atomic(dir / "sign-in.csv", out.csv, true); !w) return fail(w.error());
  if (auto w = write_file_atomic(dir / "teacher-link.txt", out.teacher_link + "\n", true); !w) {
    return fail(w.error());
  }
  if (auto w = write_file_atomic(dir / "course.json", config.to_json().dump(2) + "\n"); !w) {
    return fail(w.error());
  }
  return out;
}

Result<std::string> reissue_token(const fs::path& dir, const std::string& student) {
  auto store = Store::open((dir / "course.db").string());
  if (!store) return fail(store.error());
  if (!(*store)->student(student))
    return fail(fmt::format("no student '{}' in the course", student));
  const std::string token = new_token();
  (*store)->set_token(student, token_hash(token));
  return token;
}

Response CourseServer::teacher_api(const Request& r, const std::vector<std::string>& parts) {
  const std::string what = parts.size() > 2 ? parts[2] : "";
  if (what == "students" && parts.size() == 3) {
    json list = json::array();
    std::map<std::string, Submission> latest;
    for (const auto& s : m_store.submissions()) latest.emplace(s.student, s);  // newest first
    for (const auto& s : m_store.students()) {
      json j = {{"id", s.id}, {"name", s.name}, {"email", s.email}, {"nickname", s.nickname}};
      if (latest.count(s.id) != 0) j["latest"] = submission_json(latest.at(s.id), false);
      list.push_back(j);
    }
    return json_response(200, list);
  }
  if (what == "rejudge" && parts.size() == 3) {
    if (r.method != "POST") return error_response(405, "POST only");
    auto body = body_json(r);
    if (!body) return error_response(400, body.error());
    int n = 0;
    if (body->value("all", false)) {
      for (const auto& s : m_store.submissions()) {
        if (s.status == "done" || s.status == "failed") {
          m_store.rejudge(s.id);
          ++n;
        }
      }
    } else if (body->contains("submission") && (*body)["submission"].is_number_integer()) {
      const auto s = m_store.submission((*body)["submission"].get<std::int64_t>());
      if (!s) return error_response(404, "no such submission");
      if (s->status == "queued" || s->status == "running") {
        return error_response(409, "that submission is being judged already");
      }
      m_store.rejudge(s->id);
      n = 1;
    } else {
      return error_response(400, "give {\"submission\": ID} or {\"all\": true}");
    }
    m_judges.poke();
    return json_response(200, {{"queued", n}});
  }
  if (what == "deadline" && parts.size() == 3) {
    if (r.method != "PUT" && r.method != "POST") return error_response(405, "PUT only");
    auto body = body_json(r);
    if (!body) return error_response(400, body.error());
    const auto& d = (*body)["deadline"];
    if (d.is_null()) {
      m_store.set_deadline(std::nullopt);
    } else if (d.is_number() && d.get<double>() > 0) {
      m_store.set_deadline(d.get<double>());
    } else {
      return error_response(400, "deadline: seconds since 1970 (UTC), or null for none");
    }
    return json_response(200, {{"deadline", d}});
  }
  if (what == "runs") {
    if (parts.size() == 3 && r.method == "POST") {
      auto body = body_json(r);
      if (!body) return error_response(400, body.error());
      const std::string kind = body->value("kind", "grading");
      if (kind != "grading" && kind != "competition") {
        return error_response(400, "kind: grading or competition");
      }
      if (kind == "competition" && m_config.kind() != Kind::Csci561) {
        return error_response(400, "a competition is csci561's");
      }
      Run run;
      run.kind = kind;
      for (const auto& s : m_store.latest_on_time()) run.students.push_back({s.student, s.id});
      if (run.students.empty()) return error_response(409, "no submission before the deadline");
      const auto id = m_store.add_run(run);
      m_judges.poke();
      return json_response(201, {{"id", id}, {"students", run.students}});
    }
    if (parts.size() == 3) {
      json list = json::array();
      for (const auto& x : m_store.runs()) {
        list.push_back({{"id", x.id},
                        {"kind", x.kind},
                        {"created", x.created},
                        {"status", x.status},
                        {"students", x.students},
                        {"error", x.error}});
      }
      return json_response(200, list);
    }
    const auto id = number(parts.size() > 3 ? parts[3] : "");
    const auto run = id ? m_store.run(*id) : std::nullopt;
    if (!run) return error_response(404, "no such run");
    const fs::path out = m_judges.run_dir(run->id) / "out";
    if (parts.size() == 5 && (parts[4] == "grades.csv" || parts[4] == "results.csv")) {
      if (run->status != "done") return error_response(409, "that run has not finished");
      Response res =
          text_response(200, read_own_file(out / "results.csv", 0, 64 << 20).value_or(""),
                        "text/csv; charset=utf-8");
      res.headers.emplace_back("Content-Disposition", "attachment; filename=\"grades.csv\"");
      return res;
    }
    if (parts.size() == 5 && parts[4] == "results.json") {
      return text_response(200, read_own_file(out / "results.json", 0, 64 << 20).value_or(""),
                           "application/json");
    }
  }
  if (what == "grades.csv" && parts.size() == 3) {
    for (const auto& x : m_store.runs()) {
      if (x.kind == "grading" && x.status == "done") {
        Response res = text_response(
            200,
            read_own_file(m_judges.run_dir(x.id) / "out" / "results.csv", 0, 64 << 20).value_or(""),
            "text/csv; charset=utf-8");
        res.headers.emplace_back("Content-Disposition", "attachment; filename=\"grades.csv\"");
        return res;
      }
    }
    return error_response(409, "no grading run has finished: start one first");
  }
  return error_response(404, "no such course page");
}

}  // namespace duel::course
