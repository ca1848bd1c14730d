// What a teacher reads after `duel tournament csci561`: each student's
// feedback/NAME.txt (the position of a lost single move, what the program
// wrote and why it lost; a compile error in full), tasks.csv (a row per
// task, names quoted as RFC 4180 says), the compile failure on the
// progress output as it happens, and the same files after a resumed run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../support/cli_run.hpp"
#include "duel/tournament/feedback.hpp"

namespace {

namespace fs = std::filesystem;
using duel::test_support::CliRun;
using duel::test_support::duel;
using duel::test_support::slurp;

const fs::path kFixture = fs::path(DUEL_SOURCE_DIR) / "tests/data/class561";

[[nodiscard]] bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

[[nodiscard]] std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The course's notation, replayed: the fixture position "B:W18,26:B14"
// (tests/tournament/tournament_test.cpp: "14x23x30") is Black's double
// jump c5-e3-c1 (squares 14 = c5, 23 = e3, 30 = c1 in the course's
// input.txt board, whose top line holds squares 1-4 on b8, d8, f8, h8).
TEST(Feedback, MovesInTheCoursesNotationWithPdnNumbers) {
  const auto shown = duel::tournament::course_moves("checkers", "B:W18,26:B14", {"14x23x30"});
  ASSERT_EQ(shown.size(), 1U);
  EXPECT_EQ(shown[0], "J c5 e3, J e3 c1 (14x23x30)");
  // From the start: Black's 11-15 is f6 to e5 (11 = f6, 15 = e5).
  const auto opening = duel::tournament::course_moves("checkers", "", {"11-15", "22-18"});
  ASSERT_EQ(opening.size(), 2U);
  EXPECT_EQ(opening[0], "E f6 e5 (11-15)");
  EXPECT_EQ(opening[1], "E c3 d4 (22-18)");  // 22 = c3, 18 = d4
}

TEST(Feedback, QuotesWhatAProgramWroteExactly) {
  EXPECT_EQ(duel::tournament::quoted("E d6 c5 \r\n\tx\x01\"\\"), R"("E d6 c5 \r\n\tx\x01\"\\")");
  EXPECT_EQ(duel::tournament::feedback_file("exec:cmd=./prog"), "exec:cmd=._prog.txt");
}

// A short grading: two positions at 2 s, one game against a depth-1
// minimax reference at 0.5 s a side (s01's Python start-up, about 0.03 s
// of CPU a move, runs its clock out in a few seconds of play).
TEST(Feedback, EachStudentsFileTasksCsvAndTheProgressOutput) {
  const fs::path dir = fs::temp_directory_path() / ("duel-feedback-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const fs::path cls = dir / "class";
  fs::create_directories(cls);
  // A name with a comma and quotes, to be quoted in the CSV files.
  const std::string illegal = "f03, \"illegal\"";
  fs::copy(kFixture / "f03-illegal-py", cls / illegal, fs::copy_options::recursive);
  fs::copy(kFixture / "s01-first-py", cls / "s01-first-py", fs::copy_options::recursive);
  // A calibrate program that fails: reported, and the student still plays.
  fs::copy(kFixture / "f03-illegal-py", cls / "x-calfail", fs::copy_options::recursive);
  std::ofstream(cls / "x-calfail" / "calibrate.py") << "raise ValueError('no calibration here')\n";
  fs::create_directories(cls / "x-badcpp");
  std::ofstream(cls / "x-badcpp" / "homework.cpp") << "int main() {\n  return undeclared;\n}\n";
  const bool java = std::system("javac -version >/dev/null 2>&1") == 0;
  if (java) {
    fs::create_directories(cls / "x-badjava");
    std::ofstream(cls / "x-badjava" / "homework.java")
        << "public class homework {\n  public static void main(String[] a) {\n"
        << "    int x = \"text\"\n  }\n}\n";
  }
  std::ofstream(dir / "positions.txt")
      << "2 B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12 # start\n"
      << "2 B:W18,26:B14 # 14x23x30\n";
  const std::string args = "tournament csci561 " + cls.string() + " --out " +
                           (dir / "out").string() + " --positions " +
                           (dir / "positions.txt").string() +
                           " --reference-games 1 --reference duel:minimax:depth=1 --time 0.5 "
                           "--concurrency 2";
  const CliRun r = duel(args);
  ASSERT_EQ(r.status, 0) << r.err << r.out;
  const fs::path out = dir / "out";

  // The compile failure on stderr as it happened, with the compiler's error line.
  EXPECT_TRUE(has(r.err, "duel: x-badcpp: compiling failed:")) << r.err;
  // (g++ quotes the name with ' or with curly quotes, by the locale.)
  EXPECT_TRUE(has(r.err, "error:") && has(r.err, "undeclared")) << r.err;

  EXPECT_TRUE(has(r.err,
                  "duel: x-calfail: calibrate failed: exit status 1 (ValueError: no calibration "
                  "here)\n"))
      << r.err;
  EXPECT_TRUE(
      has(slurp(out / "feedback" / "x-calfail.txt"), "  | ValueError: no calibration here\n"));

  // A single move lost: the position (its FEN and input.txt's lines), what
  // the program wrote, and why. f03 writes a step from the first empty dark
  // square scanning from a8 (its header comment): a5 to b4 at the start.
  const std::string f03 = slurp(out / "feedback" / (illegal + ".txt"));
  EXPECT_TRUE(has(f03, "Single move 1 (single/" + illegal + "/0): no point")) << f03;
  EXPECT_TRUE(has(f03, "FEN: B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"))
      << f03;
  EXPECT_TRUE(has(f03, "    SINGLE\n    BLACK\n")) << f03;
  EXPECT_TRUE(has(f03, "    .b.b.b.b\n    b.b.b.b.\n    .b.b.b.b\n    ........\n")) << f03;
  EXPECT_TRUE(has(f03, "output.txt (8 bytes): \"E a5 b4\\n\"")) << f03;
  EXPECT_TRUE(has(f03, "why no point: illegal")) << f03;
  EXPECT_TRUE(has(f03, "Game 1 (reference/" + illegal + "/0): loss as Black against reference"))
      << f03;
  EXPECT_TRUE(has(f03, "  moves: none\n")) << f03;  // it lost on its first move
  // A point: the move in the course's notation with its PDN numbers.
  const std::string s01 = slurp(out / "feedback" / "s01-first-py.txt");
  EXPECT_TRUE(has(s01, "Single move 2 (single/s01-first-py/1): 1 point")) << s01;
  EXPECT_TRUE(has(s01, "the move: J c5 e3, J e3 c1 (14x23x30)")) << s01;
  EXPECT_TRUE(has(s01, "  time left: ")) << s01;
  EXPECT_TRUE(has(s01, "    1. E ")) << s01;  // the first move of its game, as output.txt writes it

  // A compile failure: the compiler's whole message, every line of build.log.
  const std::string bad = slurp(out / "feedback" / "x-badcpp.txt");
  EXPECT_TRUE(has(bad, "It could not play: compiling failed")) << bad;
  const auto log = lines_of(slurp(out / "agents" / "x-badcpp" / "build.log"));
  ASSERT_FALSE(log.empty());
  for (const auto& line : log) EXPECT_TRUE(has(bad, "  | " + line + "\n")) << line << "\n" << bad;
  if (java) {
    const auto doc = nlohmann::json::parse(slurp(out / "results.json"));
    for (const auto& s : doc["students"]) {
      if (s["name"] != "x-badjava") continue;
      // javac's first error line, not its last ("1 error").
      EXPECT_TRUE(has(s["error"].get<std::string>(), "homework.java:3: error: ';' expected"))
          << s["error"];
    }
    const std::string jf = slurp(out / "feedback" / "x-badjava.txt");
    for (const auto& line : lines_of(slurp(out / "agents" / "x-badjava" / "build.log"))) {
      EXPECT_TRUE(has(jf, "  | " + line + "\n")) << line << "\n" << jf;
    }
    EXPECT_TRUE(has(r.err, "duel: x-badjava: compiling failed:")) << r.err;
  } else {
    std::cout << "[ SKIPPED  ] the broken Java submission: javac is not installed\n";
  }

  // tasks.csv: a row per single move and game of the three who played (2 +
  // 1 each), the name quoted with its quotes doubled.
  const auto rows = lines_of(slurp(out / "tasks.csv"));
  ASSERT_EQ(rows.size(), 1U + 3 * 3) << slurp(out / "tasks.csv");
  EXPECT_EQ(rows[0],
            "student,task,key,opponent,colour,result,reason,detail,time_used,time_left,close_call");
  EXPECT_EQ(
      std::ranges::count_if(
          rows, [](const std::string& l) { return l.starts_with("\"f03, \"\"illegal\"\"\","); }),
      3);
  EXPECT_EQ(std::ranges::count_if(
                rows, [](const std::string& l) { return l.starts_with("s01-first-py,game 1,"); }),
            1);
  // results.csv keeps one row a student.
  EXPECT_EQ(lines_of(slurp(out / "results.csv")).size(), 1U + (java ? 5 : 4));
  // index.html links each student's feedback.
  EXPECT_TRUE(has(slurp(out / "index.html"), "href=\"feedback/s01-first-py.txt\""));

  // Resumed: nothing is run, and the files come out the same.
  const std::string before =
      slurp(out / "feedback" / "s01-first-py.txt") + slurp(out / "tasks.csv") + f03 + bad;
  const CliRun again = duel(args + " --quiet");
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_TRUE(has(again.out, "0 tasks run")) << again.out;
  EXPECT_EQ(slurp(out / "feedback" / "s01-first-py.txt") + slurp(out / "tasks.csv") +
                slurp(out / "feedback" / (illegal + ".txt")) +
                slurp(out / "feedback" / "x-badcpp.txt"),
            before);
  std::error_code ec;
  fs::remove_all(dir, ec);
}

}  // namespace
