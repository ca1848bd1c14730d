// The engine in a game whose rules look back: a threefold repetition and a
// draw clock make a position's future depend on how the game came to it,
// while the transposition table's key holds the position alone. Whatever
// the table holds from earlier searches (of the same game or another), a
// result the engine calls exact must be the game's value (search::HasMemory,
// docs/engine.md "A node").
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "../support/synthetic_tree.hpp"
#include "duel/core/move_list.hpp"
#include "duel/core/rng.hpp"
#include "duel/search/engine.hpp"

namespace duel::search {
namespace {

using test_support::KeyHeuristic;
using test_support::oracle_value;

// A few places joined by one-way roads, some of which form loops; a player
// moves the one token along a road. Some places end the game with a payoff;
// the game is drawn when a place comes up for the third time with the same
// player to move, or when the clock (plies since the start) reaches its
// limit. Each place's roads and payoff are a pure function of (seed, place).
struct LoopShape {
  std::uint64_t seed = 0;
  int places = 4;             // 2..6
  int max_roads = 2;          // 1..3 roads out of a place
  int terminal_percent = 20;  // chance that a place (not the first) ends the game
  int clock_limit = 10;       // plies from the start to the draw, at most 15
};

class LoopGame {
 public:
  using Move = std::uint8_t;  // the road's index
  using Moves = MoveList<Move, 3>;

  explicit LoopGame(const LoopShape& shape) : m_shape(shape) {}

  [[nodiscard]] Player to_move() const noexcept { return m_to_move; }
  [[nodiscard]] bool is_terminal() const noexcept {
    return ends_here(m_place) || m_repetitions >= 2 || m_clock >= m_shape.clock_limit;
  }
  [[nodiscard]] Value utility() const noexcept {
    if (!ends_here(m_place)) return 0;  // a repetition or the clock: a draw
    return static_cast<Value>(attribute(m_place, 3) % 3) - 1;
  }
  void actions(Moves& out) const {
    out.clear();
    if (is_terminal()) return;
    const int roads = 1 + static_cast<int>(attribute(m_place, 1) % m_shape.max_roads);
    for (int i = 0; i < roads; ++i) out.push_back(static_cast<Move>(i));
  }
  [[nodiscard]] LoopGame result(const Move& m) const {
    LoopGame next = *this;
    next.m_history[static_cast<std::size_t>(m_history_len)] = key();
    ++next.m_history_len;
    next.m_place = road(m);
    next.m_to_move = other(m_to_move);
    ++next.m_clock;
    next.m_repetitions = 0;
    next.m_repetition_distance = 0;
    const std::uint64_t k = next.key();
    for (int i = next.m_history_len - 1; i >= 0; --i) {
      if (next.m_history[static_cast<std::size_t>(i)] != k) continue;
      if (next.m_repetitions++ == 0) next.m_repetition_distance = next.m_history_len - i;
    }
    return next;
  }
  // The place and the player to move: not the history, not the clock.
  [[nodiscard]] std::uint64_t key() const noexcept {
    return mix64(m_shape.seed * 64 + static_cast<std::uint64_t>(m_place) * 2 +
                 (m_to_move == Player::First ? 0U : 1U));
  }
  [[nodiscard]] int repetitions() const noexcept { return m_repetitions; }
  [[nodiscard]] int repetition_distance() const noexcept { return m_repetition_distance; }
  [[nodiscard]] bool memoryless() const noexcept { return m_history_len == 0 && m_clock == 0; }

  friend bool operator==(const LoopGame&, const LoopGame&) = default;

 private:
  static constexpr int kMaxHistory = 16;  // above any clock limit

  [[nodiscard]] std::uint64_t attribute(int place, std::uint64_t which) const noexcept {
    return mix64(mix64(m_shape.seed ^ 0x1009ULL) + static_cast<std::uint64_t>(place) * 31 + which);
  }
  [[nodiscard]] bool ends_here(int place) const noexcept {
    return place > 0 && static_cast<int>(attribute(place, 0) % 100) < m_shape.terminal_percent;
  }
  [[nodiscard]] int road(Move m) const noexcept {
    return static_cast<int>(attribute(m_place, 10 + m) %
                            static_cast<std::uint64_t>(m_shape.places));
  }

