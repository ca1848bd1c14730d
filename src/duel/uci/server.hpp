#pragma once
// `duel uci`: Duel as a UCI engine for the three 5x5 chess games, speaking
// the protocol as Stockfish and Fairy-Stockfish implement it (docs/uci.md,
// section "duel uci").
//
// Why this shape: the protocol logic lives here, below the CLI, over a line
// sink and a std::istream, so tests drive it in-process with strings and the
// subcommand is a few lines. The search runs on its own thread so that
// `stop`, `isready` and `quit` are answered while it thinks; everything else
// (parsing, the position, the options) belongs to the thread that calls
// `handle`.
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>

#include "duel/core/types.hpp"

namespace duel::uci {

// Keep in step with `project(duel VERSION ...)` in CMakeLists.txt and
// `--version` in apps/duel/main.cpp.
inline constexpr std::string_view kVersion = "0.1.0";

// The clock part of `go`, in milliseconds: the side to move's time left
// (negative = no clock given), its increment, and moves to the next time
// control (0 = sudden death).
struct GoClock {
  long long time_ms = -1;
  long long inc_ms = 0;
  long long movestogo = 0;
};

// Seconds to think with this clock; 0 when there is no clock. The formula
// (docs/uci.md, `duel uci`): time / max(movestogo, 20) + 0.8 * increment, at most
// half of what is left after a safety margin of 30 ms + 5% of the time, and at
// least 1 ms (a zero time would mean "no limit" to the engine).
[[nodiscard]] double time_budget(const GoClock& clock) noexcept;

// A score as UCI prints it, from the side to move's view: `cp N` with a pawn
// = 100 (our Value has kE0Scale = 50 per pawn, so N = value * 2), or `mate M`
// for a proven result, M in moves, positive when the side to move wins.
[[nodiscard]] std::string score_text(Value side_to_move_view);

// Receives each output line, without its newline; called from the thread
// that handles commands and from the search thread, never at the same time.
using LineSink = std::function<void(const std::string& line)>;

class Server {
 public:
  explicit Server(LineSink sink);
  explicit Server(std::ostream& out);  // one line each, flushed
  ~Server();                           // stops a running search and joins it
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Handles one command line; false after `quit` (the search is then over).
  bool handle(std::string_view line);
  // Reads commands until `quit` or the end of `in` (which quits too).
  void run(std::istream& in);
  // Blocks until the running search has printed its `bestmove`, if any. A
  // `go infinite` only ends with `stop`, so call this after sending one.
  void wait_search();

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace duel::uci
