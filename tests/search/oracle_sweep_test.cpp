// The engine against plain minimax on real positions of every game (the
// correctness sweep of docs/RELIABILITY.md). On positions from
// seeded random playouts:
//   - compiled without the parts that change a fixed-depth value by design
//     (search::kMinimaxEquivalent: no quiescence, forward pruning, check
//     extension, repetition or dead draws) and without the table, the
//     engine's value at a fixed depth of 4 or more is minimax's, with
//     aspiration windows on and off;
//   - near the end of a game, where minimax at that depth sees only terminal
//     leaves (its value is exact), the engine as it plays (the game's own
//     features, table included) also finds that value, and calls it exact in the
//     games whose rules do not look back (no HasMemory);
//   - small N-Queens and KCell instances are solved to the end by both.
// DUEL_SWEEP_POSITIONS (playouts per game, default 30; 10 in the sanitizer
// tree, DUEL_SANITIZED, where the 5x5 sweeps are its slowest tests) and
// DUEL_SWEEP_DEPTH (overrides every game's depth) make it longer or
// shorter; scripts/sweep.py runs it with thousands.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "../support/sanitized.hpp"
#include "duel/core/rng.hpp"
#include "duel/games/game.hpp"
#include "duel/registry/games.hpp"
#include "duel/search/engine.hpp"
#include "duel/search/plain.hpp"

