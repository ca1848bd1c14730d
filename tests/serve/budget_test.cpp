// duel serve's bounds on memory and games: the engines' tables share one
// budget (a table past it shrinks, then 503), and games nobody asks about
// are dropped after options.idle.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "duel/serve/session.hpp"
#include "serve_support.hpp"

namespace duel::serve::test {
namespace {

TEST(ServeBudget, TableSizesAreReadFromTheSpec) {
  EXPECT_EQ(table_mb("engine:hash=100,time=1"), 100);
  EXPECT_EQ(table_mb("engine:time=1"), 64);  // search::kAgentHashMb
  EXPECT_EQ(table_mb("alphabeta:depth=3"), 0);
  EXPECT_EQ(table_mb("random"), 0);
  EXPECT_EQ(with_table("engine:hash=100,time=1", 36), "engine:hash=36,time=1");
  EXPECT_EQ(with_table("engine:time=1", 8), "engine:time=1,hash=8");
}

TEST(ServeBudget, TablesPastTheBudgetShrinkAndThenAreRefused) {
  ServerOptions options;
  options.table_budget_mb = 100;
  options.kept_agents = 0;
  Server server(options);
  const auto start = [&](const std::string& id, const std::string& spec) {
    return call(server, "POST", "/api/games/" + id + "/agent", Json{{"agent", spec}}.dump());
  };
  const std::string a = new_game(server, "gardner");
  const std::string b = new_game(server, "gardner");
  const std::string c = new_game(server, "gardner");
  // a holds 64 MB while it thinks; b gets the 36 left; c none.
  ASSERT_EQ(start(a, "engine:time=30,hash=64").status, 202);
  const Response rb = start(b, "engine:time=30,hash=64");
  ASSERT_EQ(rb.status, 202) << rb.body;
  EXPECT_EQ(json_of(rb)["agent"], "engine:time=30,hash=36");
  const Response rc = start(c, "engine:time=30");
  EXPECT_EQ(rc.status, 503);
  EXPECT_EQ(json_of(rc)["error"],
            "the engines' tables use all of the server's 100 MB: stop a search, delete a game or "
            "wait");
  // An agent without a table still plays.
  EXPECT_EQ(start(c, "alphabeta:depth=2").status, 202);
  wait_done(server, c);
  // Stopped and done, a and b give their MB back (nothing is kept).
  call(server, "POST", "/api/games/" + a + "/stop");
  call(server, "POST", "/api/games/" + b + "/stop");
  wait_done(server, a);
  wait_done(server, b);
  // The MB come back as each search thread unwinds, just after its move
  // is played (thinking is false a moment before): until both have, c is
  // refused or gets a shrunk table, and asks again once it has moved.
  const std::string full = "engine:nodes=2000,hash=100";
  Response again;
  for (int i = 0; i < 500; ++i) {
    again = start(c, full);
    if (again.status == 202 && json_of(again)["agent"] == full) break;
    ASSERT_TRUE(again.status == 503 || again.status == 202) << again.body;
    if (again.status == 202) wait_done(server, c);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(again.status, 202) << again.body;
  EXPECT_EQ(json_of(again)["agent"], full);
  wait_done(server, c);
}

TEST(ServeBudget, AKeptEngineKeepsItsTableUntilItsGameGoes) {
  ServerOptions options;
  options.table_budget_mb = 100;
  options.kept_agents = 4;
  Server server(options);
  const std::string a = new_game(server, "gardner");
  const std::string b = new_game(server, "gardner");
  ASSERT_EQ(call(server, "POST", "/api/games/" + a + "/agent",
                 Json{{"agent", "engine:nodes=1000,hash=80"}}.dump())
                .status,
            202);
  wait_done(server, a);  // moved; kept with its 80 MB
  const Response small = call(server, "POST", "/api/games/" + b + "/agent",
                              Json{{"agent", "engine:nodes=1000,hash=80"}}.dump());
  ASSERT_EQ(small.status, 202);
  EXPECT_EQ(json_of(small)["agent"], "engine:nodes=1000,hash=20");
  wait_done(server, b);
  EXPECT_EQ(call(server, "DELETE", "/api/games/" + a).status, 200);
  EXPECT_EQ(call(server, "DELETE", "/api/games/" + b).status, 200);
  const std::string c = new_game(server, "gardner");
  const Response whole = call(server, "POST", "/api/games/" + c + "/agent",
                              Json{{"agent", "engine:nodes=1000,hash=100"}}.dump());
  ASSERT_EQ(whole.status, 202);
  EXPECT_EQ(json_of(whole)["agent"], "engine:nodes=1000,hash=100");
  wait_done(server, c);
}

TEST(ServeBudget, GamesNobodyAsksAboutAreDropped) {
  ServerOptions options;
  options.idle = std::chrono::milliseconds(300);
  Server server(options);
  const std::string kept = new_game(server, "kcell");
  const std::string left = new_game(server, "kcell");
  // Asked about every 40 ms, well inside idle even with a loaded machine's
  // late wake-ups, for over twice idle: the sweeps run at most once per
  // idle, and the first may come just before left has been idle that long.
  for (int i = 0; i < 20; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(40));
    EXPECT_EQ(call(server, "GET", "/api/games/" + kept).status, 200);
  }
  EXPECT_EQ(call(server, "GET", "/api/games/" + left).status, 404);
  EXPECT_EQ(call(server, "GET", "/api/games/" + kept).status, 200);
}

}  // namespace
}  // namespace duel::serve::test
