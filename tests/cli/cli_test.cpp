// The command line as users and other tools see it: bad input gives one line
// on stderr and exit status 2 (or a retry prompt for people); JSON output has
// the documented shape.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../support/cli_run.hpp"
#include "duel/games/checkers/pdn.hpp"

namespace {

using duel::test_support::CliRun;
using duel::test_support::duel;

int lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n' ? 1 : 0;
  return n;
}

void expect_bad_input(const std::string& args, const std::string& needle) {
  const CliRun r = duel(args);
  EXPECT_EQ(r.status, 2) << args << "\nstderr: " << r.err;
  EXPECT_EQ(lines(r.err), 1) << args << "\nstderr: " << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << args << "\nstderr: " << r.err;
}

TEST(Cli, BadSpecsNumbersAndOptions) {
  expect_bad_input("play chess", "unknown game 'chess'");
  expect_bad_input("play nqueens:n=abc", "not a whole number");
  expect_bad_input("play nqueens:n=99", "out of range");
  expect_bad_input("play nqueens:n=", "empty value");
  expect_bad_input("play nqueens:bogus=1", "unknown option 'bogus'");
  expect_bad_input("play nqueens --white wizard", "unknown agent 'wizard'");
  expect_bad_input("play nqueens --white alphabeta:eval=magic", "unknown eval 'magic'");
  expect_bad_input("play nqueens --white engine:time=-1", "out of range");
  expect_bad_input("play nqueens --timeout soon", "timeout");
  expect_bad_input("perft nqueens:n=5 x", "depth");
  expect_bad_input("perft nqueens:n=5 0", "depth");
  expect_bad_input("search kcell:n=2,k=7 --algo magic", "unknown algorithm");
  expect_bad_input("search nqueens:n=4 --state XX../..../..../....", "bad position");
  expect_bad_input("table nqueens --n 5..2", "--n");
  expect_bad_input("table nqueens --variant 7", "variant");
  expect_bad_input("arena nqueens --agent random --agent human", "programs only");
  expect_bad_input("frobnicate", "frobnicate");
}

