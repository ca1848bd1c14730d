// Time as the CSCI-561 course charged it (RULES.md §6a): a move's user CPU
// in whole 10 ms ticks, rounded down as `/usr/bin/time -f "%U"` prints it,
// its wall time when that is 0 ticks; the course's reference charged its
// logged median of 0.29 s a move; a draw rule's ending goes to more time
// left, and one decided by under 0.1 s is a close call.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "../support/cli_run.hpp"
#include "../support/sanitized.hpp"
#include "../support/scratch.hpp"
#include "duel/referee/referee.hpp"

namespace {

namespace fs = std::filesystem;
using duel::test_support::CliRun;
using duel::test_support::duel;
using duel::test_support::Scratch;

TEST(CourseCharge, WholeTicksRoundedDownAndAZeroTickMoveChargesItsWallTime) {
  duel::referee::TurnSetup setup;  // the default is the course's tick
  EXPECT_EQ(setup.tick, 0.01);
  // %U prints ru_utime's tenths of milliseconds cut to hundredths: 0.2999 s is 0.29.
  EXPECT_DOUBLE_EQ(duel::referee::charged_seconds(setup, 0.2999, 0.4), 0.29);
  EXPECT_DOUBLE_EQ(duel::referee::charged_seconds(setup, 0.29, 0.4), 0.29);
  EXPECT_DOUBLE_EQ(duel::referee::charged_seconds(setup, 14.638, 15.0), 14.63);
  // A move of no whole tick is charged its wall time, as the course's log
  // charged "E h6 g5 ... in 0.0139491558074951s" (RULES.md §6a's round 2 log).
  EXPECT_DOUBLE_EQ(duel::referee::charged_seconds(setup, 0.004, 0.0139491558074951),
                   0.0139491558074951);
  // A model of a program's time replaces what it used.
  setup.charge_per_move = 0.29;
  EXPECT_DOUBLE_EQ(duel::referee::charged_seconds(setup, 0.0016, 0.01), 0.29);
  // tick 0: exactly what was measured.
  setup.charge_per_move = 0.0;
  setup.tick = 0.0;
  EXPECT_DOUBLE_EQ(duel::referee::charged_seconds(setup, 0.0016, 0.01), 0.0016);
}

TEST(CourseCharge, CloseCallsAreUnderATenthOfASecond) {
  EXPECT_TRUE(duel::referee::close_call(291.41, 291.32));
  EXPECT_TRUE(duel::referee::close_call(100.0, 100.0));
  EXPECT_FALSE(duel::referee::close_call(291.41, 291.31));
  EXPECT_FALSE(duel::referee::close_call(12.0, 300.0));
}

// A student program for a board of lone kings: it burns `busy` seconds of
// its own user CPU, then moves its king (a jump when it has one, else the
// first free diagonal), so every move costs a known CPU time a little over
// `busy` (Python's start-up), without a Duel process whose start-up a
// loaded machine could stretch.
[[nodiscard]] std::string busy_student(const fs::path& dir, double busy) {
  const fs::path p = dir / "student.py";
  std::ofstream(p)
      << "import os\n"
      << "t = os.times().user\n"
      << "while os.times().user - t < " << busy << ":\n"
      << "    pass\n"
      << "lines = open('input.txt').read().split()\n"
      << "me = 'B' if lines[1] == 'BLACK' else 'W'\n"
      << "board = lines[3:11]\n"
      << "at = lambda r, c: board[r][c] if 0 <= r < 8 and 0 <= c < 8 else '#'\n"
      << "name = lambda r, c: 'abcdefgh'[c] + str(8 - r)\n"
      << "r, c = next((r, c) for r in range(8) for c in range(8) if at(r, c) == me)\n"
      << "steps = [(-1, -1), (-1, 1), (1, -1), (1, 1)]\n"
      << "jumps = [(dr, dc) for dr, dc in steps if at(r + dr, c + dc) not in '.#' + me\n"
      << "         and at(r + 2 * dr, c + 2 * dc) == '.']\n"
      << "if jumps:\n"
      << "    dr, dc = jumps[0]\n"
      << "    move = 'J ' + name(r, c) + ' ' + name(r + 2 * dr, c + 2 * dc)\n"
      << "else:\n"
      << "    dr, dc = next(d for d in steps if at(r + d[0], c + d[1]) == '.')\n"
      << "    move = 'E ' + name(r, c) + ' ' + name(r + dr, c + dc)\n"
      << "open('output.txt', 'w').write(move + '\\n')\n";
  // Debian's Python (README): a version manager's shim on PATH would add
  // its own start-up, a few tenths of a second, to every move.
  return "/usr/bin/python3 " + p.string();
}

// Two lone kings from opposite corners (the fixed seed keeps them apart):
// the game ends by the draw rule (8 plies here) and time left decides it. The student uses about
// 0.12 s a move; the course's reference is charged 0.29 s a move, so the student has more time left
// and wins (in the course 56 of 232 drawn reference games went to the student, RULES.md §6a);
// charged what it really uses (a few ms of C++) the reference would win every such draw.
TEST(CourseCharge, ADrawnReferenceGameGoesAsInTheCourse) {
  if (duel::test_support::sanitized()) GTEST_SKIP() << "the reference is timed: Release tree";
  Scratch s("duel-course-charge");
  const std::string student = busy_student(s.dir, 0.12);
  const auto game = [&](const std::string& charges) {
    const CliRun r = duel(
        "referee checkers:draw-plies=8 --json --quiet --games 1 --time 300 "
        "--start B:WK32:BK1 --agent '" +
        student + "' --agent duel:csci561-ta:seed=7 " + charges);
    EXPECT_EQ(r.status, 0) << r.err;
    return nlohmann::json::parse(r.out, nullptr, false);
  };
  // Step 1. The course's charge: the student (agent 0) wins on time left.
  const auto course = game("--charge-per-move 0 --charge-per-move 0.29");
  ASSERT_TRUE(course.is_object());
  const auto& g = course["games"][0];
  ASSERT_TRUE(g["reason"] == "draw-clock" || g["reason"] == "repetition") << g.dump();
  EXPECT_EQ(g["winner"], 0) << g.dump();
  for (std::size_t i = 0; i < g["cpu"].size(); ++i) {
    const double charged = g["cpu"][i];
    if (i % 2 == 1) {
      EXPECT_DOUBLE_EQ(charged, 0.29) << "the reference's move " << i;
    } else {
      EXPECT_GE(charged, 0.12) << "the student's move " << i;
    }
  }
  const int reference_moves = static_cast<int>(g["cpu"].size()) / 2;
  EXPECT_NEAR(g["time_left"][1].get<double>(), 300.0 - 0.29 * reference_moves, 1e-6);
  // Step 2. Charged exactly as measured (no tick, so no wall time for a
  // move under one), the fast reference wins the same draw.
  const auto measured = game("--cpu-tick 0 --charge-per-move 0 --charge-per-move 0");
  ASSERT_TRUE(measured.is_object());
  EXPECT_EQ(measured["games"][0]["winner"], 1) << measured.dump();
}

}  // namespace