  LoopShape m_shape;
  int m_place = 0;
  Player m_to_move = Player::First;
  int m_clock = 0;
  int m_repetitions = 0;
  int m_repetition_distance = 0;
  int m_history_len = 0;
  std::array<std::uint64_t, kMaxHistory> m_history{};
};

static_assert(GameState<LoopGame>);
static_assert(HasRepetitionDistance<LoopGame>);
static_assert(HasMemory<LoopGame>);

// A random shape and walk, drawn from `rng`.
LoopShape any_loop_shape(Rng& rng) {
  LoopShape shape;
  shape.seed = rng.next();
  shape.places = 2 + static_cast<int>(rng.below(5));
  shape.max_roads = 1 + static_cast<int>(rng.below(3));
  shape.terminal_percent = static_cast<int>(rng.below(40));
  shape.clock_limit = 4 + static_cast<int>(rng.below(7));
  return shape;
}

// A walk of up to six moves from `s`, each road picked at random, stopping
// at the end of the game.
LoopGame walk(LoopGame s, Rng& rng) {
  const auto plies = rng.below(7);
  for (std::uint64_t i = 0; i < plies; ++i) {
    LoopGame::Moves moves;
    s.actions(moves);
    if (moves.empty()) break;
    s = s.result(moves[static_cast<std::size_t>(rng.below(moves.size()))]);
  }
  return s;
}

// The case that caught the rule's absence (found by a random search of
// such games): one game, its start searched, then the position two plies
// on (the first road twice), with one table. The first search stored, for a
// position it met after repeating another, an exact result that rested on
// that repetition or on the clock; the second met the position along
// another line and took the stored result as exact, calling the game lost
// (-99996) where minimax over the whole game finds a draw.
TEST(EngineHistory, ALaterSearchOfTheSameGameIsNotMisledByAnEarlierOne) {
  const LoopGame start(LoopShape{.seed = 23165478359440998,
                                 .places = 3,
                                 .max_roads = 3,
                                 .terminal_percent = 11,
                                 .clock_limit = 5});
  const LoopGame later = start.result(0).result(0);
  ASSERT_FALSE(later.is_terminal());
  const KeyHeuristic eval{};
  Engine<LoopGame, KeyHeuristic> engine(eval, EngineOptions{.hash_mb = 1});
  for (const LoopGame& root : {start, later}) {
    const auto r = engine.search(root, Limits{.depth = 5});
    ASSERT_TRUE(r.best.has_value());
    if (r.exact) {
      EXPECT_EQ(r.value, oracle_value(root, 0, eval));
    }
  }
}

// Two searches with one table: the first of a position of the game, the
// second of a later one (the same game walked on) or of another game's
// position (a new game without clearing the table). Each result called
// exact must be minimax's over the whole game from that position, its
// history and clock included. Most results are exact, so the check is not
// empty.
TEST(EngineHistory, ExactMeansTheGameValueWhateverTheTableHolds) {
  Rng rng(2611);
  const KeyHeuristic eval{};
  int exact = 0;
  int searched = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const LoopShape shape = any_loop_shape(rng);
    const LoopGame start(shape);
    const LoopGame first = walk(start, rng);
    const LoopGame second = walk(rng.below(2) == 0 ? first : start, rng);
    if (first.is_terminal() || second.is_terminal()) continue;
    Engine<LoopGame, KeyHeuristic> engine(eval, EngineOptions{.hash_mb = 1});
    for (const LoopGame& root : {first, second}) {
      // Every line ends within the clock's limit: at this depth every leaf
      // is an end of the game, and nothing else makes a result inexact.
      const auto r = engine.search(root, Limits{.depth = shape.clock_limit});
      ASSERT_TRUE(r.best.has_value());
      ++searched;
      if (!r.exact) continue;
      ++exact;
      ASSERT_EQ(r.value, oracle_value(root, 0, eval)) << "trial " << trial;
    }
  }
  EXPECT_GT(exact, searched / 2) << exact << " of " << searched << " searches exact";
}

}  // namespace
}  // namespace duel::search
