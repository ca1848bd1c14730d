// `duel tournament csci561` on a short form of the committed fixture class
// (tests/data/class561/README.md): every submission graded as seed 003
// grades it, each fault losing its points with its reason, broken folders
// reported in one line, and an interrupted run resumed to the same table.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
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
// against the reference at 10 s a side.
TEST(ClassTournament, GradesAClassAsTheCourseDoes) {
  Class c({"s01-first-py", "s03-minimax-cpp", "f01-crash-py", "f03-illegal-py", "f04-format-py",
           "f08-noout-py"});
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
                        " --reference-games 1 --time 10 --concurrency 2 --quiet");
  ASSERT_EQ(r.status, 0) << r.err << r.out;
  const auto doc = nlohmann::json::parse(slurp(c.out() / "results.json"));
  EXPECT_EQ(doc["students"].size(), 9U);
  // Correct agents: every single move is a point (seed 003: "each worth one point").
  EXPECT_EQ(student(doc, "s01-first-py")["single_points"], 3);
  EXPECT_EQ(student(doc, "s03-minimax-cpp")["single_points"], 3);
  EXPECT_EQ(student(doc, "s03-minimax-cpp")["language"], "c++");
  // Faults: no point, and the reason in the seed's terms.
  const auto reasons = [&](const std::string& name) {
    std::string all;
    for (const auto& l : student(doc, name)["lost"]) all += l.dump() + "\n";
    return all;
  };
  for (const auto& [name, reason] :
       std::vector<std::pair<std::string, std::string>>{{"f01-crash-py", "crash"},
                                                        {"f03-illegal-py", "illegal-move"},
                                                        {"f04-format-py", "the hand-out's format"},
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
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 10) << csv;

  // Resumed: the same command runs nothing and writes the same table.
  const std::string before = slurp(c.out() / "results.json");
  const CliRun again = duel(c.args() + " --positions " + (c.dir / "positions.txt").string() +
                            " --reference-games 1 --time 10 --quiet");
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_NE(again.out.find("0 tasks run, 24 from the journal"), std::string::npos) << again.out;
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
}

}  // namespace
