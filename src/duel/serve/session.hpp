#pragma once
// A game of `duel serve` as the server sees it, whatever the game (the
// Session interface; game_session.hpp has the one implementation), and the
// checks of the agent specs a request names.
//
// Why an interface: the server keeps games of every type in one map and
// routes requests to them; each game's type stays inside its session.
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "duel/agents/agent.hpp"
#include "duel/core/clock.hpp"
#include "duel/core/result.hpp"
#include "duel/play/game_record.hpp"
#include "duel/play/match.hpp"
#include "duel/play/record_io.hpp"
#include "duel/registry/agents.hpp"
#include "duel/registry/any_game.hpp"
#include "duel/serve/feed.hpp"
#include "duel/serve/http_types.hpp"
#include "duel/serve/notation.hpp"
#include "duel/serve/seats.hpp"
#include "duel/serve/table_budget.hpp"
#include "duel/serve/view.hpp"

namespace duel::serve {

using Clock = std::chrono::steady_clock;

// The longest an agent may think about one move, in seconds.
inline constexpr double kMaxAgentSeconds = 60.0;
// The largest transposition table an engine agent may ask for (`hash=`).
inline constexpr long long kMaxHashMb = 256;
// The most search threads an engine agent may ask for (`threads=`): the
// server's games share its cores, and each thread holds one at full load.
inline constexpr long long kMaxAgentThreads = 2;

// Why `text`, a move or spec of `what` from a request, is refused before
// it is parsed: over `max` bytes, or a byte that is not printable ASCII
// (no game's move or spec has one). Empty when it may be parsed.
[[nodiscard]] std::string refuse_text(std::string_view what, std::string_view text,
                                      std::size_t max);

// Bad input in an agent spec that make_agent would accept but the server
// refuses: programs started on the server (`human`, `uci`, `exec`), a time
// over kMaxAgentSeconds, a table over kMaxHashMb, more than kMaxAgentThreads
// threads. Empty when it may run.
[[nodiscard]] std::string refuse_agent(std::string_view spec);

// An agent spec whose kind the server does not run for `game` (of the
// `kinds` the game has): the message naming those it runs; empty if known.
[[nodiscard]] std::string unknown_agent(std::string_view spec, std::string_view game,
                                        const std::vector<registry::AgentKind>& kinds);

// The agent kinds the server runs for the game `start` belongs to:
// `[{"kind", "example", "about"}]`.
[[nodiscard]] Json agent_kinds(const registry::AnyGame& start);

// The MB of transposition table an agent spec asks for: `hash=` (or the
// engine's default) for `engine`, 0 for agents without a table.
[[nodiscard]] long long table_mb(std::string_view spec);
// `spec` with its table set to `mb` MB.
[[nodiscard]] std::string with_table(std::string_view spec, long long mb);

// A game as the server holds it: every method locks the game's mutex.
// `seat` is the token a request carries ("" for none): in a game made with
// players (Seats::seated) a person's move and every control need the token
// of a side; without players anyone may act, as before seats.
class Session {
 public:
  virtual ~Session() = default;
  [[nodiscard]] virtual Json view() = 0;
  // The view of the position after the first `ply` moves (400 past them).
  virtual Response position(long long ply) = 0;
  // `ply`: the moves played when the person chose it; another number is a
  // stale move (409 with the current view).
  virtual Response move(std::string_view text, std::optional<long long> ply,
                        std::string_view seat) = 0;
  // Without players: takes back `plies`. With players: a takeback, at once
  // against a program, else offered to the other side (who accepts with the
  // same call).
  virtual Response undo(int plies, std::string_view seat) = 0;
  // Without players only: one move of `spec` (with players the server runs
  // the programs itself).
  virtual Response start_agent(std::string_view spec) = 0;
  // Finishes the search at once (its best move is played); with players
  // the programs then wait for go().
  virtual Response stop(std::string_view seat) = 0;
  virtual Response go(std::string_view seat) = 0;
  virtual Response resign(std::string_view seat) = 0;
  // Offers a draw, or accepts the other side's offer; a program answers at
  // once from its last score.
  virtual Response draw(std::string_view seat) = 0;
  [[nodiscard]] virtual Json search() = 0;
  // The engine's best `lines` of the position after `ply` moves (the live
  // one when nullopt), for `seconds`, on a thread of its own; no move is
  // played. Its result comes as an `analysis` event and from analysis().
  virtual Response analyse(std::optional<long long> ply, double seconds, std::size_t lines,
                           std::string_view seat) = 0;
  [[nodiscard]] virtual Json analysis() = 0;
  virtual Response record(std::string_view format) = 0;
  // The events of `GET .../events`: the live view at once, then each change.
  [[nodiscard]] virtual std::shared_ptr<Feed> subscribe() = 0;
  // A line of the live games' list.
  [[nodiscard]] virtual Json summary() = 0;
  // Whether a request with `seat` may delete the game.
  [[nodiscard]] virtual bool may_delete(std::string_view seat) = 0;
  // Starts the programs if one is to move (a game made with players).
  virtual void begin() = 0;
  // Stops the search without playing its move and waits for its thread;
  // later calls answer 404. Called without any lock of the server held.
  virtual void close() = 0;
  // When it was last asked about; nullopt while an agent thinks or a page
  // watches.
  [[nodiscard]] virtual std::optional<Clock::time_point> idle_from() = 0;
};

// The live or last search's progress, as GET .../search shows it.
struct SearchProgress {
  int depth = 0;
  Value value = 0;
  bool exact = false;
  std::vector<std::string> pv;
  std::vector<std::string> pv_notation;  // the same line as people write it
  std::uint64_t nodes = 0;
  double seconds = 0.0;
  std::vector<std::uint64_t> nodes_by_depth;  // after each iteration, and when the move is made
  Player root = Player::First;                // the side to move where the search began
};

}  // namespace duel::serve
