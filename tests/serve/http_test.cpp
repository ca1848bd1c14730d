// duel serve over a real loopback socket: cpp-httplib's server around
// serve::Server, asked by httplib::Client; and the `duel serve` command
// (its listening line, SIGTERM, bad flags).
#include <gtest/gtest.h>
#include <httplib.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

#include "../support/cli_run.hpp"
#include "duel/serve/http.hpp"
#include "serve_support.hpp"

namespace duel::serve::test {
namespace {

using Steady = std::chrono::steady_clock;

Json body_of(const httplib::Result& r) {
  EXPECT_TRUE(r) << "no answer: " << httplib::to_string(r.error());
  if (!r) return nullptr;
  return Json::parse(r->body, nullptr, false);
}

TEST(ServeHttp, LoopbackRequestsAndALongSearchThatBlocksNothing) {
  Server server;
  HttpServer http(server);
  const auto port = http.bind("127.0.0.1", 0);
  ASSERT_TRUE(port.ok()) << port.error();
  ASSERT_GT(*port, 0);
  std::thread runner([&] { http.run(); });
  httplib::Client client("127.0.0.1", *port);
  client.set_connection_timeout(std::chrono::seconds(10));
  client.set_read_timeout(std::chrono::seconds(30));
  // The server may still be starting: the first request retries a little.
  httplib::Result list = client.Get("/api/games");
  for (int i = 0; i < 100 && !list; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    list = client.Get("/api/games");
  }
  ASSERT_TRUE(list);
  EXPECT_EQ(list->status, 200);
  EXPECT_EQ(list->get_header_value("Content-Type"), "application/json");
  EXPECT_TRUE(body_of(list).is_array());

  const auto made = client.Post("/api/games", R"({"game":"gardner"})", "application/json");
  ASSERT_TRUE(made);
  EXPECT_EQ(made->status, 201);
  const std::string id = body_of(made)["id"];
  const auto record = client.Get("/api/games/" + id + "/record?format=pgn");
  ASSERT_TRUE(record);
  EXPECT_EQ(record->status, 200);
  EXPECT_NE(record->get_header_value("Content-Disposition").find("attachment"), std::string::npos);

  // Errors keep the JSON shape, including those httplib answers itself.
  const auto big = client.Post("/api/games", std::string(kMaxBody + 10, 'x'), "application/json");
  ASSERT_TRUE(big);
  EXPECT_EQ(big->status, 413);
  httplib::Client fresh("127.0.0.1", *port);  // the 413 closed that connection
  fresh.set_read_timeout(std::chrono::seconds(30));
  EXPECT_TRUE(body_of(big).contains("error")) << big->body;
  const auto bad = fresh.Post("/api/games", "{oops", "application/json");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 400);
  EXPECT_TRUE(body_of(bad).contains("error"));
  const auto missing = fresh.Get("/api/games/g999");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);

  // A 5 s search; meanwhile other requests are answered at once.
  const auto agent =
      fresh.Post("/api/games/" + id + "/agent", R"({"agent":"engine:time=5"})", "application/json");
  ASSERT_TRUE(agent);
  EXPECT_EQ(agent->status, 202);
  const auto start = Steady::now();
  httplib::Client other("127.0.0.1", *port);
  for (int i = 0; i < 3; ++i) {
    const auto asked = Steady::now();
    const auto view = other.Get("/api/games/" + id);
    ASSERT_TRUE(view);
    EXPECT_EQ(view->status, 200);
    EXPECT_EQ(body_of(view)["thinking"], true);
    EXPECT_LT(seconds_since(asked), 1.0);  // generous for a loaded machine
    const auto games = other.Get("/api/games");
    ASSERT_TRUE(games);
    EXPECT_EQ(games->status, 200);
  }
  const auto stop = other.Post("/api/games/" + id + "/stop", "", "application/json");
  ASSERT_TRUE(stop);
  EXPECT_EQ(stop->status, 200);
  Json s;
  do {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    s = body_of(other.Get("/api/games/" + id + "/search"));
  } while (s.value("thinking", false) && seconds_since(start) < 60);
  EXPECT_EQ(s["thinking"], false);
  EXPECT_LT(seconds_since(start), 4.5);

  http.stop();
  runner.join();
  server.shutdown();
}

