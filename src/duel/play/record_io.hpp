#pragma once
// A finished game as text (the trace file) and as JSON (--json).
#include <ostream>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "duel/play/match.hpp"
#include "duel/play/screen.hpp"

namespace duel::play {

// One line about a searched move: value, depth, nodes, branching factor.
inline std::string describe(const agents::SearchReport& r) {
  const double points = to_points(r.value);
  std::string value =
      is_proven(r.value) ? fmt::format("{:+.0f} exact", points) : fmt::format("{:+.2f}", points);
  if (is_proven(r.value) && r.value != 0) value += fmt::format(" in {}", plies_to_end(r.value));
  return fmt::format("{} value {}, depth {}, {} nodes, branching {:.2f}, {:.3f} s{}", r.algorithm,
                     value, r.depth, r.stats.nodes(), r.stats.branching_factor(), r.stats.seconds,
                     r.complete ? "" : " (stopped by its limit)");
}

// The result as players read it ("1-0 White wins by checkmate"; screen.hpp);
// the payoff is the JSON record's.
template <class S>
std::string result_line(const MatchRecord<S>& rec) {
  return screen_result(rec);
}

template <class S>
void write_trace(std::ostream& out, const MatchRecord<S>& rec) {
  out << "# Duel game record\n";
  out << "game: " << rec.game << '\n';
  out << "start: " << rec.start << '\n';
  out << "player 1: " << rec.agents[0] << '\n';
  out << "player 2: " << rec.agents[1] << '\n';
  for (std::size_t i = 0; i < rec.moves.size(); ++i) {
    const auto& m = rec.moves[i];
    out << fmt::format("{}. P{} {}  {:.3f} s", i + 1, number(m.player), m.text, m.seconds);
    if (m.report) out << "  " << describe(*m.report);
    out << '\n';
  }
  out << "final: " << rec.final_state.to_text() << '\n';
  out << "result: " << result_line(rec) << '\n';
}

template <class S>
nlohmann::json to_json(const MatchRecord<S>& rec) {
  nlohmann::json moves = nlohmann::json::array();
  for (const auto& m : rec.moves) {
    nlohmann::json j = {{"player", number(m.player)}, {"move", m.text}, {"seconds", m.seconds}};
    if (m.report) {
      j["value"] = to_points(m.report->value);
      j["exact"] = is_proven(m.report->value);
      j["depth"] = m.report->depth;
      j["nodes"] = m.report->stats.nodes();
      j["nodes_by_depth"] = m.report->stats.depth_counts();
      j["branching_factor"] = m.report->stats.branching_factor();
    }
    moves.push_back(std::move(j));
  }
  return {{"game", rec.game},
          {"start", rec.start},
          {"players", {rec.agents[0], rec.agents[1]}},
          {"moves", std::move(moves)},
          {"final", rec.final_state.to_text()},
          {"payoff", rec.payoff},
          {"ending", std::string(ending_name(rec.ending))},
          {"reason", rec.reason},
          {"seconds", rec.seconds}};
}

}  // namespace duel::play
