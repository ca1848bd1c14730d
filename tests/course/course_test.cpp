// The course server's parts without a socket: the roster, the upload checks
// (names as the hand-outs give them: seed 003's homework.* and calibrate.*,
// seed 000's AB.py), archives, tokens, the store's job queue, and the HTTP
// handler's rules of who may see what (docs/course-server.md).
#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "duel/course/course.hpp"
#include "duel/course/judge.hpp"
#include "duel/course/server.hpp"
#include "duel/course/store.hpp"

namespace duel::course {
namespace {

namespace fs = std::filesystem;

// A zip (or tar) made with libarchive: name -> contents; a name starting
// with '@' is written as a symbolic link to "/etc/passwd".
std::string archive_of(const std::vector<std::pair<std::string, std::string>>& files,
                       bool zip = true) {
  std::string out;
  archive* a = archive_write_new();
  if (zip) {
    archive_write_set_format_zip(a);
  } else {
    archive_write_set_format_pax_restricted(a);
  }
  archive_write_open(
      a, &out, nullptr,
      [](archive*, void* cls, const void* buf, size_t n) -> la_ssize_t {
        static_cast<std::string*>(cls)->append(static_cast<const char*>(buf), n);
        return static_cast<la_ssize_t>(n);
      },
      nullptr);
  for (const auto& [name, data] : files) {
    archive_entry* e = archive_entry_new();
    if (name.front() == '@') {
      archive_entry_set_pathname(e, name.substr(1).c_str());
      archive_entry_set_filetype(e, AE_IFLNK);
      archive_entry_set_symlink(e, "/etc/passwd");
      archive_entry_set_size(e, 0);
    } else {
      archive_entry_set_pathname(e, name.c_str());
      archive_entry_set_filetype(e, AE_IFREG);
      archive_entry_set_size(e, static_cast<la_int64_t>(data.size()));
    }
    archive_entry_set_perm(e, 0644);
    archive_write_header(a, e);
    if (name.front() != '@') archive_write_data(a, data.data(), data.size());
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
  return out;
}

Config csci561() {
  return *Config::defaults("csci561");
}
Config cs3243() {
  return *Config::defaults("cs3243");
}

TEST(CourseServerRoster, ReadsCsvWithHeaderQuotesAndCrlf) {
  auto r = read_roster("id,name,email\r\nalice,\"Lovelace, Ada\",a@x.org\r\nbob,Bob,\"b@x.org\"\n");
  ASSERT_TRUE(r) << r.error();
  ASSERT_EQ(r->size(), 2U);
  EXPECT_EQ((*r)[0].name, "Lovelace, Ada");
  EXPECT_EQ((*r)[1].email, "b@x.org");
}

TEST(CourseServerRoster, RefusesBadRowsNamingTheLine) {
  EXPECT_NE(read_roster("alice,A\n").error().find("line 1"), std::string::npos);
  EXPECT_NE(read_roster("a,A,a@x\n../x,B,b@x\n").error().find("line 2"), std::string::npos);
  EXPECT_NE(read_roster("a,A,a@x\na,B,b@x\n").error().find("twice"), std::string::npos);
  EXPECT_NE(read_roster("teacher,T,t@x\n").error().find("teacher"), std::string::npos);
  EXPECT_FALSE(read_roster("id,name,email\n"));
  EXPECT_FALSE(read_roster("a,\"A,a@x\n"));
}

TEST(CourseServerUpload, AcceptsTheHandOutsFiles) {
  auto py = check_upload(csci561(), {{"homework.py", "print(1)\n"}});
  ASSERT_TRUE(py) << py.error();
  EXPECT_EQ(py->language, "Python 3");
  auto cpp = check_upload(
      csci561(), {{"homework11.cpp", "int main(){}\n"}, {"calibrate.cpp", "int main(){}\n"}});
  ASSERT_TRUE(cpp) << cpp.error();
  EXPECT_EQ(cpp->language, "C++11");
  EXPECT_TRUE(check_upload(cs3243(), {{"AB.py", "def studentAgent(b):\n  pass\n"}}));
}

TEST(CourseServerUpload, RefusesWhatTheHandOutDoesNotName) {
  EXPECT_NE(check_upload(csci561(), {{"main.py", "x"}}).error().find("no program"),
            std::string::npos);
  EXPECT_NE(check_upload(csci561(), {{"homework.py", "x"}, {"homework.cpp", "y"}})
                .error()
                .find("two programs"),
            std::string::npos);
  EXPECT_NE(check_upload(csci561(), {{"homework.py", "x"}, {"calibrate.cpp", "y"}})
                .error()
                .find("language"),
            std::string::npos);
  EXPECT_NE(
      check_upload(csci561(), {{"homework.py", "x"}, {"notes.txt", "y"}}).error().find("notes.txt"),
      std::string::npos);
  EXPECT_NE(check_upload(cs3243(), {{"ab.py", "x"}}).error().find("AB.py"), std::string::npos);
  EXPECT_NE(check_upload(csci561(), {{"homework.py", std::string("a\0b", 3)}})
                .error()
                .find("not a text file"),
            std::string::npos);
  EXPECT_NE(check_upload(csci561(), {{"homework.py", ""}}).error().find("empty"),
            std::string::npos);
  Config small = csci561();
  small.max_file_bytes = 10;
  EXPECT_NE(check_upload(small, {{"homework.py", std::string(11, 'x')}}).error().find("at most"),
            std::string::npos);
}

TEST(CourseServerUpload, OpensZipsAndRefusesEscapes) {
  auto ok = check_upload(
      csci561(),
      {{"hw.zip", archive_of({{"hw2/homework.py", "x=1\n"}, {"__MACOSX/._x", "junk"}})}});
  ASSERT_TRUE(ok) << ok.error();
  ASSERT_EQ(ok->files.size(), 1U);
  EXPECT_EQ(ok->files[0].name, "homework.py");
  EXPECT_NE(check_upload(csci561(), {{"a.zip", archive_of({{"../homework.py", "x"}})}})
                .error()
                .find(".."),
            std::string::npos);
  EXPECT_NE(check_upload(csci561(), {{"a.zip", archive_of({{"/tmp/homework.py", "x"}})}})
                .error()
                .find("absolute"),
            std::string::npos);
  EXPECT_NE(check_upload(csci561(), {{"a.zip", archive_of({{"@homework.py", ""}})}})
                .error()
                .find("not a plain file"),
            std::string::npos);
  EXPECT_FALSE(check_upload(csci561(), {{"a.zip", "PK\x03\x04 this is no zip"}}));
}

TEST(CourseServerTokens, AreRandom128BitHexStoredHashed) {
  const std::string a = new_token();
  const std::string b = new_token();
  EXPECT_EQ(a.size(), 32U);  // 16 bytes
  EXPECT_NE(a, b);
  EXPECT_EQ(token_hash(a), token_hash(a));
  EXPECT_NE(token_hash(a), token_hash(b));
  EXPECT_EQ(token_hash(a).size(), 64U);  // BLAKE2b-256
  EXPECT_TRUE(same_hash(token_hash(a), token_hash(a)));
  EXPECT_FALSE(same_hash(token_hash(a), token_hash(b)));
}

class CourseServerStore : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("duel-course-" + new_token());
    fs::create_directories(dir);
    store = Store::open((dir / "course.db").string()).value();
    store->add_student({"alice", "Alice", "a@x", "", false}, token_hash("a"));
    store->add_student({"bob", "Bob", "b@x", "", false}, token_hash("b"));
  }
  void TearDown() override { fs::remove_all(dir); }
  Submission sub(const std::string& who) {
    Submission s;
    s.student = who;
    s.created = now_seconds();
    s.files = {"homework.py"};
    s.language = "Python 3";
    return s;
  }
  fs::path dir;
  std::unique_ptr<Store> store;
};

TEST_F(CourseServerStore, JobsAreClaimedOnceAndRequeuedAfterACrash) {
  const auto s1 = store->add_submission(sub("alice"));
  const auto s2 = store->add_submission(sub("bob"));
  EXPECT_EQ(store->queue_place(s1), 1);
  EXPECT_EQ(store->queue_place(s2), 2);
  const auto j1 = store->claim_job();
  ASSERT_TRUE(j1);
  EXPECT_EQ(j1->submission, s1);
  EXPECT_EQ(store->submission(s1)->status, "running");
  EXPECT_EQ(store->queue_place(s2), 1);
  // A server that died with j1 running: it is queued again, not lost.
  EXPECT_EQ(store->requeue_running(), 1);
  const auto again = store->claim_job();
  ASSERT_TRUE(again);
  EXPECT_EQ(again->id, j1->id);
  EXPECT_EQ(again->attempts, 2);
  store->finish_judge(*again, {{"playable", true}, {"points", 10}}, 10);
  EXPECT_EQ(store->submission(s1)->status, "done");
  EXPECT_EQ(store->submission(s1)->points, 10);
  const auto latest = store->latest_valid(false);
  ASSERT_EQ(latest.size(), 1U);
  EXPECT_EQ(latest[0].id, s1);
}

TEST_F(CourseServerStore, ASubmissionWhoseFilesCannotBePlacedIsNotAdded) {
  std::int64_t tried = 0;
  EXPECT_EQ(store->add_submission(sub("alice"),
                                  [&](std::int64_t id) {
                                    tried = id;
                                    return false;
                                  }),
            0);
  EXPECT_GT(tried, 0);
  EXPECT_FALSE(store->submission(tried));
  EXPECT_EQ(store->queued_jobs(), 0);
  // The next one takes the id the rolled-back one had.
  EXPECT_EQ(store->add_submission(sub("alice"), [](std::int64_t) { return true; }), tried);
}

TEST_F(CourseServerStore, ReopenedDatabaseKeepsEverything) {
  const auto s1 = store->add_submission(sub("alice"));
  store->set_deadline(1.5e9);
  store.reset();
  store = Store::open((dir / "course.db").string()).value();
  ASSERT_TRUE(store->submission(s1));
  EXPECT_EQ(*store->deadline(), 1.5e9);
  EXPECT_EQ(store->by_token_hash(token_hash("b"))->id, "bob");
}

// The handler's rules, asked directly (no socket, no judge running).
class CourseServerHandler : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("duel-course-" + new_token());
    Config config = csci561();
    config.uploads_per_hour = 3;
    auto made = create_course(dir, config, {{"alice", "Alice", "a@x"}, {"bob", "Bob", "b@x"}});
    ASSERT_TRUE(made) << made.error();
    csv = made->csv;
    teacher = made->teacher_link.substr(made->teacher_link.find("token=") + 6);
    store = Store::open((dir / "course.db").string()).value();
    judges = std::make_unique<Judges>(*store, config, dir, JudgeOptions{});
    server = std::make_unique<CourseServer>(dir, config, *store, *judges);
  }
  void TearDown() override { fs::remove_all(dir); }
  std::string token_of(const std::string& id) {
    const auto at = csv.find("\n" + id + ",");
    const auto line = csv.substr(at + 1, csv.find('\n', at + 1) - at - 1);
    return line.substr(line.rfind("token=") + 6);
  }
  serve::Response ask(const std::string& method, const std::string& path, const std::string& token,
                      std::string body = {}, std::vector<serve::FormPart> parts = {}) {
    serve::Request r;
    r.method = method;
    r.path = path;
    if (!token.empty()) r.headers["authorization"] = "Bearer " + token;
    r.body = std::move(body);
    r.parts = std::move(parts);
    return server->handle(r);
  }
  serve::Response upload(const std::string& token, const std::string& name,
                         const std::string& data) {
    return ask("POST", "/api/course/submissions", token, "", {{"file", name, "text/plain", data}});
  }
  fs::path dir;
  std::string csv, teacher;
  std::unique_ptr<Store> store;
  std::unique_ptr<Judges> judges;
  std::unique_ptr<CourseServer> server;
};

