// duel serve's API at the handler level (serve::Server::handle, no socket):
// every endpoint, the game view of every game, records, agents on their
// own threads, and every class of bad request (docs/serve.md).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "duel/registry/games.hpp"
#include "duel/serve/static_files.hpp"
#include "serve_support.hpp"

namespace duel::serve::test {
namespace {

using Steady = std::chrono::steady_clock;

const std::vector<std::string> kSpecs = {
    "nqueens:n=5,variant=2", "nqueens:n=6,variant=1a", "kcell:n=2,k=7", "gardner",
    "gardner-cs3243",        "minichess-comp472",      "checkers"};

// Step 1. Lists.

TEST(ServeApi, GamesListsEveryGameWithItsHeuristics) {
  Server server;
  const Response r = call(server, "GET", "/api/games");
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "application/json");
  const Json j = json_of(r);
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), registry::game_list().size());
  for (const auto& g : j) {
    EXPECT_FALSE(g["name"].get<std::string>().empty());
    EXPECT_TRUE(registry::make_game(g["example"].get<std::string>()).ok()) << g;
    EXPECT_FALSE(g["about"].get<std::string>().empty());
    EXPECT_FALSE(g["heuristics"].empty()) << g;
  }
  EXPECT_EQ(j[2]["name"], "gardner");
  EXPECT_EQ(j[2]["heuristics"][0],  // the default first
            games::default_heuristic<games::minichess::GardnerState>());
}

TEST(ServeApi, AgentsAreTheKindsTheServerRunsForThatGame) {
  Server server;
  const auto kinds = [&](const std::string& game) {
    const Response r = call(server, "GET", "/api/agents", "", {{"game", game}});
    EXPECT_EQ(r.status, 200) << r.body;
    std::set<std::string> out;
    for (const auto& a : json_of(r)) {
      EXPECT_TRUE(a.contains("example") && a.contains("about")) << a;
      out.insert(a["kind"].get<std::string>());
    }
    return out;
  };
  const auto chess = kinds("gardner");
  const auto queens = kinds("nqueens:n=8");
  for (const char* k : {"engine", "alphabeta", "minimax", "random", "first"}) {
    EXPECT_TRUE(chess.count(k) == 1 && queens.count(k) == 1) << k;
  }
  EXPECT_EQ(chess.count("minimax4"), 1U);
  EXPECT_EQ(queens.count("minimax4"), 0U);
  for (const char* k : {"human", "uci", "exec"}) EXPECT_EQ(chess.count(k) + queens.count(k), 0U);
  EXPECT_EQ(call(server, "GET", "/api/agents").status, 400);
  const Response bad = call(server, "GET", "/api/agents", "", {{"game", "go"}});
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(json_of(bad)["error"].get<std::string>().find("unknown game 'go'"), std::string::npos);
}

// Step 2. The game view of every game.

class ServeGame : public ::testing::TestWithParam<std::string> {};

