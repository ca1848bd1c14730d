// `duel play` as seed 004 (COMP 472) asks for it: the gameTrace file's name
// and every field, frozen by a golden file for a seeded AI-AI game; the
// --alphabeta switch; --max-turns as the game's m; the four play modes.
//
// The golden file is tests/data/golden/comp472-ai-ai.txt. After a deliberate
// change of the trace format (or of the search or e0, which move the numbers),
// regenerate it and review the diff:
//   DUEL_UPDATE_GOLDEN=1 build/bin/duel_tests --gtest_filter='PlayTrace.Golden*'
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "../support/cli_run.hpp"

namespace {

using duel::test_support::CliRun;
using duel::test_support::duel;

// Times differ run to run: "time for this action: 0.002 sec" -> "<t> sec".
std::string mask_times(const std::string& trace) {
  static const std::regex kTime("(time for this action: )[0-9.]+");
  return std::regex_replace(trace, kTime, "$1<t>");
}

std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The first line where the two texts differ, both sides shown.
std::string first_difference(const std::string& expected, const std::string& actual) {
  const auto e = split_lines(expected);
  const auto a = split_lines(actual);
  for (std::size_t i = 0; i < e.size() || i < a.size(); ++i) {
    const std::string el = i < e.size() ? e[i] : "<end of file>";
    const std::string al = i < a.size() ? a[i] : "<end of file>";
    if (el != al) {
      return "first difference at line " + std::to_string(i + 1) + ":\n  golden: " + el +
             "\n  actual: " + al;
    }
  }
  return "the texts differ only in their final newline";
}

TEST(PlayTrace, GoldenAiVersusAi) {
  // Fixed depths, so the game and every count are the same on every machine.
  const CliRun r = duel(
      "play minichess-comp472 --white alphabeta:depth=3,eval=e0 --black alphabeta:depth=2,eval=e0 "
      "--timeout 5 --max-turns 3 --alphabeta true --trace-dir traces --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(r.files.count("traces/gameTrace-true-5-3.txt"), 1U) << r.out;
  const std::string actual = mask_times(r.files.at("traces/gameTrace-true-5-3.txt"));
  const std::filesystem::path golden =
      std::filesystem::path(DUEL_SOURCE_DIR) / "tests/data/golden/comp472-ai-ai.txt";
  if (std::getenv("DUEL_UPDATE_GOLDEN") != nullptr) {
    std::filesystem::create_directories(golden.parent_path());
    std::ofstream(golden) << actual;
    GTEST_SKIP() << "golden file rewritten: " << golden;
  }
  const std::string expected = duel::test_support::slurp(golden);
  ASSERT_FALSE(expected.empty()) << "missing " << golden;
  EXPECT_TRUE(expected == actual)
      << first_difference(expected, actual) << "\nIf the change is intended, regenerate with "
      << "DUEL_UPDATE_GOLDEN=1 duel_tests --gtest_filter='PlayTrace.Golden*' and review the diff.";
}

TEST(PlayTrace, AlphabetaFalseMeansMinimaxInNameAndContent) {
  const CliRun r = duel(
      "play minichess-comp472 --white alphabeta:depth=2,eval=e0 --black alphabeta:depth=1 "
      "--timeout 5 --max-turns 10 --alphabeta false --trace-dir . --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(r.files.size(), 1U);
  ASSERT_EQ(r.files.begin()->first, "gameTrace-false-5-10.txt");
  const std::string& t = r.files.begin()->second;
  EXPECT_NE(t.find("Player 1 (white) = AI minimax:depth=2,eval=e0, alpha-beta off, heuristic e0"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("Player 2 (black) = AI minimax:depth=1, alpha-beta off, heuristic e3"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("minimax search score: "), std::string::npos);
  EXPECT_EQ(t.find("alpha-beta search score"), std::string::npos);
  EXPECT_NE(t.find("alpha-beta: false"), std::string::npos);
  // --alphabeta true turns minimax agents into alpha-beta ones.
  const CliRun on = duel(
      "play minichess-comp472 --white minimax:depth=1 --black minimax:depth=1 --timeout 5 "
      "--alphabeta TRUE --trace-dir . --quiet");
  ASSERT_EQ(on.status, 0) << on.err;
  // The name's m is the game's, 100 by default (RULES.md §2).
  ASSERT_EQ(on.files.count("gameTrace-true-5-100.txt"), 1U);
  EXPECT_NE(on.files.at("gameTrace-true-5-100.txt").find("alpha-beta search score: "),
            std::string::npos);
}

TEST(PlayTrace, FileNameWritesTheTimeoutAsPeopleDo) {
  const std::string game = "play minichess-comp472 --white alphabeta:depth=1 --black first ";
  for (const auto& [timeout, name] :
       std::vector<std::pair<std::string, std::string>>{{"5", "gameTrace-true-5-10.txt"},
                                                        {"5.0", "gameTrace-true-5-10.txt"},
                                                        {"0.5", "gameTrace-true-0.5-10.txt"},
                                                        {"2.25", "gameTrace-true-2.25-4.txt"}}) {
    const std::string turns = name.ends_with("-4.txt") ? "4" : "10";
    const CliRun r = duel(game + "--timeout " + timeout + " --max-turns " + turns +
                          " --trace-dir sub/traces --quiet");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.files.count("sub/traces/" + name), 1U) << timeout << " -> " << r.files.size();
  }
}

// Seed 004's Boolean: "--alphabeta false" with the default AI (the engine)
// plays plain minimax with its limits, and the trace says so.
TEST(PlayTrace, AlphabetaFalseWithTheDefaultAiPlaysPlainMinimax) {
  const CliRun r = duel(
      "play minichess-comp472 --white engine:depth=2 --black first --max-turns 1 "
      "--alphabeta false --trace-dir . --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(r.files.count("gameTrace-false-0-1.txt"), 1U);
  const std::string& t = r.files.at("gameTrace-false-0-1.txt");
  EXPECT_NE(t.find("Player 1 (white) = AI minimax:depth=2, alpha-beta off"), std::string::npos)
      << t;
  EXPECT_NE(t.find("minimax search score: "), std::string::npos) << t;
}

// Seed 004 §2.5 3.2a: "the number of states explored since the beginning
// of the game" counts every state each search visited. The engine deepens
// 1, 2, ... to its depth for every move, so the trace's root count grows by
// one per iteration, the same count the move's own JSON record holds.
TEST(PlayTrace, TheEngineCountsTheRootOncePerIteration) {
  const CliRun r = duel(
      "play minichess-comp472 --white engine:depth=4 --black engine:depth=3 --max-turns 3 "
      "--trace-dir . --quiet --json");
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(r.files.size(), 1U);
  std::vector<std::string> roots;
  for (const auto& line : split_lines(r.files.begin()->second)) {
    static const std::regex kDepths(R"(^cumulative states explored by depth: 0=(\d+) )");
    std::smatch m;
    if (std::regex_search(line, m, kDepths)) roots.push_back(m[1]);
  }
  // White's and Black's totals in turn, after each move of turns 1 to 3:
  // the running sums of each move's roots.
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["moves"].size(), 6U) << r.out;
  std::vector<std::string> sums;
  std::array<std::uint64_t, 2> total{};
  for (const auto& move : j["moves"]) {
    const auto side = move["player"].get<std::size_t>() - 1;
    total.at(side) += move["nodes_by_depth"][0].get<std::uint64_t>();
    sums.push_back(std::to_string(total.at(side)));
  }
  EXPECT_EQ(roots, sums);
  // From the start each engine runs every iteration to its depth: 4 roots
  // for depth 4, 3 for depth 3 (no result is proven that early).
  ASSERT_EQ(roots.size(), 6U);
  EXPECT_EQ(roots[0], "4");
  EXPECT_EQ(roots[1], "3");
}

// The terminal as seed 004's players read it: White and Black by name, no
// "in check" (COMP 472 has no check rule), `exit` as well as `quit`, and the
// hand-out's board with --board handout.
TEST(PlayTrace, TheTerminalSpeaksTheHandoutsWords) {
  const CliRun r =
      duel("play minichess-comp472 --white human --black first --board handout", "b1c3\nexit\n");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("White = human, Black = first"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("White to move (? lists moves, quit or exit gives up)>"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("1. White plays b1c3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("5   bK  bQ  bB  bN   ."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1    .  wN  wB  wQ  wK"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("turn 1 of 100"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("in check"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("Player 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Result: "), std::string::npos) << r.out;
}

TEST(PlayTrace, BadAlphabetaAndMaxTurnsAreBadInput) {
  for (const std::string args :
       {"play minichess-comp472 --alphabeta maybe", "play minichess-comp472 --alphabeta 1",
        "play minichess-comp472 --white engine:hash=8 --alphabeta false",
        "play minichess-comp472:max-turns=12 --max-turns 10"}) {
    const CliRun r = duel(args);
    EXPECT_EQ(r.status, 2) << args << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\n" << r.err;
    EXPECT_EQ(r.err.rfind("duel: ", 0), 0U) << r.err;
  }
  EXPECT_NE(
      duel("play minichess-comp472 --alphabeta maybe").err.find("'maybe' is not true or false"),
      std::string::npos);
  EXPECT_NE(duel("play minichess-comp472:max-turns=12 --max-turns 10").err.find("disagrees"),
            std::string::npos);
}

TEST(PlayTrace, MaxTurnsIsTheGamesKeyOrTheRefereesCap) {
  // COMP 472: --max-turns sets the game's m, the cap on its length (the
  // same value in the spec is fine); RULES.md §2, seed 004 §2.5.
  const CliRun c = duel(
      "play minichess-comp472:max-turns=1 --white first --black first --max-turns 1 --trace-dir .");
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_EQ(c.out.rfind("minichess-comp472:max-turns=1,draw-turns=10:", 0), 0U) << c.out;
  ASSERT_EQ(c.files.count("gameTrace-false-0-1.txt"), 1U);
  const std::string& t = c.files.at("gameTrace-false-0-1.txt");
  EXPECT_NE(t.find("draw after 1 turn (the maximum number of turns, 1)"), std::string::npos) << t;
  // --max-turns 2 plays two turns, four plies (it once ran 8 turns, read as
  // the no-capture window).
  const CliRun four =
      duel("play minichess-comp472 --white first --black first --max-turns 2 --json -q");
  ASSERT_EQ(four.status, 0) << four.err;
  const auto j = nlohmann::json::parse(four.out);
  EXPECT_EQ(j["game"], "minichess-comp472:max-turns=2,draw-turns=10");
  EXPECT_EQ(j["moves"].size(), 4U) << four.out;
  EXPECT_EQ(j["ending"], "rules");
  // Other games: a draw by the referee after M turns.
  const CliRun k =
      duel("play kcell:n=3,k=15 --white first --black first --max-turns 1 --json --quiet");
  ASSERT_EQ(k.status, 0) << k.err;
  EXPECT_NE(k.out.find("\"ending\":\"turn-limit\""), std::string::npos) << k.out;
}

TEST(PlayTrace, PlayModesHumansAndPrograms) {
  // H-H, H-AI, AI-H, AI-AI: people type `B2 B3` (any case, extra spaces).
  struct Mode {
    std::string white, black, input, mode;
  };
  const std::vector<Mode> modes = {
      {"human", "human", " b2   B3 \nc4 b3\nquit\n", "Player 1 = H & Player 2 = H"},
      {"human", "alphabeta:depth=2", "B2 B3\nquit\n", "Player 1 = H & Player 2 = AI"},
      {"alphabeta:depth=2", "human", "d5 e3\nquit\n", "Player 1 = AI & Player 2 = H"},
      {"alphabeta:depth=1", "minimax:depth=1", "", "Player 1 = AI & Player 2 = AI"}};
  for (const auto& m : modes) {
    const CliRun r = duel("play minichess-comp472 --white " + m.white + " --black " + m.black +
                              " --timeout 5 --max-turns 10 --trace-dir .",
                          m.input);
    ASSERT_EQ(r.status, 0) << m.mode << "\n" << r.err;
    ASSERT_EQ(r.files.size(), 1U) << m.mode;
    const std::string& t = r.files.begin()->second;
    EXPECT_NE(t.find("play mode: " + m.mode), std::string::npos) << t;
    EXPECT_NE(t.find("white, turn #1: move from "), std::string::npos) << t;
    EXPECT_NE(t.find("\n4. Result\n"), std::string::npos) << t;
    // Only programs' moves carry a time and scores.
    const bool ai_moved = m.white != "human" || m.black != "human";
    EXPECT_EQ(t.find("time for this action: ") != std::string::npos, ai_moved) << t;
    EXPECT_EQ(t.find("cumulative states explored (") != std::string::npos, ai_moved) << t;
  }
  // H-H: both people's moves, then White gives up.
  const CliRun hh =
      duel("play minichess-comp472 --white human --black human --trace-dir .", "b2 b3\nc4 b3\n");
  ASSERT_EQ(hh.status, 0) << hh.err;
  const std::string& t = hh.files.begin()->second;
  EXPECT_NE(t.find("white, turn #1: move from B2 to B3"), std::string::npos) << t;
  EXPECT_NE(t.find("black, turn #1: move from C4 to B3"), std::string::npos) << t;
  EXPECT_NE(t.find("black won in 1 turn"), std::string::npos) << t;
}

TEST(PlayTrace, EveryChessRuleSetWritesATrace) {
  for (const std::string game : {"gardner", "gardner-cs3243"}) {
    const CliRun r = duel("play " + game +
                          " --white alphabeta:depth=2 --black alphabeta:depth=1 --timeout 5 "
                          "--max-turns 6 --trace-dir . --quiet");
    ASSERT_EQ(r.status, 0) << game << ": " << r.err;
    ASSERT_EQ(r.files.count("gameTrace-true-5-6.txt"), 1U) << game;
    const std::string& t = r.files.at("gameTrace-true-5-6.txt");
    EXPECT_NE(t.find("\n1   wR  wN  wB  wQ  wK\n     A   B   C   D   E\n"), std::string::npos) << t;
    EXPECT_NE(t.find("max turns: 6"), std::string::npos) << t;
    EXPECT_NE(t.find("alpha-beta search score: "), std::string::npos) << t;
    EXPECT_NE(t.find("\n4. Result\n"), std::string::npos) << t;
  }
}

}  // namespace
