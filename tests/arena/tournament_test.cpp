// Tournaments: who meets whom, with which colours and openings, on how many
// threads; and adjudication by reported scores (cutechess-cli's -draw and
// -resign).
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "duel/arena/arena.hpp"
#include "duel/games/kcell/kcell.hpp"
#include "duel/games/minichess/minichess.hpp"
#include "duel/registry/agents.hpp"

namespace duel::arena {
namespace {

using games::minichess::GardnerState;

TEST(Tournament, PairingsOfRoundRobinAndGauntlet) {
  // n agents: n(n-1)/2 pairings in a round-robin, n-1 in a gauntlet.
  for (int n = 2; n <= 7; ++n) {
    EXPECT_EQ(pairings(n, Format::RoundRobin).size(), static_cast<std::size_t>(n * (n - 1) / 2));
    const auto g = pairings(n, Format::Gauntlet);
    EXPECT_EQ(g.size(), static_cast<std::size_t>(n - 1));
    for (const auto& p : g) EXPECT_EQ(p.a, 0);
  }
}

TEST(Tournament, ScheduleSwapsColoursOverEachOpening) {
  const auto pairs = pairings(4, Format::RoundRobin);
  const auto slots = schedule(pairs, 5, 42);
  ASSERT_EQ(slots.size(), pairs.size() * 5);
  std::map<int, int> per_pairing;
  std::set<std::uint64_t> seeds;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const GameSlot& s = slots[i];
    EXPECT_EQ(s.number, static_cast<int>(i));
    ++per_pairing[s.pairing];
    const Pairing& p = pairs[static_cast<std::size_t>(s.pairing)];
    // Even games: the pairing's first agent is Player 1; odd: the other.
    if (s.game % 2 == 0) {
      EXPECT_EQ(s.players, (std::array<int, 2>{p.a, p.b}));
    } else {
      EXPECT_EQ(s.players, (std::array<int, 2>{p.b, p.a}));
    }
    EXPECT_TRUE(seeds.insert(s.seed_a).second) << "every game has its own seeds";
  }
  for (const auto& [pairing, games] : per_pairing) EXPECT_EQ(games, 5) << pairing;
  // Opening pair by opening pair: all pairings play their first two games
  // before anyone plays a third.
  for (std::size_t i = 0; i < 2 * pairs.size(); ++i) EXPECT_LT(slots[i].game, 2);
}

TEST(Tournament, TheFirstPairingKeepsTheTwoAgentSeeds) {
  // Matches published with the two-agent arena (seed*1000003 + game) replay.
  const auto slots = schedule({{0, 1}}, 4, 9);
  for (int g = 0; g < 4; ++g) {
    EXPECT_EQ(slots[static_cast<std::size_t>(g)].seed_a, 9ULL * 1000003ULL + g);
  }
}

TEST(Tournament, OpeningListsCycleAndShuffleIsAPermutation) {
  const GardnerState start;
  Openings<GardnerState> o;
  for (int i = 0; i < 5; ++i) o.list.push_back(random_opening(start, 2, static_cast<unsigned>(i)));
  for (int p = 0; p < 10; ++p) {
    EXPECT_EQ(o.for_pair(start, p, 0).to_text(), o.list[static_cast<std::size_t>(p % 5)].to_text());
  }
  o.shuffle(3);
  std::set<std::string> seen;
  for (int p = 0; p < 5; ++p) seen.insert(o.for_pair(start, p, 3).to_text());
  EXPECT_EQ(seen.size(), 5u);
}

// Depth-limited agents are deterministic, so two threads must give every
// game the same result as one.
TEST(Tournament, ConcurrencyChangesNothingButSpeed) {
  using S = games::kcell::State;
  const S start(2, 7);
  const std::vector<std::string> specs = {"alphabeta:depth=2", "random", "engine:depth=3"};
  const auto make = [&](int agent, std::uint64_t seed) {
    return registry::make_agent<S>(specs[static_cast<std::size_t>(agent)],
                                   registry::AgentContext{seed})
        .value();
  };
  const auto slots = schedule(pairings(3, Format::RoundRobin), 6, 5);
  Openings<S> openings;
  openings.random_plies = 1;
  std::array<std::map<int, std::string>, 2> runs;
  for (int threads : {1, 2}) {
    TournamentOptions options;
    options.concurrency = threads;
    options.seed = 5;
    const int played =
        run_tournament<S>(start, slots, openings, make, options, [&](const GameResult<S>& r) {
          runs[threads - 1][r.slot.number] =
              r.record.final_state.to_text() + " " + std::to_string(r.record.payoff);
          return true;
        });
    EXPECT_EQ(played, static_cast<int>(slots.size()));
  }
  EXPECT_EQ(runs[0], runs[1]);
}

TEST(Tournament, StopsWhenTheCallerSaysSo) {
  using S = games::kcell::State;
  const auto make = [](int, std::uint64_t seed) {
    return registry::make_agent<S>("random", registry::AgentContext{seed}).value();
  };
  const auto slots = schedule({{0, 1}}, 100, 1);
  for (int threads : {1, 2}) {
    TournamentOptions options;
    options.concurrency = threads;
    int seen = 0;
    const int played = run_tournament<S>(S(2, 7), slots, {}, make, options,
                                         [&](const GameResult<S>&) { return ++seen < 10; });
    // The tenth game stops it; with two threads one more may be running.
    EXPECT_GE(played, 10);
    EXPECT_LE(played, 10 + threads - 1);
    EXPECT_EQ(played, seen);
  }
}

// An agent that plays the first legal move and reports a fixed score from
// its own view.
template <class S>
class Scripted final : public agents::Agent<S> {
 public:
  Scripted(Value own, bool report) : m_own(own), m_report(report) {}
  std::optional<typename S::Move> choose(const S& state, const agents::MoveClock&) override {
    typename S::Moves moves;
    state.actions(moves);
    m_last.value = state.to_move() == Player::First ? m_own : -m_own;
    return moves[0];
  }
  [[nodiscard]] std::string name() const override { return "scripted"; }
  [[nodiscard]] const agents::SearchReport* last_report() const override {
    return m_report ? &m_last : nullptr;
  }

