#pragma once
// `duel homework` and `duel calibrate`: a checkers agent program for seed
// 003's file protocol (RULES.md §5). One move per run: read input.txt, think
// within the CPU time the referee allows, write output.txt; in a GAME keep
// the game so far in playdata.txt so that the draw clock and repetitions are
// known exactly; calibration.txt tunes the safety margins to the machine.
//
// Why this shape: the parts that decide (the time plan, the game rebuilt
// from playdata.txt) are plain functions with tests; `run_homework` only
// adds the files around them.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "duel/core/result.hpp"
#include "duel/games/checkers/checkers.hpp"
#include "duel/games/checkers/protocol.hpp"

namespace duel::play {

// What `duel calibrate` measured (calibration.txt, one `key value` a line).
struct Calibration {
  double startup_cpu = 0.010;          // CPU seconds used before main's work begins
  double exit_cpu = 0.002;             // writing the files and leaving
  double alloc_seconds_per_mb = 4e-4;  // touching a transposition table's pages
  double nodes_per_second = 0.0;       // the engine on fixed positions (information)
  bool measured = false;               // false: the conservative defaults above
};
[[nodiscard]] Result<Calibration> parse_calibration(std::string_view text);
[[nodiscard]] std::string calibration_text(const Calibration& c);

// How one move is played.
struct MovePlan {
  double limit = 0.0;       // wall seconds the agent may take for the search
  std::size_t hash_mb = 1;  // transposition table size for the engine
  bool instant = false;     // no time to search: a one-ply choice
};
// `seconds` left, `cpu_used` by this process so far, `own_moves` played in
// this game before (GAME mode), `legal` moves on the board; `dead_draw`
// when the position cannot be won by either side with correct play (see
// is_dead_draw), where a game spends an eighth of the usual share: seed
// 003 breaks a draw by the time left, so time saved there is a point won.
[[nodiscard]] MovePlan plan_move(games::checkers::protocol::Mode mode, double seconds,
                                 double cpu_used, int own_moves, int legal, const Calibration& c,
                                 bool dead_draw = false);
// Kings only, as many on each side, at most three each: no side can force
// a win (known checkers endgame theory; a shot the search still sees).
[[nodiscard]] bool is_dead_draw(const games::checkers::State& s) noexcept;

// The agent spec a move is played with: a searching agent given no limit of
// its own searches for the plan's time (not its spec's default), and the
// engine gets the plan's table size unless the spec names one.
[[nodiscard]] std::string agent_for_plan(const std::string& spec, const MovePlan& plan);

// The spec the course's reference (`csci561-ta`, RULES.md §6a) plays a move
// with: input.txt's mode and play time left, from which it takes its depth,
// added as `mode=` and `left=` unless the spec names them. Any other spec is
// returned unchanged.
[[nodiscard]] std::string agent_for_input(const std::string& spec,
                                          games::checkers::protocol::Mode mode, double seconds);
// Whether `spec` names the course's reference, which keeps to its own rule
// for every move (no time plan, no instant fallback).
[[nodiscard]] bool is_course_reference(const std::string& spec);

// playdata.txt: the game from the first position this agent saw, so that
// the next run can rebuild the exact state (clock, repetitions).
struct PlayData {
  std::string start;               // PDN FEN
  std::vector<std::string> moves;  // standard numbers, both sides, in order
  int own_moves = 0;
};
[[nodiscard]] std::optional<PlayData> parse_playdata(std::string_view text);
[[nodiscard]] std::string playdata_text(const PlayData& d);

// The state to play from: the game in `data` continued by one opponent move
// that reaches `board` (which must be the position in input.txt), or `board`
// itself (a new game) when the record does not lead there. `data` is updated
// to describe the returned state.
[[nodiscard]] games::checkers::State rebuild(const games::checkers::State& board, PlayData& data);

struct HomeworkOptions {
  std::filesystem::path dir = ".";  // where input.txt is read and output.txt written
  std::string agent = "engine";     // any agent spec
  bool verbose = false;             // the plan and the search on stderr
};
// Plays one move. Errors: malformed input.txt or agent spec (exit 2), no
// legal move (the game is lost; exit 1). Returns the move's text.
struct HomeworkError {
  int status;
  std::string message;
};
[[nodiscard]] std::variant<std::string, HomeworkError> run_homework(const HomeworkOptions& o);

// `duel calibrate`: measures this machine and returns calibration.txt's text.
[[nodiscard]] Calibration calibrate(double seconds);

}  // namespace duel::play
