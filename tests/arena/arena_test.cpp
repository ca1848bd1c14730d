// The arena's random openings: both games of a pair start from the same
// position, reached by the stated number of random plies, never a finished
// one, and the same seed gives the same openings.
#include <gtest/gtest.h>

#include "duel/arena/arena.hpp"
#include "duel/games/kcell/kcell.hpp"
#include "duel/games/minichess/minichess.hpp"
#include "duel/registry/agents.hpp"

namespace duel::arena {
namespace {

using games::minichess::Cs3243State;

TEST(Arena, RandomOpeningsArePlayableAndRepeatable) {
  const Cs3243State start;
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    const auto a = random_opening(start, 6, seed);
    const auto b = random_opening(start, 6, seed);
    EXPECT_EQ(a.to_text(), b.to_text());
    EXPECT_FALSE(a.is_terminal()) << a.to_text();
    EXPECT_EQ(a.position().fullmove(), 4) << a.to_text();  // six plies: move 4, White to move
  }
  EXPECT_NE(random_opening(start, 6, 1).to_text(), random_opening(start, 6, 2).to_text());
}

TEST(Arena, GivesUpOnOpeningsLongerThanTheGame) {
  // KCell with one piece each on 3 cells ends within a few plies: no 30-ply
  // opening exists, so the games start from the start.
  const games::kcell::State start(1, 3);
  EXPECT_EQ(random_opening(start, 30, 5).to_text(), start.to_text());
}

TEST(Arena, EachOpeningIsPlayedWithBothColours) {
  // Two `first` agents are deterministic: with an opening per pair, games 2p
  // and 2p+1 mirror each other, so a pair ends 1-1 or 0.5-0.5, never 2-0.
  using S = Cs3243State;
  const auto make = [](int, std::uint64_t seed) {
    return registry::make_agent<S>("first", registry::AgentContext{seed}).value();
  };
  for (int pair = 0; pair < 6; ++pair) {
    ArenaOptions options{2, static_cast<std::uint64_t>(pair), {}, 4};
    const Score s = run_arena<S>(S(), make, options);
    EXPECT_EQ(s.wins, s.losses) << "pair " << pair;
  }
}

}  // namespace
}  // namespace duel::arena
