// The conformance suite every game passes (DESIGN habit 8), over seeded
// random playouts: text round trip, key from the text = key of the played
// state, result() leaves its input untouched, terminal states have no moves,
// a payoff in range and a cause for their end, non-terminal ones have moves
// and no cause, every move's notation parses back to it, and deterministic
// heuristics are colour-flip symmetric where the game can flip colours.
#include <gtest/gtest.h>

#include <tuple>

#include "duel/core/rng.hpp"
#include "duel/games/game.hpp"
#include "duel/registry/games.hpp"

namespace duel::games {
namespace {

template <class S>
concept HasFlip = requires(const S& s) {
  { s.flipped() } -> std::same_as<S>;
};

template <PlayableGame S>
void check_state(const S& s) {
  // Text round trip, and the key of the parsed state equals the played one.
  const auto parsed = s.from_text(s.to_text());
  ASSERT_TRUE(parsed.ok()) << s.to_text() << ": " << parsed.error();
  EXPECT_EQ(parsed->to_text(), s.to_text());
  EXPECT_EQ(parsed->key(), s.key()) << s.to_text();
  EXPECT_EQ(parsed->to_move(), s.to_move());
  // A position's text carries no history, so a draw by repetition is the one
  // end the parsed state cannot see (as in chess FEN).
  bool history_matters = false;
  if constexpr (requires { s.repetitions(); }) history_matters = s.repetitions() > 0;
  if (!history_matters) {
    EXPECT_EQ(parsed->is_terminal(), s.is_terminal()) << s.to_text();
  }

  typename S::Moves moves;
  s.actions(moves);
  EXPECT_EQ(s.end_cause().empty(), !s.is_terminal()) << s.to_text() << ": " << s.end_cause();
  if (s.is_terminal()) {
    const Value u = s.utility();
    EXPECT_LE(u < 0 ? -u : u, kMaxPayoff);
    return;
  }
  EXPECT_FALSE(moves.empty()) << "non-terminal state without moves: " << s.to_text();
  const std::string before = s.to_text();
  const std::uint64_t key_before = s.key();
  for (const auto& m : moves) {
    const auto back = s.parse_move(s.move_text(m));
    ASSERT_TRUE(back.ok()) << s.move_text(m) << ": " << back.error();
    EXPECT_EQ(*back, m) << s.move_text(m);
    (void)s.result(m);
  }
  EXPECT_EQ(s.to_text(), before) << "result() changed its input";
  EXPECT_EQ(s.key(), key_before);

  if constexpr (HasFlip<S>) {
    const S f = s.flipped();
    EXPECT_EQ(f.flipped().to_text(), s.to_text());
    EXPECT_EQ(f.to_move(), other(s.to_move()));
    // Every heuristic whose name does not say random is colour-symmetric.
    [&]<class... Hs>(std::tuple<Hs...>*) {
      (
          [&] {
            if (std::string_view(Hs::kName).find("random") != std::string_view::npos) return;
            Hs h{0};
            EXPECT_EQ(h(f), -h(s)) << Hs::kName << " at " << s.to_text();
          }(),
          ...);
    }(static_cast<typename S::Heuristics*>(nullptr));
  }
}

template <PlayableGame S>
void run_conformance(const S& start, int playouts, std::uint64_t seed) {
  Rng rng(seed);
  for (int p = 0; p < playouts; ++p) {
    S s = start;
    for (int ply = 0; ply < 400; ++ply) {
      check_state(s);
      if (::testing::Test::HasFatalFailure() || s.is_terminal()) break;
      typename S::Moves moves;
      s.actions(moves);
      s = s.result(moves[rng.below(moves.size())]);
    }
    EXPECT_TRUE(s.is_terminal()) << start.spec() << " playout did not end";
  }
}

class Conformance : public ::testing::TestWithParam<const char*> {};

TEST_P(Conformance, RandomPlayouts) {
  auto game = registry::make_game(GetParam());
  ASSERT_TRUE(game.ok()) << game.error();
  std::visit([](const auto& s) { run_conformance(s, 40, 2024); }, *game);
}

INSTANTIATE_TEST_SUITE_P(Games, Conformance,
                         ::testing::Values("nqueens:n=1,variant=1a", "nqueens:n=6,variant=1a",
                                           "nqueens:n=9,variant=1b", "nqueens:n=7,variant=2",
                                           "nqueens:n=32,variant=2", "nqueens:n=32,variant=1b",
                                           "kcell:n=2,k=7", "kcell:n=3,k=15", "kcell:n=1,k=3",
                                           "kcell:n=5,k=30", "gardner", "gardner-cs3243",
                                           "minichess-comp472", "minichess-comp472:max-turns=2",
                                           "gardner:draw-plies=8", "checkers",
                                           "checkers:draw-plies=6"));

}  // namespace
}  // namespace duel::games
