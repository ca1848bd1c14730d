#pragma once
// The engine: iterative deepening over a negamax principal-variation search
// with alpha-beta, a transposition table and move ordering (worker.hpp),
// under `Limits {depth, time, nodes}`, on one thread or several (lazy SMP).
//
// Why several threads this way: helpers that search the same root at the
// same time, sharing only the table, fill it with results the main thread
// then finds instead of searching; nothing else is shared, so the search
// code stays the single-threaded one, and with one thread the engine is
// that search node for node. The main thread alone decides when to stop,
// and stops and waits for its helpers before returning, so a move never
// takes longer than with one thread (docs/engine.md, "Threads").
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "duel/core/clock.hpp"
#include "duel/search/concepts.hpp"
#include "duel/search/features.hpp"
#include "duel/search/limits.hpp"
#include "duel/search/options.hpp"
#include "duel/search/searcher.hpp"
#include "duel/search/threads.hpp"
#include "duel/search/tt.hpp"
#include "duel/search/worker.hpp"

namespace duel::search {

// `F`: what the search does beyond alpha-beta, the game's own unless a test
// asks for another set (features.hpp).
template <GameState S, class H, Features F = features_of<S>()>
class Engine final : public Searcher<S> {
 public:
  using Move = typename S::Move;
  using Result = SearchResult<Move>;
  using Worker = SearchWorker<S, H, F>;
  using InfoFn = typename Searcher<S>::InfoFn;

  explicit Engine(H heuristic, EngineOptions options = {})
      : m_options(options), m_tt(std::max<std::size_t>(options.hash_mb, 1)) {
    // Step 1. One worker a thread, each with its own copy of the heuristic.
    const auto helpers = static_cast<std::size_t>(std::clamp(options.threads, 1, kMaxThreads) - 1);
    for (std::size_t i = 1; i <= helpers; ++i) {
      m_helpers.push_back(std::make_unique<Worker>(heuristic, m_options, m_tt, i));
    }
    m_main = std::make_unique<Worker>(std::move(heuristic), m_options, m_tt, 0);
    if (options.prefault) m_tt.prefault();
  }
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;
  Engine(Engine&&) = delete;
  Engine& operator=(Engine&&) = delete;
  ~Engine() override = default;  // m_pool, declared last, parks and joins its threads first

  // Forget everything learned (a new game), in every thread.
  void new_game() override {
    m_tt.clear();
    m_main->new_game();
    for (auto& h : m_helpers) h->new_game();
  }
  // The main thread's heuristic.
  [[nodiscard]] H& heuristic() noexcept { return m_main->heuristic(); }
  // Search threads, the main one included.
  [[nodiscard]] std::size_t threads() const noexcept { return m_helpers.size() + 1; }

  // The main thread's result; its statistics add up every thread's nodes.
  Result search(const S& root, const Limits& limits, const InfoFn& on_info = {}) override {
    // Step 1. The table's new search, inside the time limit. Contempt's
    // draws are stored from one side's view: a search for the other side
    // starts from an empty table.
    const WallClock started;
    if (m_options.contempt != 0 && root.to_move() != m_root_side) m_tt.clear();
    m_root_side = root.to_move();
    m_tt.new_search();
    if (m_helpers.empty() || root.is_terminal()) {
      return m_main->search(root, limits, on_info, started);
    }

    // Step 2. Helpers start on the same root, bound only by the depth and
    // the engine's own stop flag: the main thread's limits stop them all.
    m_stop_helpers.store(false, std::memory_order_relaxed);
    Limits helper_limits;
    helper_limits.depth = limits.depth;
    helper_limits.stop = &m_stop_helpers;
    m_pool.start(m_helpers.size(), [this, root, helper_limits](std::size_t i) {
      (void)m_helpers[i - 1]->search(root, helper_limits, {}, WallClock{});
    });

    // Step 3. The main thread searches; its progress lines count every
    // thread's nodes.
    InfoFn info;
    if (on_info) {
      info = [&](const SearchInfo& i, const std::vector<Move>& pv) {
        SearchInfo all = i;
        for (const auto& h : m_helpers) all.nodes += h->nodes();
        on_info(all, pv);
      };
    }
    Result out;
    {
      // Step 4. Stop the helpers and wait for them, however the main
      // thread's search ends (an info callback may throw).
      const HelperStop stop_helpers(m_stop_helpers, m_pool);
      out = m_main->search(root, limits, info, started);
    }
    for (const auto& h : m_helpers) out.stats += h->stats();
    out.stats.seconds = m_main->elapsed();
    return out;
  }

  // The principal variation of a full-window capture quiescence from `s`
  // (SearchWorker::quiescence_line), on the main thread.
  std::vector<Move> quiescence_line(const S& s) override {
    if constexpr (HasTactics<S>) {
      return m_main->quiescence_line(s);
    } else {
      (void)s;
      return {};
    }
  }

 private:
  // Raises the helpers' stop flag and waits for them, when it goes out of scope.
  class HelperStop {
   public:
    HelperStop(std::atomic<bool>& stop, HelperPool& pool) noexcept : m_stop(stop), m_pool(pool) {}
    HelperStop(const HelperStop&) = delete;
    HelperStop& operator=(const HelperStop&) = delete;
    HelperStop(HelperStop&&) = delete;
    HelperStop& operator=(HelperStop&&) = delete;
    ~HelperStop() {
      m_stop.store(true, std::memory_order_relaxed);
      m_pool.wait();
    }

   private:
    std::atomic<bool>& m_stop;
    HelperPool& m_pool;
  };

  EngineOptions m_options;
  TranspositionTable m_tt;
  std::unique_ptr<Worker> m_main;
  std::vector<std::unique_ptr<Worker>> m_helpers;
  std::atomic<bool> m_stop_helpers{false};
  Player m_root_side = Player::First;
  HelperPool m_pool;  // last: its threads end before the workers they use
};

}  // namespace duel::search
