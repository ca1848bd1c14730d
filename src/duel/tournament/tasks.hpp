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
//    "seconds": program clock, "timeout", "max_turns", "cpu", "reading",
//    "dir": its folder under the output folder; optional "adjudication":
//    {"draw_after", "draw_count", "draw_score", "resign_count",
//    "resign_score"} as duel arena's --draw and --resign, and "event" and
//    "round_tag" for the record's tags}
// where a SIDE is {"name", "agent": Duel agent spec} or {"name", "program":
// command, "source": prepared folder ("" = none)}.
// A single move: {"key", "kind": "single", "student", "program", "source",
//    "position", "fen", "seconds", "cpu", "reading", "wall_factor", "dir"}.
// "reading" is "course" or "strict" (protocol.hpp); an old journal's
// "lenient" (true: course, false: strict) is read too.
// A bye: {"key", "kind": "bye", "player", "points"}.
// A subtree to solve (duel solve --scheduler, split_solve.hpp): {"key",
// "kind": "solve", "game", "start", "hash"}.
#include <array>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "duel/arena/arena.hpp"

namespace duel::tournament {

// Where games 2p and 2p+1 of a pairing start: a position ("" = the game's
// start) and moves played from it (a random opening).
struct Opening {
  std::string start;
  std::vector<std::string> moves;
};

// The opening of pair `pair` from the arena's book (arena/openings.hpp),
// as a task names it: a position from a list, or a random line as moves
// from `start` (given as a position when `custom_start`, the `--fen` of a
// command).
template <games::PlayableGame S>
[[nodiscard]] Opening opening_for(const arena::Openings<S>& book, const S& start, bool custom_start,
                                  int pair, std::uint64_t seed) {
  std::vector<typename S::Move> line;
  const S at = book.for_pair(start, pair, seed, &line);
  Opening out;
  if (line.empty()) {
    if (!book.list.empty() || custom_start) out.start = at.to_text();
    return out;
  }
  if (custom_start) out.start = start.to_text();
  S s = start;
  for (const auto& m : line) {
    out.moves.push_back(s.move_text(m));
    s = s.result(m);
  }
  return out;
}

// The fields every game task has; callers add theirs (clocks, limits,
// where it stands in the tournament).
[[nodiscard]] nlohmann::json game_task(const std::string& key, const std::string& game,
                                       const Opening& opening,
                                       const std::array<nlohmann::json, 2>& sides,
                                       const std::array<std::uint64_t, 2>& seeds,
                                       const std::string& dir);

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
