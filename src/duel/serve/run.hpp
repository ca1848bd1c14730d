#pragma once
// Runs `duel serve` until SIGINT or SIGTERM (docs/serve.md).
#include <string>

namespace duel::serve {

struct RunOptions {
  std::string host = "127.0.0.1";
  int port = 8080;  // 0 = any free port
  std::string web_root;
  int max_games = 64;
  int kept_agents = 8;
  long long table_budget_mb = 1024;  // all engines' tables together (TableBudget)
  double idle_minutes = 30;          // a game nobody asked about this long is dropped
  int max_connections = 256;         // open at once, all clients (http.hpp's HttpLimits)
  int max_per_client = 32;           // open at once from one address
  double request_timeout = 10;       // seconds for a whole request (head and body)
};

// Binds, prints "duel serve: listening on http://HOST:PORT/" on stdout, serves
// until a signal, stops every search. 0 on a clean stop, 1 when it cannot
// bind or the server stops by itself (the reason on stderr, one line).
int run(const RunOptions& options);

}  // namespace duel::serve
