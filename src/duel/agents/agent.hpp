#pragma once
// The one runtime-polymorphic interface: an agent chooses a move for a state.
//
// Why: play, arena, the CLI and (later) Python and the web mix humans,
// baselines, searches and external programs freely; the virtual call is per
// move, never per node.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "duel/search/limits.hpp"
#include "duel/search/stats.hpp"

namespace duel::agents {

// The time an agent may spend on this move, in seconds (0 = no limit).
struct MoveClock {
  double limit = 0.0;
};

// What a searching agent reports about its last move, from First's view.
struct SearchReport {
  std::string algorithm;  // "minimax", "alphabeta", "engine", "uci"
  Value value = 0;
  int depth = 0;
  bool exact = false;
  bool complete = true;
  std::vector<std::string> pv;
  search::SearchStats stats;  // all of this move's searching
  // Where the agent searched more than once for the move (iterative
  // deepening): the search whose answer it played, each state once.
  std::optional<search::SearchStats> answer;
  [[nodiscard]] const search::SearchStats& answer_stats() const noexcept {
    return answer ? *answer : stats;
  }
};

// Live view of a search while it runs, and a way to cut it short (the web
// server shows a thinking agent and has a stop button). Agents that do not
// search ignore both.
struct SearchHooks {
  // After each finished iteration (or depth, for a plain search under a
  // clock): its depth, value (First's view), nodes and time so far, and the
  // principal variation as move text in `pv`.
  std::function<void(const search::SearchInfo&)> on_iteration;
  // About every 2^20 nodes: nodes and seconds of this move so far.
  std::function<void(std::uint64_t nodes, double seconds)> on_nodes;
  // Set by another thread: the search finishes now and the agent still
  // answers its best move so far.
  const std::atomic<bool>* stop = nullptr;
};

template <class S>
class Agent {
 public:
  using Move = typename S::Move;
  virtual ~Agent() = default;
  // A legal move, or nothing when the agent gives up (a human closing input).
  virtual std::optional<Move> choose(const S& state, const MoveClock& clock) = 0;
  [[nodiscard]] virtual std::string name() const = 0;
  [[nodiscard]] virtual bool is_human() const { return false; }
  // Statistics of the search behind the last move, if the agent searches.
  [[nodiscard]] virtual const SearchReport* last_report() const { return nullptr; }
  // Why the last choose() gave nothing (an external program that crashed,
  // hung or answered nonsense); empty when there is nothing to say.
  [[nodiscard]] virtual std::string failure() const { return {}; }
  virtual void new_game() {}
  // The agent's own game clock, seconds left (an exec program's CPU time
  // for the game); none for an agent without one.
  [[nodiscard]] virtual std::optional<double> time_left() const { return std::nullopt; }
  // Hooks for the next choose() calls (replacing any given before).
  // Taken by value: the overrides keep it (std::move).
  virtual void set_hooks(SearchHooks /*hooks*/) {}  // NOLINT(performance-unnecessary-value-param)
};

// The share of a move's time limit an agent plans to use: it stops well
// before the limit so that move generation, output and the operating system
// never push it over (an AI never exceeds its time).
// An agent's own time a move (`engine:time=T`) is such a limit too: it
// keeps a tenth of it, at most 10 ms, for unwinding and for the operating
// system (on a busy 2-core machine 0.5 s searches took up to 9 ms more).
[[nodiscard]] inline double budget_for(double own, const MoveClock& clock) {
  double budget = own > 0 ? own - std::min(own * 0.1, 0.010) : own;
  if (clock.limit > 0) {
    const double safe = clock.limit * 0.8 - 0.002;
    const double cap = safe > 0.0005 ? safe : 0.0005;
    budget = budget > 0 ? (budget < cap ? budget : cap) : cap;
  }
  return budget;
}

}  // namespace duel::agents
