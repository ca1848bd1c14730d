// Seed 000's reference opponents `greedy`, `smart` and `minimax4` (RULES.md
// §1, "Seed 000's reference opponents"), on positions drawn in the tests.
#include <gtest/gtest.h>

#include "duel/agents/chess_opponents.hpp"
#include "duel/arena/arena.hpp"
#include "duel/core/rng.hpp"
#include "duel/games/nqueens/nqueens.hpp"
#include "duel/registry/agents.hpp"

namespace duel::agents {
namespace {

using games::minichess::Cs3243State;
using games::minichess::GardnerState;

template <class S>
S at(const char* fen) {
  auto s = S().from_text(fen);
  EXPECT_TRUE(s.ok()) << fen << ": " << (s.ok() ? "" : s.error());
  return *s;
}

TEST(ChessOpponents, BothTakeAMateInOne) {
  // Black king a5; White king b3 guards a4 and b4; the queen mates on d5
  // (rank 5 also covers b5) or on a4 (guarded by the king).
  const auto s = at<GardnerState>("k4/5/1K3/5/3Q1 w - - 0 1");
  for (std::uint64_t seed = 0; seed < 8; ++seed) {
    GreedyAgent<GardnerState> greedy(seed);
    SmartAgent<GardnerState> smart(seed);
    for (Agent<GardnerState>* a :
         {static_cast<Agent<GardnerState>*>(&greedy), static_cast<Agent<GardnerState>*>(&smart)}) {
      const auto m = a->choose(s, {});
      ASSERT_TRUE(m.has_value());
      const auto next = s.result(*m);
      EXPECT_TRUE(next.is_terminal()) << a->name() << " played " << s.move_text(*m);
      EXPECT_EQ(next.utility(), 1);
    }
  }
}

TEST(ChessOpponents, SmartTakesTheQueenNotTheKnight) {
  // The rook on c3 can take the queen on c5 (also giving check along rank 5)
  // or the knight on a3: queen 9 > knight 3.
  const auto s = at<GardnerState>("2q1k/5/n1R2/5/K4 w - - 0 1");
  for (std::uint64_t seed = 0; seed < 8; ++seed) {
    SmartAgent<GardnerState> smart(seed);
    EXPECT_EQ(s.move_text(*smart.choose(s, {})), "c3c5");
  }
}

TEST(ChessOpponents, SmartRanksCaptureAboveCheck) {
  // Rook a1: a1a5 checks the king on e5 along rank 5 but captures nothing;
  // a1c1 captures the knight without check (the king escapes to d4 or e4, so
  // the check is no mate). RULES.md: capture > check.
  const auto s = at<GardnerState>("4k/5/2K2/5/R1n2 w - - 0 1");
  SmartAgent<GardnerState> smart(1);
  EXPECT_EQ(s.move_text(*smart.choose(s, {})), "a1c1");
}

TEST(ChessOpponents, GreedyPrefersCheckToCapture) {
  // Same position: greedy has no mate, so it checks with a1a5, its only
  // checking move, rather than capture.
  const auto s = at<GardnerState>("4k/5/2K2/5/R1n2 w - - 0 1");
  for (std::uint64_t seed = 0; seed < 8; ++seed) {
    GreedyAgent<GardnerState> greedy(seed);
    EXPECT_EQ(s.move_text(*greedy.choose(s, {})), "a1a5");
  }
}

TEST(ChessOpponents, NeverLeaveTheirKingAttackedWhenASafeMoveExists) {
  // CS3243 lists every pseudo-legal move; the opponents must still play safe.
  Rng rng(42);
  for (int game = 0; game < 20; ++game) {
    Cs3243State s;
    GreedyAgent<Cs3243State> greedy(static_cast<std::uint64_t>(game));
    SmartAgent<Cs3243State> smart(static_cast<std::uint64_t>(game) + 100);
    Minimax4Agent<Cs3243State> minimax4(static_cast<std::uint64_t>(game) + 200);
    for (int ply = 0; ply < 80 && !s.is_terminal(); ++ply) {
      const bool has_safe = s.position().has_safe_move();
      Agent<Cs3243State>& a = (ply % 3 == 0)   ? static_cast<Agent<Cs3243State>&>(greedy)
                              : (ply % 3 == 1) ? static_cast<Agent<Cs3243State>&>(smart)
                                               : static_cast<Agent<Cs3243State>&>(minimax4);
      const auto m = *a.choose(s, {});
      if (has_safe) {
        EXPECT_TRUE(s.position().is_safe(m)) << a.name() << " " << s.move_text(m);
      }
      Cs3243State::Moves moves;
      s.actions(moves);
      // Mix in random moves so the games reach varied positions.
      s = s.result(rng.below(3) == 0 ? moves[rng.below(moves.size())] : m);
    }
  }
}

TEST(ChessOpponents, Minimax4TakesAMateInOne) {
  const auto s = at<GardnerState>("k4/5/1K3/5/3Q1 w - - 0 1");
  for (std::uint64_t seed = 0; seed < 4; ++seed) {
    Minimax4Agent<GardnerState> minimax4(seed);
    const auto next = s.result(*minimax4.choose(s, {}));
    EXPECT_TRUE(next.is_terminal());
    EXPECT_EQ(next.utility(), 1);
  }
}

TEST(ChessOpponents, Minimax4SeesTheRecaptureThatSmartMisses) {
  // The black rook on c4 attacks the queen on c1; c1c4 takes the rook (5) but
  // the bishop on d5 takes the queen back (9). Smart looks one ply ahead and
  // takes; minimax4 adds up the line (+205 − 209) and plays something else,
  // e.g. c1e3 with check on the e-file.
  const auto s = at<GardnerState>("3bk/2r2/5/5/K1Q2 w - - 0 1");
  for (std::uint64_t seed = 0; seed < 4; ++seed) {
    SmartAgent<GardnerState> smart(seed);
    EXPECT_EQ(s.move_text(*smart.choose(s, {})), "c1c4");
    Minimax4Agent<GardnerState> minimax4(seed);
    const auto m = *minimax4.choose(s, {});
    EXPECT_NE(s.move_text(m), "c1c4");
    // Whatever it plays keeps the queen: no black reply captures it.
    const auto after = s.result(m);
    GardnerState::Moves replies;
    after.actions(replies);
    for (const auto r : replies) {
      EXPECT_NE(after.position().piece_on(r.to()), games::minichess::Piece::Queen)
          << s.move_text(m) << " then " << after.move_text(r);
    }
    // Its statistics count the root at depth 0 and a full depth-4 tree.
    const auto* report = minimax4.last_report();
    ASSERT_NE(report, nullptr);
    EXPECT_EQ(report->stats.by_depth[0], 1U);
    EXPECT_GT(report->stats.by_depth[4], 0U);
    EXPECT_EQ(report->stats.by_depth[5], 0U);
  }
}

TEST(ChessOpponents, RegistryKnowsMinimax4ForChessOnly) {
  EXPECT_TRUE(registry::make_agent<Cs3243State>("minimax4:seed=3").ok());
  const auto bad = registry::make_agent<Cs3243State>("minimax4:depth=3");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("depth"), std::string::npos) << bad.error();
  const auto other = registry::make_agent<games::nqueens::State>("minimax4");
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.error().find("5x5 chess"), std::string::npos) << other.error();
}

TEST(ChessOpponents, EngineBeatsEveryReferenceOpponent) {
  // RULES.md: the seed's pass bar is 80-100% win-or-draw; Duel's goal is to
  // win every game. A depth-6 engine (deterministic, no clock) with colours
  // alternating over four games against each. (At depth 5, minimax4 holds
  // some games to a perpetual check.)
  using S = Cs3243State;
  for (const char* opponent : {"first", "random", "greedy", "smart", "minimax4"}) {
    const auto make = [&](int which, std::uint64_t seed) {
      return registry::make_agent<S>(which == 0 ? "engine:depth=6" : opponent,
                                     registry::AgentContext{seed})
          .value();
    };
    const auto score = arena::run_arena<S>(S(), make, {4, 7, {}});
    EXPECT_EQ(score.wins, 4) << opponent;
  }
}

}  // namespace
}  // namespace duel::agents
