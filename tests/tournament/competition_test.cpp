// csci561's competition as the course ran it (RULES.md §6a, the course's
// runitall-log.txt): round 1 against the reference, then rounds in which
// each student meets 4 or 5 others, 4 games a pair, a student who scored
// nothing in a round out, and a final round-robin once the field is small.
// The plan is a pure function of the journal, so it is tested on journals
// made here.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "duel/tournament/plan.hpp"
#include "duel/tournament/tournament.hpp"

namespace {

using json = nlohmann::json;
using duel::tournament::Entries;
using duel::tournament::Field;
using duel::tournament::Format;
using duel::tournament::Opening;
using duel::tournament::Options;
using duel::tournament::Submission;

[[nodiscard]] std::vector<Submission> students(int n) {
  std::vector<Submission> out;
  for (int i = 0; i < n; ++i) {
    Submission s;
    s.name = "s" + std::to_string(i);
    s.command = "python3 homework.py";
    out.push_back(s);
  }
  return out;
}

// The journal entries of `tasks` as if played: a game involving a player
// in `losers` is lost by that player; any other goes to Player 1.
void play(const std::vector<json>& tasks, const std::set<std::string>& losers, Entries& journal) {
  for (const auto& t : tasks) {
    const std::string a = t["sides"][0]["name"];
    const std::string b = t["sides"][1]["name"];
    const int payoff = losers.count(a) != 0 ? -1 : 1;
    journal[t["key"]] = {{"key", t["key"]},        {"kind", "game"},    {"stage", t["stage"]},
                         {"round", t["round"]},    {"players", {a, b}}, {"payoff", payoff},
                         {"pairing", t["pairing"]}};
  }
}

TEST(Competition, RoundsAsTheCourseRanThem) {
  Options o;
  o.format = Format::Competition;
  o.games = 4;  // RULES.md §6a: 4 games a pair
  o.final_size = 5;
  const auto field_entrants = students(9);
  const Field f{o, field_entrants, [](int) { return Opening{}; }};
  Entries journal;

  // Step 1. Round 1: every student against the reference, 4 games, each
  // reference game with a seed of its own and the course's charge.
  const auto r1 = duel::tournament::plan_round(f, journal, 1);
  ASSERT_EQ(r1.size(), 9u * 4u);
  std::set<std::string> programs;
  for (const auto& t : r1) {
    const int ref = t["sides"][0]["name"] == "reference" ? 0 : 1;
    const auto& side = t["sides"][ref];
    EXPECT_EQ(side["charge_per_move"], 0.29) << t.dump();  // RULES.md §6a's median
    programs.insert(side["program"].get<std::string>());
    EXPECT_EQ(t["seconds"], 300.0);  // RULES.md §6a: 300 s in every game
  }
  EXPECT_EQ(programs.size(), r1.size()) << "every reference game has its own seed";
  EXPECT_EQ(programs.begin()->rfind("duel:csci561-ta:seed=", 0), 0u) << *programs.begin();
  // The same journal plans the same round (a resumed run replays it).
  EXPECT_EQ(duel::tournament::plan_round(f, journal, 1), r1);
  play(r1, {"s0", "s1"}, journal);  // s0 and s1 lose all four: out

  // Step 2. Round 2: seven left, more than the final's five: each meets
  // four others (an odd field cannot be 5-regular), 4 games a pair.
  const auto r2 = duel::tournament::plan_round(f, journal, 2);
  std::map<std::string, std::set<std::string>> met;
  for (const auto& t : r2) {
    const std::string a = t["pairing"][0];
    const std::string b = t["pairing"][1];
    EXPECT_TRUE(a != "s0" && a != "s1" && b != "s0" && b != "s1") << t.dump();
    met[a].insert(b);
    met[b].insert(a);
  }
  ASSERT_EQ(met.size(), 7u);
  for (const auto& [name, opponents] : met) EXPECT_EQ(opponents.size(), 4u) << name;
  EXPECT_EQ(r2.size(), 7u * 4u / 2u * 4u);
  play(r2, {"s2", "s3"}, journal);

  // Step 3. Round 3: s2 and s3 scored nothing; five left: the final, a
  // round-robin of the five, 4 games a pair.
  const auto r3 = duel::tournament::plan_round(f, journal, 3);
  EXPECT_EQ(r3.size(), 10u * 4u);
  std::set<std::string> finalists;
  for (const auto& t : r3) {
    EXPECT_TRUE(t.value("final", false));
    finalists.insert(t["pairing"][0].get<std::string>());
    finalists.insert(t["pairing"][1].get<std::string>());
  }
  EXPECT_EQ(finalists, (std::set<std::string>{"s4", "s5", "s6", "s7", "s8"}));
  play(r3, {}, journal);
  EXPECT_TRUE(duel::tournament::plan_round(f, journal, 4).empty());
  std::set<std::string> named;
  for (const auto i : duel::tournament::competition_finalists(f, journal)) {
    named.insert(field_entrants[i].name);
  }
  EXPECT_EQ(named, finalists);
}

TEST(Competition, ASmallClassGoesStraightToTheFinal) {
  Options o;
  o.format = Format::Competition;
  o.games = 4;
  const auto field_entrants = students(4);
  const Field f{o, field_entrants, [](int) { return Opening{}; }};
  Entries journal;
  play(duel::tournament::plan_round(f, journal, 1), {}, journal);
  // Four students, at most the default final's 50: a round-robin at once.
  EXPECT_EQ(duel::tournament::plan_round(f, journal, 2).size(), 6u * 4u);
}

}  // namespace