TEST_F(CourseServerHandler, SignInSetsASessionCookie) {
  serve::Request r;
  r.method = "POST";
  r.path = "/api/course/signin";
  r.body = R"({"token": "0123456789abcdef0123456789abcdef"})";
  EXPECT_EQ(server->handle(r).status, 403);
  r.body = nlohmann::json{{"token", token_of("alice")}}.dump();
  const auto in = server->handle(r);
  ASSERT_EQ(in.status, 200) << in.body;
  std::string cookie;
  for (const auto& [k, v] : in.headers) {
    if (k == "Set-Cookie") cookie = v;
  }
  EXPECT_NE(cookie.find("HttpOnly"), std::string::npos);
  EXPECT_NE(cookie.find("SameSite=Strict"), std::string::npos);
  EXPECT_EQ(cookie.find("Secure"), std::string::npos);  // plain HTTP
  r.secure = true;
  const auto tls = server->handle(r);
  EXPECT_NE(tls.headers.front().second.find("; Secure"), std::string::npos);
  // The cookie alone signs the student in.
  serve::Request me;
  me.method = "GET";
  me.path = "/api/course/me";
  me.headers["cookie"] = "x=1; " + cookie.substr(0, cookie.find(';'));
  const auto who = server->handle(me);
  ASSERT_EQ(who.status, 200);
  EXPECT_EQ(nlohmann::json::parse(who.body)["student"], "alice");
  me.headers.clear();
  EXPECT_EQ(server->handle(me).status, 401);
}

