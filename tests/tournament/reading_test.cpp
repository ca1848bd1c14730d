// `duel tournament csci561` grading the course's ten SINGLE inputs
// (RULES.md §6a) with output.txt read as the course's referee read it: a
// class whose programs all play the same legal move (Duel's homework with
// the `first` agent) and each write it in one form. Every form the course
// accepted earns 10/10; each form it refused loses the point of every
// position where it was written.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../support/cli_run.hpp"
#include "../support/scratch.hpp"
#include "duel/games/checkers/checkers.hpp"
#include "duel/games/checkers/protocol.hpp"
#include "duel/tournament/tasks.hpp"
#include "duel/tournament/tournament.hpp"

namespace {

namespace fs = std::filesystem;
using duel::test_support::CliRun;
using duel::test_support::duel;
using duel::test_support::Scratch;
using duel::test_support::slurp;

// A student: a Python program that looks up the first legal move of the
// board in input.txt (`answers`, worked out here: what Duel's `first` agent
// plays, with no Duel process a move, which the sanitizer tree would make
// slow) and writes its lines (`lines`, without line ends) as `text`, the
// file's content, by the Python expression `form`.
struct Form {
  std::string name;
  std::string form;
};

void write_student(const fs::path& dir, const fs::path& answers, const Form& f) {
  fs::create_directories(dir);
  // Its own copy of the answers: a boxed program reads only its folder.
  fs::copy_file(answers, dir / "answers.json", fs::copy_options::overwrite_existing);
  std::ofstream(dir / "homework.py") << "import json\n"
                                     << "with open('input.txt') as f:\n"
                                     << "    board = ''.join(f.read().split()[3:11])\n"
                                     << "with open('answers.json') as f:\n"
                                     << "    lines = json.load(f)[board].splitlines()\n"
                                     << "text = " << f.form << "\n"
                                     << "with open('output.txt', 'w', newline='') as f:\n"
                                     << "    f.write(text)\n";
}

// RULES.md §6a: "trailing spaces, `E B6 C5`, tabs, CR, blank or extra empty
// lines are all accepted".
const std::vector<Form> kAccepted = {
    {"a-letter", "''.join(l + '\\n' for l in lines)"},
    {"a-upper", "''.join(l.upper() + '\\n' for l in lines)"},
    {"a-lower", "''.join(l.lower() + '\\n' for l in lines)"},
    {"a-tabs", "''.join(l.replace(' ', '\\t') + '\\n' for l in lines)"},
    {"a-crlf", "''.join(l + '\\r\\n' for l in lines)"},
    {"a-trailing", "''.join(l + '   \\n' for l in lines)"},
    {"a-leading", "''.join('  ' + l + '\\n' for l in lines)"},
    {"a-blank", "'\\n\\n' + ''.join(l + '\\n\\n' for l in lines) + '\\n \\n'"},
    {"a-all",
     "'\\r\\n' + ''.join(' ' + l.upper().replace(' ', ' \\t ') + ' \\r\\n' for l in lines)"},
};

// RULES.md §6a: "A line that does not split into exactly 3 parts, an unknown
// kind, a simple move with more than one step, or steps of mixed kinds is a
// bad move." The last two change only moves of their kind: a simple move
// written twice, a jump followed by a simple step.
const std::vector<Form> kRefused = {
    {"r-2-parts", "''.join(l.rsplit(' ', 1)[0] + '\\n' for l in lines)"},
    {"r-4-parts", "''.join(l + ' x\\n' for l in lines)"},
    {"r-kind-x", "''.join('X' + l[1:] + '\\n' for l in lines)"},
    {"r-two-e", "''.join(l + '\\n' for l in lines * (2 if lines[0][0] == 'E' else 1))"},
    {"r-mixed",
     "''.join(l + '\\n' for l in lines) + ('E ' + lines[-1][5:] + ' ' + lines[-1][5:] + '\\n' "
     "if lines[0][0] == 'J' else '')"},
};

TEST(CourseReading, TheCoursesTenSinglesInEveryForm) {
  const Scratch scratch("duel-reading");
  const fs::path& dir = scratch.dir;
  // Each position's first legal move (agents/baseline.hpp's FirstAgent),
  // as output.txt writes it, by its 8 board lines.
  nlohmann::json answers = nlohmann::json::object();
  for (const auto& p : duel::tournament::default_singles()) {
    const auto state = duel::games::checkers::State::parse(p.fen);
    ASSERT_TRUE(state.ok()) << state.error();
    duel::games::checkers::State::Moves moves;
    state->actions(moves);
    ASSERT_FALSE(moves.empty()) << p.fen;
    std::string board = state->board_lines();
    std::erase(board, '\n');
    answers[board] = duel::games::checkers::protocol::output_text(*state, moves[0]);
  }
  std::ofstream(dir / "answers.json") << answers.dump();
  for (const auto& f : kAccepted) write_student(dir / "class" / f.name, dir / "answers.json", f);
  for (const auto& f : kRefused) write_student(dir / "class" / f.name, dir / "answers.json", f);

  // The default positions are the course's ten at their own times (300 s,
  // 293.84 s, 292.24 s). Every program answers at once (`first`), so no
  // task comes near its wall-clock limit (2 x 300 s).
  const CliRun r = duel("tournament csci561 " + (dir / "class").string() + " --out " +
                        (dir / "out").string() + " --reference-games 0 --concurrency 2 --quiet");
  ASSERT_EQ(r.status, 0) << r.err << r.out;
  const auto doc = nlohmann::json::parse(slurp(dir / "out" / "results.json"));

  // Which positions hold a simple move and which a jump, for the first
  // legal move (agents/baseline.hpp's FirstAgent, what `first` plays).
  const auto& singles = duel::tournament::default_singles();
  ASSERT_EQ(singles.size(), 10U);
  std::vector<bool> jump;
  for (const auto& p : singles) {
    const auto state = duel::games::checkers::State::parse(p.fen);
    ASSERT_TRUE(state.ok()) << state.error();
    duel::games::checkers::State::Moves moves;
    state->actions(moves);
    ASSERT_FALSE(moves.empty()) << p.fen;
    jump.push_back(moves[0].is_jump());
  }
  // Both kinds occur, so r-two-e and r-mixed each lose some and keep some.
  const auto jumps = std::count(jump.begin(), jump.end(), true);
  ASSERT_GT(jumps, 0);
  ASSERT_LT(jumps, 10);

  std::map<std::string, std::vector<int>> points;  // by student, by position
  for (const auto& s : doc["students"]) {
    std::vector<int> row(10, -1);
    for (const auto& j : s["singles"]) {
      row.at(j["position"].get<std::size_t>()) = j.value("point", 0);
    }
    points[s["name"].get<std::string>()] = row;
  }
  for (const auto& f : kAccepted) {
    EXPECT_EQ(points[f.name], std::vector<int>(10, 1)) << f.name << ": " << doc.dump();
  }
  for (std::size_t k = 0; k < 10; ++k) {
    EXPECT_EQ(points["r-2-parts"][k], 0) << k;
    EXPECT_EQ(points["r-4-parts"][k], 0) << k;
    EXPECT_EQ(points["r-kind-x"][k], 0) << k;
    EXPECT_EQ(points["r-two-e"][k], jump[k] ? 1 : 0) << k;
    EXPECT_EQ(points["r-mixed"][k], jump[k] ? 0 : 1) << k;
  }
  // A refused form is bad output, and the reason says what the course reads.
  for (const auto& s : doc["students"]) {
    for (const auto& l : s["lost"]) {
      EXPECT_EQ(l["reason"], "bad-output") << l.dump();
      EXPECT_NE(l["detail"].get<std::string>().find("the course reads"), std::string::npos)
          << l.dump();
    }
  }

  // --strict (the hand-out's letter): only the letter keeps its points.
  const CliRun strict =
      duel("tournament csci561 " + (dir / "class").string() + " --out " +
           (dir / "strict").string() + " --reference-games 0 --concurrency 2 --quiet --strict");
  ASSERT_EQ(strict.status, 0) << strict.err << strict.out;
  const auto sdoc = nlohmann::json::parse(slurp(dir / "strict" / "results.json"));
  for (const auto& s : sdoc["students"]) {
    const std::string name = s["name"];
    if (name == "a-letter") {
      EXPECT_EQ(s["single_points"], 10) << name;
    } else if (name.starts_with("a-")) {
      EXPECT_EQ(s["single_points"], 0) << name;
    }
  }
}

// A single-move task's reading (tasks.hpp): "reading": "course" | "strict";
// an old journal's "lenient" read as it was (true: any case and spacing,
// now the course's reading; false: the hand-out's letter); neither: the
// course's. The program writes Black's legal b6-a5 as `e B6 A5`.
TEST(CourseReading, ATasksReadingAndTheOldLenientKey) {
  const Scratch scratch("duel-reading-task");
  const fs::path& dir = scratch.dir;
  fs::create_directories(dir / "prog");
  std::ofstream(dir / "prog" / "answer.sh") << "printf 'e B6 A5\\r\\n' > output.txt\n";
  const std::vector<std::pair<nlohmann::json, int>> cases = {
      {{{"reading", "course"}}, 1}, {{{"reading", "strict"}}, 0},  {{{"lenient", true}}, 1},
      {{{"lenient", false}}, 0},    {nlohmann::json::object(), 1},
  };
  int n = 0;
  for (const auto& [reading, point] : cases) {
    nlohmann::json task = {{"key", "single/" + std::to_string(n)},
                           {"kind", "single"},
                           {"student", "s"},
                           {"program", "/bin/sh answer.sh"},
                           {"source", "prog"},
                           {"position", 0},
                           {"fen", duel::games::checkers::State().to_text()},
                           {"seconds", 5.0},
                           {"cpu", "user"},
                           {"dir", "games/" + std::to_string(n++)}};
    task.update(reading);
    const auto entry = duel::tournament::run_task(task, {dir});
    EXPECT_EQ(entry.value("point", -1), point) << reading.dump() << " -> " << entry.dump();
    if (point == 0) EXPECT_EQ(entry.value("reason", ""), "bad-output") << entry.dump();
  }
}

}  // namespace
