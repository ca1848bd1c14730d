// A game made with players (docs/serve.md § Seats, § Events): the server
// runs its programs, pages follow it through its events, a side's token is
// needed to act for it, and stale moves, resignations, draw offers and
// takebacks behave as a player of lichess expects.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "serve_support.hpp"

namespace duel::serve::test {
namespace {

// A page's events as the HTTP layer reads them: the stream's bell wakes
// the reader, which takes what waits and splits it into events.
class Reader {
 public:
  explicit Reader(std::shared_ptr<EventStream> stream) : m_stream(std::move(stream)) {
    m_stream->on_ready([bell = m_bell] {
      std::lock_guard lock(bell->mutex);
      bell->rung = true;
      bell->cv.notify_all();
    });
  }

  // The next event (name and data), waiting at most `limit`; "" on timeout
  // or at the stream's end.
  std::pair<std::string, Json> next(std::chrono::seconds limit = std::chrono::seconds(120)) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (m_buffer.find("\n\n") == std::string::npos) {
      bool ended = false;
      std::string more = m_stream->take(ended);
      if (ended) return {"", nullptr};
      if (!more.empty()) {
        m_buffer += more;
        continue;
      }
      std::unique_lock lock(m_bell->mutex);
      if (!m_bell->cv.wait_until(lock, until, [&] { return m_bell->rung; })) return {"", nullptr};
      m_bell->rung = false;
    }
    const auto end = m_buffer.find("\n\n");
    const std::string event = m_buffer.substr(0, end);
    m_buffer.erase(0, end + 2);
    const auto name_at = event.find("event: ");
    const auto data_at = event.find("data: ");
    const std::string name = event.substr(name_at + 7, event.find('\n', name_at) - name_at - 7);
    return {name, Json::parse(event.substr(data_at + 6))};
  }

  // The next view event for which `done` holds (others skipped).
  template <class Done>
  Json view_until(Done done, std::chrono::seconds limit = std::chrono::seconds(120)) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
      auto [name, data] = next(limit);
      if (name.empty()) break;
      if (name == "view" && done(data)) return data;
    }
    ADD_FAILURE() << "no such view came";
    return nullptr;
  }

 private:
  // Shared with the stream's bell, which a game's thread may ring late.
  struct Bell {
    std::mutex mutex;
    std::condition_variable cv;
    bool rung = false;
  };
  std::shared_ptr<Bell> m_bell = std::make_shared<Bell>();
  std::shared_ptr<EventStream> m_stream;
  std::string m_buffer;
};

// A game made with players: its view (with the two seats' tokens).
Json seated(Server& server, const std::string& game, const std::string& first,
            const std::string& second, const std::string& position = "", int delay = 0) {
  Json body = {{"game", game}, {"players", {first, second}}, {"delay", delay}};
  if (!position.empty()) body["position"] = position;
  const Response r = call(server, "POST", "/api/games", body.dump());
  EXPECT_EQ(r.status, 201) << r.body;
  return json_of(r);
}

Response post(Server& server, const std::string& id, const std::string& action, const Json& body) {
  return call(server, "POST", "/api/games/" + id + "/" + action, body.dump());
}

std::shared_ptr<EventStream> events(Server& server, const std::string& id) {
  const Response r = call(server, "GET", "/api/games/" + id + "/events");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "text/event-stream");
  return r.stream;
}