TEST_P(ServeGame, ViewMoveIllegalMoveUndo) {
  Server server;
  const Response made = call(server, "POST", "/api/games", Json{{"game", GetParam()}}.dump());
  ASSERT_EQ(made.status, 201) << made.body;
  const Json v = json_of(made);
  for (const char* key :
       {"id", "game", "spec", "position", "to_move", "players", "terminal", "result", "reason",
        "check", "last_move", "history", "thinking", "board", "marks", "moves"}) {
    EXPECT_TRUE(v.contains(key)) << key;
  }
  const std::string id = v["id"];
  EXPECT_EQ(v["to_move"], 1);
  EXPECT_EQ(v["terminal"], false);
  EXPECT_TRUE(v["result"].is_null() && v["reason"].is_null() && v["last_move"].is_null());
  EXPECT_TRUE(v["history"].empty());
  EXPECT_EQ(v["thinking"], false);
  const Json& board = v["board"];
  ASSERT_EQ(board["cells"].size(), board["rows"].get<std::size_t>());
  for (const auto& row : board["cells"]) EXPECT_EQ(row.size(), board["cols"].get<std::size_t>());
  ASSERT_FALSE(v["moves"].empty());
  for (const auto& m : v["moves"]) {
    EXPECT_FALSE(m["text"].get<std::string>().empty());
    for (const auto& sq : m["squares"]) {
      EXPECT_GE(sq[0].get<int>(), 0);
      EXPECT_LT(sq[0].get<int>(), board["rows"].get<int>());
      EXPECT_GE(sq[1].get<int>(), 0);
      EXPECT_LT(sq[1].get<int>(), board["cols"].get<int>());
    }
  }
  // GET gives the same view (but for the clock, which runs).
  const auto still = [](Json j) {
    j.erase("clock");
    return j;
  };
  EXPECT_EQ(still(json_of(call(server, "GET", "/api/games/" + id))), still(v));

  // A legal move: the last one listed.
  const Json move = v["moves"].back();
  const Response played =
      call(server, "POST", "/api/games/" + id + "/move", Json{{"move", move["text"]}}.dump());
  ASSERT_EQ(played.status, 200) << played.body;
  const Json after = json_of(played);
  EXPECT_EQ(after["history"], Json::array({move["text"]}));
  EXPECT_EQ(after["last_move"], move);
  EXPECT_EQ(after["to_move"], 2);
  EXPECT_NE(after["position"], v["position"]);

  // Illegal and malformed moves: 400 with the game's own words.
  for (const char* bad : {"zz9", "", "1-2-3-4-5"}) {
    const Response r =
        call(server, "POST", "/api/games/" + id + "/move", Json{{"move", bad}}.dump());
    EXPECT_EQ(r.status, 400) << bad;
    EXPECT_FALSE(json_of(r)["error"].get<std::string>().empty());
  }

  // Undo: back to the start; then nothing to undo.
  const Response undone = call(server, "POST", "/api/games/" + id + "/undo");
  ASSERT_EQ(undone.status, 200) << undone.body;
  EXPECT_EQ(json_of(undone)["position"], v["position"]);
  EXPECT_EQ(json_of(undone)["moves"], v["moves"]);
  EXPECT_EQ(call(server, "POST", "/api/games/" + id + "/undo").status, 400);
}

TEST_P(ServeGame, AnEngineMovesOnItsThreadAndReportsItsSearch) {
  Server server;
  const std::string id = new_game(server, GetParam());
  const Response r =
      call(server, "POST", "/api/games/" + id + "/agent", Json{{"agent", "engine:depth=3"}}.dump());
  ASSERT_EQ(r.status, 202) << r.body;
  const Json s = wait_done(server, id);
  EXPECT_EQ(s["agent"], "engine:depth=3");
  ASSERT_TRUE(s["info"].is_object()) << s;
  EXPECT_GE(s["info"]["depth"].get<int>(), 1);
  EXPECT_GT(s["info"]["nodes"].get<std::uint64_t>(), 0U);
  EXPECT_FALSE(s["info"]["pv"].empty());
  EXPECT_FALSE(s["info"]["nodes_by_depth"].empty());
  EXPECT_TRUE(s["info"]["value"].is_number());
  const Json v = json_of(call(server, "GET", "/api/games/" + id));
  EXPECT_EQ(v["history"].size(), 1U);
  EXPECT_EQ(v["thinking"], false);
  EXPECT_EQ(v["history"][0], s["info"]["pv"][0]);
}