TEST_F(CourseServerHandler, AStudentSeesOnlyTheirOwn) {
  const auto a = upload(token_of("alice"), "homework.py", "print(1)\n");
  ASSERT_EQ(a.status, 201) << a.body;
  const auto id = nlohmann::json::parse(a.body)["id"].get<int>();
  EXPECT_EQ(nlohmann::json::parse(a.body)["place"], 1);
  const std::string path = "/api/course/submissions/" + std::to_string(id);
  EXPECT_EQ(ask("GET", path, token_of("alice")).status, 200);
  EXPECT_EQ(ask("GET", path, token_of("bob")).status, 403);
  EXPECT_EQ(ask("GET", path + "/files/homework.py", token_of("bob")).status, 403);
  EXPECT_EQ(ask("GET", path + "/download", token_of("bob")).status, 403);
  EXPECT_EQ(ask("GET", path + "/files/homework.py", token_of("alice")).body, "print(1)\n");
  EXPECT_EQ(ask("GET", path, teacher).status, 200);
  EXPECT_EQ(ask("GET", path, "").status, 401);
  EXPECT_EQ(
      nlohmann::json::parse(ask("GET", "/api/course/submissions", token_of("bob")).body).size(),
      0U);
  // The teacher's pages are the teacher's.
  EXPECT_EQ(ask("GET", "/api/course/students", token_of("bob")).status, 403);
  EXPECT_EQ(ask("POST", "/api/course/runs", token_of("bob"), R"({"kind":"grading"})").status, 403);
  EXPECT_EQ(ask("GET", "/api/course/students", teacher).status, 200);
  // The board's game API needs a session too, opens recorded games only,
  // and a board game is its opener's.
  EXPECT_EQ(ask("GET", "/api/live", "").status, 401);
  EXPECT_EQ(ask("POST", "/api/games", token_of("alice"), R"({"game":"checkers"})").status, 403);
  const std::string pdn = R"([GameType "21"]

1. 11-15 23-19 *)";
  const auto board = ask("POST", "/api/games", token_of("alice"),
                         nlohmann::json{{"game", "checkers"}, {"record", pdn}}.dump());
  ASSERT_EQ(board.status / 100, 2) << board.body;
  const std::string game = nlohmann::json::parse(board.body)["id"];
  EXPECT_EQ(ask("GET", "/api/games/" + game, token_of("alice")).status, 200);
  EXPECT_EQ(ask("GET", "/api/games/" + game, token_of("bob")).status, 403);
  EXPECT_EQ(ask("GET", "/api/games/" + game, teacher).status, 200);
  EXPECT_EQ(nlohmann::json::parse(ask("GET", "/api/live", token_of("bob")).body).size(), 0U);
  EXPECT_EQ(nlohmann::json::parse(ask("GET", "/api/live", token_of("alice")).body).size(), 1U);
}

