#pragma once
// A tournament's unit of work, a task, as one self-contained JSON document:
// a game between two sides, one of seed 003's single moves to grade, or a
// bye. `run_task` plays it and returns the journal's entry for it.
//
// Why documents: the plan (plan.hpp) decides what is played, the journal
// records what was, and the runner in between only moves documents. A task
// needs nothing from the process that planned it but the files under the
// output folder it names, so the same task runs on any thread, in another
// process, or on another host, and gives the same entry.
//
// A game task:
//   {"key", "kind": "game", "game": SPEC, "start": TEXT ("" = the start),
//    "opening": [moves played from the start before the game],
//    "sides": [SIDE, SIDE] (Player 1 first), "seeds": [A, B],
//    "seconds": program clock, "timeout", "max_turns", "cpu", "lenient",
//    "dir": its folder under the output folder}
// where a SIDE is {"name", "agent": Duel agent spec} or {"name", "program":
// command, "source": prepared folder ("" = none)}.
// A single move: {"key", "kind": "single", "student", "program", "source",
//    "position", "fen", "seconds", "cpu", "lenient", "wall_factor", "dir"}.
// A bye: {"key", "kind": "bye", "player", "points"}.
#include <array>
#include <atomic>
#include <filesystem>

#include <nlohmann/json.hpp>

namespace duel::tournament {

struct TaskEnv {
  std::filesystem::path out;                  // the tournament's folder; tasks' paths are under it
  const std::atomic<bool>* cancel = nullptr;  // set: the running task stops, unrecorded
};

// The task's journal entry (docs/tournament.md), or null when it was
// cancelled (it is then run again on resume). A task that cannot run (a
// program that cannot start, a folder that cannot be made) is a loss with
// its reason, never an exception.
[[nodiscard]] nlohmann::json run_task(const nlohmann::json& task, const TaskEnv& env);

// A game entry's score for each player, Player 1 first: 1, 1/2 or 0.
[[nodiscard]] std::array<double, 2> game_scores(const nlohmann::json& entry);

}  // namespace duel::tournament
