// The SINGLE positions of `duel tournament csci561`: the course's ten, as
// embedded, equal to the inputs the course wrote (RULES.md §6a,
// courses/csci561/single-inputs.txt beside it), and Duel's own set.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "../support/cli_run.hpp"
#include "duel/games/checkers/protocol.hpp"
#include "duel/tournament/tournament.hpp"

namespace {

namespace fs = std::filesystem;
using duel::tournament::course_single_inputs;
using duel::tournament::default_singles;

// The shared course data (not in a clone): $DUEL_COURSES, else beside the
// worktrees.
[[nodiscard]] fs::path course_inputs_file() {
  std::vector<fs::path> roots;
  if (const char* env = std::getenv("DUEL_COURSES")) roots.emplace_back(env);
  roots.push_back(fs::path(DUEL_SOURCE_DIR) / ".." / "shared" / "courses");
  roots.push_back(fs::path(DUEL_SOURCE_DIR) / ".." / ".." / "shared" / "courses");
  for (const auto& r : roots) {
    if (fs::exists(r / "csci561" / "single-inputs.txt")) return r / "csci561" / "single-inputs.txt";
  }
  return {};
}

// The file's blocks: the 11 lines of each input.txt, comments and blank
// lines between them dropped.
[[nodiscard]] std::vector<std::string> blocks_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  std::string block;
  while (std::getline(in, line)) {
    if (line.starts_with('#')) continue;
    if (line.empty()) {
      if (!block.empty()) out.push_back(block);
      block.clear();
      continue;
    }
    block += line + '\n';
  }
  if (!block.empty()) out.push_back(block);
  return out;
}

TEST(CourseSingles, EmbeddedAreTheCoursesInputs) {
  const fs::path file = course_inputs_file();
  if (file.empty()) {
    GTEST_SKIP() << "courses/csci561/single-inputs.txt not found (set DUEL_COURSES to the folder "
                    "holding csci561/); the embedded set is checked against it where it is";
  }
  const auto blocks = blocks_of(duel::test_support::slurp(file));
  const auto embedded = course_single_inputs();
  ASSERT_EQ(blocks.size(), embedded.size());
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    EXPECT_EQ(std::string(embedded[i]), blocks[i]) << "single move " << i + 1;
  }
}

// RULES.md §6a: "the ten SINGLE moves had 300 s each (two had 293.84 s and
// 292.24 s)"; single-inputs.txt: moves 6 and 7.
TEST(CourseSingles, AreTheDefaultWithTheirOwnTimes) {
  const auto& set = default_singles();
  ASSERT_EQ(set.size(), 10U);
  for (std::size_t i = 0; i < set.size(); ++i) {
    const double want = i == 5 ? 293.84 : i == 6 ? 292.24 : 300.0;
    EXPECT_EQ(set[i].seconds, want) << i;
    EXPECT_EQ(set[i].source,
              "akkkkka/CSCI561_HW2_21Spr@5bb41ac:hw2-resubmit-result/single/"
              "log_single_mbiyani.txt, single move " +
                  std::to_string(i + 1));
    // The FEN is the input's board and side, read back.
    const auto in = duel::games::checkers::protocol::parse_input(course_single_inputs()[i]);
    ASSERT_TRUE(in.ok()) << in.error();
    EXPECT_EQ(set[i].fen, in->state.to_text());
    const auto state = duel::games::checkers::State::parse(set[i].fen);
    ASSERT_TRUE(state.ok()) << state.error();
    EXPECT_EQ(state->board_lines(), in->state.board_lines());
    EXPECT_FALSE(state->is_terminal());
  }
  // Single move 1 is the start, Black to play (single-inputs.txt).
  EXPECT_EQ(set[0].fen, duel::games::checkers::State().to_text());
}

TEST(CourseSingles, NamedSets) {
  const auto course = duel::tournament::named_singles("course");
  ASSERT_TRUE(course.ok());
  EXPECT_EQ(course->size(), 10U);
  EXPECT_EQ(course->front().source, default_singles().front().source);
  const auto own = duel::tournament::named_singles("duel");
  ASSERT_TRUE(own.ok());
  ASSERT_EQ(own->size(), 10U);
  for (const auto& p : *own) {
    EXPECT_GE(p.seconds, 2.0) << p.source;  // Duel's set: no move under 2 s
    EXPECT_TRUE(duel::games::checkers::State::parse(p.fen).ok()) << p.fen;
  }
  const auto none = duel::tournament::named_singles("other");
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().find("course, duel, or a file"), std::string::npos);
}

}  // namespace
