#pragma once
// Agents that search: plain `minimax`, plain `alphabeta` (each with an
// optional depth cut-off and a named heuristic, deepening one ply at a time
// when they have a time limit) and the `engine`.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "duel/agents/agent.hpp"
#include "duel/search/options.hpp"
#include "duel/search/searcher.hpp"

namespace duel::agents {

template <class S>
std::vector<std::string> pv_text(const S& root, const std::vector<typename S::Move>& pv) {
  std::vector<std::string> out;
  S s = root;
  for (const auto& m : pv) {
    out.push_back(s.move_text(m));
    s = s.result(m);
  }
  return out;
}

struct PlainSettings {
  int depth = 0;       // cut-off depth; 0 = to the end of the game
  double time = 0.0;   // seconds a move; 0 = none (beyond the move clock)
  bool prune = false;  // alpha-beta instead of minimax
};

// Holds the search it is given (games::make_plain), which keeps its
// heuristic from move to move.
template <class S>
class PlainAgent final : public Agent<S> {
 public:
  PlainAgent(std::unique_ptr<search::Searcher<S>> searcher, PlainSettings settings)
      : m_searcher(std::move(searcher)), m_settings(settings) {}

  std::optional<typename S::Move> choose(const S& state, const MoveClock& clock) override {
    const double budget = budget_for(m_settings.time, clock);
    m_report = SearchReport{};
    m_report.algorithm = m_settings.prune ? "alphabeta" : "minimax";
    WallClock wall;
    search::SearchStats total;
    search::Limits hooked;
    hooked.stop = m_hooks.stop;
    if (m_hooks.on_nodes) {
      // The search counts its own nodes; add those of the depths before.
      hooked.progress = [&](std::uint64_t nodes, double /*seconds*/) {
        m_hooks.on_nodes(total.nodes() + nodes, wall.seconds());
      };
    }
    if (budget <= 0) {
      // No clock: one search to the cut-off (or the end), as the seed does it.
      finish(state, run(state, m_settings.depth, hooked));
      announce(wall, m_report.stats);
      return m_best;
    }
    // With a clock: deepen one ply at a time and keep the last full answer.
    m_best.reset();
    typename S::Moves moves;
    state.actions(moves);
    if (!moves.empty()) m_best = moves[0];
    const int cap = m_settings.depth > 0 ? m_settings.depth : search::kMaxDepth;
    for (int d = 1; d <= cap; ++d) {
      search::Limits limits = hooked;
      limits.time = budget - wall.seconds();
      if (limits.time <= 0) break;
      auto r = run(state, d, limits);
      total += r.stats;
      if (!r.complete) break;
      finish(state, r);
      announce(wall, total);
      if (r.exact) break;
    }
    // All the depths' work, and apart the search whose answer is played
    // (finish), each state once: not the shallower depths the clock ran first.
    if (m_report.depth > 0) m_report.answer = m_report.stats;
    m_report.stats = total;
    return m_best;
  }
  [[nodiscard]] std::string name() const override {
    return m_settings.prune ? "alphabeta" : "minimax";
  }
  [[nodiscard]] const SearchReport* last_report() const override { return &m_report; }
  void set_hooks(SearchHooks hooks) override { m_hooks = std::move(hooks); }

 private:
  // The last full answer to the hooks: its depth, value and line.
  void announce(const WallClock& wall, const search::SearchStats& stats) const {
    if (!m_hooks.on_iteration) return;
    search::SearchInfo info;
    info.depth = m_report.depth;
    info.value = m_report.value;
    info.exact = m_report.exact;
    info.nodes = stats.nodes();
    info.nodes_by_depth = stats.depth_counts();
    info.seconds = wall.seconds();
    info.pv = m_report.pv;
    m_hooks.on_iteration(info);
  }
  search::SearchResult<typename S::Move> run(const S& state, int depth,
                                             const search::Limits& limits) {
    search::Limits cut = limits;
    cut.depth = depth;
    return m_searcher->search(state, cut);
  }
  void finish(const S& state, const search::SearchResult<typename S::Move>& r) {
    if (r.best) m_best = r.best;
    m_report.value = r.value;
    m_report.depth = r.depth;
    m_report.exact = r.exact;
    m_report.complete = r.complete;
    m_report.pv = pv_text(state, r.pv);
    m_report.stats = r.stats;
  }

  std::unique_ptr<search::Searcher<S>> m_searcher;
  PlainSettings m_settings;
  SearchHooks m_hooks;
  SearchReport m_report;
  std::optional<typename S::Move> m_best;
};

struct EngineSettings {
  int depth = 0;
  double time = 0.0;
  std::uint64_t nodes = 0;
  search::EngineOptions options;
};

// Holds the engine it is given (games::make_engine), made with
// `settings.options`.
template <class S>
class EngineAgent final : public Agent<S> {
 public:
  EngineAgent(std::unique_ptr<search::Searcher<S>> engine, EngineSettings settings)
      : m_engine(std::move(engine)), m_settings(settings) {}

  std::optional<typename S::Move> choose(const S& state, const MoveClock& clock) override {
    search::Limits limits;
    limits.depth = m_settings.depth;
    limits.time = budget_for(m_settings.time, clock);
    limits.nodes = m_settings.nodes;
    limits.stop = m_hooks.stop;
    limits.progress = m_hooks.on_nodes;
    typename search::Searcher<S>::InfoFn info;
    if (m_hooks.on_iteration) {
      info = [&](const search::SearchInfo& i, const std::vector<typename S::Move>& pv) {
        search::SearchInfo with_pv = i;
        with_pv.pv = pv_text(state, pv);
        m_hooks.on_iteration(with_pv);
      };
    }
    const auto r = m_engine->search(state, limits, info);
    m_report =
        SearchReport{"engine", r.value,         r.depth, r.exact, r.complete, pv_text(state, r.pv),
                     r.stats,  r.last_iteration};
    return r.best;
  }
  [[nodiscard]] std::string name() const override { return "engine"; }
  [[nodiscard]] const SearchReport* last_report() const override { return &m_report; }
  void new_game() override { m_engine->new_game(); }
  void set_hooks(SearchHooks hooks) override { m_hooks = std::move(hooks); }

 private:
  std::unique_ptr<search::Searcher<S>> m_engine;
  EngineSettings m_settings;
  SearchHooks m_hooks;
  SearchReport m_report;
};

}  // namespace duel::agents