TEST_P(ServeGame, RecordsJsonAndTraceAlwaysPgnAndPdnWhereTheGameHasThem) {
  Server server;
  const std::string id = new_game(server, GetParam());
  const Json v = json_of(call(server, "GET", "/api/games/" + id));
  const std::string first = v["moves"][0]["text"];
  ASSERT_EQ(call(server, "POST", "/api/games/" + id + "/move", Json{{"move", first}}.dump()).status,
            200);
  const auto record = [&](const std::string& format) {
    return call(server, "GET", "/api/games/" + id + "/record", "", {{"format", format}});
  };
  const Response j = record("json");
  ASSERT_EQ(j.status, 200);
  const Json doc = json_of(j);
  EXPECT_EQ(doc["moves"].size(), 1U);
  EXPECT_EQ(doc["moves"][0]["move"], first);
  EXPECT_EQ(doc["start"], v["position"]);
  ASSERT_FALSE(j.headers.empty());
  EXPECT_EQ(j.headers[0].first, "Content-Disposition");
  EXPECT_NE(j.headers[0].second.find("attachment"), std::string::npos);
  const Response t = record("trace");
  EXPECT_EQ(t.status, 200);
  EXPECT_NE(t.body.find("# Duel game record"), std::string::npos);
  const bool chess = v["game"] != "nqueens" && v["game"] != "kcell" && v["game"] != "checkers";
  const bool checkers = v["game"] == "checkers";
  EXPECT_EQ(record("pgn").status, chess ? 200 : 400);
  EXPECT_EQ(record("pdn").status, checkers ? 200 : 400);
  if (chess) {
    const std::string pgn = record("pgn").body;
    EXPECT_NE(pgn.find("[Result \"*\"]"), std::string::npos) << pgn;
    EXPECT_NE(pgn.find("[Variant"), std::string::npos) << pgn;
  }
  if (checkers) {
    const std::string pdn = record("pdn").body;
    EXPECT_NE(pdn.find("[Result \"*\"]"), std::string::npos) << pdn;
    EXPECT_NE(pdn.find(first), std::string::npos) << pdn;
  }
  EXPECT_EQ(record("sgf").status, 400);
}

INSTANTIATE_TEST_SUITE_P(Serve, ServeGame, ::testing::ValuesIn(kSpecs), [](const auto& spec_info) {
  std::string name;
  for (char c : spec_info.param) {
    name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  }
  return name;
});

