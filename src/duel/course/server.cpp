#include "duel/course/server.hpp"

#include <sys/stat.h>

#include <fmt/format.h>

#include "duel/course/server_parts.hpp"

namespace duel::course {

using namespace parts;  // NOLINT(google-build-using-namespace): this file's own helpers

CourseServer::CourseServer(fs::path dir, Config config, Store& store, Judges& judges,
                           serve::ServerOptions board)
    : m_dir(std::move(dir)),
      m_config(std::move(config)),
      m_store(store),
      m_judges(judges),
      m_board(std::move(board)) {}

std::optional<Student> CourseServer::who(const Request& r) {
  const std::string session = cookie(r, "duel_session");
  if (session.size() == 32) {
    if (auto s = m_store.by_session(token_hash(session))) return s;
  }
  const auto auth = r.headers.find("authorization");
  if (auth != r.headers.end() && auth->second.rfind("Bearer ", 0) == 0) {
    const std::string token = auth->second.substr(7);
    if (token.size() == 32) return m_store.by_token_hash(token_hash(token));
  }
  return std::nullopt;
}

Response CourseServer::handle(const Request& r) {
  try {
    const auto parts = serve::split_path(r.path);
    // Step 1. The course's pages; sign-in needs no session.
    if (r.path == "/course" || r.path == "/course/") {
      Request page = r;
      page.path = "/course/index.html";
      return m_board.handle(page);
    }
    if (parts.size() >= 2 && parts[0] == "api" && parts[1] == "course") {
      if (parts.size() == 3 && parts[2] == "signin") return sign_in(r);
      const auto me = who(r);
      if (!me) return error_response(401, "sign in first: open the link from your course e-mail");
      return api(r, parts, *me);
    }
    // Step 2. The board and its game API: signed-in users only (the
    // viewer's files themselves are public).
    if (!parts.empty() && parts[0] == "api") {
      const auto me = who(r);
      if (!me) return error_response(401, "sign in first: open the link from your course e-mail");
      return board_api(r, parts, *me);
    }
    return m_board.handle(r);
  } catch (const std::exception& e) {
    return error_response(503, fmt::format("the course server could not answer: {}", e.what()));
  }
}

Response CourseServer::board_api(const Request& r, const std::vector<std::string>& parts,
                                 const Student& me) {
  // Step 1. A new board game: a recorded game opened for viewing, never an
  // engine's (the judges' cores are the students').
  if (parts.size() == 2 && parts[1] == "games" && r.method == "POST") {
    const json body = json::parse(r.body, nullptr, false);
    if (!body.is_object() || !body.contains("record")) {
      return error_response(403, "on the course server the board opens recorded games only");
    }
    for (const auto& p : body.value("players", json::array())) {
      if (p != "human")
        return error_response(403, "on the course server the board plays no engine");
    }
    Response made = m_board.handle(r);
    const json view = json::parse(made.body, nullptr, false);
    if (made.status / 100 == 2 && view.is_object() && view.contains("id")) {
      const std::lock_guard lock(m_games_mutex);
      m_game_owner[view["id"].get<std::string>()] = me.id;
    }
    return made;
  }
  // Step 2. A game is its opener's (and the teacher's); the live list
  // shows one's own.
  const auto mine = [&](const std::string& id) {
    const std::lock_guard lock(m_games_mutex);
    const auto it = m_game_owner.find(id);
    return me.teacher || (it != m_game_owner.end() && it->second == me.id);
  };
  if (parts.size() == 2 && parts[1] == "live") {
    Response all = m_board.handle(r);
    json list = json::parse(all.body, nullptr, false);
    if (!list.is_array()) return all;
    json kept = json::array();
    for (const auto& g : list) {
      if (g.is_object() && mine(g.value("id", ""))) kept.push_back(g);
    }
    return json_response(all.status, kept);
  }
  if (parts.size() >= 3 && parts[1] == "games" && !mine(parts[2])) {
    return error_response(403, "that board game was opened by someone else");
  }
  return m_board.handle(r);
}

Response CourseServer::sign_in(const Request& r) {
  if (r.method != "POST") return error_response(405, "sign in with POST");
  auto body = body_json(r);
  if (!body) return error_response(400, body.error());
  const std::string token = body->value("token", "");
  const auto student = token.size() == 32 ? m_store.by_token_hash(token_hash(token)) : std::nullopt;
  if (!student) return error_response(403, "this sign-in token is not one of the course's");
  const std::string session = new_token();
  m_store.add_session(token_hash(session), student->id);
  Response out = json_response(200, {{"student", student->id}, {"teacher", student->teacher}});
  out.headers.emplace_back("Set-Cookie", fmt::format("duel_session={}; Path=/; HttpOnly; "
                                                     "SameSite=Strict; Max-Age=15552000{}",
                                                     session, r.secure ? "; Secure" : ""));
  return out;
}

json CourseServer::submission_json(const Submission& s, bool detail) {
  json j = {{"id", s.id},         {"student", s.student},   {"created", s.created},
            {"files", s.files},   {"language", s.language}, {"late", s.late},
            {"status", s.status}, {"points", s.points},     {"error", s.error}};
  if (s.status == "queued") j["place"] = m_store.queue_place(s.id);
  if (!detail) {
    if (s.result.is_object()) {
      j["summary"] = {{"playable", s.result.value("playable", false)},
                      {"reason", s.result.value("error", "")}};
    }
    return j;
  }
  j["result"] = s.result;
  if (s.status == "running") {
    // The tests finished so far: the newest judge job's journal.
    auto row = m_store.db().one("SELECT MAX(id) FROM jobs WHERE kind = 'judge' AND submission = ?",
                                {s.id});
    if (row && !row->at(0).null()) {
      j["progress"] = Judges::progress(m_judges.job_dir(row->at(0).as_int()) / "out");
    }
  }
  return j;
}

Response CourseServer::api(const Request& r, const std::vector<std::string>& parts,
                           const Student& me) {
  const bool get = r.method == "GET" || r.method == "HEAD";
  const std::string what = parts.size() > 2 ? parts[2] : "";
  if (what == "me" && parts.size() == 3) {
    if (!get) return error_response(405, "GET only");
    const auto deadline = m_store.deadline();
    return json_response(
        200, {{"student", me.id},
              {"name", me.name},
              {"nickname", me.nickname},
              {"teacher", me.teacher},
              {"course", m_config.course},
              {"title", m_config.title},
              {"expects", expected_files(m_config)},
              {"files", m_config.kind() == Kind::Cs3243 ? json{"AB.py"}
                                                        : json{"homework.py", "homework.cpp",
                                                               "homework11.cpp", "homework.java"}},
              {"deadline", deadline ? json(*deadline) : json(nullptr)},
              {"ladder", m_config.ladder},
              {"max_upload_bytes", m_config.max_upload_bytes}});
  }
  if (what == "signout" && parts.size() == 3) {
    if (r.method != "POST") return error_response(405, "POST only");
    const std::string session = cookie(r, "duel_session");
    if (!session.empty()) m_store.drop_session(token_hash(session));
    Response out = json_response(200, {{"signed_out", true}});
    out.headers.emplace_back("Set-Cookie",
                             "duel_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0");
    return out;
  }
  if (what == "nickname" && parts.size() == 3) {
    if (r.method != "PUT" && r.method != "POST") return error_response(405, "PUT only");
    auto body = body_json(r);
    if (!body) return error_response(400, body.error());
    const auto nick =
        body->value("nickname", json()).is_string() ? body->at("nickname").get<std::string>() : "";
    if (nick.size() > 40 || nick.find_first_of("<>\n\r\t") != std::string::npos) {
      return error_response(
          400, "a nickname is at most 40 characters, with no < > or control characters");
    }
    m_store.set_nickname(me.id, nick);
    return json_response(200, {{"nickname", nick}});
  }
  if (what == "submissions") {
    if (parts.size() == 3) {
      if (r.method == "POST") return upload(r, me);
      if (!get) return error_response(405, "GET or POST");
      json list = json::array();
      for (const auto& s : m_store.submissions(me.teacher ? "" : me.id)) {
        list.push_back(submission_json(s, false));
      }
      return json_response(200, list);
    }
    return submission_api(r, parts, me);
  }
  if (what == "ladder" && parts.size() == 3) return ladder(me);
  if (what == "ladder" && parts.size() == 6 && parts[3] == "games" && parts[5] == "record") {
    const auto id = number(parts[4]);
    for (const auto& g : m_store.ladder_games(me.teacher ? "" : me.id)) {
      if (id && g.id == *id) {
        std::string text = read_own_file(m_dir / g.record, 0, 64 << 20).value_or("");
        if (!me.teacher) text = with_names(text, g);
        return text_response(200, text);
      }
    }
    return error_response(403, "that ladder game is not one of your program's");
  }
  if (me.teacher) return teacher_api(r, parts);
  return error_response(403, "that is the teacher's");
}

Response CourseServer::upload(const Request& r, const Student& me) {
  if (me.teacher) return error_response(403, "the teacher does not submit; sign in as a student");
  // Step 1. The files: multipart parts named "file" (any number), or a raw
  // body named by ?name= (curl --data-binary).
  std::vector<UploadFile> files;
  for (const auto& p : r.parts) {
    if (p.filename.empty()) continue;
    const auto slash = p.filename.find_last_of("/\\");
    files.push_back(
        {slash == std::string::npos ? p.filename : p.filename.substr(slash + 1), p.data});
  }
  if (r.parts.empty() && r.query.count("name") != 0) files.push_back({r.query.at("name"), r.body});
  for (const auto& f : files) {
    if (f.name.find('/') != std::string::npos || f.name == ".." || f.name.empty()) {
      return error_response(400, fmt::format("'{}' is not a plain file name", f.name));
    }
  }
  // Step 2. The checks, then the rate (a refused upload does not count).
  auto checked = check_upload(m_config, std::move(files));
  if (!checked) return error_response(400, checked.error());
  const double now = now_seconds();
  if (m_store.submissions_since(me.id, now - 3600) >= m_config.uploads_per_hour) {
    return error_response(429, fmt::format("at most {} submissions an hour; wait a little",
                                           m_config.uploads_per_hour));
  }
  // Step 3. The files written aside, moved into the submission's folder
  // inside the transaction that adds its row and job: a crash leaves both
  // or neither (a folder left by a crash before a commit is an orphan whose
  // id the next submission takes, so it is cleared first).
  Submission s;
  s.student = me.id;
  s.created = now;
  s.language = checked->language;
  const auto deadline = m_store.deadline();
  s.late = deadline && now > *deadline;
  json names = json::array();
  for (const auto& f : checked->files) names.push_back(f.name);
  s.files = names;
  const fs::path staging = m_dir / "submissions" / fmt::format(".new-{}-{}", me.id, new_token());
  fs::create_directories(staging / me.id);
  for (const auto& f : checked->files) {
    if (auto w = write_file_atomic(staging / me.id / f.name, f.data); !w) {
      return error_response(507, "the server cannot store the upload: its disk is full");
    }
  }
  const std::int64_t id = m_store.add_submission(s, [&](std::int64_t made) {
    const fs::path to = m_judges.submission_dir(made);
    std::error_code ec;
    fs::remove_all(to, ec);
    fs::rename(staging, to, ec);
    return !ec;
  });
  if (id == 0) {
    std::error_code ec;
    fs::remove_all(staging, ec);
    return error_response(507, "the server cannot store the upload");
  }
  m_judges.poke();
  auto stored = m_store.submission(id);
  return json_response(201, submission_json(*stored, false));
}

Response CourseServer::submission_api(const Request& r, const std::vector<std::string>& parts,
                                      const Student& me) {
  const auto id = number(parts.size() > 3 ? parts[3] : "");
  const auto sub = id ? m_store.submission(*id) : std::nullopt;
  if (!sub) return error_response(404, "no such submission");
  if (!me.teacher && sub->student != me.id) {
    return error_response(403, "that submission is not yours");
  }
  const bool get = r.method == "GET" || r.method == "HEAD";
  if (!get) return error_response(405, "GET only");
  const fs::path files = m_judges.submission_dir(sub->id) / sub->student;
  if (parts.size() == 4) return json_response(200, submission_json(*sub, true));
  if (parts.size() == 6 && parts[4] == "files") {
    for (const auto& n : sub->files) {
      if (n == parts[5])
        return text_response(200, read_own_file(files / parts[5], 0, 64 << 20).value_or(""));
    }
    return error_response(404, "no such file in the submission");
  }
  if (parts.size() == 5 && parts[4] == "download") {
    Response out = text_response(
        200, zip_folder(files, fmt::format("{}-{}", sub->student, sub->id)), "application/zip");
    out.headers.emplace_back(
        "Content-Disposition",
        fmt::format("attachment; filename=\"{}-{}.zip\"", sub->student, sub->id));
    return out;
  }
  if (parts.size() == 7 && parts[4] == "games" && parts[6] == "record") {
    // The record of game K of the judge's result (a path the judge wrote,
    // under the newest finished judge job's folder).
    const auto k = number(parts[5]);
    const auto games =
        sub->result.is_object() ? sub->result.value("games", json::array()) : json::array();
    if (!k || *k >= static_cast<std::int64_t>(games.size()))
      return error_response(404, "no such game");
    const auto& g = games[static_cast<std::size_t>(*k)];
    auto row = m_store.db().one(
        "SELECT MAX(id) FROM jobs WHERE kind = 'judge' AND submission = ? AND status = 'done'",
        {sub->id});
    if (!row || row->at(0).null()) return error_response(404, "no finished judging");
    const fs::path out = m_judges.job_dir(row->at(0).as_int()) / "out";
    if (g.contains("moves") && !g.contains("record")) {
      // A CS3243 game: its moves as PGN (the board reads coordinates), the
      // student White as in the hand-out's grading.
      const std::string outcome = g.value("outcome", "");
      const std::string result = outcome == "win" ? "1-0" : outcome == "loss" ? "0-1" : "1/2-1/2";
      std::string pgn = fmt::format(
          "[Event \"CS3243 test case\"]\n[White \"{}\"]\n[Black \"{}\"]\n[Result \"{}\"]\n"
          "[Variant \"cs3243\"]\n\n",
          sub->student, g.value("opponent", "?"), result);
      int ply = 0;
      for (const auto& m : g["moves"]) {
        if (ply % 2 == 0) pgn += fmt::format("{}. ", ply / 2 + 1);
        pgn += m.get<std::string>() + " ";
        ++ply;
      }
      return text_response(200, pgn + result + "\n");
    }
    if (g.contains("record") && !g["record"].get<std::string>().empty()) {
      const std::string rec = g["record"].get<std::string>();
      if (rec.find("..") != std::string::npos) return error_response(404, "no such record");
      return text_response(200, read_own_file(out / rec, 0, 64 << 20).value_or(""));
    }
    return error_response(404, "that game has no record");
  }
  if (parts.size() == 5 && parts[4] == "log") {
    auto row = m_store.db().one("SELECT MAX(id) FROM jobs WHERE kind = 'judge' AND submission = ?",
                                {sub->id});
    if (!row || row->at(0).null()) return error_response(404, "not judged yet");
    return text_response(
        200, read_own_file(m_judges.job_dir(row->at(0).as_int()) / "judge.log", 0, 1 << 20)
                 .value_or(""));
  }
  return error_response(404, "no such page of a submission");
}

std::string CourseServer::shown_name(const std::string& id) {
  const auto s = m_store.student(id);
  if (!s) return id;
  return s->nickname.empty() ? s->name : s->nickname;
}

std::string CourseServer::with_names(std::string text, const LadderGame& g) {
  // A record's tags ("[Black \"id\"]") and a reason's "(id)" name the
  // programs by student id; a student sees names as the ladder shows them.
  for (const auto& id : {g.white_student, g.black_student}) {
    const std::string name = shown_name(id);
    for (const auto& [open, close] : {std::pair{"\"", "\""}, std::pair{"(", ")"}}) {
      const std::string from = open + id + close;
      const std::string to = open + name + close;
      for (auto at = text.find(from); at != std::string::npos;
           at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
      }
    }
  }
  return text;
}

Response CourseServer::ladder(const Student& me) {
  json players = json::array();
  const auto shown = [&](const std::string& id) { return shown_name(id); };
  int rank = 0;
  for (const auto& x : m_store.ratings()) {
    players.push_back({{"rank", ++rank},
                       {"name", shown(x.student)},
                       {"you", x.student == me.id},
                       {"rating", x.rating},
                       {"deviation", x.rd},
                       {"low", x.rating - 2 * x.rd},
                       {"high", x.rating + 2 * x.rd},
                       {"games", x.games},
                       {"wins", x.wins},
                       {"draws", x.draws},
                       {"losses", x.losses},
                       {"submission", x.submission}});
    if (me.teacher) players.back()["student"] = x.student;
  }
  json games = json::array();
  for (const auto& g : m_store.ladder_games(me.teacher ? "" : me.id)) {
    games.push_back({{"id", g.id},
                     {"first", shown(g.white_student)},
                     {"second", shown(g.black_student)},
                     {"score", g.score},
                     {"reason", me.teacher ? g.reason : with_names(g.reason, g)}});
    if (games.size() >= 200) break;
  }
  return json_response(
      200, {{"players", players}, {"games", games}, {"rating", "Glicko-2, r ± 2 RD (about 95%)"}});
}

}  // namespace duel::course
