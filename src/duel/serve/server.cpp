#include "duel/serve/server.hpp"

#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <set>
#include <sstream>
#include <utility>
#include <variant>

#include <fmt/format.h>

#include "duel/games/checkers/pdn.hpp"
#include "duel/games/minichess/pgn.hpp"
#include "duel/registry/any_game.hpp"
#include "duel/registry/games.hpp"
#include "duel/serve/game_session.hpp"
#include "duel/serve/static_files.hpp"

namespace duel::serve {
namespace {

Response method_not_allowed(const Request& r, std::string_view allow) {
  Response out =
      error_response(405, fmt::format("method {} is not allowed on {} (allowed: {})",
                                      quote_input(r.method, 20), quote_input(r.path), allow));
  out.headers.emplace_back("Allow", std::string(allow));
  return out;
}

// The body as a JSON object: 400 for anything else. An empty body is `{}`
// where the body is optional.
Result<Json> body_object(const Request& r, bool optional) {
  if (r.body.find_first_not_of(" \t\r\n") == std::string::npos) {
    if (optional) return Json::object();
    return fail("the request needs a JSON object as its body");
  }
  Json j = Json::parse(r.body, nullptr, false);
  if (j.is_discarded()) return fail("the body is not valid JSON");
  if (!j.is_object()) return fail("the body must be a JSON object");
  return j;
}

// A string field: `required` or absent (nullopt); any other type is 400.
Result<std::optional<std::string>> string_field(const Json& body, const char* key, bool required) {
  const auto it = body.find(key);
  if (it == body.end() || it->is_null()) {
    if (required) return fail(fmt::format("the body needs \"{}\" (a string)", key));
    return std::optional<std::string>{};
  }
  if (!it->is_string()) return fail(fmt::format("\"{}\" must be a string", key));
  return std::optional<std::string>(it->get<std::string>());
}

// An optional field of two strings (each at most `max` bytes of printable
// ASCII), as `names`.
Result<std::optional<std::array<std::string, 2>>> pair_field(const Json& body, const char* key,
                                                             std::size_t max) {
  const auto it = body.find(key);
  if (it == body.end() || it->is_null()) return std::optional<std::array<std::string, 2>>{};
  if (!it->is_array() || it->size() != 2 || !(*it)[0].is_string() || !(*it)[1].is_string()) {
    return fail(fmt::format("\"{}\" must be two strings, the first player's first", key));
  }
  std::array<std::string, 2> out = {(*it)[0].get<std::string>(), (*it)[1].get<std::string>()};
  for (const auto& text : out) {
    if (auto why = refuse_text(key, text, max); !why.empty()) return fail(why);
  }
  return std::optional(out);
}

// The seats of a new game: `players` (two agent specs, "human" for a
// person) and `delay` (ms before each move of a program playing a
// program); a game without players has none.
Result<Seats> seats_of(const Json& body, const registry::AnyGame& start) {
  auto players = pair_field(body, "players", 200);
  if (!players) return fail(players.error());
  Seats seats;
  if (!*players) {
    if (body.contains("delay")) return fail("\"delay\" needs \"players\"");
    return seats;
  }
  seats.seated = true;
  seats.players = **players;
  for (const auto& p : seats.players) {
    if (p == "human") continue;
    const std::string why =
        std::visit([&](const auto& s) { return check_agent<std::decay_t<decltype(s)>>(p); }, start);
    if (!why.empty()) return fail(why);
  }
  if (const auto it = body.find("delay"); it != body.end() && !it->is_null()) {
    if (!it->is_number_integer() || it->get<long long>() < 0 || it->get<long long>() > 10000) {
      return fail("\"delay\" must be whole milliseconds from 0 to 10000");
    }
    seats.delay_ms = it->get<int>();
  }
  for (auto& t : seats.tokens) t = random_token();
  return seats;
}

// The optional `ply` of a move or an analysis: the moves played before it.
Result<std::optional<long long>> ply_field(const Json& body) {
  const auto it = body.find("ply");
  if (it == body.end() || it->is_null()) return std::optional<long long>{};
  if (!it->is_number_integer() || it->get<long long>() < 0) {
    return fail("\"ply\" must be the number of moves played (0, 1, ...)");
  }
  return std::optional(it->get<long long>());
}

// `POST .../analyse`: {"ply"?, "time"? (seconds, default 2), "lines"? (1..3,
// default 3)}.
Response analyse(const Json& body, Session& game, const std::string& seat) {
  auto ply = ply_field(body);
  if (!ply) return error_response(400, ply.error());
  double seconds = 2.0;
  if (const auto it = body.find("time"); it != body.end() && !it->is_null()) {
    if (!it->is_number() || !(it->get<double>() >= 0.05) ||
        it->get<double>() > kMaxAnalysisSeconds) {
      return error_response(
          400, fmt::format("\"time\" must be seconds from 0.05 to {}", kMaxAnalysisSeconds));
    }
    seconds = it->get<double>();
  }
  std::size_t lines = kMaxAnalysisLines;
  if (const auto it = body.find("lines"); it != body.end() && !it->is_null()) {
    if (!it->is_number_integer() || it->get<long long>() < 1 ||
        it->get<long long>() > static_cast<long long>(kMaxAnalysisLines)) {
      return error_response(400, fmt::format("\"lines\" must be 1 to {}", kMaxAnalysisLines));
    }
    lines = it->get<std::size_t>();
  }
  return game.analyse(*ply, seconds, lines, seat);
}

// Why a record's text is refused before it is read: a control character
// other than a line break or tab (the body's size is already capped).
std::string refuse_record(std::string_view text) {
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') {
      return "record: only text is allowed (a control character was found)";
    }
  }
  return {};
}

