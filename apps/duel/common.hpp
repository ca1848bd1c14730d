#pragma once
// Shared pieces of the command-line front end: how subcommands register,
// how errors leave (one line, exit status 2), progress lines, value text.
#include <unistd.h>
#include <CLI/CLI.hpp>
#include <cstdio>
#include <functional>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "duel/box/box.hpp"
#include "duel/core/build_id.hpp"
#include "duel/core/clock.hpp"
#include "duel/core/types.hpp"
#include "duel/registry/games.hpp"

namespace duel::cli {

inline constexpr int kBadInput = 2;

using Action = std::function<int()>;
struct Command {
  CLI::App* app;
  Action run;
};

Command add_play(CLI::App& app);
Command add_search(CLI::App& app);
Command add_perft(CLI::App& app);
Command add_solve(CLI::App& app);
Command add_table(CLI::App& app);
Command add_arena(CLI::App& app);
Command add_games(CLI::App& app);
Command add_bench(CLI::App& app);
Command add_homework(CLI::App& app);
Command add_calibrate(CLI::App& app);
Command add_referee(CLI::App& app);
Command add_uci(CLI::App& app);
Command add_tune(CLI::App& app);
Command add_serve(CLI::App& app);
Command add_soak(CLI::App& app);
Command add_tournament(CLI::App& app);
Command add_task(CLI::App& app);
Command add_egdb(CLI::App& app);
Command add_positions(CLI::App& app);
Command add_box(CLI::App& app);
Command add_course(CLI::App& app);

// Prints "duel: <message>" on one line and returns exit status 2.
// --scheduler and --worker-duel, as every command that runs on a Dask
// cluster names them (docs/cluster.md); `what` begins the first's help.
inline void add_cluster_options(CLI::App* sub, std::string& scheduler, std::string& worker_duel,
                                const std::string& what) {
  sub->add_option("--scheduler", scheduler,
                  what + " on this Dask cluster (tcp://HOST:PORT; docs/cluster.md)");
  sub->add_option("--worker-duel", worker_duel,
                  "With --scheduler: where workers find duel (default: this binary's path, "
                  "then $DUEL_BIN, then duel on PATH)");
  // Dask's TLS (a tls:// scheduler): the files reach the bridge through its
  // environment (python/duel/cluster), whichever command starts it.
  struct TlsFile {
    const char* flag;
    const char* variable;
    const char* what;
  };
  static constexpr TlsFile kTls[] = {
      {"--tls-ca", "DUEL_TLS_CA", "the certificate authority's certificate"},
      {"--tls-cert", "DUEL_TLS_CERT", "this client's certificate"},
      {"--tls-key", "DUEL_TLS_KEY", "this client's private key"}};
  for (const TlsFile& tls : kTls) {
    const char* variable = tls.variable;
    sub->add_option_function<std::string>(
           tls.flag, [variable](const std::string& path) { ::setenv(variable, path.c_str(), 1); },
           std::string("With a tls:// --scheduler: ") + tls.what + " (PEM; docs/cluster.md)")
        ->check(CLI::ExistingFile);
  }
}

// --cpu-tick, as the referee and the tournament charge a program's move
// (referee::TurnSetup::tick).
inline void add_cpu_tick_option(CLI::App* sub, double& tick) {
  sub->add_option("--cpu-tick", tick,
                  "A move is charged its CPU in whole ticks of this many seconds, rounded down "
                  "(the course's time -f %U: 0.01), or its wall time when that is 0; 0: exactly")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
}

// --no-sandbox, --memory, --processes: how the programs a command runs are
// boxed (box/box.hpp, docs/box.md).
struct BoxFlags {
  bool no_sandbox = false;
  std::uint64_t memory_mib = box::Limits{}.memory >> 20;
  int processes = box::Limits{}.processes;
  [[nodiscard]] box::Limits limits() const {
    box::Limits l;
    l.memory = memory_mib << 20;
    l.processes = processes;
    return l;
  }
};

inline void add_box_options(CLI::App* sub, BoxFlags& flags) {
  sub->add_flag("--no-sandbox", flags.no_sandbox,
                "Run the programs with your own rights, unboxed (the results say so); only for "
                "programs you trust");
  sub->add_option("--memory", flags.memory_mib,
                  "MiB a program's processes may hold together (over it loses the move)")
      ->check(CLI::Range(16, 1 << 20))
      ->capture_default_str();
  sub->add_option("--processes", flags.processes,
                  "Processes and threads a program may run at once (over it loses the move)")
      ->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
}

inline int bad_input(const std::string& message) {
  std::string line = message;
  for (char& c : line) {
    if (c == '\n') c = ' ';
  }
  std::cerr << "duel: " << line << '\n';
  return kBadInput;
}

// A value as the seeds print it: a proven payoff as a whole number of points,
// an estimate with two decimals.
inline std::string value_text(Value v) {
  if (is_proven(v)) return fmt::format("{}", proven_payoff(v));
  if (v == 0) return "0";
  return fmt::format("{:.2f}", to_points(v));
}

// Progress for long runs on stderr: one rewritten line on a terminal, plain
// lines otherwise. Silent when `enabled` is false.
class Progress {
 public:
  explicit Progress(bool enabled) : m_enabled(enabled), m_tty(isatty(STDERR_FILENO) == 1) {}
  void update(const std::string& text) {
    if (!m_enabled) return;
    if (m_tty) {
      std::cerr << "\r\033[K" << text << std::flush;
      m_open = true;
    } else {
      std::cerr << text << '\n';
    }
  }
  // Frequent updates: rewritten on a terminal; elsewhere a plain line at most
  // every ten seconds.
  void tick(const std::string& text) {
    if (!m_enabled) return;
    if (m_tty) {
      update(text);
    } else if (m_since_line.seconds() >= 10.0) {
      update(text);
      m_since_line.restart();
    }
  }
  void done() {
    if (m_open) std::cerr << "\r\033[K" << std::flush;
    m_open = false;
  }
  ~Progress() { done(); }

 private:
  bool m_enabled;
  bool m_tty;
  bool m_open = false;
  WallClock m_since_line;
};

// Builds the game of `spec` (at `state` when given) and calls `f(start)` with
// the concrete state; a bad spec or position is reported as bad input.
template <class F>
int with_game(const std::string& spec, const std::string& state, F&& f) {
  auto game = registry::make_game(spec, state);
  if (!game) return bad_input(game.error());
  return std::visit(std::forward<F>(f), *game);
}

}  // namespace duel::cli