TEST_F(CourseServerHandler, UploadsAreCheckedLateMarkedAndRateLimited) {
  const auto bad = upload(token_of("alice"), "main.py", "x");
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(bad.body.find("homework.py"), std::string::npos);
  EXPECT_EQ(upload(teacher, "homework.py", "x").status, 403);
  // A raw body named by ?name= (curl --data-binary).
  serve::Request raw;
  raw.method = "POST";
  raw.path = "/api/course/submissions";
  raw.query["name"] = "homework.py";
  raw.body = "print(2)\n";
  raw.headers["authorization"] = "Bearer " + token_of("alice");
  EXPECT_EQ(server->handle(raw).status, 201);
  store->set_deadline(now_seconds() - 10);
  const auto late = upload(token_of("alice"), "homework.py", "x=1\n");
  ASSERT_EQ(late.status, 201);
  EXPECT_TRUE(nlohmann::json::parse(late.body)["late"].get<bool>());
  EXPECT_EQ(upload(token_of("alice"), "homework.py", "x=2\n").status, 201);
  const auto limited = upload(token_of("alice"), "homework.py", "x=3\n");  // the 4th this hour
  EXPECT_EQ(limited.status, 429);
  EXPECT_EQ(upload(token_of("bob"), "homework.py", "x=3\n").status, 201);  // per student
}

