// `duel tournament GAME --agent ...`: an arena of Duel agents with a
// journal and a table. The same agents and seed give the same games as
// `duel arena` (one scheduler); Swiss, knockout and gauntlet follow their
// rules; a runner killed mid-run resumes to the table an uninterrupted run
// writes; the joint Elo fit agrees with the closed form where there is one.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../support/cli_run.hpp"
#include "../support/scratch.hpp"
#include "duel/arena/ratings.hpp"

namespace {

namespace fs = std::filesystem;
using duel::test_support::CliRun;
using duel::test_support::duel;
using duel::test_support::slurp;
using json = nlohmann::json;

// Each test's own folder.
struct Scratch : duel::test_support::Scratch {
  Scratch() : duel::test_support::Scratch("duel-field") {}
};

[[nodiscard]] std::vector<json> lines(const fs::path& file) {
  std::vector<json> out;
  std::istringstream in(slurp(file));
  std::string line;
  while (std::getline(in, line)) out.push_back(json::parse(line));
  return out;
}

const std::string kAgents =
    " --agent alphabeta:depth=2 --agent random --agent engine:depth=3 --agent first";

// The same agents, seed and openings: every game of the tournament's
// round-robin is the arena's game, move for move.
TEST(FieldTournament, PlaysTheArenasGames) {
  Scratch s;
  const std::string common = kAgents + " --games 4 --openings 2 --seed 5";
  const CliRun arena =
      duel("arena kcell:n=3,k=11" + common + " --records " + (s.dir / "r.jsonl").string());
  ASSERT_EQ(arena.status, 0) << arena.err;
  const CliRun t =
      duel("tournament kcell:n=3,k=11" + common + " --out " + (s.dir / "t").string() + " --quiet");
  ASSERT_EQ(t.status, 0) << t.err;
  std::multiset<std::string> from_arena;
  for (const auto& g : lines(s.dir / "r.jsonl")) {
    std::string moves;
    for (const auto& m : g["moves"]) moves += m["move"].get<std::string>() + " ";
    from_arena.insert(g["players"].dump() + moves + std::to_string(g["payoff"].get<int>()));
  }
  std::multiset<std::string> from_tournament;
  const auto journal = lines(s.dir / "t/journal.jsonl");
  for (std::size_t i = 1; i < journal.size(); ++i) {
    const auto& g = journal[i];
    std::string moves;
    for (const auto& m : g["moves"]) moves += m.get<std::string>() + " ";
    from_tournament.insert(g["players"].dump() + moves + std::to_string(g["payoff"].get<int>()));
  }
  EXPECT_EQ(from_arena.size(), 24U);
  EXPECT_EQ(from_tournament, from_arena);
}

// One game loop and one scoring: two programs refereed by `duel referee`,
// played by `duel arena` as exec agents and by `duel tournament` give the
// same games, move for move, with the same winners. The programs are the
// fixture class's s01 and s02 (deterministic; their games end with no move
// left, never on the time tie).
TEST(FieldTournament, RefereeArenaAndTournamentPlayTheSameGames) {
  Scratch s;
  const fs::path fixture = fs::path(DUEL_SOURCE_DIR) / "tests/data/class561";
  const std::string a = "/usr/bin/python3 " + (fixture / "s01-first-py/homework.py").string();
  const std::string b = "/usr/bin/python3 " + (fixture / "s02-greedy-py/homework.py").string();
  const CliRun ref =
      duel("referee checkers --agent '" + a + "' --agent '" + b + "' --games 2 --json --quiet");
  ASSERT_EQ(ref.status, 0) << ref.err;
  const std::string exec_a = " --agent 'exec:cmd=" + a + ",time=300'";
  const std::string exec_b = " --agent 'exec:cmd=" + b + ",time=300'";
  const CliRun arena = duel("arena checkers" + exec_a + exec_b + " --games 2 --records " +
                            (s.dir / "a.jsonl").string());
  ASSERT_EQ(arena.status, 0) << arena.err;
  const CliRun t = duel("tournament checkers" + exec_a + exec_b + " --out " +
                        (s.dir / "t").string() + " --quiet");
  ASSERT_EQ(t.status, 0) << t.err;
  // Game g: agent g % 2 is Black (Player 1) in all three.
  const auto refereed = json::parse(ref.out)["games"];
  const auto arena_games = lines(s.dir / "a.jsonl");
  auto journal = lines(s.dir / "t/journal.jsonl");
  journal.erase(journal.begin());
  std::ranges::sort(journal, {}, [](const json& g) { return g["key"].get<std::string>(); });
  ASSERT_EQ(refereed.size(), 2U);
  ASSERT_EQ(arena_games.size(), 2U);
  ASSERT_EQ(journal.size(), 2U);
  for (std::size_t g = 0; g < 2; ++g) {
    std::vector<std::string> from_arena;
    for (const auto& m : arena_games[g]["moves"]) from_arena.push_back(m["move"]);
    EXPECT_EQ(refereed[g]["moves"].get<std::vector<std::string>>(), from_arena) << g;
    EXPECT_EQ(journal[g]["moves"].get<std::vector<std::string>>(), from_arena) << g;
    // The referee names agents by index; the others by payoff (Player 1's view).
    const int ref_winner = refereed[g]["winner"].is_null() ? -1 : refereed[g]["winner"].get<int>();
    const int black = refereed[g]["black"];
    const int payoff = ref_winner < 0 ? 0 : ref_winner == black ? 1 : -1;
    EXPECT_EQ(arena_games[g]["payoff"], payoff) << g;
    EXPECT_EQ(journal[g]["payoff"], payoff) << g;
  }
}

// Swiss (an odd field: a bye a round): no one meets anyone twice while
// someone new is left, no one gets two byes, points include the byes, and
// the standings are points then Buchholz.
TEST(FieldTournament, SwissPairsScoresAndByes) {
  Scratch s;
  const CliRun r = duel("tournament nqueens:n=6,variant=2" + kAgents +
                        " --agent minimax:depth=1 --format swiss --rounds 4 --games 2 --out " +
                        (s.dir / "t").string() + " --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto doc = json::parse(slurp(s.dir / "t/results.json"));
  EXPECT_EQ(doc["rounds"], 4);
  std::map<std::string, int> byes;
  std::set<std::pair<std::string, std::string>> met;
  for (const auto& e : lines(s.dir / "t/journal.jsonl")) {
    if (e.value("kind", "") == "bye") {
      EXPECT_EQ(++byes[e["player"]], 1) << e.dump();
      continue;
    }
    // Each pairing once: its first game.
    if (e.value("kind", "") != "game" || e["key"].get<std::string>().back() != '0') continue;
    auto p = std::pair{e["pairing"][0].get<std::string>(), e["pairing"][1].get<std::string>()};
    if (p.first > p.second) std::swap(p.first, p.second);
    EXPECT_TRUE(met.insert(p).second) << "met twice: " << p.first << " " << p.second;
  }
  EXPECT_EQ(byes.size(), 4U);  // one a round, each to someone new
  double total = 0;
  for (const auto& st : doc["students"]) {
    total += st["points"].get<double>();
    EXPECT_EQ(st["points"].get<double>(),
              st["wins"].get<int>() + 0.5 * st["draws"].get<int>() + 2.0 * st["byes"].get<double>())
        << st.dump();
  }
  EXPECT_EQ(total, 4 * 2 * 2 + 4 * 2.0);  // 2 pairings x 2 games a round, and the byes
  const auto& table = doc["standings"];
  for (std::size_t i = 1; i < table.size(); ++i) {
    const double a = table[i - 1]["points"];
    const double b = table[i]["points"];
    EXPECT_TRUE(a > b || (a == b && table[i - 1]["buchholz"] >= table[i]["buchholz"]))
        << table.dump();
  }
}

// Knockout (seed 003's rule) and gauntlet of Duel agents: the engine wins
// every pairing it plays, so it is the one winner however the others tie;
// the gauntlet's games all involve its first agent.
TEST(FieldTournament, KnockoutAndGauntlet) {
  Scratch s;
  const CliRun k = duel(
      "tournament gardner --agent engine:depth=3 --agent first "
      "--agent random --agent first --format knockout --out " +
      (s.dir / "k").string() + " --quiet");
  ASSERT_EQ(k.status, 0) << k.err;
  const auto doc = json::parse(slurp(s.dir / "k/results.json"));
  EXPECT_EQ(doc["standings"][0]["name"], "engine:depth=3") << doc["standings"].dump();
  EXPECT_EQ(doc["standings"][0]["result"], "winner") << doc["standings"].dump();
  EXPECT_NE(k.out.find("first#2"), std::string::npos) << k.out;  // the same spec twice
  const CliRun g = duel("tournament kcell:n=2,k=7" + kAgents + " --format gauntlet --out " +
                        (s.dir / "g").string() + " --quiet");
  ASSERT_EQ(g.status, 0) << g.err;
  const auto journal = lines(s.dir / "g/journal.jsonl");
  EXPECT_EQ(journal.size(), 1U + 3 * 2);
  for (std::size_t i = 1; i < journal.size(); ++i) {
    EXPECT_EQ(journal[i]["pairing"][0], "alphabeta:depth=2") << journal[i].dump();
  }
}

// Killed with SIGKILL in the middle, then the same command: the run
// resumes and writes the table an uninterrupted run writes, byte for byte.
TEST(FieldTournament, KilledAndResumedEndsWithTheSameTable) {
  Scratch s;
  const std::string args =
      "tournament gardner --agent alphabeta:depth=2 --agent engine:depth=2 "
      "--agent random --games 6 --openings 2 --seed 9 --quiet --out ";
  ASSERT_EQ(duel(args + (s.dir / "whole").string()).status, 0);
  const std::string out = (s.dir / "cut").string();
  const CliRun killed = duel(args + out + " & pid=$!; while [ \"$(cat " + out +
                             "/journal.jsonl 2>/dev/null | wc -l)\" -lt 6 ]; do sleep 0.01; done; "
                             "kill -9 $pid; wait $pid; echo killed");
  ASSERT_NE(killed.out.find("killed"), std::string::npos) << killed.err;
  const auto cut = lines(fs::path(out) / "journal.jsonl");
  ASSERT_LT(cut.size(), 19U) << "the run ended before it was killed";
  const CliRun resumed = duel(args + out);
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_EQ(slurp(fs::path(out) / "results.json"), slurp(s.dir / "whole/results.json"));
  EXPECT_EQ(slurp(fs::path(out) / "results.csv"), slurp(s.dir / "whole/results.csv"));
}

// Entries added to a finished run's journal by hand (a task never planned,
// a planned task's key with other players, a second line for a key) change
// nothing: the table counts the plan's tasks, each once, for its players.
TEST(FieldTournament, AJournalEditedByHandCannotAddPoints) {
  Scratch s;
  const std::string out = (s.dir / "t").string();
  const std::string args =
      "tournament gardner --agent alphabeta:depth=2 --agent random --games 2 --seed 9 --quiet "
      "--out " +
      out;
  ASSERT_EQ(duel(args).status, 0);
  const std::string table = slurp(fs::path(out) / "results.json");
  const auto journal = lines(fs::path(out) / "journal.jsonl");
  ASSERT_GE(journal.size(), 3U);
  const json planned = journal[1];
  json forged_unplanned = planned;
  forged_unplanned["key"] = "games/forged/1";
  json forged_players = planned;
  forged_players["players"] = {"random", "random"};
  {
    std::ofstream append(fs::path(out) / "journal.jsonl", std::ios::app);
    append << forged_unplanned.dump() << '\n' << forged_unplanned.dump() << '\n';
    append << forged_players.dump() << '\n';
  }
  const CliRun again = duel(args);
  ASSERT_EQ(again.status, 0) << again.err;
  // The planned key's forged line is not its result: that task was played again.
  EXPECT_EQ(slurp(fs::path(out) / "results.json"), table);
}

// --no-sandbox says so where the teacher reads (results.json, index.html,
// the journal's header); a boxed run's files say nothing of the kind.
TEST(FieldTournament, AnUnboxedRunSaysSo) {
  Scratch s;
  for (const bool boxed : {true, false}) {
    const fs::path out = s.dir / (boxed ? "boxed" : "unboxed");
    const CliRun r = duel("tournament gardner --agent random --agent first --games 2 --quiet " +
                          std::string(boxed ? "" : "--no-sandbox ") + "--out " + out.string());
    ASSERT_EQ(r.status, 0) << r.err;
    const auto results = nlohmann::json::parse(slurp(out / "results.json"));
    EXPECT_EQ(results["sandbox"], boxed);
    EXPECT_EQ(slurp(out / "index.html").find("ran unboxed") == std::string::npos, boxed);
    EXPECT_EQ(slurp(out / "journal.jsonl").find("\"sandbox\":false") == std::string::npos, boxed);
  }
}

TEST(FieldTournament, BadCommandLines) {
  const auto bad = [](const std::string& args, const std::string& needle) {
    const CliRun r = duel("tournament " + args);
    EXPECT_EQ(r.status, 2) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << args << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  };
  bad("kcell --out /tmp/duel-x", "no entrants");
  bad("kcell --agent bogus --agent first --out /tmp/duel-x", "unknown agent 'bogus'");
  bad("kcell --agent human --agent first --out /tmp/duel-x", "programs only");
  bad("kcell --agent first --agent random --format grading --out /tmp/duel-x",
      "grading is a course's");
  bad("nqueens:n=99 --agent first --out /tmp/duel-x", "course 'nqueens:n=99'");
  bad("kcell --agent first --agent random --openings 99 --out /tmp/duel-x", "--openings");
  bad("kcell --agent first --agent random --time 1,x --out /tmp/duel-x", "--time: 'x'");
  bad("csci561 --out /tmp/duel-x", "needs the class folder");
}

// The joint fit: for two players it is the closed form of the score (with
// the prior's draw for each against the mean), and a field's ratings
// average 0 with the stronger player higher.
TEST(FieldRatings, AgreesWithTheClosedFormForTwoPlayers) {
  std::vector<duel::arena::GameScore> games;
  for (int i = 0; i < 30; ++i) games.push_back({0, 1, i < 20 ? 1.0 : i < 25 ? 0.5 : 0.0});
  const auto r = duel::arena::fit_ratings(2, games);
  ASSERT_TRUE(r[0].elo && r[1].elo && r[0].margin);
  EXPECT_NEAR(*r[0].elo + *r[1].elo, 0.0, 1e-9);
  // 22.5 of 30 against the other: the difference is near the score's Elo,
  // 400 log10(22.5 / 7.5) = 190.8, pulled a little towards 0 by the prior.
  const double difference = *r[0].elo - *r[1].elo;
  EXPECT_GT(difference, 150.0);
  EXPECT_LT(difference, 190.9);
  EXPECT_GT(*r[0].margin, 50.0);
  const auto none = duel::arena::fit_ratings(3, {{0, 1, 1.0}});
  EXPECT_FALSE(none[2].elo);  // no game, no rating
}

}  // namespace