TEST(Cli, HumanGetsRetryPromptsAndGameRecordSurvivesEndOfInput) {
  // Three bad moves, one good one, then end of input: the person gives up.
  const CliRun r = duel("play nqueens:n=4,variant=1a --white human --black first --trace game.txt",
                        "hello\n9\n1,2\n2\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("illegal move: 'hello' is not a move"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("off the board"), std::string::npos);
  EXPECT_NE(r.out.find("must go in column 1"), std::string::npos);
  EXPECT_NE(r.out.find("Player 1 plays 2,1"), std::string::npos);
  EXPECT_NE(r.out.find("gave up"), std::string::npos);
}

TEST(Cli, PlayJsonRecord) {
  const CliRun r =
      duel("play nqueens:n=10 --white alphabeta:depth=5 --black alphabeta:depth=3 --json --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["game"], "nqueens:n=10,variant=1a");
  EXPECT_FALSE(j["moves"].empty());
  EXPECT_EQ(j["moves"][0]["player"], 1);
  EXPECT_TRUE(j["moves"][0].contains("nodes_by_depth"));
  EXPECT_EQ(j["ending"], "rules");
  EXPECT_TRUE(j["payoff"] == 1 || j["payoff"] == -1);
}

TEST(Cli, TableJsonShape) {
  const CliRun r = duel("table nqueens --variant 1a --n 1..6 --algo minimax --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["game"], "nqueens");
  EXPECT_EQ(j["variant"], "1a");
  EXPECT_EQ(j["algo"], "minimax");
  ASSERT_EQ(j["rows"].size(), 6U);
  EXPECT_EQ(j["rows"][0]["n"], 1);
  EXPECT_EQ(j["rows"][0]["value"], 1);  // N = 1: Player 1 places the only queen
  EXPECT_EQ(j["rows"][0]["opening"]["player"], 1);
  EXPECT_EQ(j["rows"][0]["opening"]["row"], 1);
  EXPECT_EQ(j["rows"][0]["nodes"], 2);  // the root and the one placement
  const CliRun v2 = duel("table nqueens --variant 2 --n 3 --algo alphabeta --json");
  ASSERT_EQ(v2.status, 0) << v2.err;
  EXPECT_TRUE(nlohmann::json::parse(v2.out)["rows"][0]["opening"].contains("col"));
}

TEST(Cli, SolveJsonAndPerftLastLine) {
  const CliRun s = duel("solve nqueens:n=10,variant=2 --json");
  ASSERT_EQ(s.status, 0) << s.err;
  const auto j = nlohmann::json::parse(s.out);
  EXPECT_EQ(j["value"], -1);          // OEIS A344227: n = 10 is a second-player win
  EXPECT_EQ(j["pv"].size() % 2, 0U);  // the second player places the last queen
  // Perft of the free-placement game, depth 1 on 5x5: the 25 squares.
  const CliRun p = duel("perft nqueens:n=5,variant=2 1");
  ASSERT_EQ(p.status, 0);
  EXPECT_EQ(p.out, "25\n");
  // Gardner and CS3243 perft 4 from the start: 4775 (Fairy-Stockfish, RULES.md §1a/§1b);
  // COMP 472 perft 3: 2452 (RULES.md §2).
  EXPECT_EQ(duel("perft gardner 4").out, "4775\n");
  EXPECT_EQ(duel("perft gardner-cs3243 4").out, "4775\n");
  EXPECT_EQ(duel("perft minichess-comp472 3").out, "2452\n");
  const CliRun d = duel("perft gardner-cs3243 2 --divide");
  // Fairy-Stockfish `go perft 2` (variant cs3243) splits 53 as a2a3: 7, b1c3: 8, ...
  EXPECT_NE(d.out.find("a2a3: 7\nb2b3: 8\n"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("b1c3: 8\n"), std::string::npos) << d.out;
  EXPECT_EQ(d.out.substr(d.out.rfind('\n', d.out.size() - 2) + 1), "53\n");
}

TEST(Cli, ThreadsForSearchAndSolve) {
  // --threads N (1 to 64) where --hash is: the same exact value with two
  // threads (n = 10 is a second-player win, as above), a legal search.
  const CliRun s = duel("solve nqueens:n=10,variant=2 --threads 2 --json");
  ASSERT_EQ(s.status, 0) << s.err;
  EXPECT_EQ(nlohmann::json::parse(s.out)["value"], -1);
  const CliRun r = duel("search gardner --depth 4 --threads 2 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["depth"], 4);
  for (const char* bad : {"0", "65", "x"}) {
    expect_bad_input(std::string("search gardner --depth 2 --threads ") + bad, "--threads");
    expect_bad_input(std::string("solve kcell:n=2,k=5 --threads ") + bad, "--threads");
  }
}

TEST(Cli, TheEnginesSearchIsTheGamesNotASwitch) {
  // What the engine searches beyond alpha-beta is each game's, fixed when
  // it is compiled (search/features.hpp): no switch names it. Move ordering
  // stays a user's choice, to see what it is worth: without it the same
  // depth costs more nodes.
  const auto nodes = [](const std::string& extra) {
    const CliRun r = duel("search gardner --depth 7 --json" + extra);
    EXPECT_EQ(r.status, 0) << extra << "\n" << r.err;
    return nlohmann::json::parse(r.out)["nodes"].get<long long>();
  };
  EXPECT_GT(nodes(" --no-ordering"), nodes(""));
  expect_bad_input("search gardner --depth 2 --set lmr=0", "--set");
  expect_bad_input("arena gardner --agent engine:depth=1,lmr=0 --agent first --games 2",
                   "unknown option 'lmr'");
  expect_bad_input("arena gardner --agent engine:depth=1,qs=0 --agent first --games 2",
                   "unknown option 'qs'");
}

TEST(Cli, CheckersPerftAndDedupe) {
  // OEIS A133046: 7, 49, 302, 1469, 7361, 36768 from the start.
  EXPECT_EQ(duel("perft checkers 6").out, "36768\n");
  // RULES.md §5: a king's jump path may end on its own start square. The
  // king on 18 (d4) circles the four men either way: two paths with the same
  // start, end and captures; --dedupe merges them.
  EXPECT_EQ(duel("perft checkers --state B:W6,7,14,15:BK18 1").out, "2\n");
  EXPECT_EQ(duel("perft checkers --state B:W6,7,14,15:BK18 1 --dedupe").out, "1\n");
  expect_bad_input("perft nqueens:n=5 1 --dedupe", "dedupe");
}

TEST(Cli, ArenaJsonShape) {
  const CliRun r =
      duel("arena kcell:n=2,k=7 --agent engine:depth=4 --agent random --games 4 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["games"], 4);
  EXPECT_EQ(j["wins"].get<int>() + j["draws"].get<int>() + j["losses"].get<int>(), 4);
  EXPECT_GE(j["score"].get<double>(), 0.0);
  for (const char* key : {"elo", "elo_margin", "los", "draw_ratio"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  // The pentanomial counts the 2 pairs and adds up to the same points.
  const auto ptnml = j["pentanomial"].get<std::vector<int>>();
  ASSERT_EQ(ptnml.size(), 5u);
  int pairs = 0;
  double points = 0;
  for (int i = 0; i < 5; ++i) {
    pairs += ptnml[static_cast<std::size_t>(i)];
    points += ptnml[static_cast<std::size_t>(i)] * i / 2.0;
  }
  EXPECT_EQ(pairs, 2);
  EXPECT_DOUBLE_EQ(points, j["wins"].get<int>() + j["draws"].get<int>() / 2.0);
}

TEST(Cli, ArenaSprtStopsByItself) {
  // Depth-3 alpha-beta against random play in small KCell: H1 (50 Elo
  // better) is accepted long before the 400 games allowed.
  const CliRun r = duel(
      "arena kcell:n=2,k=7 --agent alphabeta:depth=3 --agent random --games 400 --openings 2 "
      "--sprt elo0=0,elo1=50 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_LT(j["games"].get<int>(), 400);
  EXPECT_EQ(j["sprt"]["verdict"], "H1 was accepted");
  EXPECT_GE(j["sprt"]["llr"].get<double>(), j["sprt"]["upper"].get<double>());
  expect_bad_input("arena kcell --agent first --agent first --sprt elo1=x", "--sprt: elo1=x");
  expect_bad_input("arena kcell --agent first --agent first --sprt elo0=5,elo1=1",
                   "elo1 must be greater than elo0");
  expect_bad_input("arena kcell --agent first --agent first --sprt gamma=1", "--sprt:");
}

TEST(Cli, ArenaWritesEveryGamesRecord) {
  const CliRun r = duel(
      "arena checkers --agent alphabeta:depth=1 --agent random --games 3 --records games.jsonl "
      "--pdnout games.pdn --json");
  ASSERT_EQ(r.status, 0) << r.err;
  // JSON lines: one game each, numbered, A as Player 1 in odd-numbered lines.
  std::istringstream lines(r.files.at("games.jsonl"));
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) {
    const auto j = nlohmann::json::parse(line);
    ++n;
    EXPECT_EQ(j["number"], n);
    EXPECT_EQ(j["players"][n % 2 == 1 ? 0 : 1], "alphabeta:depth=1");
    EXPECT_FALSE(j["moves"].empty());
  }
  EXPECT_EQ(n, 3);
  // PDN: three games that replay.
  const std::string pdn = r.files.at("games.pdn");
  std::size_t games = 0;
  for (std::size_t at = pdn.find("[Event"); at != std::string::npos;
       at = pdn.find("[Event", at + 1)) {
    const auto next = pdn.find("[Event", at + 1);
    const auto g = duel::games::checkers::parse_pdn(pdn.substr(at, next - at));
    EXPECT_TRUE(g.ok()) << g.error();
    ++games;
  }
  EXPECT_EQ(games, 3u);
  expect_bad_input("arena kcell --agent first --agent first --pdnout x.pdn", "--pdnout");
}

TEST(Cli, ArenaPrintsTheEloLine) {
  // Two copies of the same deterministic agent: every game is the same
  // result for each colour, so the line is predictable in its form.
  const CliRun r = duel("arena kcell:n=2,k=7 --agent first --agent first --games 4");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Elo difference: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(", LOS: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" %, DrawRatio: "), std::string::npos) << r.out;
}

TEST(Cli, BenchCoversEveryGameAndAddsUp) {
  const CliRun r = duel("bench --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  std::uint64_t nodes = 0;
  std::set<std::string> families;
  for (const auto& c : j["cases"]) {
    nodes += c["nodes"].get<std::uint64_t>();
    const auto game = c["game"].get<std::string>();
    families.insert(game.substr(0, game.find(':')));
  }
  EXPECT_EQ(nodes, j["nodes"].get<std::uint64_t>());
  // The search signature (docs/BENCHMARKS.md), one thread: a change of the
  // search changes it, and its commit quotes the new count here too.
  // 2054225 since checkers' n1 was fine-tuned on the fourth and fifth
  // rounds' games (docs/net.md, "Checkers' fifth round"; the checkers cases
  // 85,945 and 36,089 nodes); 2073652 with the fourth round's network (99,067
  // and 42,394); 2098399 since it was trained on the third round's games too
  // (docs/net.md, "Checkers' third round", network C; the checkers cases
  // 122,514 and 43,694 nodes); 2042957 with its network B (81,824 and
  // 28,942); 2093290 since checkers' search has reverse futility (docs/engine.md,
  // "Reverse futility"; the checkers cases 92,700 and 68,399 nodes);
  // 2163824 since checkers' n1 was trained on the second round's games too
  // (docs/net.md, "Checkers' second round"; the checkers cases 118,620 and
  // 113,013 nodes); 2184391 since checkers' search has aspiration windows
  // and late move reductions (docs/engine.md, "Checkers' search") and its
  // default heuristic is n1 (docs/net.md, "Checkers"); 2666654 before, the
  // checkers cases 482,867 and 442,172 nodes then.
  EXPECT_EQ(nodes, 2054225U);
  EXPECT_EQ(families, (std::set<std::string>{"nqueens", "kcell", "gardner", "gardner-cs3243",
                                             "minichess-comp472", "checkers"}));
}

// `duel` alone is a person asking where to start: three commands to try,
// status 0; each of them runs as printed (a person's game ends at the end
// of input: status 0, the person gave up).
TEST(Cli, NoArgumentsSaysWhereToStart) {
  const CliRun r = duel("");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Start here:"), std::string::npos) << r.out;
  std::vector<std::string> commands;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("  duel ")) continue;
    const auto end = line.find("   ", 7);  // the command, then its description
    commands.push_back(line.substr(7, end == std::string::npos ? end : end - 7));
  }
  ASSERT_EQ(commands.size(), 3U) << r.out;
  for (const auto& c : commands) {
    const CliRun run = duel(c);
    EXPECT_EQ(run.status, 0) << c << "\n" << run.err;
  }
}

// `duel games` keeps one column for the text, however long a game's name
// (minichess-comp472 is 17 letters): every line of a game starts there.
TEST(Cli, GamesListKeepsOneColumn) {
  const CliRun r = duel("games");
  ASSERT_EQ(r.status, 0) << r.err;
  std::set<std::size_t> columns;
  int names = 0;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("duel games --agents")) continue;
    if (line.starts_with(" ")) {
      columns.insert(line.find_first_not_of(' '));
    } else {
      ++names;
      const auto name_end = line.find(' ');
      columns.insert(line.find_first_not_of(' ', name_end));
    }
  }
  EXPECT_GE(names, 6) << r.out;  // the six games of README's list
  EXPECT_EQ(columns.size(), 1U) << r.out;
  EXPECT_NE(r.out.find("minichess-comp472 5x5"), std::string::npos) << r.out;
}

}  // namespace
