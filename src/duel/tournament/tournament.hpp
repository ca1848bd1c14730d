#pragma once
// A whole class's tournament, as `duel tournament csci561 CLASS --out DIR`
// runs it (docs/tournament.md): every submission prepared once
// (class_dir.hpp), then a schedule of independent tasks (a single move to
// grade, a game) run N at a time, each journaled the moment it ends, and the
// table written from the journal.
//
// Why tasks and a journal: a class is hundreds of program runs, any of which
// may crash, hang or be killed with the runner. A task is the unit that is
// redone after an interruption and never twice: the journal is the truth,
// and the table is only ever computed from it, so a resumed run ends with
// the table an uninterrupted one would have.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "duel/core/result.hpp"
#include "duel/games/checkers/protocol.hpp"
#include "duel/referee/process.hpp"
#include "duel/tournament/class_dir.hpp"

namespace duel::tournament {

// Seed 003's grading, or a competition between the students.
enum class Format : std::uint8_t {
  Grading,     // 10 single moves + 9 games against the reference (100 points)
  Knockout,    // seed 003's competition: pairs, an even number of games, rounds
  RoundRobin,  // every pair meets
};
[[nodiscard]] std::string_view format_name(Format f) noexcept;

// One SINGLE position of the grading: a board, the side to play, the time.
struct SinglePosition {
  std::string fen;      // PDN FEN; its side to move plays
  double seconds = 30;  // the time line of input.txt
  std::string source;   // where the position comes from (cited)
};

// The committed set (csci561_positions.cpp): ten positions, each citing the
// rule or the hand-out example it tests.
[[nodiscard]] const std::vector<SinglePosition>& default_singles();
// A file of positions: one a line, `SECONDS FEN [# source]`; blank lines
// and lines starting with '#' are skipped.
[[nodiscard]] Result<std::vector<SinglePosition>> read_positions(const std::filesystem::path& file);

struct Options {
  Format format = Format::Grading;
  std::filesystem::path class_dir;
  std::filesystem::path out;
  double game_seconds = 100.0;   // CPU seconds a side a game (seed 003: "e.g., 100 seconds")
  double single_seconds = 30.0;  // a SINGLE position without its own time (seed: 30.0)
  int games = 2;                 // competition games a pair (even)
  int reference_games = 9;       // grading: games against the reference (seed: 9)
  std::string reference = "duel:minimax:depth=4";  // seed: "a simple minimax agent"
  std::vector<SinglePosition> singles;             // empty: default_singles()
  int concurrency = 1;
  std::uint64_t seed = 0;
  referee::Charge charge = referee::Charge::User;
  games::checkers::protocol::Reading reading = games::checkers::protocol::Reading::Strict;
  double wall_factor = 2.0;
  double wall_slack = 1.0;
  PrepareLimits limits;
  const std::atomic<bool>* cancel = nullptr;  // set: no new task starts; the runner returns
};

// What the runner reports as it goes (the CLI's progress line).
struct Progress {
  int done = 0;   // tasks finished, this run and journaled before
  int total = 0;  // tasks known so far (a knockout adds each round's)
  double seconds = 0.0;
  std::string last;  // the task that just ended, in words
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
// class folder, DIR holding another tournament's journal) are one line.
[[nodiscard]] Result<Summary> run(const Options& options, const OnProgress& progress = {});

// The files of DIR (docs/tournament.md), from the results document.
void write_reports(const std::filesystem::path& out, const nlohmann::json& results);

}  // namespace duel::tournament
