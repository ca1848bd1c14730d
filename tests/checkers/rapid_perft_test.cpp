// Checkers perft against rapid-draughts (tests/tools/rapid-draughts, an
// independent move generator) on positions from seeded random games, every
// jump path counted as its own move on both sides. Skipped when Node or the
// npm package is missing (scripts/setup-node.sh installs them).
// scripts/sweep.py runs it with thousands of positions (DUEL_RAPID_GAMES,
// DUEL_RAPID_DEPTH).
//
// rapid-draughts 1.0.6 never lets a jump land back on the mover's starting
// square (its README, "Known quirks"): where Duel has the whole ring (a king
// taking four men and landing where it started) the driver lists shorter
// jumps that stop before it, so its count may be higher or lower. A position
// whose tree holds such a path is counted apart, not as a disagreement.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "duel/core/rng.hpp"
#include "duel/games/checkers/checkers.hpp"

namespace duel::games::checkers {
namespace {

namespace fs = std::filesystem;

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::atoi(v) : fallback;
}

// Positions of seeded random games, the start included.
std::vector<State> random_positions(std::uint64_t seed, int games) {
  Rng rng(seed);
  std::vector<State> out;
  Moves moves;
  for (int g = 0; g < games; ++g) {
    State s;
    while (!s.is_terminal()) {
      out.push_back(s);
      s.actions(moves);
      s = s.result(moves[rng.below(moves.size())]);
    }
  }
  return out;
}

// Whether a jump path within `depth` plies of `s` lands on its own start
// square at some jump (the paths rapid-draughts does not generate).
bool has_ring_jump(const State& s, int depth) {
  if (depth == 0) return false;
  Moves moves;
  s.actions(moves);
  for (const auto& m : moves) {
    for (int i = 0; i < m.jumps(); ++i) {
      if (m.landing(i) == m.from()) return true;
    }
  }
  for (const auto& m : moves) {
    if (has_ring_jump(s.result(m), depth - 1)) return true;
  }
  return false;
}

// The piece placement and side to move of `s` as PDN FEN (no clock).
std::string fen_of(const State& s) {
  const std::string text = s.to_text();
  return text.substr(0, text.find(' '));
}

// rapid-draughts' counts, one per FEN, from one Node process.
std::vector<std::uint64_t> rapid_counts(const fs::path& tool, const std::vector<std::string>& fens,
                                        int depth) {
  const auto stamp = std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
                     std::to_string(depth);
  const auto in_path = fs::temp_directory_path() / ("duel-rapid-in-" + stamp + ".txt");
  const auto out_path = fs::temp_directory_path() / ("duel-rapid-out-" + stamp + ".txt");
  {
    std::ofstream in(in_path);
    for (const auto& fen : fens) in << fen << '\n';
  }
  const std::string cmd = "node '" + (tool / "perft.mjs").string() + "' " + std::to_string(depth) +
                          " --batch < '" + in_path.string() + "' > '" + out_path.string() + "'";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::vector<std::uint64_t> out;
  std::ifstream result(out_path);
  std::string line;
  while (std::getline(result, line)) out.push_back(std::stoull(line));
  fs::remove(in_path);
  fs::remove(out_path);
  return out;
}

TEST(CheckersRapidPerft, RandomGamesAgree) {
  const fs::path tool = fs::path(DUEL_SOURCE_DIR) / "tests/tools/rapid-draughts";
  if (!fs::exists(tool / "node_modules/rapid-draughts")) {
    GTEST_SKIP() << "rapid-draughts is not installed: run scripts/setup-node.sh";
  }
  if (std::system("node --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "node is not installed";
  const int depth = env_int("DUEL_RAPID_DEPTH", 3);
  const auto positions = random_positions(41, env_int("DUEL_RAPID_GAMES", 3));
  std::vector<std::string> fens;
  for (const auto& s : positions) fens.push_back(fen_of(s));
  const auto theirs = rapid_counts(tool, fens, depth);
  ASSERT_EQ(theirs.size(), positions.size());
  int quirks = 0;
  std::string examples;  // the first few quirk positions, for the sweep's report
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const std::uint64_t ours = perft(positions[i], depth);
    if (ours == theirs[i]) continue;
    if (has_ring_jump(positions[i], depth)) {
      if (++quirks <= 3) {
        examples += fmt::format("{}{} (duel {}, rapid-draughts {})", examples.empty() ? "" : "; ",
                                fens[i], ours, theirs[i]);
      }
      continue;
    }
    ADD_FAILURE() << fens[i] << " depth " << depth << ": duel " << ours << ", rapid-draughts "
                  << theirs[i];
  }
  ::testing::Test::RecordProperty("positions", static_cast<int>(positions.size()));
  ::testing::Test::RecordProperty("quirks", quirks);
  ::testing::Test::RecordProperty("quirk_examples", examples);
}

}  // namespace
}  // namespace duel::games::checkers
