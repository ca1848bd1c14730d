// Duel against Duel over UCI: the `uci:` agent runs `duel uci` as its engine
// in each of the three rule sets, so both ends of the protocol agree with
// each other (each is also tested against Fairy-Stockfish on its own).
#include <gtest/gtest.h>

#include "duel/games/minichess/minichess.hpp"
#include "duel/play/match.hpp"
#include "duel/registry/agents.hpp"

namespace duel::agents {
namespace {

template <class S>
void plays_a_whole_game() {
  auto engine = registry::make_agent<S>(std::string("uci:cmd=") + DUEL_BIN + " uci,depth=2");
  ASSERT_TRUE(engine.ok()) << engine.error();
  auto opponent = registry::make_agent<S>("random:seed=5").value();
  play::MatchOptions options;
  options.max_turns = 40;
  const auto record = play::play_match<S>(S(), {engine->get(), opponent.get()}, options);
  // Every move of the UCI side was legal and came with a report; the game
  // ended by the rules or the turn limit, never by the engine failing.
  EXPECT_NE(record.ending, play::Ending::Abandoned) << record.reason;
  EXPECT_NE(record.ending, play::Ending::IllegalMove) << record.reason;
  EXPECT_GE(record.moves.size(), 1u);
  for (const auto& m : record.moves) {
    if (m.player == Player::First) {
      ASSERT_TRUE(m.report.has_value()) << m.text;
      EXPECT_EQ(m.report->algorithm, "uci");
      EXPECT_GE(m.report->depth, 1);
    }
  }
}

TEST(UciInterop, GardnerThroughDuelUci) {
  plays_a_whole_game<games::minichess::GardnerState>();
}
TEST(UciInterop, Cs3243ThroughDuelUci) {
  plays_a_whole_game<games::minichess::Cs3243State>();
}
TEST(UciInterop, Comp472ThroughDuelUci) {
  plays_a_whole_game<games::minichess::Comp472State>();
}

}  // namespace
}  // namespace duel::agents
