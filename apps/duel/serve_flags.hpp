#pragma once
// The flags of `duel serve`, shared by `duel` (which checks them and hands
// over to `duel-serve`) and `duel-serve` (which serves). No HTTP code here.
#include <CLI/CLI.hpp>

#include "duel/serve/run.hpp"

namespace duel::cli {

inline void add_serve_flags(CLI::App& app, serve::RunOptions& o) {
  app.add_option("--host", o.host, "Address to listen on (default 127.0.0.1, loopback only)");
  app.add_option("--port", o.port, "Port (0 = any free port; the line printed names it)")
      ->check(CLI::Range(0, 65535))
      ->capture_default_str();
  app.add_option("--web-root", o.web_root,
                 "Serve the page from this folder instead of the files built in")
      ->check(CLI::ExistingDirectory);
  app.add_option("--max-games", o.max_games, "Live games at most (more: 503)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--kept-agents", o.kept_agents,
                 "Agents kept between moves, all games together (each engine keeps its table)")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  app.add_option("--table-budget", o.table_budget_mb,
                 "MB for all engines' tables together (past it a table shrinks, or 503)")
      ->check(CLI::Range(1LL, 1LL << 20))
      ->capture_default_str();
  app.add_option("--idle-minutes", o.idle_minutes,
                 "A game nobody asked about this long is dropped (while no agent thinks)")
      ->check(CLI::Range(0.1, 100000.0))
      ->capture_default_str();
  app.add_option("--max-connections", o.max_connections,
                 "Connections open at once, all clients together (more wait or are closed)")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  app.add_option("--max-per-client", o.max_per_client,
                 "Connections open at once from one address (more are closed)")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  app.add_option("--request-timeout", o.request_timeout,
                 "Seconds a client has for a whole request (head and body), from connecting or "
                 "from its previous answer; then the connection is closed")
      ->check(CLI::Range(0.1, 3600.0))
      ->capture_default_str();
}

}  // namespace duel::cli
