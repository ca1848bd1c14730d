#pragma once
// `duel serve`'s logic (docs/serve.md): the JSON API over the games in
// play and the page's static files, as one function from Request to
// Response. No sockets here: http.hpp puts it behind libmicrohttpd, and the
// tests call handle() directly.
//
// Why: every request is checked here (method, path, body size, JSON shape,
// game id, the game's own move parsing) and every mistake is a 4xx JSON
// answer, so the adapter has nothing left to get wrong.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "duel/serve/http_types.hpp"
#include "duel/serve/session.hpp"

namespace duel::serve {

inline constexpr std::size_t kMaxBody = 64 * 1024;
// The 413 answer to a body over kMaxBody.
[[nodiscard]] Response body_too_big();

struct ServerOptions {
  int max_games = 64;  // live games; more is 503
  // A game nobody asked about for this long is dropped (while no agent thinks).
  std::chrono::milliseconds idle{std::chrono::minutes(30)};
  // With max_games live, a new game replaces the one asked about least
  // recently if nobody asked about it for this long (the page asks about
  // its open game every 30 s).
  std::chrono::milliseconds idle_when_full{std::chrono::minutes(2)};
  // Memory for all engines' tables together, MB (TableBudget).
  long long table_budget_mb = 1024;
  std::string web_root;  // serve the page from this folder; empty: the embedded files
  // Agents kept between moves, all games together (TableBudget): at most this
  // many engine tables stay allocated while nobody is thinking.
  int kept_agents = 8;
};

class Server : public Handler {
 public:
  explicit Server(ServerOptions options = {});
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Thread-safe: the HTTP library calls it from its polling threads.
  [[nodiscard]] Response handle(const Request& request) override;
  // Stops every search and drops every game (server shutdown).
  void shutdown();

 private:
  Response api(const Request& request, const std::vector<std::string>& parts);
  Response game_api(const Request& request, const std::shared_ptr<Session>& game,
                    const std::string& id, const std::string& action);
  Response create(const Request& request);
  Json live_list();
  Response static_file(const Request& request) const;
  std::shared_ptr<Session> find(const std::string& id);
  // Drops the games idle past options.idle, at most every few seconds.
  void reap();

  ServerOptions m_options;
  std::mutex m_mutex;  // guards m_games and m_next_id; never held while a game is locked
  std::shared_ptr<TableBudget> m_budget;
  Clock::time_point m_reaped = Clock::now();  // guarded by m_mutex
  std::map<std::string, std::shared_ptr<Session>> m_games;
  std::uint64_t m_next_id = 1;
};

}  // namespace duel::serve
