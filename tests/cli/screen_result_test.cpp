// The result line of `duel play` (play/screen.hpp) as players read it: the
// record format's token, the winner and why; N-Queens in its own words;
// a forfeit names the side that gave up; an unfinished game reads `*`.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "duel/games/checkers/checkers.hpp"
#include "duel/games/minichess/minichess.hpp"
#include "duel/games/nqueens/nqueens.hpp"
#include "duel/play/screen.hpp"

namespace {

using duel::play::Ending;
using duel::play::MatchRecord;
using duel::play::screen_result;

// `moves` played from `start` (any notation the game reads), ended by the rules.
template <class S>
MatchRecord<S> played(S start, const std::vector<std::string>& moves) {
  for (const auto& text : moves) {
    auto m = duel::games::read_move(start, text);
    EXPECT_TRUE(m.ok()) << text;
    if (!m) break;
    start = start.result(*m);
  }
  MatchRecord<S> rec;
  rec.final_state = start;
  rec.payoff = start.is_terminal() ? start.utility() : 0;
  return rec;
}

using Gardner = duel::games::minichess::GardnerState;

Gardner gardner_at(const std::string& fen) {
  auto s = Gardner{}.from_text(fen);
  EXPECT_TRUE(s.ok()) << fen;
  return *s;
}

TEST(ScreenResult, ChessEndingsReadAsPlayersWriteThem) {
  // Black's king e5, White's king e3: Qb5 mates (rank 5 and the king's squares).
  EXPECT_EQ(screen_result(played(gardner_at("4k/5/4K/5/1Q3 w - - 0 1"), {"Qb5"})),
            "1-0 White wins by checkmate");
  // Both knights out and back twice: the start position a third time.
  EXPECT_EQ(
      screen_result(played(Gardner{}, {"Na3", "Nc3", "Nb1", "Nb5", "Na3", "Nc3", "Nb1", "Nb5"})),
      "1/2-1/2 draw by repetition");
  // 99 plies without progress, then a king move: Gardner's 50-move rule
  // (draw-plies=100, RULES.md §1a).
  EXPECT_EQ(screen_result(played(gardner_at("k4/5/4K/5/1Q3 w - - 99 60"), {"Kd3"})),
            "1/2-1/2 draw by the 50-move rule");
}

TEST(ScreenResult, AForfeitNamesTheSideAndAnUnfinishedGameHasNoResult) {
  MatchRecord<Gardner> quit;
  quit.payoff = -1;
  quit.ending = Ending::Abandoned;
  quit.reason = "White (human) gave up";
  EXPECT_EQ(screen_result(quit), "0-1 Black wins: White gave up");
  MatchRecord<Gardner> slow = quit;
  slow.payoff = 1;
  slow.ending = Ending::Timeout;
  slow.reason = "Black (engine) took 0.700 s, over the 0.500 s limit";
  EXPECT_EQ(screen_result(slow),
            "1-0 White wins: Black (engine) took 0.700 s, over the 0.500 s limit");
  MatchRecord<Gardner> capped = quit;
  capped.payoff = 0;
  capped.ending = Ending::TurnLimit;
  capped.reason = "draw: 40 turns played";
  EXPECT_EQ(screen_result(capped), "1/2-1/2 draw: 40 turns played");
  MatchRecord<Gardner> open;  // the start, ended by nothing (a page's record mid-game)
  open.reason = "unfinished";
  EXPECT_EQ(screen_result(open), "* unfinished");
}

TEST(ScreenResult, CheckersTokensAreBlacksFirst) {
  // PDN (checkers/pdn.hpp): `1-0` is a win for Black, who moves first
  // (Player 1); a forfeit either way shows the token's side.
  MatchRecord<duel::games::checkers::State> rec;
  rec.payoff = 1;
  rec.ending = Ending::Abandoned;
  rec.reason = "White (human) gave up";
  EXPECT_EQ(screen_result(rec), "1-0 Black wins: White gave up");
  rec.payoff = -1;
  rec.reason = "Black (human) gave up";
  EXPECT_EQ(screen_result(rec), "0-1 White wins: Black gave up");
}

TEST(ScreenResult, NQueensSpeaksItsOwnWords) {
  // On a 2x2 board the first queen attacks every other square (RULES.md §3).
  auto start = duel::games::nqueens::State::from_spec(*duel::Spec::parse("nqueens:n=2,variant=2"));
  ASSERT_TRUE(start.ok());
  EXPECT_EQ(screen_result(played(*start, {"1,1"})),
            "Player 1 wins: Player 2 has no square left for a queen");
}

}  // namespace
