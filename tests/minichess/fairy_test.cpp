// Perft against Fairy-Stockfish (RULES.md §1a/§1b/§2) on positions from
// seeded random games in each rule set, split by first move. Skipped when
// /usr/games/fairy-stockfish is absent; scripts/perft-vs-fairy.py runs it with
// more games and depth (DUEL_FAIRY_GAMES, DUEL_FAIRY_DEPTH).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "duel/core/rng.hpp"
#include "duel/games/minichess/minichess.hpp"

namespace duel::games::minichess {
namespace {

constexpr const char* kFairy = "/usr/games/fairy-stockfish";

using Divide = std::map<std::string, std::uint64_t>;

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::atoi(v) : fallback;
}

// Runs Fairy-Stockfish once on all positions; one divide per position.
std::vector<Divide> fairy_divides(std::string_view variant, const std::vector<std::string>& fens,
                                  int depth) {
  const auto dir = std::filesystem::temp_directory_path();
  const auto stamp = std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
                     std::string(variant);
  const auto in_path = dir / ("duel-fairy-in-" + stamp + ".txt");
  const auto out_path = dir / ("duel-fairy-out-" + stamp + ".txt");
  {
    std::ofstream in(in_path);
    in << "uci\nsetoption name VariantPath value " << DUEL_SOURCE_DIR
       << "/tests/data/fairy-stockfish/variants.ini\n"
       << "setoption name UCI_Variant value " << variant << "\n";
    for (const auto& fen : fens) in << "position fen " << fen << "\ngo perft " << depth << "\n";
    in << "quit\n";
  }
  const std::string cmd =
      std::string(kFairy) + " < " + in_path.string() + " > " + out_path.string() + " 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  std::vector<Divide> out;
  std::ifstream result(out_path);
  std::string line;
  Divide current;
  while (std::getline(result, line)) {
    if (line.rfind("Nodes searched:", 0) == 0) {
      out.push_back(current);
      current.clear();
      continue;
    }
    const auto colon = line.find(": ");
    if (colon == std::string::npos || colon > 6 || line.find(' ') != colon + 1) continue;
    current[line.substr(0, colon)] = std::stoull(line.substr(colon + 2));
  }
  std::filesystem::remove(in_path);
  std::filesystem::remove(out_path);
  return out;
}

// Positions from seeded random games: legal moves in the check-rule sets
// (a CS3243 self-check would end the game at once), pseudo-legal in COMP 472.
template <class S>
std::vector<S> random_positions(std::uint64_t seed, int games) {
  Rng rng(seed);
  std::vector<S> out;
  for (int g = 0; g < games; ++g) {
    S s;
    for (int ply = 0; ply < 120; ++ply) {
      out.push_back(s);
      Moves moves;
      perft_moves(s.position(), moves);
      if (moves.empty()) break;
      s = s.result(moves[rng.below(moves.size())]);
    }
  }
  return out;
}

template <class S>
void compare_with_fairy(std::string_view variant, std::uint64_t seed) {
  if (!std::filesystem::exists(kFairy)) GTEST_SKIP() << kFairy << " is not installed";
  const int depth = env_int("DUEL_FAIRY_DEPTH", 3);
  const auto positions = random_positions<S>(seed, env_int("DUEL_FAIRY_GAMES", 12));
  std::vector<std::string> fens;
  for (const auto& s : positions) fens.push_back(s.to_text());
  const auto theirs = fairy_divides(variant, fens, depth);
  ASSERT_EQ(theirs.size(), positions.size());
  int checked = 0;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    Divide ours;
    for (const auto& [m, n] : divide(positions[i], depth)) ours[positions[i].move_text(m)] = n;
    EXPECT_EQ(ours, theirs[i]) << variant << " " << fens[i];
    ++checked;
  }
  ::testing::Test::RecordProperty("positions", checked);
}

TEST(MinichessFairy, Gardner) {
  compare_with_fairy<GardnerState>("gardner", 11);
}
TEST(MinichessFairy, Cs3243) {
  compare_with_fairy<Cs3243State>("cs3243", 12);
}
TEST(MinichessFairy, Comp472) {
  compare_with_fairy<Comp472State>("comp472", 13);
}

}  // namespace
}  // namespace duel::games::minichess