TEST(ServeSeats, ATokenPerSideAndOnlyItsHolderMovesOrDeletes) {
  Server server;
  const Json v = seated(server, "gardner", "human", "human");
  const std::string id = v["id"];
  ASSERT_EQ(v["seats"].size(), 2U);
  const std::string white = v["seats"][0];
  const std::string black = v["seats"][1];
  EXPECT_EQ(white.size(), 32U);  // 128 bits in hex
  EXPECT_NE(white, black);
  EXPECT_FALSE(json_of(call(server, "GET", "/api/games/" + id)).contains("seats"));

  EXPECT_EQ(post(server, id, "move", {{"move", "b2b3"}, {"ply", 0}}).status, 403);
  EXPECT_EQ(post(server, id, "move", {{"move", "b2b3"}, {"ply", 0}, {"seat", black}}).status, 403);
  EXPECT_EQ(post(server, id, "move", {{"move", "b2b3"}, {"seat", white}}).status, 400);
  EXPECT_EQ(post(server, id, "move", {{"move", "b2b3"}, {"ply", 0}, {"seat", white}}).status, 200);

  // A stale move: made for the start, after a move was played.
  const Response stale = post(server, id, "move", {{"move", "b4b3"}, {"ply", 0}, {"seat", black}});
  EXPECT_EQ(stale.status, 409);
  const Json now = json_of(stale);
  EXPECT_EQ(now["history"], Json::array({"b2b3"}));
  EXPECT_NE(now["refused"].get<std::string>().find("the game moved on"), std::string::npos);
  EXPECT_TRUE(now["error"].is_null());
  // One ply behind, with the seat its old board had to move: stale too.
  EXPECT_EQ(post(server, id, "move", {{"move", "c2c3"}, {"ply", 0}, {"seat", white}}).status, 409);
  EXPECT_EQ(post(server, id, "move", {{"move", "a4b3"}, {"ply", 1}, {"seat", black}}).status, 200);

  // Watchers may look, not delete; a holder may.
  EXPECT_EQ(call(server, "DELETE", "/api/games/" + id).status, 403);
  // A forged token: the holder's with its first digit changed (never the same digit).
  const std::string forged = (white[0] == '0' ? "1" : "0") + white.substr(1);
  EXPECT_EQ(call(server, "DELETE", "/api/games/" + id, "", {{"seat", forged}}).status, 403);
  EXPECT_EQ(call(server, "DELETE", "/api/games/" + id, "", {{"seat", black}}).status, 200);
}

TEST(ServeSeats, BadPlayersAreRefusedBeforeAGameIsMade) {
  Server server;
  const auto make = [&](const Json& body) {
    return call(server, "POST", "/api/games", body.dump()).status;
  };
  EXPECT_EQ(make({{"game", "gardner"}, {"players", {"human"}}}), 400);
  EXPECT_EQ(make({{"game", "gardner"}, {"players", {"human", "exec:cmd=ls"}}}), 400);
  EXPECT_EQ(make({{"game", "gardner"}, {"players", {"human", "engine:time=99"}}}), 400);
  EXPECT_EQ(make({{"game", "gardner"}, {"players", {"human", "human"}}, {"delay", -1}}), 400);
  EXPECT_EQ(make({{"game", "gardner"}, {"delay", 10}}), 400);
  EXPECT_EQ(json_of(call(server, "GET", "/api/live")).size(), 0U);
}

TEST(ServeEvents, APageGetsTheViewAtOnceThenEachChangeThenTheEnd) {
  Server server;
  const Json v = seated(server, "gardner", "human", "human");
  const std::string id = v["id"];
  Reader page(events(server, id));
  auto [name, first] = page.next();
  EXPECT_EQ(name, "view");
  EXPECT_EQ(first["ply"], 0);
  EXPECT_EQ(first["agents"], Json::array({"human", "human"}));

  ASSERT_EQ(
      post(server, id, "move", {{"move", "b2b3"}, {"ply", 0}, {"seat", v["seats"][0]}}).status,
      200);
  const Json one = page.view_until([](const Json& j) { return j["ply"] == 1; });
  EXPECT_EQ(one["history"], Json::array({"b2b3"}));
  EXPECT_GT(one["version"].get<long long>(), first["version"].get<long long>());
  EXPECT_GT(one["at"].get<long long>(), 0);

  // A page that reads late gets the latest view, with every move in it.
  ASSERT_EQ(
      post(server, id, "move", {{"move", "a4b3"}, {"ply", 1}, {"seat", v["seats"][1]}}).status,
      200);
  ASSERT_EQ(
      post(server, id, "move", {{"move", "a2b3"}, {"ply", 2}, {"seat", v["seats"][0]}}).status,
      200);
  const Json three = page.view_until([](const Json& j) { return j["ply"] == 3; });
  EXPECT_EQ(three["history"], Json::array({"b2b3", "a4b3", "a2b3"}));
  EXPECT_EQ(json_of(call(server, "GET", "/api/live"))[0]["viewers"], 1);

  ASSERT_EQ(call(server, "DELETE", "/api/games/" + id, "", {{"seat", v["seats"][0]}}).status, 200);
  auto [gone, data] = page.next();
  EXPECT_EQ(gone, "gone");
  EXPECT_EQ(page.next().first, "");  // the end
}

