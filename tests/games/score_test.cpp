// One score scale for every front end (games/score.hpp): an estimate in the
// game's unit from the first player's view, a proven result as the winner's
// moves. Expected values: a pawn is kE0Scale (50) in the 5x5 chess games
// and a man 100 in checkers (docs/engine.md § Scores); a win in p plies is
// the winner's (p + 1) / 2 moves when the winner moves first, else p / 2.
#include <gtest/gtest.h>

#include "duel/games/kcell/kcell.hpp"
#include "duel/games/nqueens/nqueens.hpp"
#include "duel/games/score.hpp"

namespace duel::games {
namespace {

using Gardner = minichess::GardnerState;
using Cs3243 = minichess::Cs3243State;

TEST(Score, EstimatesInTheGamesUnitFromTheFirstPlayersView) {
  // A queen up: 526 engine units is 10.52 pawns (once "0.01" in `duel search`).
  EXPECT_EQ(score_of<Gardner>(526, false, Player::First).text, "+10.52");
  EXPECT_EQ(*score_of<Gardner>(526, false, Player::Second).units, 10.52);
  EXPECT_EQ(score_of<Gardner>(-25, false, Player::Second).text, "-0.50");
  EXPECT_EQ(score_of<Gardner>(0, false, Player::First).text, "0.00");
  EXPECT_EQ(score_of<Gardner>(-1, false, Player::First).text, "-0.02");
  EXPECT_EQ(score_of<nqueens::State>(-1, false, Player::First).text, "0.00");  // no "-0.00"
  EXPECT_EQ(score_of<Gardner>(25, false, Player::First).unit, "pawns");
  // Checkers: Black moves first, so +1.50 is Black's.
  const Score men = score_of<checkers::State>(150, false, Player::Second);
  EXPECT_EQ(men.text, "+1.50");
  EXPECT_EQ(men.unit, "men");
  EXPECT_EQ(score_line<checkers::State>(men), "+1.50 men (Black's view)");
  EXPECT_EQ(score_line<Gardner>(score_of<Gardner>(526, false, Player::First)),
            "+10.52 pawns (White's view)");
  EXPECT_EQ(score_of<nqueens::State>(kUnit / 4, false, Player::First).text, "+0.25");
  EXPECT_EQ(score_of<nqueens::State>(kUnit / 4, false, Player::First).unit, "points");
}

TEST(Score, ProvenResultsAsTheWinnersMoves) {
  const Score mate = score_of<Gardner>(win_in(7), true, Player::First);
  EXPECT_EQ(mate.text, "White mates in 4");
  EXPECT_EQ(*mate.wins_in, 4);
  EXPECT_FALSE(mate.units.has_value());
  EXPECT_EQ(score_of<Gardner>(-win_in(6), true, Player::First).text, "Black mates in 3");
  EXPECT_EQ(*score_of<Gardner>(-win_in(6), true, Player::First).wins_in, -3);
  EXPECT_EQ(score_of<Gardner>(win_in(2), true, Player::Second).text, "White mates in 1");
  // King-capture rules win without a mate.
  EXPECT_EQ(score_of<Cs3243>(win_in(1), true, Player::First).text, "White wins in 1");
  EXPECT_EQ(score_of<checkers::State>(win_in(3), true, Player::First).text, "Black wins in 2");
  const Score by3 = score_of<nqueens::State>(terminal_value(3, 5), true, Player::First);
  EXPECT_EQ(by3.text, "Player 1 wins by 3 in 3");
  EXPECT_EQ(by3.by, 3);
  EXPECT_EQ(score_of<Gardner>(kDraw, true, Player::First).text, "draw");
  EXPECT_EQ(score_line<Gardner>(score_of<Gardner>(kDraw, true, Player::First)), "draw (proven)");
}

}  // namespace
}  // namespace duel::games