TEST(ServeView, ChessBoardAsDrawnWithClickSquares) {
  Server server;
  const std::string id = new_game(server, "gardner");
  const Json v = json_of(call(server, "GET", "/api/games/" + id));
  EXPECT_EQ(v["players"], Json::array({"White", "Black"}));
  EXPECT_EQ(v["board"]["kind"], "grid");
  EXPECT_EQ(v["board"]["cells"][0], Json::array({"r", "n", "b", "q", "k"}));  // rank 5 on top
  EXPECT_EQ(v["board"]["cells"][1], Json::array({"p", "p", "p", "p", "p"}));
  EXPECT_EQ(v["board"]["cells"][2], Json::array({"", "", "", "", ""}));
  EXPECT_EQ(v["board"]["cells"][4], Json::array({"R", "N", "B", "Q", "K"}));
  bool found = false;
  for (const auto& m : v["moves"]) {
    if (m["text"] == "b2b3") {
      found = true;
      EXPECT_EQ(m["squares"], Json::parse("[[3,1],[2,1]]"));
    }
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(v["check"], false);
  const std::string in_check = new_game(server, "gardner", "4k/5/5/5/K3r w - - 0 1");
  EXPECT_EQ(json_of(call(server, "GET", "/api/games/" + in_check))["check"], true);
}

TEST(ServeView, CheckersDarkSquaresAndJumpPaths) {
  Server server;
  const std::string id = new_game(server, "checkers");
  const Json v = json_of(call(server, "GET", "/api/games/" + id));
  EXPECT_EQ(v["players"], Json::array({"Black", "White"}));
  const Json& cells = v["board"]["cells"];
  ASSERT_EQ(cells.size(), 8U);
  EXPECT_EQ(cells[0][1], "b");  // square 1 is b8, top left dark square
  EXPECT_EQ(cells[0][0], "");
  EXPECT_EQ(cells[7][0], "w");  // square 29 is a1
  int black = 0;
  int white = 0;
  for (int r = 0; r < 8; ++r) {
    for (int c = 0; c < 8; ++c) {
      const std::string p = cells[r][c];
      if (!p.empty()) {
        EXPECT_EQ((r + c) % 2, 1) << r << "," << c;
      }
      black += p == "b";
      white += p == "w";
    }
  }
  EXPECT_EQ(black, 12);
  EXPECT_EQ(white, 12);
  for (const auto& m : v["moves"]) {
    ASSERT_EQ(m["squares"].size(), 2U);
    EXPECT_EQ(cells[m["squares"][0][0].get<int>()][m["squares"][0][1].get<int>()], "b");
  }
  // A double jump clicks from, landing, landing: Black man on 1 (b8) jumps
  // 6 and 15 to land on 10 and then 19.
  const std::string jump = new_game(server, "checkers", "B:W6,15:B1");
  const Json j = json_of(call(server, "GET", "/api/games/" + jump));
  ASSERT_EQ(j["moves"].size(), 1U) << j["moves"];
  EXPECT_EQ(j["moves"][0]["squares"].size(), 3U) << j["moves"];
  EXPECT_EQ(j["moves"][0]["squares"][0], Json::parse("[0,1]"));
}

TEST(ServeView, NQueensMarksAttackedSquaresAndAFinishedGame) {
  Server server;
  const std::string id = new_game(server, "nqueens:n=4,variant=2");
  const Json v =
      json_of(call(server, "POST", "/api/games/" + id + "/move", Json{{"move", "1 1"}}.dump()));
  ASSERT_EQ(v["history"].size(), 1U) << v;
  EXPECT_EQ(v["board"]["cells"][0][0], "Q");
  EXPECT_EQ(v["last_move"]["squares"], Json::parse("[[0,0]]"));
  // Row 1, column 1 and the diagonal: 3 + 3 + 3 squares.
  EXPECT_EQ(v["marks"].size(), 9U);
  const Json empty = json_of(call(server, "GET", "/api/games/" + new_game(server, "nqueens:n=4")));
  EXPECT_TRUE(empty["marks"].empty());

  // n = 1: the first queen ends the game.
  const std::string one = new_game(server, "nqueens:n=1,variant=2");
  const Json end =
      json_of(call(server, "POST", "/api/games/" + one + "/move", Json{{"move", "1 1"}}.dump()));
  EXPECT_EQ(end["terminal"], true);
  EXPECT_EQ(end["result"], "1-0");
  EXPECT_FALSE(end["reason"].get<std::string>().empty());
  EXPECT_TRUE(end["moves"].empty());
  const Response after =
      call(server, "POST", "/api/games/" + one + "/move", Json{{"move", "1 1"}}.dump());
  EXPECT_EQ(after.status, 400);
  EXPECT_NE(json_of(after)["error"].get<std::string>().find("the game is over"), std::string::npos);
  EXPECT_EQ(
      call(server, "POST", "/api/games/" + one + "/agent", Json{{"agent", "random"}}.dump()).status,
      400);
  const Json rec =
      json_of(call(server, "GET", "/api/games/" + one + "/record", "", {{"format", "json"}}));
  EXPECT_EQ(rec["payoff"], 1);
}

TEST(ServeView, KCellIsALineOfCells) {
  Server server;
  const std::string id = new_game(server, "kcell:n=2,k=7");
  const Json v = json_of(call(server, "GET", "/api/games/" + id));
  EXPECT_EQ(v["board"]["kind"], "line");
  EXPECT_EQ(v["board"]["rows"], 1);
  EXPECT_EQ(v["board"]["cols"], 7);
  EXPECT_EQ(v["board"]["cells"][0], Json::parse(R"(["1","1","","","","2","2"])"));
  for (const auto& m : v["moves"]) {
    ASSERT_EQ(m["squares"].size(), 2U);
    EXPECT_EQ(m["squares"][0][0], 0);
    EXPECT_EQ(m["squares"][0][1].get<int>() + 1, std::stoi(m["text"].get<std::string>()));
  }
}

TEST(ServeView, UndoTakesBackSeveralPlies) {
  Server server;
  const std::string id = new_game(server, "gardner");
  for (const char* m : {"b2b3", "a4a3"}) {
    ASSERT_EQ(call(server, "POST", "/api/games/" + id + "/move", Json{{"move", m}}.dump()).status,
              200)
        << m;
  }
  EXPECT_EQ(call(server, "POST", "/api/games/" + id + "/undo", R"({"plies": 3})").status, 400);
  EXPECT_EQ(call(server, "POST", "/api/games/" + id + "/undo", R"({"plies": "2"})").status, 400);
  const Response r = call(server, "POST", "/api/games/" + id + "/undo", R"({"plies": 2})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_TRUE(json_of(r)["history"].empty());
}

// Step 3. Agents on their threads.

TEST(ServeAgent, ALongSearchBlocksNothingAndStopsWhenAsked) {
  Server server;
  const std::string id = new_game(server, "gardner");
  const std::string other = new_game(server, "checkers");
  const auto start = Steady::now();
  const Response r =
      call(server, "POST", "/api/games/" + id + "/agent", Json{{"agent", "engine:time=5"}}.dump());
  ASSERT_EQ(r.status, 202) << r.body;
  EXPECT_EQ(json_of(r)["thinking"], true);
  // While it thinks: views and progress answer at once, moves and undo are 409.
  for (int i = 0; i < 3; ++i) {
    const auto asked = Steady::now();
    const Response v = call(server, "GET", "/api/games/" + id);
    EXPECT_EQ(v.status, 200);
    EXPECT_EQ(json_of(v)["thinking"], true);
    EXPECT_EQ(call(server, "GET", "/api/games/" + other).status, 200);
    EXPECT_LT(seconds_since(asked), 0.5);  // generous: a handler call, no socket
  }
  EXPECT_EQ(call(server, "POST", "/api/games/" + id + "/move", R"({"move":"b2b3"})").status, 409);
  EXPECT_EQ(call(server, "POST", "/api/games/" + id + "/undo").status, 409);
  EXPECT_EQ(call(server, "POST", "/api/games/" + id + "/agent", R"({"agent":"first"})").status,
            409);
  // Live progress: an iteration is reported before the search ends.
  Json live;
  while (seconds_since(start) < 4.0) {
    live = json_of(call(server, "GET", "/api/games/" + id + "/search"));
    if (live["thinking"] == true && live["info"]["depth"].get<int>() >= 1) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(live["thinking"], true) << live;
  EXPECT_GE(live["info"]["depth"].get<int>(), 1) << live;
  EXPECT_FALSE(live["info"]["pv"].empty()) << live;
  // Nodes by depth too (the page's chart while it thinks), as of the last
  // iteration: at most the nodes reported, which tick on between iterations.
  ASSERT_FALSE(live["info"]["nodes_by_depth"].empty()) << live;
  std::uint64_t counted = 0;
  for (const auto& n : live["info"]["nodes_by_depth"]) counted += n.get<std::uint64_t>();
  EXPECT_LE(counted, live["info"]["nodes"].get<std::uint64_t>()) << live;
  EXPECT_EQ(call(server, "POST", "/api/games/" + id + "/stop").status, 200);
  const Json done = wait_done(server, id);
  EXPECT_LT(seconds_since(start), 4.5);  // stopped well before its 5 s
  EXPECT_EQ(done["thinking"], false);
  const Json v = json_of(call(server, "GET", "/api/games/" + id));
  EXPECT_EQ(v["history"].size(), 1U);  // it still plays its best move so far
  EXPECT_EQ(v["to_move"], 2);
}

TEST(ServeAgent, DeleteAndShutdownEndARunningSearch) {
  auto server = std::make_unique<Server>();
  const std::string a = new_game(*server, "checkers");
  const std::string b = new_game(*server, "gardner");
  for (const auto& id : {a, b}) {
    ASSERT_EQ(call(*server, "POST", "/api/games/" + id + "/agent",
                   Json{{"agent", "engine:time=30"}}.dump())
                  .status,
              202);
  }
  const auto start = Steady::now();
  const Response d = call(*server, "DELETE", "/api/games/" + a);
  ASSERT_EQ(d.status, 200);
  EXPECT_EQ(json_of(d), (Json{{"deleted", a}}));
  EXPECT_EQ(call(*server, "GET", "/api/games/" + a).status, 404);
  EXPECT_EQ(call(*server, "DELETE", "/api/games/" + a).status, 404);
  server->shutdown();
  EXPECT_LT(seconds_since(start), 10.0);  // not the 30 s each would take
  EXPECT_EQ(call(*server, "GET", "/api/games/" + b).status, 404);
  server.reset();
}

TEST(ServeAgent, PlainSearchesAndBaselinesPlay) {
  Server server;
  for (const char* agent : {"alphabeta:depth=2", "minimax:depth=2", "random:seed=3", "first",
                            "minimax:time=0.2", "engine:nodes=2000"}) {
    const std::string id = new_game(server, "kcell:n=2,k=7");
    const Response r =
        call(server, "POST", "/api/games/" + id + "/agent", Json{{"agent", agent}}.dump());
    ASSERT_EQ(r.status, 202) << agent << ": " << r.body;
    const Json s = wait_done(server, id);
    EXPECT_FALSE(s.contains("error")) << s;
    EXPECT_EQ(json_of(call(server, "GET", "/api/games/" + id))["history"].size(), 1U) << agent;
  }
}

TEST(ServeAgent, EachSideKeepsItsAgentWithinTheServersQuota) {
  ServerOptions options;
  options.kept_agents = 1;
  Server server(options);
  // Asks `spec` to move in game `id`; whether the agent was a kept one.
  const auto agent_moves = [&](const std::string& id, const std::string& spec) {
    const Response r =
        call(server, "POST", "/api/games/" + id + "/agent", Json{{"agent", spec}}.dump());
    EXPECT_EQ(r.status, 202) << spec << ": " << r.body;
    const Json s = wait_done(server, id);
    EXPECT_FALSE(s.contains("error")) << s;
    return s["kept"].get<bool>();
  };
  const auto person_moves = [&](const std::string& id) {
    const Json v = json_of(call(server, "GET", "/api/games/" + id));
    const std::string move = v["moves"][0]["text"].get<std::string>();
    EXPECT_EQ(
        call(server, "POST", "/api/games/" + id + "/move", Json{{"move", move}}.dump()).status,
        200);
  };
  const std::string a = new_game(server, "gardner");
  EXPECT_FALSE(agent_moves(a, "engine:depth=2"));  // White's first: new, then kept
  person_moves(a);
  EXPECT_TRUE(agent_moves(a, "engine:depth=2"));   // the same spec for White: kept
  EXPECT_FALSE(agent_moves(a, "engine:depth=2"));  // Black's own slot is empty
  EXPECT_TRUE(agent_moves(a, "engine:depth=2"));   // White's again (Black's found no room)
  person_moves(a);
  EXPECT_FALSE(agent_moves(a, "engine:depth=3"));  // another spec replaces White's
  person_moves(a);
  EXPECT_TRUE(agent_moves(a, "engine:depth=3"));
  // The one place is game a's: game b keeps nothing until a is deleted.
  const std::string b = new_game(server, "gardner");
  EXPECT_FALSE(agent_moves(b, "alphabeta:depth=2"));
  person_moves(b);
  EXPECT_FALSE(agent_moves(b, "alphabeta:depth=2"));
  EXPECT_EQ(call(server, "DELETE", "/api/games/" + a).status, 200);
  person_moves(b);
  EXPECT_FALSE(agent_moves(b, "alphabeta:depth=2"));
  person_moves(b);
  EXPECT_TRUE(agent_moves(b, "alphabeta:depth=2"));
}

TEST(ServeAgent, ProgramsAndOverlongSearchesAreRefused) {
  Server server;
  const std::string id = new_game(server, "checkers");
  const auto agent = [&](const std::string& spec) {
    return call(server, "POST", "/api/games/" + id + "/agent", Json{{"agent", spec}}.dump());
  };
  for (const char* spec : {"human", "exec:cmd=/bin/true", "uci:cmd=/bin/true"}) {
    const Response r = agent(spec);
    EXPECT_EQ(r.status, 400) << spec;
    EXPECT_NE(json_of(r)["error"].get<std::string>().find("is not available in duel serve"),
              std::string::npos)
        << r.body;
  }
  EXPECT_EQ(agent("engine:time=61").status, 400);
  EXPECT_EQ(agent("alphabeta:time=600").status, 400);
  EXPECT_EQ(agent("engine:hash=4096").status, 400);
  EXPECT_EQ(agent("engine:threads=3").status, 400);  // over kMaxAgentThreads (2)
  EXPECT_NE(json_of(agent("engine:threads=8"))["error"].get<std::string>().find(
                "threads=8 is over duel serve's 2 threads"),
            std::string::npos);
  EXPECT_EQ(agent("engine:depth=x").status, 400);
  EXPECT_EQ(agent("engine:eval=nope").status, 400);
  EXPECT_EQ(agent("chess-master").status, 400);
  EXPECT_EQ(agent("greedy").status, 400);  // chess only
  EXPECT_EQ(json_of(call(server, "GET", "/api/games/" + id))["thinking"], false);
  const Json s = json_of(call(server, "GET", "/api/games/" + id + "/search"));
  EXPECT_EQ(s["thinking"], false);
  EXPECT_TRUE(s["agent"].is_null());
  EXPECT_TRUE(s["info"].is_null());
}

// Step 4. Bad requests of every kind.

TEST(ServeErrors, TooManyGamesIs503UnlessIdleOnesCanGo) {
  ServerOptions options;
  options.max_games = 2;
  Server full(options);
  new_game(full, "gardner");
  new_game(full, "gardner");
  const Response r = call(full, "POST", "/api/games", R"({"game":"gardner"})");
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(json_of(r)["error"],
            "too many games (2), each asked about in the last 120 s; delete one or wait");

  // The game asked about least recently makes way.
  options.idle_when_full = std::chrono::milliseconds(0);
  Server recycling(options);
  const std::string first = new_game(recycling, "gardner");
  const std::string second = new_game(recycling, "gardner");
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(call(recycling, "GET", "/api/games/" + first).status, 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(call(recycling, "POST", "/api/games", R"({"game":"gardner"})").status, 201);
  EXPECT_EQ(call(recycling, "GET", "/api/games/" + second).status, 404);
  EXPECT_EQ(call(recycling, "GET", "/api/games/" + first).status, 200);
}

TEST(ServeErrors, BadBodiesAreTheirOwn4xx) {
  Server server;
  const auto post = [&](const std::string& path, const std::string& body) {
    const Response r = call(server, "POST", path, body);
    EXPECT_EQ(r.content_type, "application/json");
    EXPECT_TRUE(json_of(r).contains("error") || r.status < 400) << r.body;
    return r.status;
  };
  EXPECT_EQ(post("/api/games", std::string(kMaxBody + 1, ' ')), 413);
  EXPECT_EQ(post("/api/games", "{"), 400);
  EXPECT_EQ(post("/api/games", "[1,2]"), 400);
  EXPECT_EQ(post("/api/games", ""), 400);
  EXPECT_EQ(post("/api/games", "{}"), 400);
  EXPECT_EQ(post("/api/games", R"({"game": 5})"), 400);
  EXPECT_EQ(post("/api/games", R"({"game": "chess"})"), 400);
  EXPECT_EQ(post("/api/games", R"({"game": "gardner", "position": "xyz"})"), 400);
  EXPECT_EQ(post("/api/games", R"({"game": "gardner", "position": 3})"), 400);
  EXPECT_EQ(post("/api/games", R"({"game": "nqueens:n=99"})"), 400);
  const std::string id = new_game(server, "gardner");
  EXPECT_EQ(post("/api/games/" + id + "/move", R"({"mov": "b2b3"})"), 400);
  EXPECT_EQ(post("/api/games/" + id + "/move", R"({"move": ["b2b3"]})"), 400);
  EXPECT_EQ(post("/api/games/" + id + "/move", "b2b3"), 400);
  EXPECT_EQ(post("/api/games/" + id + "/agent", R"({"agent": null})"), 400);
  EXPECT_EQ(post("/api/games/nope/move", R"({"move": "b2b3"})"), 404);
  EXPECT_EQ(post("/api/games/" + id + "/fly", "{}"), 404);
  EXPECT_EQ(json_of(call(server, "GET", "/api/games/" + id))["history"].size(), 0U);
}

TEST(ServeErrors, WrongMethodsAre405AndUnknownPaths404) {
  Server server;
  const std::string id = new_game(server, "kcell");
  const auto status = [&](const std::string& method, const std::string& path) {
    return call(server, method, path).status;
  };
  EXPECT_EQ(status("PUT", "/api/games"), 405);
  EXPECT_EQ(status("DELETE", "/api/games"), 405);
  EXPECT_EQ(status("POST", "/api/agents"), 405);
  EXPECT_EQ(status("POST", "/api/games/" + id), 405);
  EXPECT_EQ(status("GET", "/api/games/" + id + "/move"), 405);
  EXPECT_EQ(status("GET", "/api/games/" + id + "/stop"), 405);
  EXPECT_EQ(status("POST", "/api/games/" + id + "/search"), 405);
  EXPECT_EQ(status("POST", "/index.html"), 405);
  EXPECT_EQ(status("GET", "/api"), 404);
  EXPECT_EQ(status("GET", "/api/nothing"), 404);
  EXPECT_EQ(status("GET", "/api/games/" + id + "/a/b"), 404);
  EXPECT_EQ(status("GET", "/api/games/g999"), 404);
  const Response allow = call(server, "PATCH", "/api/games");
  ASSERT_EQ(allow.headers.size(), 1U);
  EXPECT_EQ(allow.headers[0], (std::pair<std::string, std::string>{"Allow", "GET, POST"}));
}

// Found by fuzzing (fuzz/serve_json_fuzz.cpp, docs/RELIABILITY.md): an
// error quoting a path, method or query whose bytes are not UTF-8 made the
// JSON writer throw, and the answer was a 500 instead of the 4xx. Since
// 2026-12-04 such bytes are quoted as \xNN (quote_input).
TEST(ServeErrors, BytesThatAreNotUtf8AreQuotedNotA500) {
  Server server;
  const std::string bad = "\x9e\xff";
  const auto check = [&](const Response& r, int status) {
    EXPECT_EQ(r.status, status) << r.body;
    const Json j = json_of(r);
    ASSERT_TRUE(j.is_object() && j["error"].is_string()) << r.body;
    EXPECT_NE(j["error"].get<std::string>().find(R"(\x9e\xff)"), std::string::npos) << r.body;
  };
  check(call(server, "GET", "/api/" + bad), 404);
  check(call(server, "GET", "/api/games/g" + bad), 404);
  check(call(server, "P" + bad, "/api/games"), 405);
  check(call(server, "GET", "/api/agents", "", {{"game", bad}}), 400);
}

// Step 5. The page's files.

TEST(ServeStatic, TheEmbeddedPageAndAFolderOnDisk) {
  Server server;
  const Response index = call(server, "GET", "/");
  EXPECT_EQ(index.status, 200);
  EXPECT_EQ(index.content_type, "text/html; charset=utf-8");
  EXPECT_EQ(call(server, "GET", "/index.html").body, index.body);
  EXPECT_NE(index.body.find("<html"), std::string::npos);
  const Response missing = call(server, "GET", "/no-such-file.js");
  EXPECT_EQ(missing.status, 404);
  EXPECT_TRUE(json_of(missing).contains("error"));
  EXPECT_EQ(call(server, "GET", "/../CMakeLists.txt").status, 404);

  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("duel-serve-web-" + std::to_string(::getpid()));
  fs::create_directories(dir / "js");
  std::ofstream(dir / "index.html") << "<html>from disk</html>";
  std::ofstream(dir / "js" / "app.mjs") << "export const x = 1;";
  ServerOptions options;
  options.web_root = dir.string();
  Server disk(options);
  EXPECT_EQ(call(disk, "GET", "/").body, "<html>from disk</html>");
  const Response js = call(disk, "GET", "/js/app.mjs");
  EXPECT_EQ(js.status, 200);
  EXPECT_EQ(js.content_type, "text/javascript; charset=utf-8");
  EXPECT_EQ(call(disk, "GET", "/js/../../etc/passwd").status, 404);
  EXPECT_EQ(call(disk, "GET", "/js").status, 404);  // a folder is no file
  fs::remove_all(dir);
}

TEST(ServeStatic, ContentTypesByExtension) {
  EXPECT_EQ(content_type_of("a.css"), "text/css; charset=utf-8");
  EXPECT_EQ(content_type_of("a.js"), "text/javascript; charset=utf-8");
  EXPECT_EQ(content_type_of("a.svg"), "image/svg+xml");
  EXPECT_EQ(content_type_of("a.png"), "image/png");
  EXPECT_EQ(content_type_of("a.json"), "application/json");
  EXPECT_EQ(content_type_of("favicon.ico"), "image/x-icon");
  EXPECT_EQ(content_type_of("LICENSE"), "application/octet-stream");
}

}  // namespace
}  // namespace duel::serve::test