namespace duel::search {
namespace {

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::atoi(v) : fallback;
}

// Playouts per game: the sanitizer tree checks the same code on fewer.
int playouts() {
  return env_int("DUEL_SWEEP_POSITIONS", test_support::sanitized() ? 10 : 30);
}

// The engine without the parts that may change a fixed-depth value
// (kMinimaxEquivalent), with aspiration windows and without.
constexpr Features kWithAspiration = kMinimaxEquivalent;
constexpr Features kWithoutAspiration = [] {
  Features f = kMinimaxEquivalent;
  f.aspiration = false;
  return f;
}();
static_assert(!kMinimaxEquivalent.forward_pruning() && !kMinimaxEquivalent.quiescence);

template <class S>
S start_of(std::string_view spec) {
  auto game = registry::make_game(spec);
  EXPECT_TRUE(static_cast<bool>(game)) << spec;
  return std::get<S>(*game);
}

// One position from each of `count` seeded random playouts (at a random
// ply), and the last four positions before each playout's end.
template <class S>
struct Sample {
  std::vector<S> mid;
  std::vector<S> near_end;
};

template <class S>
Sample<S> random_positions(const S& start, std::uint64_t seed, int count) {
  Rng rng(seed);
  Sample<S> out;
  typename S::Moves moves;
  for (int game = 0; game < count; ++game) {
    std::vector<S> line;
    S s = start;
    while (!s.is_terminal() && line.size() < 400) {
      line.push_back(s);
      s.actions(moves);
      s = s.result(moves[rng.below(moves.size())]);
    }
    if (line.empty()) continue;
    out.mid.push_back(line[rng.below(line.size())]);
    if (!s.is_terminal()) continue;
    for (std::size_t k = line.size() > 4 ? line.size() - 4 : 0; k < line.size(); ++k) {
      out.near_end.push_back(line[k]);
    }
  }
  return out;
}

struct Counts {
  int positions = 0;  // compared at fixed depth (or solved)
  int exact = 0;      // near the end, compared with minimax's exact value
  Counts& operator+=(const Counts& c) {
    positions += c.positions;
    exact += c.exact;
    return *this;
  }
};

// What scripts/sweep.py reads from the test's JSON report.
void record(const Counts& c) {
  ::testing::Test::RecordProperty("positions", c.positions);
  ::testing::Test::RecordProperty("exact", c.exact);
}

// The comparison for one game at one depth.
template <class S>
Counts sweep(std::string_view spec, std::uint64_t seed, int depth) {
  depth = env_int("DUEL_SWEEP_DEPTH", depth);
  const int count = playouts();
  const S start = start_of<S>(spec);
  const auto sample = random_positions(start, seed, count);
  int checked = 0;
  int exact = 0;
  const bool found =
      games::with_heuristic<S>(games::default_heuristic<S>(), seed, [&](auto heuristic) {
        using H = decltype(heuristic);
        // Step 1. Fixed depth: the stripped engine equals minimax.
        Engine<S, H, kWithAspiration> with_asp(heuristic, EngineOptions{.hash_mb = 0});
        Engine<S, H, kWithoutAspiration> without_asp(heuristic, EngineOptions{.hash_mb = 0});
        for (const S& s : sample.mid) {
          const auto oracle = minimax(s, depth, heuristic);
          Limits limits;
          limits.depth = depth;
          const auto a = with_asp.search(s, limits);
          const auto b = without_asp.search(s, limits);
          EXPECT_EQ(a.value, oracle.value)
              << spec << " aspiration on, depth " << depth << ": " << s.to_text();
          EXPECT_EQ(b.value, oracle.value)
              << spec << " aspiration off, depth " << depth << ": " << s.to_text();
          ++checked;
        }
        // Step 2. Near the end: minimax's exact values, found by the full
        // engine too (a few plies more than minimax needed, so that the
        // selective parts near the horizon only meet terminals).
        Engine<S, H> full(heuristic, EngineOptions{.hash_mb = 4});
        for (const S& s : sample.near_end) {
          const auto oracle = minimax(s, depth, heuristic);
          if (!oracle.exact) continue;
          full.new_game();
          Limits limits;
          limits.depth = depth + 8;
          const auto r = full.search(s, limits);
          // Where the rules look back (HasMemory), a table answer at a
          // position with a history is no proof (docs/engine.md, "A node"
          // step 10): the value must still be minimax's, but the engine
          // need not call it exact.
          if constexpr (!HasMemory<S>) {
            EXPECT_TRUE(r.exact) << spec << ": " << s.to_text();
          }
          EXPECT_EQ(r.value, oracle.value) << spec << " exact: " << s.to_text();
          ++exact;
        }
      });
  EXPECT_TRUE(found);
  EXPECT_GT(checked, 0);
  return {checked, exact};
}

// Small games solved from the start and from every position of a few
// random playouts: minimax to the end against the engine as a solver.
template <class S>
Counts solve_small(std::string_view spec, std::uint64_t seed) {
  const S start = start_of<S>(spec);
  const int count = std::max(1, playouts() / 10);
  std::vector<S> positions{start};
  Rng rng(seed);
  typename S::Moves moves;
  for (int game = 0; game < count; ++game) {
    S s = start;
    while (!s.is_terminal()) {
      s.actions(moves);
      s = s.result(moves[rng.below(moves.size())]);
      positions.push_back(s);
    }
  }
  int solved = 0;
  for (const S& s : positions) {
    const auto oracle = minimax(s);
    EXPECT_TRUE(oracle.exact) << spec;
    Engine<S, NoHeuristic> engine(NoHeuristic{}, EngineOptions{.hash_mb = 4});
    const auto r = engine.search(s, Limits{});
    EXPECT_TRUE(r.exact) << spec << ": " << s.to_text();
    EXPECT_EQ(r.value, oracle.value) << spec << ": " << s.to_text();
    ++solved;
  }
  return {solved, 0};
}

TEST(OracleSweep, Gardner) {
  record(sweep<games::minichess::GardnerState>("gardner", 21, 4));
}
TEST(OracleSweep, Cs3243) {
  record(sweep<games::minichess::Cs3243State>("gardner-cs3243", 22, 4));
}
TEST(OracleSweep, Comp472) {
  record(sweep<games::minichess::Comp472State>("minichess-comp472", 23, 4));
}
TEST(OracleSweep, Checkers) {
  record(sweep<games::checkers::State>("checkers", 24, 5));
}
TEST(OracleSweep, NQueens) {
  Counts c;
  c += sweep<games::nqueens::State>("nqueens:n=6,variant=1a", 25, 4);
  c += sweep<games::nqueens::State>("nqueens:n=6,variant=1b", 26, 4);
  c += sweep<games::nqueens::State>("nqueens:n=6,variant=2", 27, 4);
  record(c);
}
TEST(OracleSweep, KCell) {
  record(sweep<games::kcell::State>("kcell:n=3,k=15", 28, 4));
}
TEST(OracleSweep, SolvedNQueens) {
  Counts c;
  for (const char* spec :
       {"nqueens:n=5,variant=1a", "nqueens:n=5,variant=1b", "nqueens:n=5,variant=2",
        "nqueens:n=6,variant=1a", "nqueens:n=6,variant=1b", "nqueens:n=6,variant=2",
        "nqueens:n=7,variant=1a", "nqueens:n=7,variant=1b"}) {
    c += solve_small<games::nqueens::State>(spec, 31);
  }
  record(c);
}
TEST(OracleSweep, SolvedKCell) {
  Counts c;
  for (const char* spec : {"kcell:n=2,k=6", "kcell:n=3,k=8", "kcell:n=3,k=9", "kcell:n=4,k=10"}) {
    c += solve_small<games::kcell::State>(spec, 32);
  }
  record(c);
}

}  // namespace
}  // namespace duel::search
