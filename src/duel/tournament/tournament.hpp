#pragma once
// A whole class's (or a whole field's) tournament, as `duel tournament
// COURSE CLASS --out DIR` runs it (docs/tournament.md): every entrant
// prepared once (class_dir.hpp), then round by round a plan of tasks
// (plan.hpp: games, single moves to grade) run N at a time (arena/pool.hpp),
// each journaled the moment it ends, and the tables written from the
// journal.
//
// Why tasks and a journal: a class is hundreds of program runs, any of which
// may crash, hang or be killed with the runner. A task is the unit that is
// redone after an interruption and never twice: the journal is the truth,
// the plan of a round depends only on the journal of the rounds before, and
// the table is only ever computed from it, so a resumed run ends with the
// table an uninterrupted one would have.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "duel/core/result.hpp"
#include "duel/games/checkers/protocol.hpp"
#include "duel/referee/process.hpp"
#include "duel/tournament/class_dir.hpp"

namespace duel::tournament {

// Whose terms: seed 003's course (its programs, its grading), or an arena
// of any game's Duel agents (and, in checkers, seed 003 programs).
enum class Course : std::uint8_t { Csci561, Game };

enum class Format : std::uint8_t {
  Grading,      // seed 003: 10 single moves + 9 games against the reference (100 points)
  Knockout,     // seed 003's wording: pairs, an even number of games, rounds
  Competition,  // csci561's competition as the course ran it (RULES.md §6a; plan.hpp)
  RoundRobin,   // every pair meets
  Swiss,        // rounds, each pairing players of equal scores who have not met
  Gauntlet,     // the first entrant against each other
};
[[nodiscard]] std::string_view format_name(Format f) noexcept;
[[nodiscard]] std::optional<Format> format_of(std::string_view name) noexcept;

// One SINGLE position of the grading: a board, the side to play, the time.
struct SinglePosition {
  std::string fen;      // PDN FEN; its side to move plays
  double seconds = 30;  // the time line of input.txt (as read: 293.84 stays 293.84)
  std::string source;   // where the position comes from (cited)
};

// The course's ten SINGLE moves (RULES.md §6a; csci561_positions.cpp), the
// default, and the texts of their input.txt as the course wrote them.
[[nodiscard]] const std::vector<SinglePosition>& default_singles();
[[nodiscard]] std::span<const std::string_view> course_single_inputs();
// Duel's own ten, each testing a sentence of the hand-out (none under 2 s).
[[nodiscard]] const std::vector<SinglePosition>& duel_singles();
// A set by name, as `--positions` takes it: "course" or "duel".
[[nodiscard]] Result<std::vector<SinglePosition>> named_singles(std::string_view name);

// RULES.md §6a: the course's reference was charged a median 0.29 s of CPU a
// move (33,259 logged moves of round 1), most of it the JVM's start.
inline constexpr double kCourseReferenceCharge = 0.29;
// A file of positions: one a line, `SECONDS FEN [# source]`; blank lines
// and lines starting with '#' are skipped.
[[nodiscard]] Result<std::vector<SinglePosition>> read_positions(const std::filesystem::path& file);
// A file read_positions reads, from the course's input.txt files: every
// input.txt under `roots` (a root may be one), by sorted path, as one line
// `SECONDS FEN # PATH`. Any file that is not a valid input (or whose game is
// over) fails, in one line naming it.
[[nodiscard]] Result<std::string> positions_from_inputs(
    const std::vector<std::filesystem::path>& roots);

struct Options {
  Course course = Course::Csci561;
  std::string game = "checkers";  // the game's canonical spec
  Format format = Format::Grading;
  std::filesystem::path class_dir;  // empty: only `agents`
  std::vector<std::string> agents;  // Duel agent specs entered beside the class
  std::filesystem::path out;
  // CPU seconds a side a game for programs (seed 003: "e.g., 100 seconds";
  // "This total amount of time will vary from game to game"): game g of a
  // pairing gets game_seconds[g % size].
  // RULES.md §6a: 300 s a side in every game of the course's grading.
  std::vector<double> game_seconds = {300.0};
  int games = 2;   // games a pairing (even: colours swapped)
  int rounds = 0;  // Swiss rounds (0: ceil log2 of the field); Competition: rounds before the final
  int final_size = 50;      // Competition: a field this small plays the final round-robin
  int reference_games = 9;  // grading: games against the reference (seed: 9)
  // The course's reference agent (RULES.md §6a), each game with a seed of its
  // own for its random tie-breaks; `duel:minimax:depth=4` was Duel's before.
  std::string reference = "duel:csci561-ta";
  // Each reference move charged this many seconds (the course's logged
  // median, RULES.md §6a); none: 0.29 for csci561-ta, else as measured.
  std::optional<double> reference_charge;
  std::vector<SinglePosition> singles;  // empty: default_singles()
  std::string openings;                 // arena's --openings: P, random:plies=P or a file
  bool openings_random = false;         // a file's positions in a shuffled order
  double timeout = 0.0;                 // Duel agents: seconds a move, over it loses (0: none)
  int max_turns = 0;                    // a draw after this many turns (0: the rules alone)
  int concurrency = 1;
  std::uint64_t seed = 0;
  referee::Charge charge = referee::Charge::User;
  double tick = referee::kCourseTick;  // how a move is charged (referee::TurnSetup::tick)
  games::checkers::protocol::Reading reading = games::checkers::protocol::Reading::Course;
  double wall_factor = 2.0;
  std::uint64_t disk_mb = 512;  // what a program's folder may hold (files and logs)
  PrepareLimits limits;
  const std::atomic<bool>* cancel = nullptr;  // set: no new task starts; the runner returns
  // A Dask scheduler (tcp://HOST:PORT): every task runs on its workers
  // (cluster.hpp) instead of `concurrency` threads here; the same tasks,
  // journal and table.
  std::string scheduler;
  bool shared_dir = false;  // `out` is on every host at the same path: nothing is shipped
  std::string worker_duel;  // where workers look for duel first (empty: this binary's path)
};

// Whether `o.reference` is the course's reference agent, and what each of
// its moves is charged (Options::reference_charge).
[[nodiscard]] inline bool course_reference(const Options& o) {
  return o.reference.rfind("duel:csci561-ta", 0) == 0;
}
[[nodiscard]] inline double reference_charge_of(const Options& o) {
  return o.reference_charge.value_or(course_reference(o) ? kCourseReferenceCharge : 0.0);
}

// What the runner reports as it goes (the CLI's progress line).
struct Progress {
  int done = 0;   // tasks finished, this run and journaled before
  int total = 0;  // tasks known so far (a knockout or Swiss adds each round's)
  double seconds = 0.0;
  std::optional<double> seconds_left;  // estimate.hpp's; none before a task of this run ended
  std::string last;                    // the task that just ended, in words
  // Set once, as it happens: a submission that failed to compile or
  // calibrate ("NAME: compiling failed: ... (FIRST ERROR LINE)").
  std::string note;
};
using OnProgress = std::function<void(const Progress&)>;

// NOLINTNEXTLINE(bugprone-exception-escape): json's constructors may throw (allocation)
struct Summary {
  nlohmann::json results;  // results.json's document
  int tasks_run = 0;       // this run (not journaled before)
  int tasks_resumed = 0;   // found in the journal
  bool cancelled = false;
};

// Runs (or resumes) the tournament `options` describes and writes DIR's
// results.json, results.csv, index.html and journal.jsonl. Errors (no such
// class folder, no entrants, DIR holding another tournament's journal) are
// one line.
[[nodiscard]] Result<Summary> run(const Options& options, const OnProgress& progress = {});

// The files of DIR (docs/tournament.md), from the results document.
void write_reports(const std::filesystem::path& out, const nlohmann::json& results);

}  // namespace duel::tournament
