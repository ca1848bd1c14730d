// `duel serve`'s JSON API (serve/server.hpp), called as the HTTP adapter
// calls it but without a socket. Input: one request a line,
// `METHOD PATH[?key=value&...] [BODY]` (the body is the rest of the line),
// e.g. `POST /api/games {"game":"gardner"}` then `POST /api/games/g1/move
// {"move":"b2b3"}`. Agents are kept tiny: only `first`, `random`, `greedy`,
// `smart`, and `minimax`/`alphabeta`/`engine` with depth 1-2 (the engine
// with a 1-2 MB table) are sent, each followed by `stop`; other agent specs
// are refused here, before the server, so that one input runs in
// milliseconds. Bodies that are not JSON or not such a spec go through.
//
// Checks: no answer is a 500 (an exception inside); every JSON answer
// parses, and every error answer has a one-line "error"; every game view
// names a position that makes the same game again (registry::make_game with
// its spec and position) and lists moves that the game reads back.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <thread>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "duel/core/spec.hpp"
#include "duel/registry/any_game.hpp"
#include "duel/registry/games.hpp"
#include "duel/serve/server.hpp"
#include "fuzz_support.hpp"

namespace sv = duel::serve;
using Json = nlohmann::json;

namespace {

constexpr std::size_t kMaxRequests = 32;

sv::Request request_of(std::string_view line) {
  sv::Request r;
  const auto sp1 = line.find(' ');
  r.method = std::string(line.substr(0, sp1));
  if (sp1 == std::string_view::npos) return r;
  std::string_view rest = line.substr(sp1 + 1);
  const auto sp2 = rest.find(' ');
  std::string_view target = rest.substr(0, sp2);
  if (sp2 != std::string_view::npos) r.body = std::string(rest.substr(sp2 + 1));
  const auto q = target.find('?');
  r.path = std::string(target.substr(0, q));
  if (q == std::string_view::npos) return r;
  std::string_view query = target.substr(q + 1);
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view item = query.substr(0, amp);
    const auto eq = item.find('=');
    // The adapter keeps the first value of a repeated key (http.cpp).
    r.query.emplace(std::string(item.substr(0, eq)),
                    eq == std::string_view::npos ? "" : std::string(item.substr(eq + 1)));
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
  }
  return r;
}

// The game path of an agent request as the server routes it
// (`/api/games/ID/agent`, empty parts skipped): `/api/games/ID`, else "".
std::string agent_game(const sv::Request& r) {
  std::vector<std::string> parts;
  std::string_view path = r.path;
  while (!path.empty()) {
    const auto slash = path.find('/');
    if (slash != 0) parts.emplace_back(path.substr(0, slash));
    path = slash == std::string_view::npos ? std::string_view() : path.substr(slash + 1);
  }
  if (r.method != "POST" || parts.size() != 4 || parts[0] != "api" || parts[1] != "games" ||
      parts[3] != "agent") {
    return {};
  }
  return "/api/games/" + parts[2];
}

// An agent spec this harness lets through: quick whatever the position.
bool quick_agent(const sv::Request& r) {
  if (agent_game(r).empty()) return true;
  const Json body = Json::parse(r.body, nullptr, false);
  if (!body.is_object() || !body.contains("agent") || !body["agent"].is_string()) return true;
  const auto spec = duel::Spec::parse(body["agent"].get<std::string>());
  if (!spec) return true;
  const std::string& kind = spec->name();
  if (kind == "first" || kind == "random" || kind == "greedy" || kind == "smart") return true;
  if (kind != "minimax" && kind != "alphabeta" && kind != "engine") return false;
  const auto depth = duel::parse_integer(spec->get("depth").value_or(""));
  if (!depth || *depth < 1 || *depth > 2 || spec->has("time")) return false;
  if (kind != "engine") return true;
  const auto hash = duel::parse_integer(spec->get("hash").value_or(""));
  return hash && *hash >= 1 && *hash <= 2;
}

// Checks a game view: its spec and position make the game again, its moves
// read back.
void check_view(const Json& view) {
  // A game view, not a list, a search report or a record.
  if (!view.is_object() || !view.contains("board") || !view.contains("spec") ||
      !view.contains("position") || !view.contains("moves")) {
    return;
  }
  const std::string spec = view["spec"].get<std::string>();
  const std::string position = view["position"].get<std::string>();
  const auto game = duel::registry::make_game(spec, position);
  DUEL_FUZZ_CHECK(game.ok(), spec + " " + position + ": " + (game.ok() ? "" : game.error()));
  DUEL_FUZZ_CHECK(duel::registry::text_of(*game) == position, spec + " " + position);
  std::visit(
      [&](const auto& s) {
        for (const auto& m : view["moves"]) {
          const std::string text = m["text"].get<std::string>();
          DUEL_FUZZ_CHECK(duel::registry::legal_move(s, text).ok(), position + " move " + text);
        }
      },
      *game);
}

void check_response(const sv::Response& r, std::string_view line) {
  DUEL_FUZZ_CHECK(r.status != 500, std::string(line) + " -> " + r.body);
  if (r.content_type != "application/json") return;
  const Json j = Json::parse(r.body, nullptr, false);
  DUEL_FUZZ_CHECK(!j.is_discarded(), std::string(line) + " -> " + r.body);
  if (r.status >= 400) {
    DUEL_FUZZ_CHECK(j.is_object() && j.contains("error") && j["error"].is_string() &&
                        j["error"].get<std::string>().find('\n') == std::string::npos,
                    std::string(line) + " -> " + r.body);
  }
  if (r.status == 200 || r.status == 201) check_view(j);
}

// After an agent started: stop it and wait until its move is played.
void settle(sv::Server& server, const std::string& game) {
  (void)server.handle(sv::Request{"POST", game + "/stop", {}, ""});
  for (;;) {
    const auto r = server.handle(sv::Request{"GET", game + "/search", {}, ""});
    const Json j = Json::parse(r.body, nullptr, false);
    if (r.status != 200 || !j.is_object() || !j.value("thinking", false)) return;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 8192) return -1;
  sv::ServerOptions options;
  options.max_games = 4;  // reaches the 503 answer with a few requests
  sv::Server server(options);
  std::string_view rest = duel::fuzz::as_text(data, size);
  for (std::size_t n = 0; n < kMaxRequests && !rest.empty(); ++n) {
    const auto [line, after] = duel::fuzz::split_first_line(rest);
    rest = after;
    const sv::Request request = request_of(line);
    if (!quick_agent(request)) continue;
    const sv::Response response = server.handle(request);
    check_response(response, line);
    if (response.status == 202) {
      const std::string game = agent_game(request);
      DUEL_FUZZ_CHECK(!game.empty(), std::string(line) + " -> 202");
      settle(server, game);
    }
  }
  return 0;
}
