#pragma once
// The progress line's "about N s left" (docs/tournament.md, "Running it").
//
// Why not tasks done / known x elapsed: a class is two kinds of task of
// very different lengths (a single move is one run of a program, a game is
// a hundred), and competitions plan their rounds one at a time, so counting
// tasks is off by the ratio of the kinds and by the rounds not yet planned.
// Here each kind's seconds a task are learned from the tasks that ended,
// scaled by the clock each remaining task has (the CPU its programs may
// use), a kind not yet seen is priced from the other's seconds per clock
// second, later rounds are counted as the format will plan them, and the
// sum is divided by the tasks run at once. The runner also starts the kinds
// interleaved (`interleaved`), so both are seen early.
//
// A pure model: fed task ends and their durations, it never reads a clock
// (tested with synthetic durations).
#include <array>
#include <cstddef>
#include <optional>
#include <vector>

namespace duel::tournament {

// What is known of a task before it runs.
struct TaskCost {
  bool game = false;   // a game; else a single move (or a bye, a solve)
  double clock = 0.0;  // CPU seconds its programs may use in all (0: unknown)
};

class Estimate {
 public:
  // `parallel`: tasks run at once (a pool's concurrency).
  explicit Estimate(int parallel) : m_parallel(parallel < 1 ? 1 : parallel) {}

  // A task of the plan, to run.
  void planned(const TaskCost& cost);
  // A planned task ended after `seconds` of wall clock.
  void finished(const TaskCost& cost, double seconds);
  // Tasks the plan has not made yet (later rounds): `count` like `cost`,
  // replacing what was said before.
  void later(const TaskCost& cost, double count);

  // Wall seconds until every task has ended; none before a task has ended.
  [[nodiscard]] std::optional<double> seconds_left() const;

 private:
  struct Kind {
    int done = 0;
    double seconds = 0.0;     // wall seconds of the tasks that ended
    double done_clock = 0.0;  // their clocks
    double left = 0.0;        // tasks to run
    double left_clock = 0.0;  // their clocks
  };
  int m_parallel;
  std::array<Kind, 2> m_kinds{};  // [single, game]
  TaskCost m_later{};
  double m_later_count = 0.0;
};

// An order to run tasks in that spreads the games evenly among the single
// moves (each kind in its own order), so that the first tenth of a run
// holds a tenth of each: indices into `is_game`.
[[nodiscard]] std::vector<std::size_t> interleaved(const std::vector<bool>& is_game);

}  // namespace duel::tournament
