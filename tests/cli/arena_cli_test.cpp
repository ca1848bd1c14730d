// `duel arena` tournaments from the command line: more than two agents,
// gauntlets, rounds, concurrency, opening files, adjudication options, and
// the one-line errors for each of them.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "../support/cli_run.hpp"
#include "duel/games/minichess/pgn.hpp"

namespace {

using duel::test_support::CliRun;
using duel::test_support::duel;

void expect_bad_input(const std::string& args, const std::string& needle,
                      const std::map<std::string, std::string>& files = {}) {
  const CliRun r = duel(args, "", files);
  EXPECT_EQ(r.status, 2) << args << "\nstderr: " << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\nstderr: " << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << args << "\nstderr: " << r.err;
}

TEST(ArenaCli, RoundRobinOfThreeOnTwoThreads) {
  const CliRun r = duel(
      "arena kcell:n=2,k=7 --agent alphabeta:depth=3 --agent random --agent first --games 4 "
      "--concurrency 2 --openings random:plies=1 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["tournament"], "round-robin");
  EXPECT_EQ(j["scheduled"], 12);  // 3 pairings x 4 games
  EXPECT_EQ(j["played"], 12);
  ASSERT_EQ(j["standings"].size(), 3u);
  ASSERT_EQ(j["pairings"].size(), 3u);
  int games = 0;
  double points = 0;
  for (const auto& s : j["standings"]) {
    EXPECT_EQ(s["games"], 8);  // each agent meets two others, 4 games each
    games += s["games"].get<int>();
    points += s["wins"].get<int>() + 0.5 * s["draws"].get<int>();
  }
  EXPECT_EQ(games, 24);            // every game counted for both players
  EXPECT_DOUBLE_EQ(points, 12.0);  // one point a game
  for (const auto& p : j["pairings"]) EXPECT_EQ(p["games"], 4);
}

TEST(ArenaCli, GauntletAndRounds) {
  const CliRun r = duel(
      "arena kcell:n=2,k=7 --agent alphabeta:depth=2 --agent random --agent first --agent "
      "random:seed=3 --tournament gauntlet --rounds 3");
  ASSERT_EQ(r.status, 0) << r.err;
  // Three pairings (the first agent against each other), 3 rounds of 2.
  EXPECT_NE(r.out.find("gauntlet of 4 agents, 18 of 18 games"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Rank Name"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("alphabeta:depth=2 vs random: "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("random vs first"), std::string::npos) << r.out;  // not in a gauntlet
}

TEST(ArenaCli, OpeningsFromAFile) {
  // Two Gardner positions (FEN as Fairy-Stockfish writes them), each played
  // with both colours by two deterministic agents; the records show the
  // starts in order.
  const std::string book =
      "# two openings\n"
      "rnbqk/ppppp/4P/PPPP1/RNBQK b - - 0 1\n"
      "\n"
      "rnbqk/ppppp/P4/1PPPP/RNBQK b - - 0 1\n";
  const CliRun r = duel(
      "arena gardner --agent engine:depth=1 --agent engine:depth=2 --games 4 --openings "
      "book.txt --max-turns 5 --records games.jsonl --json",
      "", {{"book.txt", book}});
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream lines(r.files.at("games.jsonl"));
  std::string line;
  std::vector<std::string> starts;
  while (std::getline(lines, line)) starts.push_back(nlohmann::json::parse(line)["start"]);
  ASSERT_EQ(starts.size(), 4u);
  EXPECT_EQ(starts[0], "rnbqk/ppppp/4P/PPPP1/RNBQK b - - 0 1");
  EXPECT_EQ(starts[1], starts[0]);
  EXPECT_EQ(starts[2], "rnbqk/ppppp/P4/1PPPP/RNBQK b - - 0 1");
  EXPECT_EQ(starts[3], starts[2]);
  expect_bad_input("arena gardner --agent first --agent first --openings book.txt",
                   "book.txt line 2", {{"book.txt", "# x\nnot a fen\n"}});
  expect_bad_input("arena gardner --agent first --agent first --openings nowhere.txt",
                   "cannot read nowhere.txt");
  expect_bad_input("arena gardner --agent first --agent first --openings empty.txt", "no position",
                   {{"empty.txt", "# nothing\n"}});
  expect_bad_input("arena gardner --agent first --agent first --openings random:plies=99",
                   "out of range");
}

TEST(ArenaCli, AdjudicationEndsGamesByScores) {
  // A depth-3 engine against a depth-1 one in Gardner: the weaker side sees
  // itself two pawns down (100 units, 50 a pawn) for two moves running well
  // before mate, so with --resign some games end adjudicated (measured: 2 of
  // 4 with these agents, which are deterministic; e2 named, so that a change
  // of Gardner's default heuristic does not change the games).
  const CliRun r = duel(
      "arena gardner --agent engine:depth=3,eval=e2 --agent engine:depth=1,eval=e2 --games 4 "
      "--resign "
      "movecount=2,score=100 --max-turns 60 --records games.jsonl --json");
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream lines(r.files.at("games.jsonl"));
  std::string line;
  int adjudicated = 0;
  while (std::getline(lines, line)) {
    const auto j = nlohmann::json::parse(line);
    if (j["ending"] == "adjudicated") {
      ++adjudicated;
      EXPECT_NE(j["reason"].get<std::string>().find("resigns"), std::string::npos);
    }
  }
  EXPECT_GT(adjudicated, 0) << r.files.at("games.jsonl");
  expect_bad_input("arena gardner --agent first --agent first --draw movecount=0,score=5",
                   "--draw: movecount=0");
  expect_bad_input("arena gardner --agent first --agent first --draw score=5",
                   "--draw: give movecount=");
  expect_bad_input("arena gardner --agent first --agent first --resign movecount=2,rate=1",
                   "--resign:");
}

TEST(ArenaCli, PgnOfEveryGameReadsBack) {
  // Random openings: the games start from FENs, so [SetUp]/[FEN] must be
  // there for the moves to replay.
  const CliRun r = duel(
      "arena gardner-cs3243 --agent engine:depth=2 --agent random --games 4 --openings 3 "
      "--pgnout games.pgn --records games.jsonl --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string pgn = r.files.at("games.pgn");
  EXPECT_NE(pgn.find("[Variant \"cs3243\"]"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("[FEN \""), std::string::npos) << pgn;
  const auto games = duel::games::minichess::parse_pgn_as<duel::games::minichess::Cs3243>(pgn);
  ASSERT_TRUE(games.ok()) << games.error() << "\n" << pgn;
  ASSERT_EQ(games->size(), 4u);
  std::istringstream lines(r.files.at("games.jsonl"));
  std::string line;
  for (const auto& g : *games) {
    ASSERT_TRUE(std::getline(lines, line));
    const auto j = nlohmann::json::parse(line);
    EXPECT_EQ(g.start.to_text(), j["start"]);
    EXPECT_EQ(g.moves.size(), j["moves"].size());
    EXPECT_EQ(g.final_state().to_text(), j["final"]) << line;
  }
  expect_bad_input("arena checkers --agent first --agent first --pgnout x.pgn", "--pdnout");
  expect_bad_input("arena kcell --agent first --agent first --pgnout x.pgn", "--records");
}

TEST(ArenaCli, ABrokenExternalEngineLosesAndTheTournamentGoesOn) {
  // /bin/false "is" a UCI engine that exits at once: it loses every game
  // with the reason, and the other pairings are played as usual.
  const CliRun r = duel(
      "arena gardner --agent uci:cmd=/bin/false --agent random --agent first --games 2 "
      "--records games.jsonl --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["played"], 6);
  EXPECT_EQ(j["standings"][0]["agent"], "uci:cmd=/bin/false");
  EXPECT_EQ(j["standings"][0]["losses"], 4);
  std::istringstream lines(r.files.at("games.jsonl"));
  std::string line;
  int reasons = 0;
  while (std::getline(lines, line)) {
    const auto g = nlohmann::json::parse(line);
    if (g["reason"].get<std::string>().find("engine exited") != std::string::npos) ++reasons;
  }
  EXPECT_EQ(reasons, 4) << r.files.at("games.jsonl");
}

TEST(ArenaCli, TournamentErrors) {
  expect_bad_input("arena kcell --agent first", "at least two agents");
  expect_bad_input("arena kcell --agent first --agent first --agent random --sprt elo1=5",
                   "exactly two agents");
  expect_bad_input("arena kcell --agent first --agent first --tournament swiss", "--tournament");
  expect_bad_input("arena kcell --agent first --agent first --concurrency 0", "--concurrency");
}

}  // namespace