TEST(ServeEvents, ProgramsPlayAGameByThemselvesWhileAPageWatches) {
  Server server;
  const Json v = seated(server, "kcell:n=2,k=7", "engine:depth=3", "random:seed=1", "", 20);
  const std::string id = v["id"];
  Reader page(events(server, id));
  bool searched = false;
  Json last;
  for (auto [name, data] = page.next(); !name.empty(); std::tie(name, data) = page.next()) {
    searched = searched || name == "search";
    if (name == "view") last = data;
    if (name == "view" && data["terminal"] == true) break;
  }
  ASSERT_TRUE(last.is_object());
  EXPECT_TRUE(last["terminal"].get<bool>());
  EXPECT_TRUE(searched);
  EXPECT_EQ(last["names"], Json::array({"engine:depth=3", "random:seed=1"}));
}

TEST(ServeSeats, AResignationEndsTheGameAndIsRecorded) {
  Server server;
  const Json v = seated(server, "gardner", "human", "human");
  const std::string id = v["id"];
  const Response r = post(server, id, "resign", {{"seat", v["seats"][1]}});
  ASSERT_EQ(r.status, 200) << r.body;
  const Json end = json_of(r);
  EXPECT_TRUE(end["terminal"].get<bool>());
  EXPECT_EQ(end["result"], "1-0");
  EXPECT_EQ(end["reason"], "Black resigned");
  EXPECT_EQ(end["moves"].size(), 0U);
  EXPECT_EQ(
      post(server, id, "move", {{"move", "b2b3"}, {"ply", 0}, {"seat", v["seats"][0]}}).status,
      400);
  const std::string pgn =
      call(server, "GET", "/api/games/" + id + "/record", "", {{"format", "pgn"}}).body;
  EXPECT_NE(pgn.find("[Result \"1-0\"]"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("[Date \"20"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("[White \"person\"]"), std::string::npos) << pgn;
  EXPECT_EQ(post(server, id, "resign", Json::object()).status, 403);
}

TEST(ServeSeats, ADrawBetweenPeopleIsOfferedThenAccepted) {
  Server server;
  const Json v = seated(server, "gardner", "human", "human");
  const std::string id = v["id"];
  const Response offer = post(server, id, "draw", {{"seat", v["seats"][0]}});
  EXPECT_EQ(offer.status, 202);
  EXPECT_EQ(json_of(offer)["offers"]["draw"], 1);
  const Json end = json_of(post(server, id, "draw", {{"seat", v["seats"][1]}}));
  EXPECT_EQ(end["result"], "1/2-1/2");
  EXPECT_EQ(end["reason"], "draw agreed");
}

// Source of the positions: Gardner FENs drawn by hand; a queen ahead or
// behind is the engine's evaluation's sign beyond any doubt.
TEST(ServeSeats, AProgramTakesADrawOnlyWhenItsScoreSaysSo) {
  Server server;
  const auto after_reply = [&](const std::string& fen, const std::string& move) {
    const Json v = seated(server, "gardner", "human", "engine:depth=3", fen);
    const std::string id = v["id"];
    Reader page(events(server, id));
    EXPECT_EQ(
        post(server, id, "move", {{"move", move}, {"ply", 0}, {"seat", v["seats"][0]}}).status,
        200);
    page.view_until([](const Json& j) { return j["ply"] == 2 && !j["thinking"].get<bool>(); });
    return post(server, id, "draw", {{"seat", v["seats"][0]}});
  };
  // Black (the engine) has a queen against a bare king: it declines.
  const Response ahead = after_reply("kq3/5/5/5/4K w - - 0 1", "e1d1");
  EXPECT_EQ(ahead.status, 409) << ahead.body;
  EXPECT_NE(ahead.body.find("declines"), std::string::npos);
  // White has the queen: the engine takes the draw.
  const Response behind = after_reply("k4/5/5/5/1Q2K w - - 0 1", "e1d1");
  EXPECT_EQ(behind.status, 200) << behind.body;
  EXPECT_EQ(json_of(behind)["reason"], "draw agreed");
}

TEST(ServeSeats, ATakebackIsAtOnceAgainstAProgramAndAskedOfAPerson) {
  Server server;
  const Json e = seated(server, "gardner", "human", "engine:depth=1");
  Reader page(events(server, e["id"]));
  ASSERT_EQ(
      post(server, e["id"], "move", {{"move", "b2b3"}, {"ply", 0}, {"seat", e["seats"][0]}}).status,
      200);
  page.view_until([](const Json& j) { return j["ply"] == 2 && !j["thinking"].get<bool>(); });
  const Json back = json_of(post(server, e["id"], "undo", {{"seat", e["seats"][0]}}));
  EXPECT_EQ(back["ply"], 0);
  EXPECT_EQ(back["to_move"], 1);

  const Json p = seated(server, "gardner", "human", "human");
  const std::string id = p["id"];
  ASSERT_EQ(
      post(server, id, "move", {{"move", "b2b3"}, {"ply", 0}, {"seat", p["seats"][0]}}).status,
      200);
  const Response ask = post(server, id, "undo", {{"seat", p["seats"][0]}});
  EXPECT_EQ(ask.status, 202);
  EXPECT_EQ(json_of(ask)["offers"]["takeback"], 1);
  EXPECT_EQ(json_of(ask)["ply"], 1);
  const Json done = json_of(post(server, id, "undo", {{"seat", p["seats"][1]}}));
  EXPECT_EQ(done["ply"], 0);
  EXPECT_EQ(post(server, id, "undo", Json::object()).status, 403);
}

TEST(ServeSeats, StopPausesTheProgramsAndGoResumesThem) {
  Server server;
  const Json v = seated(server, "gardner", "engine:depth=2", "engine:depth=2", "", 50);
  const std::string id = v["id"];
  Reader page(events(server, id));
  page.view_until([](const Json& j) { return j["ply"] >= 2; });
  EXPECT_EQ(post(server, id, "stop", Json::object()).status, 403);
  ASSERT_EQ(post(server, id, "stop", {{"seat", v["seats"][0]}}).status, 200);
  const Json paused =
      page.view_until([](const Json& j) { return j["paused"] == true && j["thinking"] == false; });
  // Nothing moves while paused: the game as it stood is the game now.
  EXPECT_EQ(json_of(call(server, "GET", "/api/games/" + id))["ply"], paused["ply"]);
  const long long at = paused["ply"];
  ASSERT_EQ(post(server, id, "go", {{"seat", v["seats"][1]}}).status, 200);
  page.view_until([&](const Json& j) { return j["ply"].get<long long>() > at; });
}

TEST(ServeSeats, GamesBetweenEnginesWaitForTheTablesBudgetAndAllFinish) {
  ServerOptions options;
  options.table_budget_mb = 8;
  options.kept_agents = 0;
  Server server(options);
  std::vector<Json> games;
  std::vector<std::unique_ptr<Reader>> pages;
  for (int i = 0; i < 3; ++i) {
    games.push_back(
        seated(server, "gardner:draw-plies=6", "engine:depth=2,hash=8", "engine:depth=2,hash=8"));
    pages.push_back(std::make_unique<Reader>(events(server, games.back()["id"])));
  }
  for (auto& page : pages) {
    const Json end = page->view_until([](const Json& j) { return j["terminal"] == true; });
    EXPECT_TRUE(end["error"].is_null()) << end["error"];
  }
}

// A timed search stops inside an iteration; the line shown must still be
// the one of the move played (it once showed d2d3... after playing a2a3).
TEST(ServeEvents, TheMovePlayedIsTheFirstMoveOfTheLineShown) {
  Server server;
  const Json v = seated(server, "gardner", "engine:time=0.15", "engine:time=0.25");
  const std::string id = v["id"];
  Reader page(events(server, id));
  Json search;
  long long checked = 0;
  for (auto [name, data] = page.next(); !name.empty() && checked < 6;
       std::tie(name, data) = page.next()) {
    if (name == "search") search = data;
    if (name != "view" || data["ply"].get<long long>() <= checked) continue;
    // The view of a new move comes with (or before) its search's last report.
    const Json move = data["history"].back();
    if (search.is_null() || search["info"].is_null() || search["info"]["pv"].empty() ||
        search["info"]["pv"][0] != move) {
      auto [again, more] = page.next();
      if (again == "search") search = more;
    }
    ASSERT_FALSE(search["info"]["pv"].empty()) << search;
    EXPECT_EQ(search["info"]["pv"][0], move) << search;
    checked = data["ply"];
  }
  EXPECT_GE(checked, 6);
}

// Source of the position: Qe5# (tests/serve/notation_test.cpp), the one
// mate; the other lines are worse for White by any measure.
TEST(ServeAnalysis, ThreeLinesBestFirstAndNoMovePlayed) {
  Server server;
  const Json v = seated(server, "gardner", "human", "human", "k4/5/1K3/4Q/5 w - - 0 1");
  const std::string id = v["id"];
  Reader page(events(server, id));
  EXPECT_EQ(post(server, id, "analyse", {{"time", 0.5}}).status, 403);  // a watcher
  EXPECT_EQ(post(server, id, "analyse", {{"time", 99}, {"seat", v["seats"][0]}}).status, 400);
  EXPECT_EQ(post(server, id, "analyse", {{"ply", 5}, {"seat", v["seats"][0]}}).status, 400);
  ASSERT_EQ(post(server, id, "analyse", {{"time", 0.5}, {"seat", v["seats"][0]}}).status, 202);
  Json found;
  for (auto [name, data] = page.next(); !name.empty(); std::tie(name, data) = page.next()) {
    if (name == "analysis" && !data["thinking"].get<bool>()) {
      found = data;
      break;
    }
  }
  ASSERT_TRUE(found.is_object());
  ASSERT_EQ(found["lines"].size(), 3U) << found;
  EXPECT_EQ(found["ply"], 0);
  EXPECT_EQ(found["lines"][0]["move"]["text"], "e2e5");
  EXPECT_EQ(found["lines"][0]["score_text"], "White mates in 1");
  EXPECT_EQ(found["lines"][0]["pv_notation"][0], "Qe5#");
  for (std::size_t i = 1; i < 3; ++i)
    EXPECT_NE(found["lines"][i]["score_text"], "White mates in 1");
  EXPECT_EQ(json_of(call(server, "GET", "/api/games/" + id + "/analysis")), found);
  EXPECT_EQ(json_of(call(server, "GET", "/api/games/" + id))["ply"], 0);
}

// Source of the record: a Gardner game's first moves as `duel play --pgn`
// wrote them; the PDN's moves are the usual opening 11-15 22-18 15x22 25x18.
TEST(ServeImport, APgnOrPdnBecomesAGameWithItsMovesAndNames) {
  Server server;
  const auto import = [&](const std::string& text) {
    return call(server, "POST", "/api/games", Json{{"record", text}}.dump());
  };
  const Response pgn =
      import("[White \"Ann\"]\n[Black \"Bob\"]\n[Variant \"gardner\"]\n\n1. d3 c3 2. b3 e3 0-1\n");
  ASSERT_EQ(pgn.status, 201) << pgn.body;
  const Json g = json_of(pgn);
  EXPECT_EQ(g["history"].size(), 4U);
  EXPECT_EQ(g["names"], Json::array({"Ann", "Bob"}));
  EXPECT_EQ(g["agents"], Json::array({"human", "human"}));
  EXPECT_EQ(g["result"], "0-1");  // as recorded: the rules had not ended it
  EXPECT_EQ(g["seats"].size(), 2U);
  const Response pdn = import("[GameType \"21\"]\n1. 11-15 22-18 2. 15x22 25x18 *\n");
  ASSERT_EQ(pdn.status, 201) << pdn.body;
  EXPECT_EQ(json_of(pdn)["notation"], Json::array({"11-15", "22-18", "15x22", "25x18"}));
  EXPECT_FALSE(json_of(pdn)["terminal"].get<bool>());
  EXPECT_EQ(import("1. e2e4 *").status, 400);
  EXPECT_EQ(import(std::string("1. d3\x01 *")).status, 400);
  EXPECT_EQ(call(server, "POST", "/api/games",
                 Json{{"record", "1. d3 *"}, {"position", "k4/5/5/5/4K w - - 0 1"}}.dump())
                .status,
            400);
}

}  // namespace
}  // namespace duel::serve::test
