// `duel tournament csci561` on a short form of the committed fixture class
// (tests/data/class561/README.md): every submission graded as seed 003
// grades it, each fault losing its points with its reason, broken folders
// reported in one line, and an interrupted run resumed to the same table.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "../support/cli_run.hpp"

namespace {

namespace fs = std::filesystem;
using duel::test_support::CliRun;
using duel::test_support::duel;
using duel::test_support::slurp;

const fs::path kFixture = fs::path(DUEL_SOURCE_DIR) / "tests/data/class561";

// A class folder made of some fixture submissions and some broken ones.
struct Class {
  fs::path dir;
  explicit Class(const std::vector<std::string>& students) {
    dir = fs::temp_directory_path() /
          ("duel-class-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
    fs::remove_all(dir);
    fs::create_directories(dir / "class");
    for (const auto& s : students) {
      fs::copy(kFixture / s, dir / "class" / s, fs::copy_options::recursive);
    }
  }
  ~Class() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  Class(const Class&) = delete;
  Class& operator=(const Class&) = delete;
  static int& counter() {
    static int n = 0;
    return n;
  }
  [[nodiscard]] fs::path out() const { return dir / "out"; }
  [[nodiscard]] std::string args() const {
    return "tournament csci561 " + (dir / "class").string() + " --out " + out().string();
  }
};

[[nodiscard]] const nlohmann::json& student(const nlohmann::json& doc, const std::string& name) {
  for (const auto& s : doc["students"]) {
    if (s["name"] == name) return s;
  }
  static const nlohmann::json kNone;
  ADD_FAILURE() << "no student " << name;
  return kNone;
}

// Seed 003's grading, short: 3 of the committed positions at 2 s, one game
// against a reference at 10 s a side (minimax at depth 2, for speed: the
// depth is the reference program's own affair).
TEST(ClassTournament, GradesAClassAsTheCourseDoes) {
  Class c({"s01-first-py", "s03-minimax-cpp", "s05-java", "f01-crash-py", "f03-illegal-py",
           "f04-format-py", "f08-noout-py"});
  fs::create_directories(c.dir / "class" / "x-empty");
  fs::create_directories(c.dir / "class" / "x-two");
  std::ofstream(c.dir / "class" / "x-two" / "homework.py") << "print(1)\n";
  std::ofstream(c.dir / "class" / "x-two" / "homework.cpp") << "int main() {}\n";
  fs::create_directories(c.dir / "class" / "x-badcpp");
  std::ofstream(c.dir / "class" / "x-badcpp" / "homework.cpp") << "int main( {\n";
  std::ofstream(c.dir / "positions.txt")
      << "# three of the committed set\n"
      << "2 B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12 # start\n"
      << "2 B:W18,26:B14 # 14x23x30\n"
      << "2 W:W10,K29:B7,K26 # a jump that crowns ends\n";
  const CliRun r = duel(c.args() + " --positions " + (c.dir / "positions.txt").string() +
                        " --reference-games 1 --reference duel:minimax:depth=2 --time 10 "
                        "--concurrency 2 --quiet");
  ASSERT_EQ(r.status, 0) << r.err << r.out;
  const auto doc = nlohmann::json::parse(slurp(c.out() / "results.json"));
  EXPECT_EQ(doc["students"].size(), 10U);
  // Correct agents: every single move is a point (seed 003: "each worth one point").
  EXPECT_EQ(student(doc, "s01-first-py")["single_points"], 3);
  EXPECT_EQ(student(doc, "s03-minimax-cpp")["single_points"], 3);
  EXPECT_EQ(student(doc, "s03-minimax-cpp")["language"], "c++");
  EXPECT_EQ(student(doc, "s05-java")["single_points"], 3);  // compiled with javac
  EXPECT_EQ(student(doc, "s05-java")["language"], "java");
  // s01's moves as `e B6 A5`: the course's referee read any case (RULES.md §6a).
  EXPECT_EQ(student(doc, "f04-format-py")["single_points"], 3);
  // Faults: no point, and the reason in the seed's terms.
  const auto reasons = [&](const std::string& name) {
    std::string all;
    for (const auto& l : student(doc, name)["lost"]) all += l.dump() + "\n";
    return all;
  };
  for (const auto& [name, reason] :
       std::vector<std::pair<std::string, std::string>>{{"f01-crash-py", "crash"},
                                                        {"f03-illegal-py", "illegal-move"},
                                                        {"f08-noout-py", "no-output"}}) {
    EXPECT_EQ(student(doc, name)["points"], 0) << name;
    EXPECT_EQ(student(doc, name)["lost"].size(), 4U) << name << reasons(name);
    EXPECT_NE(reasons(name).find(reason), std::string::npos) << name << reasons(name);
  }
  // Broken folders: one line each, no task run, 0 points.
  EXPECT_NE(student(doc, "x-empty")["error"].get<std::string>().find("no program"),
            std::string::npos);
  EXPECT_NE(student(doc, "x-two")["error"].get<std::string>().find("two programs"),
            std::string::npos);
  EXPECT_NE(student(doc, "x-badcpp")["error"].get<std::string>().find("compiling failed"),
            std::string::npos);
  // The files the issue names, and a record for each game.
  for (const char* f : {"results.json", "results.csv", "index.html", "journal.jsonl"}) {
    EXPECT_TRUE(fs::exists(c.out() / f)) << f;
  }
  for (const auto& g : student(doc, "s01-first-py")["games"]) {
    EXPECT_TRUE(fs::exists(c.out() / g["record"].get<std::string>())) << g.dump();
  }
  const std::string csv = slurp(c.out() / "results.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 11) << csv;

  // Resumed: the same command runs nothing and writes the same table.
  const std::string before = slurp(c.out() / "results.json");
  const CliRun again = duel(c.args() + " --positions " + (c.dir / "positions.txt").string() +
                            " --reference-games 1 --reference duel:minimax:depth=2 --time 10 "
                            "--quiet");
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_NE(again.out.find("0 tasks run, 28 from the journal"), std::string::npos) << again.out;
  EXPECT_EQ(slurp(c.out() / "results.json"), before);
  // Other options with the same folder are refused, not mixed in.
  const CliRun other = duel(c.args() + " --reference-games 2 --quiet");
  EXPECT_EQ(other.status, 2);
  EXPECT_NE(other.err.find("journal of another tournament"), std::string::npos) << other.err;
}

// A journal cut short mid-line (the runner killed while writing) resumes:
// the cut task is run again and counted once.
TEST(ClassTournament, AJournalCutShortResumes) {
  Class c({"s01-first-py", "s02-greedy-py"});
  const std::string args = c.args() + " --format round-robin --games 2 --time 10 --quiet";
  ASSERT_EQ(duel(args).status, 0);
  std::string journal = slurp(c.out() / "journal.jsonl");
  journal.resize(journal.size() - 40);  // the last game's line, half written
  std::ofstream(c.out() / "journal.jsonl", std::ios::trunc) << journal;
  const CliRun again = duel(args);
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_NE(again.out.find("1 tasks run, 1 from the journal"), std::string::npos) << again.out;
  const auto doc = nlohmann::json::parse(slurp(c.out() / "results.json"));
  EXPECT_EQ(student(doc, "s01-first-py")["games"].size(), 2U);
  EXPECT_EQ(doc["standings"][0]["name"], "s02-greedy-py") << doc["standings"].dump();
}

// Every fault of the fixture class, graded on one position and one game
// at short clocks: each loses its point and its game with its own reason
// (f04's is a fault only to the hand-out's letter, --strict),
// the correct agent beside them still scores, and nothing of the fork bomb
// is left running (tests/data/class561/README.md's table).
TEST(ClassTournament, EveryFaultLosesWithItsReasonAndHarmsNoOne) {
  Class c({"s01-first-py", "f01-crash-py", "f02-hang-py", "f03-illegal-py", "f04-format-py",
           "f05-slow-cpp", "f06-noisy-py", "f07-forkbomb-py", "f08-noout-py", "f09-disk-py"});
  std::ofstream(c.dir / "positions.txt")
      << "1 B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12 # start\n";
  const CliRun r = duel(c.args() + " --positions " + (c.dir / "positions.txt").string() +
                        " --reference-games 1 --time 2 --wall-factor 1.5 --disk-limit 16 "
                        "--concurrency 2 --quiet");
  ASSERT_EQ(r.status, 0) << r.err << r.out;
  const auto doc = nlohmann::json::parse(slurp(c.out() / "results.json"));
  EXPECT_EQ(student(doc, "s01-first-py")["single_points"], 1);
  // f04 writes s01's moves as `e B6 A5`, which the course's referee read
  // (RULES.md §6a): its single move scores (--strict: reading_test.cpp).
  EXPECT_EQ(student(doc, "f04-format-py")["single_points"], 1);
  for (const auto& [name, reason] :
       std::vector<std::pair<std::string, std::string>>{{"f01-crash-py", "crash"},
                                                        {"f02-hang-py", "killed"},
                                                        {"f03-illegal-py", "illegal-move"},
                                                        {"f05-slow-cpp", "time"},
                                                        {"f06-noisy-py", "output-limit"},
                                                        {"f07-forkbomb-py", "time"},
                                                        {"f08-noout-py", "no-output"},
                                                        {"f09-disk-py", "disk-limit"}}) {
    const auto& st = student(doc, name);
    EXPECT_EQ(st["points"], 0) << name;
    ASSERT_EQ(st["lost"].size(), 2U) << name << st["lost"].dump();
    for (const auto& l : st["lost"]) {
      const std::string said = l["reason"].get<std::string>() + l.value("detail", "");
      // A slow program on a loaded machine may reach the wall-clock limit
      // (time factor x its clock) before its CPU clock: the same fault.
      const bool slow = name == "f05-slow-cpp" || name == "f07-forkbomb-py";
      const bool ok = said.find(reason) != std::string::npos ||
                      (slow && said.find("wall-clock limit") != std::string::npos) ||
                      (name == "f07-forkbomb-py" && said.find("killed") != std::string::npos);
      EXPECT_TRUE(ok) << name << ": " << l.dump();
    }
  }
  // The fork bomb's processes are all gone.
  int left = 0;
  for (const auto& p : fs::directory_iterator("/proc")) {
    const std::string cmdline = slurp(p.path() / "cmdline");
    if (cmdline.find("f07-forkbomb-py") != std::string::npos) ++left;
  }
  EXPECT_EQ(left, 0);
  // The flood and the disk filler left bounded folders behind.
  std::uintmax_t bytes = 0;
  for (const auto& e : fs::recursive_directory_iterator(c.out() / "games")) {
    if (e.is_regular_file()) bytes += e.file_size();
  }
  EXPECT_LT(bytes, std::uintmax_t{32} << 20);  // pruned: logs and protocol files
}

// The README's round-robin table, short: the correct agents in C++ and
// Python (s01, s03, s04; 6 games at 20 s) play exactly the games it lists.
TEST(ClassTournament, PlaysTheFixturesTable) {
  Class c({"s01-first-py", "s03-minimax-cpp", "s04-alphabeta-cpp11"});
  const CliRun r = duel(c.args() + " --format round-robin --time 20 --concurrency 2 --quiet");
  ASSERT_EQ(r.status, 0) << r.err << r.out;
  // tests/data/class561/README.md, "Round robin of the correct agents":
  // row agent's result as Black, then as White; nm = no legal move, rep =
  // threefold repetition (won on time left).
  const std::map<std::string, std::string> expected = {
      {"round-robin/s01-first-py/s03-minimax-cpp/0", "s03-minimax-cpp repetition"},
      {"round-robin/s01-first-py/s03-minimax-cpp/1", "s03-minimax-cpp no move"},
      {"round-robin/s01-first-py/s04-alphabeta-cpp11/0", "s04-alphabeta-cpp11 no move"},
      {"round-robin/s01-first-py/s04-alphabeta-cpp11/1", "s04-alphabeta-cpp11 no move"},
      {"round-robin/s03-minimax-cpp/s04-alphabeta-cpp11/0", "s04-alphabeta-cpp11 no move"},
      {"round-robin/s03-minimax-cpp/s04-alphabeta-cpp11/1", "s04-alphabeta-cpp11 no move"}};
  std::istringstream journal(slurp(c.out() / "journal.jsonl"));
  std::string line;
  std::getline(journal, line);
  int games = 0;
  while (std::getline(journal, line)) {
    const auto g = nlohmann::json::parse(line);
    const auto want = expected.at(g["key"].get<std::string>());
    const std::string reason = g["reason"];
    EXPECT_EQ(g["winner"], want.substr(0, want.find(' '))) << line;
    const std::string cause = want.substr(want.find(' ') + 1);
    EXPECT_NE(reason.find(cause == "repetition" ? "third time" : "has no move"), std::string::npos)
        << line;
    ++games;
  }
  EXPECT_EQ(games, 6);
  const auto doc = nlohmann::json::parse(slurp(c.out() / "results.json"));
  EXPECT_EQ(doc["standings"][0]["name"], "s04-alphabeta-cpp11");
  EXPECT_EQ(doc["standings"][2]["name"], "s01-first-py");
}

TEST(ClassTournament, BadCommandLines) {
  const auto bad = [](const std::string& args, const std::string& needle) {
    const CliRun r = duel("tournament " + args);
    EXPECT_EQ(r.status, 2) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << args << "\n" << r.err;
  };
  bad("cs9999 /tmp --out /tmp/x", "course 'cs9999'");
  bad("csci561 /no/such/class --out /tmp/duel-no-class", "is not a folder");
  bad("csci561 /tmp --out /tmp/x --games 3 --format round-robin", "must be even");
  bad("csci561 /tmp --out /tmp/x --positions /no/such/file", "--positions: cannot read");
  bad("csci561 /tmp --out /tmp/x --strict --lenient", "not both");
}

}  // namespace
