#pragma once
// The CSCI-561 "master game playing agent" (seed 003, RULES.md §5): plays
// two external checkers programs against each other through input.txt and
// output.txt, charging each its CPU time, and declares every result.
//
// Why this shape: the referee's own `State` is the truth (the real history,
// draw clock and repetitions; an agent only ever sees a board), the agent
// files go through `checkers::protocol` (the same code `duel homework`
// uses), and each program run goes through `run_agent` (process.hpp). A game
// is a loop of `play_turn`s, a match a loop of `play_game`s, so an arena can
// reuse any level for external agents.
#include <array>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "duel/core/result.hpp"
#include "duel/games/checkers/checkers.hpp"
#include "duel/games/checkers/protocol.hpp"
#include "duel/referee/process.hpp"

namespace duel::referee {

using games::checkers::State;

// Why a game ended. The first three are the rules; the rest are losses of
// the agent that was to move.
enum class Reason : std::uint8_t {
  NoMoves,       // the side to move has no legal move: it loses
  DrawClock,     // draw-plies plies without capture or crowning: more time left wins
  Repetition,    // the same placement a third time: more time left wins
  Time,          // CPU time used reached the time left
  Crash,         // the program died of a signal, exited non-zero, or could not start
  NoOutput,      // no output.txt
  BadOutput,     // output.txt is not `E from to` / `J from to` lines
  IllegalMove,   // a well-formed move that is not legal here (a cut-short jump too)
  Killed,        // past the wall-clock limit (sleeping, blocked): killed
  DiskLimit,     // its folder grew past the disk limit: killed
  OutputLimit,   // it wrote more than the output limit in one move: killed
  Cancelled,     // the referee was asked to stop: no result
  MemoryLimit,   // its box's processes went over the memory limit
  ProcessLimit,  // its box's processes and threads went over their limit
};
[[nodiscard]] std::string_view reason_text(Reason r) noexcept;

struct AgentSpec {
  std::string command;  // shell command; `duel:SPEC` = this binary's `homework --agent SPEC`
  std::string
      calibrate;  // run once before the first game (`duel:` = `duel calibrate`); empty = none
};

struct MatchOptions {
  std::array<AgentSpec, 2> agents;
  int games = 9;           // game i has agent i % 2 as Black (seed 003: 5 of 9 first)
  double seconds = 300.0;  // CPU seconds per agent per game (seed 003's likely 300)
  // Wall-clock limit of one run: wall_factor x time left + wall_slack seconds.
  double wall_factor = 2.0;
  double wall_slack = 1.0;
  double calibrate_seconds = 120.0;  // wall-clock limit of a calibrate run
  State start;                       // every game starts here (draw limit included)
  std::filesystem::path workdir;     // agents' homes: DIR/agent0, DIR/agent1; empty = temp
  bool keep = false;                 // keep a temporary workdir
  double poll_seconds = 0.005;       // how often a running agent's CPU is read
  Charge charge = Charge::User;      // CPU time as the course charged it (process.hpp)
  // output.txt as the course read it (RULES.md §6a), or to the hand-out's letter.
  games::checkers::protocol::Reading reading = games::checkers::protocol::Reading::Course;
  bool adopt_strays = false;  // see RunSpec::adopt_strays
  const std::atomic<bool>* cancel = nullptr;
  double tick = kCourseTick;  // how a move's CPU is charged (TurnSetup::tick)
  // By agent: > 0 charges each of its moves exactly this (TurnSetup::charge_per_move).
  std::array<double, 2> charge_per_move{};
  // Every agent but Duel's own (`duel:`) runs in a box with these limits;
  // false runs them with our rights (--no-sandbox).
  bool sandbox = true;
  box::Limits limits;
};

// One move of a game, as played.
struct Turn {
  int agent = 0;
  std::string move;   // standard notation (State::move_text)
  double cpu = 0.0;   // seconds charged for it
  double user = 0.0;  // its user and system CPU seconds, whichever is charged
  double system = 0.0;
  double time_left = 0.0;  // the agent's time after it
};

// A draw rule's ending decided by less time left than this is a close call
// (the course's times are 10 ms ticks: RULES.md §6a).
inline constexpr double kCloseCall = 0.1;

struct GameRecord {
  int number = 0;  // from 0
  int black = 0;   // the agent that played Black
  std::optional<int> winner;
  Reason reason = Reason::Cancelled;
  std::string detail;  // one line: what happened, in words
  int plies = 0;
  std::array<double, 2> time_left{};  // seconds, by agent
  std::vector<Turn> turns;
  std::string start;  // PDN FEN
  std::string end;    // PDN FEN
  // A draw rule ended it and less than kCloseCall of time left decided it
  // (or nothing did): the result hangs on CPU noise.
  bool close_call = false;
};

struct AgentSummary {
  std::string command;      // as given
  std::string calibration;  // empty: none; else "ok ..." or what went wrong
  int wins = 0;
  int draws = 0;
  int losses = 0;
};

struct MatchResult {
  std::vector<GameRecord> games;
  std::array<AgentSummary, 2> agents;
  std::filesystem::path workdir;  // empty when it was temporary and is gone
  bool cancelled = false;
  bool sandbox = true;  // the programs ran boxed (MatchOptions::sandbox)
};

// What play_match reports as it goes.
struct Event {
  enum class Kind : std::uint8_t { Calibrated, Turn, GameOver };
  Kind kind = Kind::Turn;
  int agent = 0;                     // Calibrated, Turn: whose
  const GameRecord* game = nullptr;  // Turn, GameOver: the game so far
  std::string_view text;             // Calibrated: the outcome
};
using Observer = std::function<void(const Event&)>;

// One agent's move: input.txt written, the program run, output.txt judged.
struct TurnResult {
  std::optional<games::checkers::Move> move;  // when it played a legal move in time
  Reason loss = Reason::Cancelled;            // otherwise why it lost
  std::string detail;
  double cpu = 0.0;
  RunResult run;
};

struct TurnSetup {
  std::string command;        // already resolved (resolve_command)
  std::filesystem::path dir;  // the agent's home
  double time_left = 0.0;     // > 0
  // GAME (a move of a game) or SINGLE (seed 003's single-move grading).
  games::checkers::protocol::Mode mode = games::checkers::protocol::Mode::Game;
  double wall_factor = 2.0;
  double wall_slack = 1.0;
  double poll_seconds = 0.005;
  Charge charge = Charge::User;
  games::checkers::protocol::Reading reading = games::checkers::protocol::Reading::Course;
  bool adopt_strays = false;
  const std::atomic<bool>* cancel = nullptr;
  std::string log_header;  // written to the agent's logs before the run
  // The charge of a move (charged_seconds): its CPU in whole ticks of this
  // many seconds, rounded down, and its wall time when that is 0 ticks;
  // 0 charges the CPU exactly as measured.
  double tick = kCourseTick;
  // > 0: the move is charged exactly this, whatever it used: a model of a
  // program's time, such as the course's reference (RULES.md §6a). The
  // limits still apply to what it really uses.
  double charge_per_move = 0.0;
  // What the agent's folder (its files and logs) may hold, and what it may
  // write to stdout and stderr in one move.
  std::uint64_t disk_limit = std::uint64_t{512} << 20;
  std::uint64_t output_limit = std::uint64_t{4} << 20;
  // The program's box (its dir is `dir`); none runs it with our rights.
  std::optional<box::Policy> box;
  // The box kept for its game, if any (RunSpec::keeper).
  box::Keeper* keeper = nullptr;
};

[[nodiscard]] TurnResult play_turn(const TurnSetup& setup, const State& state);

// What a move that used `cpu` seconds of CPU in `wall` seconds is charged
// under `setup` (its tick and charge_per_move).
[[nodiscard]] double charged_seconds(const TurnSetup& setup, double cpu, double wall);

// Whether a draw rule's ending between these times left is a close call.
[[nodiscard]] bool close_call(double a, double b);

// One game between `commands` (resolved) living in `dirs`; deletes
// playdata.txt in both first.
[[nodiscard]] GameRecord play_game(const MatchOptions& options,
                                   const std::array<std::string, 2>& commands,
                                   const std::array<std::filesystem::path, 2>& dirs, int number,
                                   const Observer& observer = {});

// The whole match: work directories, calibration, options.games games.
// Errors (bad options, a directory that cannot be made) are one line.
[[nodiscard]] Result<MatchResult> play_match(const MatchOptions& options,
                                             const Observer& observer = {});

enum class Role : std::uint8_t { Agent, Calibrate };

// A command as run: `duel:SPEC` becomes this binary's `homework --agent
// SPEC` (Role::Agent) or `calibrate ARGS` (Role::Calibrate, `duel:ARGS`); a
// relative program path as first word (`./homework`, `bin/agent`) that
// exists from `cwd` is made absolute, since the command runs in the agent's
// own directory.
[[nodiscard]] std::string resolve_command(const std::string& command,
                                          const std::filesystem::path& cwd,
                                          Role role = Role::Agent);

// The box of an agent given as `command` (as the user wrote it) from `cwd`:
// none for Duel's own (`duel:`) or without `sandbox`; else one that also
// shows, read-only, what the command names by path outside the system's
// folders (a program's own folder: `python3 agents/a/homework.py` shows
// agents/a/).
[[nodiscard]] std::optional<box::Policy> agent_box(const std::string& command,
                                                   const std::filesystem::path& cwd, bool sandbox,
                                                   const box::Limits& limits);

}  // namespace duel::referee