// A page's event stream over a real socket: parked between events, woken
// by a move made on another connection, kept alive by pings past the
// request deadline, and ended when the server stops.
TEST(ServeHttp, AnEventStreamFollowsTheGameAndEndsWithTheServer) {
  Server server;
  HttpLimits limits;
  limits.deadline = std::chrono::seconds(1);
  HttpServer http(server, limits);
  const auto port = http.bind("127.0.0.1", 0);
  ASSERT_TRUE(port.ok()) << port.error();
  std::thread runner([&] { http.run(); });
  httplib::Client client("127.0.0.1", *port);
  client.set_read_timeout(std::chrono::seconds(30));
  const auto make = [&] {
    return client.Post("/api/games", R"({"game":"gardner","players":["human","human"]})",
                       "application/json");
  };
  auto made = make();
  for (int i = 0; i < 100 && !made; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    made = make();
  }
  ASSERT_TRUE(made);
  const Json game = body_of(made);
  const std::string id = game["id"];

  std::mutex mutex;
  std::condition_variable cv;
  std::string got;
  bool ended = false;
  std::thread page([&] {
    httplib::Client stream("127.0.0.1", *port);
    stream.set_read_timeout(std::chrono::seconds(60));
    stream.Get("/api/games/" + id + "/events", [&](const char* data, std::size_t n) {
      std::lock_guard lock(mutex);
      got.append(data, n);
      cv.notify_all();
      return true;
    });
    std::lock_guard lock(mutex);
    ended = true;
    cv.notify_all();
  });
  const auto seen = [&](const std::string& text) {
    std::unique_lock lock(mutex);
    return cv.wait_for(lock, std::chrono::seconds(30), [&] {
      return got.find(text) != std::string::npos || ended;
    }) && got.find(text) != std::string::npos;
  };
  EXPECT_TRUE(seen("event: view\ndata: {"));
  const Json move = {{"move", "b2b3"}, {"ply", 0}, {"seat", game["seats"][0]}};
  const auto moved = client.Post("/api/games/" + id + "/move", move.dump(), "application/json");
  ASSERT_TRUE(moved);
  EXPECT_EQ(moved->status, 200);
  EXPECT_TRUE(seen(R"("history":["b2b3"])"));
  // Quiet for longer than the deadline: a ping, and the stream still open.
  EXPECT_TRUE(seen(": ping"));
  EXPECT_EQ(http.deadline_cuts(), 0);

  http.stop();
  runner.join();
  {
    std::unique_lock lock(mutex);
    EXPECT_TRUE(cv.wait_for(lock, std::chrono::seconds(30), [&] { return ended; }));
  }
  page.join();
  server.shutdown();
}

TEST(ServeHttp, AnotherServerOnTheSamePortIsAnError) {
  Server server;
  HttpServer first(server);
  const auto port = first.bind("127.0.0.1", 0);
  ASSERT_TRUE(port.ok());
  HttpServer second(server);
  EXPECT_FALSE(second.bind("127.0.0.1", *port).ok());
}

// `duel serve --port 0`: the listening line, then SIGTERM ends it with 0.
TEST(ServeCli, PrintsWhereItListensAndStopsOnSigterm) {
  std::array<int, 2> pipe_fds{};
  ASSERT_EQ(::pipe(pipe_fds.data()), 0);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::dup2(pipe_fds[1], STDOUT_FILENO);
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    ::execl(DUEL_BIN, DUEL_BIN, "serve", "--port", "0", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(pipe_fds[1]);
  FILE* out = ::fdopen(pipe_fds[0], "r");
  std::array<char, 256> line{};
  const bool got = std::fgets(line.data(), line.size(), out) != nullptr;
  const std::string text = got ? line.data() : "";
  const std::string prefix = "duel serve: listening on http://127.0.0.1:";
  EXPECT_EQ(text.rfind(prefix, 0), 0U) << text;
  if (text.rfind(prefix, 0) == 0) {
    const int port = std::stoi(text.substr(prefix.size()));
    httplib::Client client("127.0.0.1", port);
    const auto index = client.Get("/");
    ASSERT_TRUE(index);
    EXPECT_EQ(index->status, 200);
    EXPECT_EQ(index->get_header_value("Content-Type"), "text/html; charset=utf-8");
    const auto made = client.Post("/api/games", R"({"game":"checkers"})", "application/json");
    ASSERT_TRUE(made);
    const std::string id = body_of(made)["id"];
    // A long search must not delay the exit.
    const auto agent = client.Post("/api/games/" + id + "/agent", R"({"agent":"engine:time=30"})",
                                   "application/json");
    ASSERT_TRUE(agent);
    EXPECT_EQ(agent->status, 202);
  }
  const auto start = Steady::now();
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);
  std::fclose(out);
  EXPECT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_LT(seconds_since(start), 20.0);
}

TEST(ServeCli, BadFlagsExit2WithOneLine) {
  for (const char* args : {"serve --port 70000", "serve --port x", "serve --max-games 0",
                           "serve --web-root /no/such/dir", "serve --colour blue"}) {
    const auto r = test_support::duel(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(r.err.rfind("duel: ", 0), 0U) << args << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

}  // namespace
}  // namespace duel::serve::test
