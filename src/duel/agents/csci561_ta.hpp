#pragma once
// `csci561-ta`: the CSCI-561 course's reference agent (RULES.md §6a), the
// search of games/checkers/ta_reference.hpp behind the agent interface.
//
// Why its own agent: the course's reference decides its depth from what
// input.txt says (SINGLE or GAME, the play time left), not from a move
// clock, and breaks ties at random from a seed; `duel homework` hands it
// the mode and the time as the keys `mode=` and `left=` (play/homework.hpp).
// Where no input.txt is behind a move (an arena), it plays as with the
// course's full 300 s (§6a: course depth 4, 3 plies).
#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "duel/agents/agent.hpp"
#include "duel/core/clock.hpp"
#include "duel/games/checkers/checkers.hpp"
#include "duel/games/checkers/ta_reference.hpp"

namespace duel::agents {

struct Csci561TaSettings {
  std::uint64_t seed = 0;  // the tie-break's stream (ta_reference.hpp)
  int depth = 0;           // plies to look ahead; 0: by mode and time left (§6a)
  bool single = false;     // input.txt's SINGLE
  double left = 300.0;     // input.txt's play time left, seconds (§6a: 300 a game)
};

class Csci561TaAgent final : public Agent<games::checkers::State> {
 public:
  using State = games::checkers::State;
  explicit Csci561TaAgent(Csci561TaSettings settings) noexcept : m_settings(settings) {}

  // The plies this move looks ahead.
  [[nodiscard]] int depth() const noexcept {
    namespace ta = games::checkers::ta;
    return m_settings.depth > 0
               ? m_settings.depth
               : ta::lookahead(ta::course_depth(m_settings.single, m_settings.left));
  }

  std::optional<State::Move> choose(const State& state, const MoveClock& /*clock*/) override {
    WallClock wall;
    namespace ta = games::checkers::ta;
    const ta::Answer a = ta::search({state.position(), depth(), m_settings.seed});
    // Step 1. The report, from Black's view on Duel's scale (a win is a point).
    m_report = SearchReport{};
    m_report.algorithm = "csci561-ta";
    m_report.depth = depth();
    m_report.value = a.value == ta::kWhiteWins   ? -kUnit
                     : a.value == ta::kBlackWins ? kUnit
                                                 : -a.value;
    for (std::size_t ply = 0; ply < a.nodes_by_ply.size(); ++ply) {
      const std::size_t slot = std::min<std::size_t>(ply, search::kStatsDepths - 1);
      m_report.stats.by_depth[slot] += a.nodes_by_ply[ply];
      if (a.nodes_by_ply[ply] > 0) m_report.stats.max_depth = static_cast<int>(ply);
    }
    m_report.stats.seconds = wall.seconds();
    if (!a.move) return std::nullopt;
    // Step 2. The answer is one of the game's legal moves (a complete path).
    State::Moves legal;
    state.actions(legal);
    for (const State::Move& m : legal) {
      if (m == *a.move) {
        m_report.pv = {state.move_text(m)};
        return m;
      }
    }
    assert(false && "csci561-ta chose a move the rules do not have");
    return legal.empty() ? std::nullopt : std::optional<State::Move>(legal[0]);
  }
  [[nodiscard]] std::string name() const override { return "csci561-ta"; }
  [[nodiscard]] const SearchReport* last_report() const override { return &m_report; }

 private:
  Csci561TaSettings m_settings;
  SearchReport m_report;
};

}  // namespace duel::agents
