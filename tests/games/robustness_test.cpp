// Bad input never crashes a parser, and a searching agent keeps to its clock.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <string>
#include <utility>

#include "duel/agents/search_agents.hpp"
#include "duel/games/kcell/kcell.hpp"
#include "duel/games/minichess/minichess.hpp"
#include "duel/play/match.hpp"
#include "duel/registry/agents.hpp"
#include "duel/registry/games.hpp"

namespace duel {
namespace {

// Strings made mostly of the characters the parsers care about.
rc::Gen<std::string> messy_text() {
  return rc::gen::container<std::string>(
      rc::gen::oneOf(rc::gen::elementOf(std::string("nqueskcl:=,0123456789-+ ./XOox_[]?BWbwKEJ\n")),
                     rc::gen::arbitrary<char>()));
}

RC_GTEST_PROP(Robustness, SpecsAndPositionsNeverCrash, ()) {
  const std::string text = *messy_text();
  (void)registry::make_game(text);
  (void)registry::make_game("nqueens:n=5,variant=2", text);
  (void)registry::make_game("nqueens:n=4,variant=1b", text);
  (void)registry::make_game("kcell:n=2,k=7", text);
  (void)registry::make_game("checkers", text);
  (void)registry::make_agent<games::kcell::State>(text);
  const auto err = Spec::parse(text);
  if (!err) RC_ASSERT(err.error().find('\n') == std::string::npos);
}

RC_GTEST_PROP(Robustness, MovesNeverCrash, ()) {
  const std::string text = *messy_text();
  for (const char* spec :
       {"nqueens:n=6,variant=1a", "nqueens:n=6,variant=2", "kcell:n=2,k=7", "checkers"}) {
    auto game = registry::make_game(spec);
    RC_ASSERT(game.ok());
    std::visit(
        [&](const auto& s) {
          const auto m = s.parse_move(text);
          if (m) {
            // Whatever parses is legal.
            typename std::decay_t<decltype(s)>::Moves legal;
            s.actions(legal);
            bool found = false;
            for (const auto& x : legal) found = found || x == *m;
            RC_ASSERT(found);
          } else {
            RC_ASSERT(m.error().find('\n') == std::string::npos);
          }
        },
        *game);
  }
}

TEST(Robustness, EngineKeysAreChecked) {
  // The engine's keys (registry/agents.hpp); the switches it once had
  // (nmp, lmr, ..., qs, rep) are unknown keys now: its search is the game's.
  using S = games::minichess::GardnerState;
  EXPECT_TRUE(registry::make_agent<S>("engine:depth=2,hash=8,soft=0.7,contempt=-25").ok());
  const std::pair<const char*, const char*> bad[] = {{"engine:nmp=1", "unknown option 'nmp'"},
                                                     {"engine:lmr=0", "unknown option 'lmr'"},
                                                     {"engine:qs=0", "unknown option 'qs'"},
                                                     {"engine:rep=1", "unknown option 'rep'"},
                                                     {"engine:soft=2", "soft"},
                                                     {"engine:hash=0", "hash"},
                                                     {"engine:hash=16385", "hash"},
                                                     {"engine:contempt=1001", "contempt"},
                                                     {"engine:contempt=x", "contempt"},
                                                     {"alphabeta:rfp=0", "rfp"},
                                                     {"alphabeta:contempt=5", "contempt"}};
  for (const auto& [spec, says] : bad) {
    const auto a = registry::make_agent<S>(spec);
    ASSERT_FALSE(a.ok()) << spec;
    EXPECT_NE(a.error().find(says), std::string::npos) << a.error();
    EXPECT_EQ(a.error().find('\n'), std::string::npos) << a.error();
  }
  auto agent = registry::make_agent<S>("engine:depth=5");
  ASSERT_TRUE(agent.ok());
  const S start;
  const auto m = (*agent)->choose(start, agents::MoveClock{});
  ASSERT_TRUE(m.has_value());
  S::Moves legal;
  start.actions(legal);
  EXPECT_NE(std::find(legal.begin(), legal.end(), *m), legal.end());
}

TEST(Robustness, EngineThreadsIsACheckedKey) {
  // threads=N: 1 to 64 search threads (registry/agents.hpp), as hash= is checked.
  using S = games::kcell::State;
  for (const char* good : {"engine:threads=1", "engine:threads=2,depth=3", "engine:threads=64"}) {
    EXPECT_TRUE(registry::make_agent<S>(good).ok()) << good;
  }
  for (const char* spec :
       {"engine:threads=0", "engine:threads=65", "engine:threads=x", "alphabeta:threads=2"}) {
    const auto a = registry::make_agent<S>(spec);
    ASSERT_FALSE(a.ok()) << spec;
    EXPECT_NE(a.error().find("threads"), std::string::npos) << a.error();
    EXPECT_EQ(a.error().find('\n'), std::string::npos) << a.error();
  }
  // Two threads play legal moves to a depth.
  auto agent = registry::make_agent<S>("engine:depth=6,threads=2,hash=4");
  ASSERT_TRUE(agent.ok());
  const S start(3, 15);
  const auto m = (*agent)->choose(start, agents::MoveClock{});
  ASSERT_TRUE(m.has_value());
  S::Moves legal;
  start.actions(legal);
  EXPECT_NE(std::find(legal.begin(), legal.end(), *m), legal.end());
}

TEST(Robustness, EngineKeepsToTheMoveClock) {
  // Every move under a 0.2 s limit: the agent plans for 80% of it minus 2 ms,
  // so only a stall of the whole machine could push it over.
  using S = games::kcell::State;
  auto a = registry::make_agent<S>("engine:eval=tempo");
  auto b = registry::make_agent<S>("alphabeta:time=10");
  ASSERT_TRUE(a.ok() && b.ok());
  const auto record = play::play_match<S>(S(3, 15), {a->get(), b->get()}, {0.2, 0});
  EXPECT_NE(record.ending, play::Ending::Timeout) << record.reason;
  EXPECT_NE(record.ending, play::Ending::IllegalMove) << record.reason;
  for (const auto& m : record.moves) EXPECT_LT(m.seconds, 0.2);
}

}  // namespace
}  // namespace duel