TEST_F(CourseServerHandler, LadderGamesNameStudentsAsTheLadderShowsThem) {
  // A match's record and reason name the programs by student id (the class
  // folder's names); a student with a nickname is shown by it to others.
  fs::create_directories(dir / "jobs" / "1");
  ASSERT_TRUE(write_file_atomic(dir / "jobs" / "1" / "game.pdn",
                                "[Black \"alice\"]\n[White \"bob\"]\n\n1. 11-15 *\n"));
  Job job;
  job.kind = "ladder";
  job.id = store->add_job(job);
  LadderGame g{
      0, job.id, 1, 2, "alice", "bob", 0.0, "Black (alice) lost: crash", "jobs/1/game.pdn"};
  store->finish_ladder(job, {g}, {});
  store->set_nickname("alice", "Ace");
  const auto ladder = nlohmann::json::parse(ask("GET", "/api/course/ladder", token_of("bob")).body);
  ASSERT_EQ(ladder["games"].size(), 1U);
  EXPECT_EQ(ladder["games"][0]["reason"], "Black (Ace) lost: crash");
  EXPECT_EQ(ladder["games"][0]["first"], "Ace");
  const std::string path =
      "/api/course/ladder/games/" + ladder["games"][0]["id"].dump() + "/record";
  const auto record = ask("GET", path, token_of("bob")).body;
  EXPECT_NE(record.find("[Black \"Ace\"]"), std::string::npos) << record;
  EXPECT_NE(record.find("[White \"Bob\"]"), std::string::npos) << record;
  EXPECT_EQ(record.find("alice"), std::string::npos);
  // The teacher sees the ids.
  EXPECT_NE(ask("GET", path, teacher).body.find("alice"), std::string::npos);
}

TEST_F(CourseServerHandler, ATokenReissuedEndsTheOldOne) {
  const std::string old = token_of("bob");
  EXPECT_EQ(ask("GET", "/api/course/me", old).status, 200);
  auto fresh = reissue_token(dir, "bob");
  ASSERT_TRUE(fresh);
  EXPECT_EQ(ask("GET", "/api/course/me", old).status, 401);
  EXPECT_EQ(ask("GET", "/api/course/me", *fresh).status, 200);
  EXPECT_FALSE(reissue_token(dir, "nobody"));
}

}  // namespace
}  // namespace duel::course
