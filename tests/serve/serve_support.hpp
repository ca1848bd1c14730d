#pragma once
// Calls into serve::Server as the HTTP adapter does, without a socket, and
// waits for a thinking agent with generous bounds (the tests run on loaded
// 2-core machines and under sanitizers).
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "duel/serve/server.hpp"

namespace duel::serve::test {

using Json = nlohmann::json;

inline Response call(Server& server, const std::string& method, const std::string& path,
                     const std::string& body = "", std::map<std::string, std::string> query = {}) {
  Request r;
  r.method = method;
  r.path = path;
  r.query = std::move(query);
  r.body = body;
  return server.handle(r);
}

inline Json json_of(const Response& r) {
  Json j = Json::parse(r.body, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << r.body;
  return j;
}

// A new game of `spec`: its id ("" on failure, with the test failed).
inline std::string new_game(Server& server, const std::string& spec,
                            const std::string& position = "") {
  Json body = {{"game", spec}};
  if (!position.empty()) body["position"] = position;
  const Response r = call(server, "POST", "/api/games", body.dump());
  EXPECT_EQ(r.status, 201) << r.body;
  const Json j = json_of(r);
  return j.is_object() && j.contains("id") ? j["id"].get<std::string>() : "";
}

// GET .../search until the agent is done (or `limit` passes): the last answer.
inline Json wait_done(Server& server, const std::string& id,
                      std::chrono::seconds limit = std::chrono::seconds(120)) {
  const auto until = std::chrono::steady_clock::now() + limit;
  Json j;
  do {
    j = json_of(call(server, "GET", "/api/games/" + id + "/search"));
    if (!j.value("thinking", true)) return j;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  } while (std::chrono::steady_clock::now() < until);
  ADD_FAILURE() << "the agent still thinks after " << limit.count() << " s";
  return j;
}

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace duel::serve::test