// A recorded game to make (an imported PGN or PDN): its start, moves,
// result and the players' names from its tags.
struct Recorded {
  registry::AnyGame start;
  std::function<void(Session&)> load;  // plays its moves into the new game
  std::array<std::string, 2> names;
};

// The tag `key` of `tags`, unless unknown ("?", "-", "").
std::string tag(const std::vector<std::pair<std::string, std::string>>& tags,
                std::string_view key) {
  for (const auto& [k, v] : tags) {
    if (k == key && v != "?" && v != "-") return v;
  }
  return {};
}

// The ending a record's result gives a game its rules have not ended.
std::optional<EarlyEnd> recorded_end(const std::string& result) {
  if (result == "1-0") return EarlyEnd{result, "as recorded", 1, play::Ending::Adjudicated};
  if (result == "0-1") return EarlyEnd{result, "as recorded", -1, play::Ending::Adjudicated};
  if (result == "1/2-1/2") return EarlyEnd{result, "as recorded", 0, play::Ending::Adjudicated};
  return std::nullopt;
}

// The first game of `text`: PDN for checkers (`hint` names it or the text
// has `[GameType`), else PGN of the rule set its `[Variant]` names (or
// `hint`'s, or Gardner's).
Result<Recorded> read_record(const std::string& text, const std::string& hint) {
  const std::string name = hint.substr(0, hint.find(':'));
  if (name == "checkers" || (name.empty() && text.find("[GameType") != std::string::npos)) {
    auto game = games::checkers::parse_pdn(text);
    if (!game) return fail("PDN: " + game.error());
    auto moves = game->moves;
    auto end = recorded_end(game->result);
    return Recorded{game->start,
                    [moves, end](Session& s) {
                      dynamic_cast<GameSession<games::checkers::State>&>(s).load(moves, end);
                    },
                    {tag(game->tags, "Black"), tag(game->tags, "White")}};
  }
  games::minichess::PgnReadOptions options;
  if (!name.empty()) options.default_variant = name;
  auto games = games::minichess::parse_pgn(text, options);
  if (!games) return fail("PGN: " + games.error());
  if (games->empty()) return fail("PGN: no game in the text");
  return std::visit(
      [](const auto& g) -> Result<Recorded> {
        using S = std::decay_t<decltype(g.start)>;
        auto moves = g.moves;
        auto end = recorded_end(g.result);
        return Recorded{
            g.start,
            [moves, end](Session& s) { dynamic_cast<GameSession<S>&>(s).load(moves, end); },
            {tag(g.tags, "White"), tag(g.tags, "Black")}};
      },
      games->front());
}

Json game_list_json() {
  Json out = Json::array();
  for (const auto& g : registry::game_entries()) {
    out.push_back({{"name", g.name},
                   {"example", g.example},
                   {"about", g.about},
                   {"heuristics", g.heuristics}});
  }
  return out;
}

