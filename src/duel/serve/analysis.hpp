#pragma once
// The analysis of a game's positions (docs/serve.md § Analysis): the
// engine's best lines of one position, on a thread of their own, without a
// move being played.
//
// Why apart from the game's own thread: that thread plays the programs'
// moves; an analysis only looks, may be asked for any earlier position, and
// is stopped by the next one asked for.
#include <atomic>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "duel/registry/lines.hpp"
#include "duel/serve/session_parts.hpp"

namespace duel::serve {

// The most an analysis may take, in seconds, and its lines; its engine's
// table, held against the server's tables' budget while it runs.
inline constexpr long long kAnalysisHashMb = 16;
inline constexpr double kMaxAnalysisSeconds = 10.0;
inline constexpr std::size_t kMaxAnalysisLines = 3;

// A finished analysis as JSON: the lines with their moves' squares (the
// page draws the best one as an arrow), scores and lines in notation.
template <class S>
[[nodiscard]] Json analysis_json(const S& state, std::size_t ply, const registry::Lines& found) {
  Json lines = Json::array();
  for (const auto& line : found.lines) {
    auto m = registry::legal_move(state, line.move);
    if (!m) continue;
    const games::Score score = games::score_of<S>(line.value, line.exact, state.to_move());
    lines.push_back({{"move", move_json(state, *m)},
                     {"pv", line.pv},
                     {"pv_notation", line_notation(state, line.pv)},
                     {"score", games::score_json(score)},
                     {"score_text", score.text}});
  }
  return {{"thinking", false},           {"ply", ply},
          {"position", state.to_text()}, {"depth", found.depth},
          {"nodes", found.nodes},        {"seconds", found.seconds},
          {"complete", found.complete},  {"lines", std::move(lines)}};
}

template <games::PlayableGame S>
class Analyst {
 public:
  // Called on the analyst's thread with the analysis (first `thinking`,
  // then its lines), with no lock of the analyst held.
  using Post = std::function<void(Json)>;

  Analyst() = default;
  Analyst(const Analyst&) = delete;
  Analyst& operator=(const Analyst&) = delete;
  ~Analyst() { stop(); }

  // Stops the analysis running, if any, and starts one of `state` with a
  // table of `mb` MB, given back to `budget` when it ends.
  void start(S state, std::size_t ply, double seconds, std::size_t k, Post post,
             std::shared_ptr<TableBudget> budget, long long mb) {
    std::lock_guard lock(m_mutex);
    halt_locked();
    m_stop.store(false);
    m_thread = std::jthread([this, state = std::move(state), ply, seconds, k,
                             post = std::move(post), budget = std::move(budget), mb] {
      yield_to_pages();
      const HeldTable held{*budget, mb};
      post({{"thinking", true},
            {"ply", ply},
            {"position", state.to_text()},
            {"lines", Json::array()}});
      registry::AlgoRequest req;
      req.time = seconds;
      req.hash_mb = static_cast<std::size_t>(mb);
      req.stop = &m_stop;
      auto found = registry::top_lines(state, req, k);
      if (!found) {
        post({{"thinking", false},
              {"ply", ply},
              {"error", found.error()},
              {"lines", Json::array()}});
        return;
      }
      post(analysis_json(state, ply, *found));
    });
  }

  // Stops the analysis running and waits for its thread.
  void stop() {
    std::lock_guard lock(m_mutex);
    halt_locked();
  }

 private:
  void halt_locked() {
    m_stop.store(true);
    if (m_thread.joinable()) m_thread.join();
  }

  std::mutex m_mutex;  // start and stop, one at a time
  std::atomic<bool> m_stop{false};
  std::jthread m_thread;
};

}  // namespace duel::serve
