// One vocabulary on every command: the agents each game has (from the
// registry's catalogue), the position flag (--fen, with --state accepted),
// --json on perft, and the record formats the games state.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "../support/cli_run.hpp"

namespace {

using duel::test_support::CliRun;
using duel::test_support::duel;

// The "agents:" line `duel games` prints under the game named `game`.
std::string agents_line(const std::string& listing, const std::string& game) {
  const auto at = listing.find(game + " ");
  if (at == std::string::npos) return "";
  const auto line = listing.find("agents: ", at);
  return listing.substr(line, listing.find('\n', line) - line);
}

TEST(Vocabulary, GamesListsEachGamesAgentsAndTheirKeys) {
  const CliRun r = duel("games");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string chess = agents_line(r.out, "gardner");
  const std::string draughts = agents_line(r.out, "checkers");
  const std::string queens = agents_line(r.out, "nqueens");
  EXPECT_NE(chess.find("uci(cmd"), std::string::npos) << chess;
  EXPECT_NE(chess.find("greedy(seed)"), std::string::npos) << chess;
  EXPECT_EQ(chess.find("exec"), std::string::npos) << chess;
  EXPECT_NE(draughts.find("exec(cmd protocol time dir cpu reading sandbox)"), std::string::npos)
      << draughts;
  EXPECT_EQ(draughts.find("uci"), std::string::npos) << draughts;
  EXPECT_NE(queens.find("engine(depth time nodes eval hash threads soft contempt seed)"),
            std::string::npos)
      << queens;
  EXPECT_EQ(queens.find("greedy"), std::string::npos) << queens;

  const CliRun all = duel("games --agents");
  ASSERT_EQ(all.status, 0) << all.err;
  EXPECT_NE(all.out.find("exec"), std::string::npos);
  EXPECT_NE(all.out.find("(checkers)"), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("(the 5x5 chess games)"), std::string::npos) << all.out;
}

TEST(Vocabulary, TheKeysListedAreTheKeysAccepted) {
  // Every key `duel games` lists for engine is taken; a key it does not
  // list is refused with the same list.
  const CliRun ok = duel(
      "play kcell --white engine:depth=2,time=1,nodes=1000,eval=tempo,hash=1,threads=1,soft=0.5,"
      "contempt=0,seed=1 --black first -q");
  EXPECT_EQ(ok.status, 0) << ok.err;
  const CliRun bad = duel("play kcell --white engine:qs=0 --black first -q");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("known: depth, time, nodes, eval, hash, threads, soft, contempt, seed"),
            std::string::npos)
      << bad.err;
  const CliRun unknown = duel("play checkers --white wizard");
  EXPECT_NE(unknown.err.find("(known for checkers: human, first, random, minimax, alphabeta, "
                             "engine, exec, csci561-ta)"),
            std::string::npos)
      << unknown.err;
  const CliRun elsewhere = duel("play kcell --white greedy");
  EXPECT_NE(elsewhere.err.find("agent 'greedy' plays the 5x5 chess games only, not kcell"),
            std::string::npos)
      << elsewhere.err;
}

TEST(Vocabulary, FenAndStateNameThePositionOnEveryCommand) {
  // A kcell position two plies in (first against first), Player 1 to move.
  const std::string pos = "'[_oo_____x_x] o'";
  for (const std::string flag : {"--fen", "--state"}) {
    for (const std::string command :
         {"perft kcell:n=2,k=11 2 ", "search kcell:n=2,k=11 --depth 2 ", "solve kcell:n=2,k=11 ",
          "play kcell:n=2,k=11 --white first --black first -q ",
          "arena kcell:n=2,k=11 --agent first --agent random --games 2 "}) {
      const CliRun r = duel(command + flag + " " + pos);
      EXPECT_EQ(r.status, 0) << command << flag << '\n' << r.err;
    }
  }
  const CliRun referee = duel("referee checkers --fen nonsense --agent a --agent b");
  EXPECT_EQ(referee.status, 2);
  EXPECT_EQ(referee.err.rfind("duel: --fen: ", 0), 0u) << referee.err;
}

TEST(Vocabulary, PerftJsonGivesTheCountAndItsSplit) {
  // English checkers perft 5 is 7361 (OEIS A133046).
  const CliRun r = duel("perft checkers 5 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["nodes"], 7361);
  EXPECT_EQ(j["depth"], 5);
  EXPECT_EQ(j["game"], "checkers:draw-plies=50");  // the canonical spec
  EXPECT_FALSE(j.contains("divide"));
  const CliRun d = duel("perft checkers 5 --json --divide");
  ASSERT_EQ(d.status, 0) << d.err;
  const auto split = nlohmann::json::parse(d.out);
  ASSERT_EQ(split["divide"].size(), 7u);  // 7 first moves (A133046, depth 1)
  long long sum = 0;
  for (const auto& m : split["divide"]) sum += m["nodes"].get<long long>();
  EXPECT_EQ(sum, 7361);
}

TEST(Vocabulary, EachGameRecordsInTheFormatItStates) {
  const CliRun pgn_kcell = duel("play kcell --white first --black first -q --pgn out.pgn");
  EXPECT_EQ(pgn_kcell.status, 2);
  EXPECT_NE(pgn_kcell.err.find("use --trace or --json for kcell"), std::string::npos)
      << pgn_kcell.err;
  const CliRun pdn_chess = duel("arena gardner --agent first --agent random --pdnout out.pdn");
  EXPECT_EQ(pdn_chess.status, 2);
  EXPECT_NE(pdn_chess.err.find("--pdnout: PDN records checkers games; use --pgnout for gardner"),
            std::string::npos)
      << pdn_chess.err;
  const CliRun pgn = duel("play gardner --white first --black first -q --max-turns 2 --pgn g.pgn");
  EXPECT_EQ(pgn.status, 0) << pgn.err;
  const CliRun pdn = duel("play checkers --white first --black first -q --max-turns 2 --pdn g.pdn");
  EXPECT_EQ(pdn.status, 0) << pdn.err;
}

}  // namespace
