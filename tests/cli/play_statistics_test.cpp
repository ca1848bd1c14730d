// The statistics under a program's move agree with each other (seed 004
// §2.5 3.2, RULES.md §2): the states a move's line counts ("minimax to
// depth 2: 69 states") are what the cumulative count since the start of
// the game grows by, earlier iterations of iterative deepening included,
// and the per-depth breakdown sums to the cumulative count; for minimax,
// alpha-beta and the engine, across several moves, in the tally itself
// and on the screen of `duel play`.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <numeric>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "../support/cli_run.hpp"
#include "duel/games/minichess/minichess.hpp"
#include "duel/play/comp472_trace.hpp"
#include "duel/play/match.hpp"
#include "duel/registry/agents.hpp"

namespace {

using duel::Player;
using duel::games::minichess::GardnerState;
using duel::test_support::CliRun;
using duel::test_support::duel;

std::uint64_t sum(const std::vector<std::uint64_t>& v) {
  return std::accumulate(v.begin(), v.end(), std::uint64_t{0});
}

// Specs of each kind that deepen one ply at a time: minimax and alpha-beta
// with a clock of their own (agents/search_agents.hpp), the engine always.
struct Pairing {
  const char* white;
  const char* black;
  int white_depth;  // the roots a deepening plain search visits a move: 1..depth
};

TEST(PlayStatistics, TheTallyGrowsByEachMovesStates) {
  for (const Pairing p : {Pairing{"minimax:depth=2,time=30", "alphabeta:depth=3,time=30", 2},
                          Pairing{"alphabeta:depth=3,time=30", "engine:depth=4", 3},
                          Pairing{"engine:depth=3", "minimax:depth=2,time=30", 0}}) {
    auto white = duel::registry::make_agent<GardnerState>(p.white);
    auto black = duel::registry::make_agent<GardnerState>(p.black);
    ASSERT_TRUE(white.ok() && black.ok()) << p.white << " / " << p.black;
    const std::array<duel::play::PlayerSetup, 2> setup = {
        duel::play::player_setup<GardnerState>(p.white),
        duel::play::player_setup<GardnerState>(p.black)};
    duel::play::AiTally<GardnerState> tally(setup);
    std::array<std::uint64_t, 2> before{};
    int moves = 0;
    const auto observe = [&](const GardnerState& after,
                             const duel::play::MoveRecord<GardnerState>& m) {
      ++moves;
      ASSERT_TRUE(m.report.has_value()) << p.white << ": every move here is searched";
      const auto side = static_cast<std::size_t>(duel::index(m.player));
      const auto& own = m.report->stats;
      const duel::play::AiFacts facts = tally.add(after, m);
      const std::uint64_t total = facts.cumulative.nodes();
      // The move's count, the cumulative count's growth and the depths' sum.
      EXPECT_EQ(sum(own.depth_counts()), own.nodes()) << "move " << moves;
      EXPECT_EQ(total, before[side] + own.nodes()) << "move " << moves;
      EXPECT_EQ(sum(facts.cumulative.depth_counts()), total) << "move " << moves;
      // Earlier iterations count: a plain search deepened to depth D under
      // its clock visits the root D times; the engine at least twice.
      if (side == 0 && p.white_depth > 0) {
        EXPECT_EQ(own.by_depth[0], static_cast<std::uint64_t>(p.white_depth)) << p.white;
      }
      EXPECT_GE(own.by_depth[0], 2U) << (side == 0 ? p.white : p.black);
      // The lines as printed: the total in the seed's short form.
      const auto lines =
          duel::play::cumulative_lines(facts.cumulative, facts.nominal_depth, facts.whose);
      EXPECT_EQ(lines[0], "cumulative states explored (" + facts.whose +
                              " searches): " + duel::play::short_count(total));
      before[side] = total;
    };
    duel::play::MatchOptions options;
    options.max_turns = 3;
    const auto rec = duel::play::play_match<GardnerState>(
        GardnerState{}, {white->get(), black->get()}, options, observe);
    EXPECT_EQ(rec.moves.size(), 6U) << p.white << " vs " << p.black << ": " << rec.reason;
  }
}

// One program's numbers on the screen after one move.
struct Shown {
  std::string side;
  std::uint64_t states = 0;      // "... to depth D: N states"
  std::uint64_t cumulative = 0;  // "cumulative states explored (...): C"
  std::uint64_t by_depth = 0;    // the sum of "cumulative states explored by depth: 0=a 1=b"
};

// Every program move of a `duel play` screen; counts must be written in
// full (under 1000), which the games below keep to.
std::vector<Shown> read_screen(const std::string& out) {
  static const std::regex kMove(R"(^\d+\. (\w+) plays )");
  static const std::regex kStates(R"(^   \w+ to depth \d+: (\d+) states)");
  static const std::regex kTotal(R"(^   cumulative states explored \(.*\): (\S+)$)");
  static const std::regex kDepths(R"(^   cumulative states explored by depth: (.*)$)");
  static const std::regex kEntry(R"((\d+\+?)=(\S+))");
  const auto whole = [](const std::string& s) {
    EXPECT_EQ(s.find_first_not_of("0123456789"), std::string::npos)
        << "'" << s << "' is not written in full: pick smaller searches";
    return std::stoull(s);
  };
  std::vector<Shown> out_moves;
  std::istringstream in(out);
  std::string side;
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, kMove)) {
      side = m[1];
    } else if (std::regex_search(line, m, kStates)) {
      out_moves.push_back({side, whole(m[1]), 0, 0});
    } else if (std::regex_search(line, m, kTotal) && !out_moves.empty()) {
      out_moves.back().cumulative = whole(m[1]);
    } else if (std::regex_search(line, m, kDepths) && !out_moves.empty()) {
      const std::string entries = m[1];
      for (std::sregex_iterator e(entries.begin(), entries.end(), kEntry), end; e != end; ++e) {
        out_moves.back().by_depth += whole((*e)[2]);
      }
    }
  }
  return out_moves;
}

TEST(PlayStatistics, TheScreenAgreesWithItself) {
  for (const std::string players :
       {"--white minimax:depth=2,time=30 --black alphabeta:depth=2,time=30",
        "--white engine:depth=2 --black minimax:depth=1,time=30"}) {
    const CliRun r = duel("play gardner " + players + " --max-turns 3");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto moves = read_screen(r.out);
    ASSERT_EQ(moves.size(), 6U) << r.out;  // three turns, both sides programs
    std::uint64_t white = 0;
    std::uint64_t black = 0;
    for (const Shown& s : moves) {
      std::uint64_t& so_far = s.side == "White" ? white : black;
      so_far += s.states;
      EXPECT_EQ(s.cumulative, so_far) << s.side << "\n" << r.out;
      EXPECT_EQ(s.by_depth, s.cumulative) << s.side << "\n" << r.out;
    }
  }
}

}  // namespace
