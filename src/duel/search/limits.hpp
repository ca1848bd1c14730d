#pragma once
// Limits and results shared by every search (DESIGN habit 5: a search takes a
// limits struct, returns a result struct, and never prints).
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "duel/core/clock.hpp"
#include "duel/core/types.hpp"
#include "duel/search/stats.hpp"

namespace duel::search {

struct Limits {
  int depth = 0;                            // plies; 0 = no depth limit (search to the end)
  double time = 0.0;                        // seconds of wall time; 0 = none
  std::uint64_t nodes = 0;                  // 0 = none
  const std::atomic<bool>* stop = nullptr;  // set by another thread to stop early
  // Called about every million nodes (nodes so far, seconds), for progress lines.
  std::function<void(std::uint64_t, double)> progress{};
};

template <class Move>
struct SearchResult {
  std::optional<Move> best;  // empty only when the root is terminal
  Value value = 0;           // from Player::First's view (the seeds' MAX)
  int depth = 0;             // deepest full iteration / the cut-off depth used
  bool complete = false;     // false when a limit stopped the search early
  bool exact = false;        // the value is the game-theoretic value
  std::vector<Move> pv;      // principal variation from the root
  SearchStats stats;
  // Iterative deepening (the engine): the main thread's iteration whose move
  // is `best`, each state once; `stats` counts every iteration and thread.
  std::optional<SearchStats> last_iteration;
};

// What the engine reports after each iteration (the CLI, Python and web format it).
struct SearchInfo {
  int depth = 0;
  Value value = 0;  // First's view
  bool exact = false;
  std::uint64_t nodes = 0;
  double seconds = 0.0;
  std::vector<std::string> pv;                // filled by the caller's formatter when wanted
  std::vector<std::uint64_t> nodes_by_depth;  // this move's nodes so far, root = 0
};

// Polls the wall clock, the node budget and the stop flag every few nodes.
class StopControl {
 public:
  explicit StopControl(const Limits& limits) noexcept : m_limits(limits) {}
  // Times the limits from `started` (a search whose set-up came first).
  StopControl(const Limits& limits, const WallClock& started) noexcept
      : m_limits(limits), m_clock(started) {}
  [[nodiscard]] bool should_stop(std::uint64_t nodes) noexcept {
    if (m_stopped) return true;
    if (m_limits.nodes != 0 && nodes >= m_limits.nodes) return m_stopped = true;
    if ((nodes & 7) != 0) return false;  // a clock read costs ~25 ns; a node far more
    if (m_limits.progress && (nodes & ((1U << 20) - 1)) == 0 && nodes != 0) {
      m_limits.progress(nodes, m_clock.seconds());
    }
    if (m_limits.stop != nullptr && m_limits.stop->load(std::memory_order_relaxed)) {
      return m_stopped = true;
    }
    if (m_limits.time > 0 && m_clock.seconds() >= m_limits.time) return m_stopped = true;
    return false;
  }
  [[nodiscard]] bool stopped() const noexcept { return m_stopped; }
  [[nodiscard]] double elapsed() const noexcept { return m_clock.seconds(); }
  [[nodiscard]] const Limits& limits() const noexcept { return m_limits; }

 private:
  Limits m_limits;
  WallClock m_clock;
  bool m_stopped = false;
};

}  // namespace duel::search
