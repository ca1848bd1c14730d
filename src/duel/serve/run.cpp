// `duel serve`'s process: signals, bind, serve, stop (docs/serve.md).
#include "duel/serve/run.hpp"

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <ctime>
#include <iostream>
#include <thread>

#include <fmt/format.h>

#include "duel/serve/http.hpp"
#include "duel/serve/server.hpp"

namespace duel::serve {

int run(const RunOptions& o) {
  // Step 1. SIGINT and SIGTERM are taken by one thread below (sigtimedwait),
  // so they must be blocked in every thread, starting with this one before
  // any other thread exists.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  // Step 2. Bind, then say where (tests and scripts read this line).
  ServerOptions options;
  options.max_games = o.max_games;
  options.kept_agents = o.kept_agents;
  options.table_budget_mb = o.table_budget_mb;
  options.idle = std::chrono::milliseconds(static_cast<long long>(o.idle_minutes * 60'000));
  options.web_root = o.web_root;
  Server server(options);
  HttpLimits limits;
  limits.max_connections = o.max_connections;
  limits.max_per_client = o.max_per_client;
  limits.deadline = std::chrono::milliseconds(static_cast<long long>(o.request_timeout * 1000));
  HttpServer http(server, limits);
  const auto port = http.bind(o.host, o.port);
  if (!port) {
    std::cerr << "duel: serve: " << port.error() << '\n';
    return 1;
  }
  const bool v6 = o.host.find(':') != std::string::npos;
  std::cout << fmt::format("duel serve: listening on http://{}{}{}:{}/", v6 ? "[" : "", o.host,
                           v6 ? "]" : "", *port)
            << std::endl;

  // Step 3. Serve until a signal; then close every connection, stop every search.
  std::atomic<bool> done{false};
  std::atomic<bool> signalled{false};
  std::thread waiter([&] {
    const timespec tick{0, 100'000'000};
    while (!done.load()) {
      if (sigtimedwait(&signals, nullptr, &tick) <= 0) continue;
      signalled.store(true);
      http.stop();
    }
  });
  const bool ran = http.run();
  done.store(true);
  waiter.join();
  server.shutdown();
  if (!ran && !signalled.load()) {
    std::cerr << "duel: serve: the server stopped unexpectedly\n";
    return 1;
  }
  return 0;
}

}  // namespace duel::serve
