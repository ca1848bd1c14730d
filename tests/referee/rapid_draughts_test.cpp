// The referee against the second, independent agent on rapid-draughts
// (tests/tools/rapid-draughts): its moves, judged by our rules, are legal
// for a whole game, and the referee's record replays. Skipped, saying why,
// where Node or the npm package is missing (scripts/setup-node.sh installs
// both; scripts/test.sh runs it).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "../support/cli_run.hpp"
#include "duel/games/checkers/checkers.hpp"

namespace {

namespace fs = std::filesystem;
using duel::games::checkers::State;

TEST(RapidDraughts, PlaysWholeLegalGamesThroughTheReferee) {
  const fs::path tool = fs::path(DUEL_SOURCE_DIR) / "tests/tools/rapid-draughts";
  if (!fs::exists(tool / "node_modules/rapid-draughts")) {
    GTEST_SKIP() << "rapid-draughts is not installed: run scripts/setup-node.sh";
  }
  if (std::system("node --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "node is not installed";
  // Shallow on both sides so the games are quick; two games, both colours.
  const std::string node = "node '" + (tool / "agent.mjs").string() + "' --depth 2";
  const auto r = duel::test_support::duel(
      "referee checkers --json --quiet --games 2 --time 60 "
      "--agent duel:alphabeta:depth=2 --agent \"" +
      node + "\"");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["games"].size(), 2u);
  for (const auto& g : j["games"]) {
    // A game ends by the rules, never by a loss of the independent agent's
    // making (an illegal, malformed or missing move).
    const std::string reason = g["reason"];
    EXPECT_TRUE(reason == "no-moves" || reason == "draw-clock" || reason == "repetition")
        << g.dump();
    State s;
    for (const auto& m : g["moves"]) {
      const auto move = s.parse_move(m.get<std::string>());
      ASSERT_TRUE(move.ok()) << move.error();
      s = s.result(*move);
    }
    EXPECT_TRUE(s.is_terminal()) << g.dump();
  }
}

}  // namespace