 private:
  Value m_own;
  bool m_report;
  agents::SearchReport m_last;
};

TEST(Adjudication, ResignAfterEnoughLostScores) {
  using S = GardnerState;
  Scripted<S> white(0, true);
  Scripted<S> black(-500, true);  // Black thinks it is lost
  play::MatchOptions options;
  options.adjudication.resign_count = 3;
  options.adjudication.resign_score = 400;
  const auto record = play::play_match<S>(S(), {&white, &black}, options);
  EXPECT_EQ(record.ending, play::Ending::Adjudicated);
  EXPECT_EQ(record.payoff, 1);
  EXPECT_EQ(record.moves.size(), 6u);  // Black's third move
  EXPECT_NE(record.reason.find("resigns"), std::string::npos) << record.reason;
}

TEST(Adjudication, DrawOnlyAfterTheMoveNumberAndOnlyWithScores) {
  using S = GardnerState;
  play::MatchOptions options;
  options.adjudication.draw_after = 5;
  options.adjudication.draw_count = 2;
  options.adjudication.draw_score = 10;
  {
    Scripted<S> a(3, true);
    Scripted<S> b(-8, true);
    const auto record = play::play_match<S>(S(), {&a, &b}, options);
    EXPECT_EQ(record.ending, play::Ending::Adjudicated);
    EXPECT_EQ(record.payoff, 0);
    EXPECT_EQ(record.moves.size(), 10u);  // 5 turns, the draw_after
  }
  {
    // One side's score out of the window: no draw by adjudication.
    Scripted<S> a(3, true);
    Scripted<S> b(-11, true);
    const auto record = play::play_match<S>(S(), {&a, &b}, options);
    EXPECT_NE(record.ending, play::Ending::Adjudicated);
  }
  {
    // Agents that report nothing are never adjudicated.
    Scripted<S> a(0, false);
    Scripted<S> b(0, false);
    const auto record = play::play_match<S>(S(), {&a, &b}, options);
    EXPECT_NE(record.ending, play::Ending::Adjudicated);
  }
}

}  // namespace
}  // namespace duel::arena
