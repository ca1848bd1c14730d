// Lazy SMP (EngineOptions::threads, docs/engine.md "Threads"): the table
// shared without locks never returns a torn entry; with two threads the
// engine still answers within its time under any clock, proves the same
// values as with one, and stops its helpers before it returns.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "../support/limits.hpp"
#include "../support/sanitized.hpp"
#include "../support/synthetic_tree.hpp"
#include "../support/tree_gen.hpp"
#include "duel/agents/search_agents.hpp"
#include "duel/core/clock.hpp"
#include "duel/games/kcell/kcell.hpp"
#include "duel/games/minichess/linear_eval.hpp"
#include "duel/games/minichess/minichess.hpp"
#include "duel/games/nqueens/nqueens.hpp"
#include "duel/registry/agents.hpp"
#include "duel/registry/games.hpp"
#include "duel/search/engine.hpp"
#include "duel/search/plain.hpp"

namespace duel::search {
namespace {

using test_support::any_heuristic;
using test_support::any_tree_shape;
using test_support::depth_limit;
using test_support::KeyHeuristic;
using test_support::sanitized;
using test_support::SyntheticTree;

template <class S>
bool legal(const S& s, const typename S::Move& m) {
  typename S::Moves moves;
  s.actions(moves);
  return std::find(moves.begin(), moves.end(), m) != moves.end();
}

EngineOptions with_threads(int threads, std::size_t hash_mb = 16) {
  EngineOptions options;
  options.hash_mb = hash_mb;
  options.threads = threads;
  return options;
}

// ---------------------------------------------------------------------------
// The table under two threads

std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// What thread `t` stores for `key`: every field differs between the two
// threads, so a mix of two stores would show in some field.
struct Payload {
  Value value;
  std::uint16_t move;
  int depth;
  Bound bound;
};
Payload payload(std::uint64_t key, int t) {
  const std::uint64_t h = mix(key * 2 + static_cast<std::uint64_t>(t));
  return {static_cast<Value>(static_cast<std::int32_t>(h & 0x3FFFFFFF)) * (t == 0 ? 1 : -1),
          static_cast<std::uint16_t>(((h >> 32) & 0x3FFF) * 2 + 1 + static_cast<unsigned>(t)),
          static_cast<int>((h >> 48) % 127) * 2 + t, t == 0 ? Bound::Lower : Bound::Upper};
}
bool is_payload(const TTEntry& e, std::uint64_t key, int t) {
  const Payload p = payload(key, t);
  return e.value == p.value && e.move == p.move && e.depth == p.depth && e.bound() == p.bound;
}

// Two threads store and probe the same keys at once, in a table of one
// bucket (every store evicts or overwrites what the other thread just wrote)
// and in a 1 MB one: every hit is exactly one thread's store for that key.
TEST(SmpTable, TwoThreadsNeverSeeATornEntry) {
  constexpr int kOps = 200'000;
  constexpr std::uint64_t kKeys = 64;
  for (const std::size_t mb : {std::size_t{0}, std::size_t{1}}) {
    TranspositionTable tt(mb);
    std::atomic<std::uint64_t> hits{0};
    std::atomic<std::uint64_t> torn{0};
    const auto work = [&](int t) {
      std::uint64_t r = static_cast<std::uint64_t>(t) + 1;
      for (int i = 0; i < kOps; ++i) {
        r = mix(r);
        const std::uint64_t key = mix(r % kKeys);  // high bits vary: buckets of the 1 MB table
        const Payload p = payload(key, t);
        tt.store(key, p.value, p.bound, p.depth, p.move);
        const std::uint64_t probed = mix((r >> 32) % kKeys);
        if (const auto e = tt.probe(probed)) {
          hits.fetch_add(1, std::memory_order_relaxed);
          if (e->key != probed || !(is_payload(*e, probed, 0) || is_payload(*e, probed, 1))) {
            torn.fetch_add(1, std::memory_order_relaxed);
          }
        }
      }
    };
    std::thread other(work, 1);
    work(0);
    other.join();
    EXPECT_EQ(torn.load(), 0U) << mb << " MB";
    EXPECT_GT(hits.load(), 0U) << mb << " MB";
  }
}

// ---------------------------------------------------------------------------
// Tiny clocks

// A move under a clock of `limit` seconds: the agent plans
// agents::budget_for's share of it (80% less 2 ms: 0.5 ms of 1 ms, 6 ms of
// 10 ms), the margin that keeps one thread inside the clock
// (tests/agents/budget_test.cpp); two threads must keep inside it too.
// Every move is legal; the median of each game's moves must be under the
// clock (one move's time also carries the machine's noise, as in
// tests/cli/homework_test.cpp), and timing is not checked under the
// sanitizers, which slow everything down.
template <class S>
void moves_within_clock(const std::string& game, int threads, double limit) {
  SCOPED_TRACE(game + " threads=" + std::to_string(threads) + " clock " + std::to_string(limit));
  auto made = registry::make_game(game);
  ASSERT_TRUE(made.ok()) << made.error();
  S s = std::get<S>(*made);
  auto agent = registry::make_agent<S>("engine:hash=4,threads=" + std::to_string(threads));
  ASSERT_TRUE(agent.ok()) << agent.error();
  std::vector<double> seconds;
  std::string seen;
  for (int move = 0; move < 7 && !s.is_terminal(); ++move) {
    const WallClock wall;
    const auto m = (*agent)->choose(s, agents::MoveClock{limit});
    seconds.push_back(wall.seconds());
    seen += " " + std::to_string(seconds.back());
    ASSERT_TRUE(m.has_value());
    ASSERT_TRUE(legal(s, *m)) << s.move_text(*m);
    s = s.result(*m);
  }
  std::sort(seconds.begin(), seconds.end());
  if (!sanitized() && !seconds.empty()) {
    EXPECT_LT(seconds[seconds.size() / 2], limit) << "seconds a move:" << seen;
  }
}

TEST(SmpEngine, EveryGameMovesWithinTinyClocks) {
  namespace mc = games::minichess;
  for (const double limit : {0.001, 0.01}) {
    for (const int threads : {1, 2}) {
      moves_within_clock<games::nqueens::State>("nqueens:n=8,variant=1b", threads, limit);
      moves_within_clock<games::nqueens::State>("nqueens:n=10,variant=2", threads, limit);
      moves_within_clock<games::kcell::State>("kcell:n=3,k=15", threads, limit);
      moves_within_clock<games::checkers::State>("checkers", threads, limit);
      moves_within_clock<mc::GardnerState>("gardner", threads, limit);
      moves_within_clock<mc::Cs3243State>("gardner-cs3243", threads, limit);
      moves_within_clock<mc::Comp472State>("minichess-comp472", threads, limit);
    }
  }
}

// The engine's own hard limit: a search of 1 ms or 10 ms returns a legal
// move, and the helpers are stopped and joined inside the same allowance.
TEST(SmpEngine, HardTimeLimitHoldsWithTwoThreads) {
  using S = games::minichess::GardnerState;
  Engine<S, games::minichess::E2> engine(games::minichess::E2{}, with_threads(2, 4));
  const S start;
  for (const double limit : {0.001, 0.01}) {
    std::vector<double> seconds;
    for (int run = 0; run < 5; ++run) {
      const WallClock wall;
      const auto r = engine.search(start, test_support::time_limit(limit));
      seconds.push_back(wall.seconds());
      ASSERT_TRUE(r.best.has_value());
      EXPECT_TRUE(legal(start, *r.best));
      EXPECT_GE(r.stats.nodes(), 1U);
    }
    std::sort(seconds.begin(), seconds.end());
    // A search of `limit` is what an agent plans under a clock of
    // (limit + 2 ms) / 0.8 (budget_for): it must end inside that clock.
    if (!sanitized()) {
      EXPECT_LT(seconds[2], (limit + 0.002) / 0.8) << limit;
    }
  }
}

// ---------------------------------------------------------------------------
// The same proofs with two threads

// Mates from the 5x5 chess tests: White mates in one (Qb1-a1 or Qb1-b5:
// tests/uci/uci_server_test.cpp, checked with Fairy-Stockfish), the same
// with colours flipped (tests/python/test_scripts.py), and White's only
// move Ka1-b1 answered by the mate Re5-e1 (tests/minichess/search_test.cpp).
TEST(SmpEngine, FindsTheSameMatesAsOneThread) {
  using S = games::minichess::GardnerState;
  struct Case {
    const char* fen;
    Value value;  // First's view
  };
  const Case cases[] = {{"k4/2K2/5/5/1Q3 w - - 0 1", win_in(1)},
                        {"K4/2k2/5/5/1q3 b - - 0 1", loss_in(1)},
                        {"4r/5/p2k1/P4/K4 w - - 0 1", loss_in(2)}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.fen);
    const auto root = S::from_fen(c.fen);
    ASSERT_TRUE(root.ok()) << root.error();
    for (const int threads : {1, 2}) {
      Engine<S, games::minichess::E2> engine(games::minichess::E2{}, with_threads(threads, 4));
      const auto r = engine.search(*root, depth_limit(6));
      ASSERT_TRUE(r.best.has_value());
      EXPECT_EQ(r.value, c.value) << "threads=" << threads;
      if (is_win(for_player(c.value, root->to_move()))) {
        EXPECT_EQ(root->result(*r.best).ending(), games::minichess::Ending::Checkmate);
      }
    }
  }
}

// N-Queens variant 2 solved exactly: the first player wins for n = 1..9
// (tests/nqueens/nqueens_test.cpp, OEIS A344227); KCell n=2, k=5 is a
// win for o at ply 5 (solved by hand in tests/kcell/kcell_test.cpp) and
// the larger boards agree with plain minimax.
TEST(SmpEngine, SolvesSmallGamesAsOneThread) {
  for (int n = 1; n <= 9; ++n) {
    const games::nqueens::State s(n, games::nqueens::Variant::V2);
    EngineOptions options = with_threads(2, 16);
    options.first_depth = kMaxPly;
    Engine<games::nqueens::State, NoHeuristic> engine({}, options);
    const auto r = engine.search(s, {});
    EXPECT_TRUE(r.exact) << "n=" << n;
    EXPECT_EQ(proven_payoff(r.value), 1) << "n=" << n;
  }
  using K = games::kcell::State;
  Engine<K, games::kcell::Tempo> two(games::kcell::Tempo{}, with_threads(2, 1));
  const auto r = two.search(K(2, 5), {});
  EXPECT_TRUE(r.exact);
  EXPECT_EQ(r.value, win_in(5));
  for (const auto& [n, k] : {std::pair{2, 8}, {3, 9}}) {
    const K s(n, k);
    const auto exact = minimax(s);
    ASSERT_TRUE(exact.exact);
    const auto e = two.search(s, {});
    EXPECT_TRUE(e.exact) << s.spec();
    EXPECT_EQ(e.value, exact.value) << s.spec();
  }
}

// On random trees with random heuristics: without limits the two-thread
// engine proves the minimax value; under a depth limit a value it calls
// exact is the game's, whatever the helper stored (an entry is exact only
// when its own subtree was).
RC_GTEST_PROP(SmpEngine, ExactValuesAreTheGamesWithTwoThreads, ()) {
  const auto shape = any_tree_shape();
  const KeyHeuristic eval = any_heuristic();
  const SyntheticTree root(shape);
  const Value expected = minimax(root).value;
  Engine<SyntheticTree, KeyHeuristic> engine(eval, with_threads(2, 1));
  const auto r = engine.search(root, Limits{});
  RC_ASSERT(r.exact);
  RC_ASSERT(r.value == expected);
  const int depth = *rc::gen::inRange(1, shape.max_depth + 2);
  Engine<SyntheticTree, KeyHeuristic> fresh(eval, with_threads(2, 1));
  const auto d = fresh.search(root, depth_limit(depth));
  RC_ASSERT(d.best.has_value());
  if (d.exact) RC_ASSERT(d.value == expected);
}

// The statistics add up every thread's nodes, and new_game() forgets in
// every thread: a search after it from the same root repeats the first
// one's main-thread answer.
TEST(SmpEngine, NodesAddUpAndNewGameForgets) {
  using S = games::minichess::GardnerState;
  Engine<S, games::minichess::E2> engine(games::minichess::E2{}, with_threads(2, 4));
  EXPECT_EQ(engine.threads(), 2U);
  const S start;
  const auto first = engine.search(start, depth_limit(5));
  EXPECT_TRUE(first.complete);
  EXPECT_EQ(first.depth, 5);
  EXPECT_GT(first.stats.nodes(), 0U);
  engine.new_game();
  const auto again = engine.search(start, depth_limit(5));
  ASSERT_TRUE(again.best.has_value());
  EXPECT_TRUE(legal(start, *again.best));
  // A stop flag set before the search: the main thread stops at once and
  // the search still returns a legal move.
  std::atomic<bool> stop{true};
  const auto stopped = engine.search(start, test_support::stop_limit(&stop));
  ASSERT_TRUE(stopped.best.has_value());
  EXPECT_FALSE(stopped.complete);
}

}  // namespace
}  // namespace duel::search
