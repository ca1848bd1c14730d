#include "duel/tournament/scoring.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "duel/arena/elo.hpp"
#include "duel/core/rng.hpp"

namespace duel::tournament {
namespace {

using json = nlohmann::json;

[[nodiscard]] json or_null(const std::optional<double>& v) {
  return v ? json(std::round(*v * 10.0) / 10.0) : json(nullptr);
}

// Seed 003: "beat the reference minimax agent to receive 10 points per game".
constexpr int kPointsPerReferenceWin = 10;

}  // namespace

std::vector<std::pair<std::size_t, std::size_t>> knockout_pairs(
    const std::vector<std::size_t>& entrants, std::uint64_t seed, int round) {
  std::vector<std::size_t> order = entrants;
  Rng rng(mix64(seed ^ (0x4B0ULL * static_cast<std::uint64_t>(round))));
  for (std::size_t k = order.size(); k > 1; --k) std::swap(order[k - 1], order[rng.below(k)]);
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t i = 0; i + 1 < order.size(); i += 2) {
    out.emplace_back(std::min(order[i], order[i + 1]), std::max(order[i], order[i + 1]));
  }
  return out;
}

std::vector<std::size_t> knockout_survivors(
    const std::vector<std::size_t>& entrants,
    const std::vector<std::pair<std::size_t, std::size_t>>& pairs,
    const std::vector<Submission>& students, const std::map<std::string, json>& journal, int round,
    int games) {
  std::set<std::size_t> out(entrants.begin(), entrants.end());
  for (const auto& [a, b] : pairs) {
    int lost_a = 0;
    int lost_b = 0;
    for (int g = 0; g < games; ++g) {
      const auto it = journal.find(
          fmt::format("competition/{}/{}/{}/{}", round, students[a].name, students[b].name, g));
      if (it == journal.end() || it->second["winner"].is_null()) continue;
      ++(it->second["winner"] == students[a].name ? lost_b : lost_a);
    }
    if (2 * lost_a > games) out.erase(a);
    if (2 * lost_b > games) out.erase(b);
  }
  return {out.begin(), out.end()};
}

json results_document(const Options& o, const std::vector<SinglePosition>& singles,
                      const std::vector<Submission>& students,
                      const std::map<std::string, json>& journal) {
  // Step 1. Each student's singles and games, from the journal.
  json entries = json::array();
  for (const auto& s : students) {
    json e = {{"name", s.name},
              {"language", s.language},
              {"program", s.program},
              {"calibration", s.calibration},
              {"error", s.error}};
    int single_points = 0;
    int wins = 0;
    int draws = 0;
    int losses = 0;
    int reference_wins = 0;
    int last_round = 0;
    json singles_out = json::array();
    json games_out = json::array();
    json lost = json::array();
    for (const auto& [key, j] : journal) {
      if (j["kind"] == "single" && j["student"] == s.name) {
        single_points += j["point"].get<int>();
        singles_out.push_back(j);
        if (j["point"] == 0) {
          lost.push_back({{"task", key},
                          {"reason", j.value("reason", "")},
                          {"detail", j.value("detail", "")}});
        }
        continue;
      }
      if (j["kind"] != "game" || (j["black"] != s.name && j["white"] != s.name)) continue;
      const bool black = j["black"] == s.name;
      const std::string opponent = black ? j["white"] : j["black"];
      std::string result = "draw";
      if (!j["winner"].is_null()) result = j["winner"] == s.name ? "win" : "loss";
      ++(result == "win" ? wins : result == "loss" ? losses : draws);
      if (result == "win" && opponent == "reference" && key.starts_with("reference/")) {
        ++reference_wins;
      }
      if (key.starts_with("competition/")) {
        last_round = std::max(last_round, std::stoi(key.substr(12, key.find('/', 12) - 12)));
      }
      games_out.push_back({{"task", key},
                           {"opponent", opponent},
                           {"colour", black ? "Black" : "White"},
                           {"result", result},
                           {"reason", j["reason"]},
                           {"plies", j["plies"]},
                           {"record", j["record"]}});
      if (result == "loss") lost.push_back({{"task", key}, {"reason", j["reason"]}});
    }
    const auto elo = arena::estimate(wins, draws, losses);
    e["wins"] = wins;
    e["draws"] = draws;
    e["losses"] = losses;
    e["score"] = wins + 0.5 * draws;
    e["elo"] = or_null(elo.elo);
    e["elo_margin"] = or_null(elo.margin);
    if (o.format == Format::Grading) {
      e["single_points"] = single_points;
      e["game_points"] = kPointsPerReferenceWin * reference_wins;
      e["points"] = single_points + kPointsPerReferenceWin * reference_wins;
      e["singles"] = singles_out;
    } else {
      e["points"] = e["score"];
    }
    if (o.format == Format::Knockout) e["round_reached"] = last_round;
    e["games"] = games_out;
    e["lost"] = lost;
    entries.push_back(std::move(e));
  }

  // Step 2. The standings: points (the grading's, or the games' score), then
  // the knockout's round, then the name.
  std::vector<std::size_t> order(entries.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::ranges::stable_sort(order, [&](std::size_t a, std::size_t b) {
    const auto& x = entries[a];
    const auto& y = entries[b];
    if (x.value("round_reached", 0) != y.value("round_reached", 0)) {
      return x.value("round_reached", 0) > y.value("round_reached", 0);
    }
    return x["points"].get<double>() > y["points"].get<double>();
  });
  json standings = json::array();
  int rank = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const auto& e = entries[order[k]];
    const bool tie = k > 0 && e["points"] == entries[order[k - 1]]["points"] &&
                     e.value("round_reached", 0) == entries[order[k - 1]].value("round_reached", 0);
    if (!tie) rank = static_cast<int>(k) + 1;
    standings.push_back({{"rank", rank},
                         {"name", e["name"]},
                         {"points", e["points"]},
                         {"elo", e["elo"]},
                         {"elo_margin", e["elo_margin"]}});
  }
  json positions = json::array();
  for (const auto& p : singles) {
    positions.push_back({{"fen", p.fen}, {"seconds", p.seconds}, {"source", p.source}});
  }
  json doc = {
      {"course", "csci561"},    {"format", format_name(o.format)},
      {"time", o.game_seconds}, {"cpu", o.charge == referee::Charge::User ? "user" : "user+sys"},
      {"seed", o.seed},         {"students", entries},
      {"standings", standings}};
  if (o.format == Format::Grading) {
    doc["reference"] = o.reference;
    doc["positions"] = positions;
  } else {
    doc["games_per_pair"] = o.games;
  }
  return doc;
}

}  // namespace duel::tournament