// A count written in decimal digits (at most 9 of them), else nullopt.
std::optional<long long> parse_count(std::string_view text) {
  if (text.empty() || text.size() > 9) return std::nullopt;
  long long n = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  return n;
}

bool safe_relative(const std::string& path) {
  if (path.find('\\') != std::string::npos || path.find('\0') != std::string::npos) return false;
  for (const auto& part : split_path(path)) {
    if (part == ".." || part == ".") return false;
  }
  return true;
}

}  // namespace

std::string_view content_type_of(std::string_view path) {
  const auto dot = path.rfind('.');
  const std::string_view ext = dot == std::string_view::npos ? "" : path.substr(dot + 1);
  if (ext == "html") return "text/html; charset=utf-8";
  if (ext == "js" || ext == "mjs") return "text/javascript; charset=utf-8";
  if (ext == "css") return "text/css; charset=utf-8";
  if (ext == "svg") return "image/svg+xml";
  if (ext == "png") return "image/png";
  if (ext == "json") return "application/json";
  if (ext == "ico") return "image/x-icon";
  if (ext == "txt" || ext == "md") return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

Response body_too_big() {
  return error_response(413, fmt::format("the request body is over the limit of {} KiB ({} bytes)",
                                         kMaxBody / 1024, kMaxBody));
}

Server::Server(ServerOptions options)
    : m_options(std::move(options)),
      m_budget(std::make_shared<TableBudget>(m_options.table_budget_mb, m_options.kept_agents)) {}

Server::~Server() {
  shutdown();
}

void Server::shutdown() {
  std::map<std::string, std::shared_ptr<Session>> games;
  {
    std::lock_guard lock(m_mutex);
    games.swap(m_games);
  }
  for (auto& [id, game] : games) game->close();
}

void Server::reap() {
  std::vector<std::shared_ptr<Session>> dropped;
  {
    std::lock_guard lock(m_mutex);
    const auto now = Clock::now();
    const auto every = std::min<Clock::duration>(std::chrono::seconds(5), m_options.idle);
    if (now - m_reaped < every) return;
    m_reaped = now;
    for (auto it = m_games.begin(); it != m_games.end();) {
      const auto from = it->second->idle_from();
      if (from && now - *from >= m_options.idle) {
        dropped.push_back(std::move(it->second));
        it = m_games.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& d : dropped) d->close();
}

std::shared_ptr<Session> Server::find(const std::string& id) {
  std::lock_guard lock(m_mutex);
  const auto it = m_games.find(id);
  return it == m_games.end() ? nullptr : it->second;
}

Response Server::handle(const Request& request) {
  try {
    if (request.body.size() > kMaxBody) return body_too_big();
    reap();
    const auto parts = split_path(request.path);
    if (!parts.empty() && parts[0] == "api") return api(request, parts);
    return static_file(request);
  } catch (const std::exception& e) {
    return error_response(500, fmt::format("internal error: {}", e.what()));
  }
}

Response Server::api(const Request& r, const std::vector<std::string>& parts) {
  const bool get = r.method == "GET" || r.method == "HEAD";
  // Step 1. Collections: the games, the agent kinds.
  if (parts.size() == 2 && parts[1] == "games") {
    if (get) return json_response(200, game_list_json());
    if (r.method == "POST") return create(r);
    return method_not_allowed(r, "GET, POST");
  }
  if (parts.size() == 2 && parts[1] == "live") {
    if (!get) return method_not_allowed(r, "GET");
    return json_response(200, live_list());
  }
  if (parts.size() == 2 && parts[1] == "agents") {
    if (!get) return method_not_allowed(r, "GET");
    const auto it = r.query.find("game");
    if (it == r.query.end() || it->second.empty()) {
      return error_response(400, "agents: give the game as ?game=SPEC");
    }
    if (auto why = refuse_text("game", it->second, 200); !why.empty()) {
      return error_response(400, why);
    }
    auto game = registry::make_game(it->second);
    if (!game) return error_response(400, game.error());
    return json_response(200, agent_kinds(*game));
  }
  // Step 2. One game.
  if (parts.size() < 3 || parts.size() > 4 || parts[1] != "games") {
    return error_response(404, fmt::format("no such API endpoint: {}", quote_input(r.path)));
  }
  const std::string& id = parts[2];
  const std::string action = parts.size() == 4 ? parts[3] : "";
  auto game = find(id);
  if (!game) return error_response(404, fmt::format("no such game: {}", quote_input(id)));
  return game_api(r, game, id, action);
}

Response Server::game_api(const Request& r, const std::shared_ptr<Session>& game,
                          const std::string& id, const std::string& action) {
  const bool get = r.method == "GET" || r.method == "HEAD";
  const bool post = r.method == "POST";
  if (action.empty()) {
    if (get) {
      const auto ply = r.query.find("ply");
      if (ply == r.query.end()) return json_response(200, game->view());
      const auto n = parse_count(ply->second);
      if (!n)
        return error_response(400, fmt::format("ply: {} is not a number of moves (0, 1, ...)",
                                               quote_input(ply->second, 20)));
      return game->position(*n);
    }
    if (r.method != "DELETE") return method_not_allowed(r, "GET, DELETE");
    const auto seat = r.query.find("seat");
    if (!game->may_delete(seat == r.query.end() ? "" : seat->second)) {
      return error_response(403, "only a page holding a seat of this game may delete it");
    }
    {
      std::lock_guard lock(m_mutex);
      m_games.erase(id);
    }
    game->close();
    return json_response(200, Json{{"deleted", id}});
  }
  if (action == "events") {
    if (!get) return method_not_allowed(r, "GET");
    Response out{200, "text/event-stream", "", {}, game->subscribe()};
    return out;
  }
  if (action == "search" || action == "record" || action == "analysis") {
    if (!get) return method_not_allowed(r, "GET");
    if (action == "search") return json_response(200, game->search());
    if (action == "analysis") return json_response(200, game->analysis());
    const auto it = r.query.find("format");
    return game->record(it == r.query.end() ? "json" : it->second);
  }
  static const std::set<std::string, std::less<>> kPosts = {"move", "undo",   "agent", "stop",
                                                            "go",   "resign", "draw",  "analyse"};
  if (!kPosts.contains(action)) {
    return error_response(404, fmt::format("no such API endpoint: {}", quote_input(r.path)));
  }
  if (!post) return method_not_allowed(r, "POST");
  auto body = body_object(r, action != "move" && action != "agent");
  if (!body) return error_response(400, body.error());
  auto seat_field = string_field(*body, "seat", false);
  if (!seat_field) return error_response(400, seat_field.error());
  const std::string seat = seat_field->value_or("");
  if (action == "stop") return game->stop(seat);
  if (action == "go") return game->go(seat);
  if (action == "resign") return game->resign(seat);
  if (action == "draw") return game->draw(seat);
  if (action == "analyse") return analyse(*body, *game, seat);
  if (action == "undo") {
    int plies = 1;
    if (const auto it = body->find("plies"); it != body->end() && !it->is_null()) {
      if (!it->is_number_integer()) return error_response(400, "\"plies\" must be an integer");
      const auto n = it->get<long long>();
      if (n < 1 || n > 100000) return error_response(400, "\"plies\" must be 1 or more");
      plies = static_cast<int>(n);
    }
    return game->undo(plies, seat);
  }
  const char* key = action == "move" ? "move" : "agent";
  auto text = string_field(*body, key, true);
  if (!text) return error_response(400, text.error());
  if (action == "agent") return game->start_agent(**text);
  auto ply = ply_field(*body);
  if (!ply) return error_response(400, ply.error());
  return game->move(**text, *ply, seat);
}

Response Server::create(const Request& r) {
  // Step 1. The request: a game spec and an optional position, or a record
  // (PGN or PDN) to import.
  auto body = body_object(r, false);
  if (!body) return error_response(400, body.error());
  auto record = string_field(*body, "record", false);
  if (!record) return error_response(400, record.error());
  auto spec = string_field(*body, "game", !*record);
  if (!spec) return error_response(400, spec.error());
  auto position = string_field(*body, "position", false);
  if (!position) return error_response(400, position.error());
  const std::string game_spec = spec->value_or("");
  if (auto why = refuse_text("game", game_spec, 200); !why.empty()) return error_response(400, why);
  if (*position) {
    if (auto why = refuse_text("position", **position, 1000); !why.empty()) {
      return error_response(400, why);
    }
  }
  std::optional<Recorded> recorded;
  if (*record) {
    if (*position) return error_response(400, "give a record or a position, not both");
    if (auto why = refuse_record(**record); !why.empty()) return error_response(400, why);
    auto read = read_record(**record, game_spec);
    if (!read) return error_response(400, read.error());
    recorded = std::move(*read);
  }
  auto start = recorded ? Result<registry::AnyGame>(recorded->start)
                        : registry::make_game(game_spec, position->value_or(""));
  if (!start) return error_response(400, start.error());
  if (recorded && !body->contains("players")) (*body)["players"] = {"human", "human"};
  auto seats = seats_of(*body, *start);
  if (!seats) return error_response(400, seats.error());
  auto names = pair_field(*body, "names", 60);
  if (!names) return error_response(400, names.error());

  std::array<std::string, 2> given = names->value_or(std::array<std::string, 2>{});
  if (recorded && !*names) given = recorded->names;

  // Step 2. Room for it: when full, the game asked about least recently
  // makes way if nobody asked about it for idle_when_full; else 503.
  std::shared_ptr<Session> dropped;
  std::shared_ptr<Session> made;
  std::string id;
  {
    std::lock_guard lock(m_mutex);
    const auto max = static_cast<std::size_t>(m_options.max_games);
    if (m_games.size() >= max) {
      auto oldest = m_games.end();
      Clock::time_point oldest_from = Clock::now() - m_options.idle_when_full;
      for (auto it = m_games.begin(); it != m_games.end(); ++it) {
        const auto from = it->second->idle_from();
        if (from && *from <= oldest_from) {
          oldest = it;
          oldest_from = *from;
        }
      }
      if (oldest != m_games.end()) {
        dropped = std::move(oldest->second);
        m_games.erase(oldest);
      }
    }
    if (m_games.size() < max) {
      id = fmt::format("g{}", m_next_id++);
      made = std::visit(
          [&](const auto& s) -> std::shared_ptr<Session> {
            using S = std::decay_t<decltype(s)>;
            return std::make_shared<GameSession<S>>(id, s, m_budget, *seats, given);
          },
          *start);
      m_games.emplace(id, made);
    }
  }
  if (dropped) dropped->close();
  if (made && recorded) recorded->load(*made);
  if (!made) {
    return error_response(
        503,
        fmt::format(
            "too many games ({}), each asked about in the last {} s; delete one or wait",
            m_options.max_games,
            std::chrono::duration_cast<std::chrono::seconds>(m_options.idle_when_full).count()));
  }
  Json out = made->view();
  if (seats->seated) out["seats"] = seats->tokens;
  made->begin();  // a program to move starts now
  return json_response(201, out);
}

Json Server::live_list() {
  std::vector<std::shared_ptr<Session>> games;
  {
    std::lock_guard lock(m_mutex);
    for (const auto& [id, game] : m_games) games.push_back(game);
  }
  Json out = Json::array();
  for (const auto& g : games) out.push_back(g->summary());
  return out;
}

Response Server::static_file(const Request& r) const {
  if (r.method != "GET" && r.method != "HEAD") return method_not_allowed(r, "GET");
  // A game's own address (/g/ID) is the page, which reads the id from it.
  const bool game_page = r.path.starts_with("/g/") && split_path(r.path).size() == 2;
  std::string rel = r.path.empty() || r.path == "/" || game_page ? "index.html" : r.path.substr(1);
  if (!rel.empty() && rel.back() == '/') rel += "index.html";
  const auto not_found = [&] {
    return error_response(404, fmt::format("not found: {}", quote_input(r.path)));
  };
  if (!safe_relative(rel)) return not_found();
  const std::string type(content_type_of(rel));
  if (!m_options.web_root.empty()) {
    const std::filesystem::path file = std::filesystem::path(m_options.web_root) / rel;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) return not_found();
    std::ifstream in(file, std::ios::binary);
    if (!in) return not_found();
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return {200, type, std::move(data), {}, nullptr};
  }
  for (const auto& f : embedded_files()) {
    if (f.path == rel) return {200, type, std::string(f.data), {}, nullptr};
  }
  return not_found();
}

}  // namespace duel::serve
