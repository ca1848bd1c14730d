// What the page reads besides the board (docs/serve.md § the game view):
// moves in the game's notation, earlier positions by ply, the clocks, and a
// search's score in words.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "duel/serve/notation.hpp"
#include "serve_support.hpp"

namespace duel::serve::test {
namespace {

Json move(Server& server, const std::string& id, const std::string& text) {
  const Response r =
      call(server, "POST", "/api/games/" + id + "/move", Json{{"move", text}}.dump());
  EXPECT_EQ(r.status, 200) << text << ": " << r.body;
  return json_of(r);
}

TEST(ServeNotation, SanInChessSquareNumbersInCheckersPassInKCell) {
  Server server;
  // Gardner: a knight move and pawn moves in SAN (PGN standard §8.2.3),
  // `history` keeps the game's own text.
  const std::string chess = new_game(server, "gardner");
  move(server, chess, "b1c3");
  const Json v = move(server, chess, "d4d3");
  EXPECT_EQ(v["notation"], Json::array({"Nc3", "d3"}));
  EXPECT_EQ(v["history"], Json::array({"b1c3", "d4d3"}));
  EXPECT_EQ(v["last_move"]["notation"], "d3");
  EXPECT_EQ(v["first_to_move"], 1);
  bool capture = false;  // a pawn capture names its file
  for (const auto& m : v["moves"]) capture = capture || m["notation"] == "cxd3";
  EXPECT_TRUE(capture) << v["moves"];

  // Checkers: PDN's numbers, `-` for a step and `x` between the landings of
  // a jump (the e2e test's position: 6 jumps 10 and 18).
  const std::string ck = new_game(server, "checkers");
  EXPECT_EQ(move(server, ck, "11-15")["notation"], Json::array({"11-15"}));
  const std::string jump = new_game(server, "checkers", "B:W9,10,18,32:B6");
  EXPECT_EQ(move(server, jump, "6x15x22")["notation"], Json::array({"6x15x22"}));
  const std::string white_first = new_game(server, "checkers", "W:W18:B1,2");
  EXPECT_EQ(json_of(call(server, "GET", "/api/games/" + white_first))["first_to_move"], 2);

  // KCell: the forced pass (RULES.md §4 writes it -1).
  const std::string kc = new_game(server, "kcell:n=2,k=5", "[_oxxo] o");
  const Json p = move(server, kc, "-1");
  EXPECT_EQ(p["history"], Json::array({"-1"}));
  EXPECT_EQ(p["notation"], Json::array({"pass"}));
}

TEST(ServeNotation, EarlierPositionsByPly) {
  Server server;
  const std::string id = new_game(server, "gardner");
  move(server, id, "b2b3");
  move(server, id, "a4a3");
  const auto at = [&](const std::string& ply) {
    return call(server, "GET", "/api/games/" + id, "", {{"ply", ply}});
  };
  const Json one = json_of(at("1"));
  EXPECT_EQ(one["ply"], 1);
  EXPECT_EQ(one["live"], false);
  EXPECT_TRUE(one["moves"].empty());  // an earlier position only shows
  EXPECT_EQ(one["board"]["cells"][2][1], "P");
  EXPECT_EQ(one["board"]["cells"][1][0], "p");  // a4 not yet moved
  EXPECT_EQ(one["to_move"], 2);
  EXPECT_EQ(one["last_move"]["notation"], "b3");
  EXPECT_EQ(one["history"].size(), 2U);
  const Json start = json_of(at("0"));
  EXPECT_TRUE(start["last_move"].is_null());
  EXPECT_EQ(start["board"]["cells"][3][1], "P");
  const Json live = json_of(at("2"));
  EXPECT_EQ(live["live"], true);
  EXPECT_FALSE(live["moves"].empty());
  EXPECT_EQ(json_of(call(server, "GET", "/api/games/" + id))["ply"], 2);
  for (const char* bad : {"3", "-1", "x", "", "1e3", "9999999999"}) {
    const Response r = at(bad);
    EXPECT_EQ(r.status, 400) << bad;
    EXPECT_NE(json_of(r)["error"].get<std::string>().find("ply"), std::string::npos) << bad;
  }
}

TEST(ServeNotation, ClocksCountEachSidesMoves) {
  Server server;
  const std::string id = new_game(server, "nqueens:n=4,variant=2");
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  const Json after = move(server, id, "1 1");
  const double first = after["clock"]["used"][0].get<double>();
  EXPECT_GE(first, 0.05);  // the person's move took the time since the start
  EXPECT_LT(first, 30.0);
  EXPECT_EQ(after["clock"]["used"][1], 0.0);
  EXPECT_GE(after["clock"]["turn"].get<double>(), 0.0);
  ASSERT_EQ(
      call(server, "POST", "/api/games/" + id + "/agent", R"({"agent":"engine:depth=2"})").status,
      202);
  wait_done(server, id);
  const Json v = json_of(call(server, "GET", "/api/games/" + id));
  EXPECT_EQ(v["clock"]["used"][0].get<double>(), first);
  EXPECT_GT(v["clock"]["used"][1].get<double>(), 0.0);
}

TEST(ServeNotation, ASearchsScoreInWordsAndItsLineInSan) {
  Server server;
  // White mates at once with Qe5# (from e2 the queen covers rank 5, the king on b3
  // covers a4 and b4); a depth-3 search proves it.
  const std::string id = new_game(server, "gardner", "k4/5/1K3/4Q/5 w - - 0 1");
  ASSERT_EQ(
      call(server, "POST", "/api/games/" + id + "/agent", R"({"agent":"engine:depth=3"})").status,
      202);
  const Json s = wait_done(server, id);
  EXPECT_EQ(s["info"]["score_text"], "White mates in 1") << s;
  EXPECT_EQ(s["info"]["score"]["wins_in"], 1) << s;
  EXPECT_EQ(s["info"]["unit"], "pawns");
  ASSERT_FALSE(s["info"]["pv_notation"].empty()) << s;
  EXPECT_EQ(s["info"]["pv_notation"][0], "Qe5#");
}

}  // namespace
}  // namespace duel::serve::test
