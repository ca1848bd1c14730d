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

// A student program that burns `busy` seconds of its own CPU, then plays
// Duel's first legal move from the same process (exec), so every move of
// it costs a known CPU time of at least `busy`.
[[nodiscard]] std::string busy_student(const fs::path& dir, double busy) {
  const fs::path p = dir / "student.py";
  std::ofstream(p) << "import os, time\n"
                   << "t = time.process_time()\n"
                   << "while time.process_time() - t < " << busy << ":\n"
                   << "    pass\n"
                   << "os.execv('" << DUEL_BIN << "', ['duel', 'homework', '--agent', 'first'])\n";
  return "python3 " + p.string();
}

// Two lone kings cannot capture: the game ends by the draw rule (8 plies
// here) and time left decides it. The student uses about 0.12 s a move;
// the course's reference is charged 0.29 s a move, so the student has more
// time left and wins (in the course 56 of 232 drawn reference games went to
// the student, RULES.md §6a); charged what it really uses (a few ms of C++)
// the reference would win every such draw.
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
  // Step 2. Charged as measured, the fast reference wins the same draw.
  const auto measured = game("--charge-per-move 0 --charge-per-move 0");
  ASSERT_TRUE(measured.is_object());
  EXPECT_EQ(measured["games"][0]["winner"], 1) << measured.dump();
}

}  // namespace
