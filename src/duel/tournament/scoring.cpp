#include "duel/tournament/scoring.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "duel/arena/ratings.hpp"
#include "duel/tournament/tasks.hpp"

namespace duel::tournament {
namespace {

using json = nlohmann::json;

[[nodiscard]] json rounded(const std::optional<double>& v) {
  return v ? json(std::round(*v * 10.0) / 10.0 + 0.0) : json(nullptr);
}

// Seed 003: "beat the reference minimax agent to receive 10 points per game".
constexpr int kPointsPerReferenceWin = 10;

[[nodiscard]] std::string course_name(Course c) {
  return c == Course::Csci561 ? "csci561" : "game";
}

}  // namespace

json results_document(const Field& f, const Entries& journal) {
  const Options& o = f.options;
  const auto& entrants = f.entrants;
  // Step 1. Who is who: entrants by name, the reference after them.
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < entrants.size(); ++i) index[entrants[i].name] = i;
  const std::size_t reference = entrants.size();
  const auto who = [&](const json& name) {
    const auto it = index.find(name.get<std::string>());
    return it == index.end() ? reference : it->second;
  };

  // Step 2. Every entry to the entrants it concerns.
  std::vector<json> out(entrants.size());
  std::vector<arena::GameScore> scores;
  std::vector<int> single_points(entrants.size(), 0);
  std::vector<int> reference_wins(entrants.size(), 0);
  std::vector<int> round_reached(entrants.size(), 0);
  std::vector<double> bye_points(entrants.size(), 0.0);
  std::vector<std::vector<std::size_t>> opponents(entrants.size());
  std::vector<std::array<int, 3>> wdl(entrants.size(), {0, 0, 0});
  for (std::size_t i = 0; i < entrants.size(); ++i) {
    const Submission& s = entrants[i];
    out[i] = {{"name", s.name},
              {"language", s.agent.empty() ? s.language : "duel"},
              {"program", s.program},
              {"agent", s.agent},
              {"calibration", s.calibration},
              {"error", s.error},
              {"message", s.message},
              {"games", json::array()},
              {"lost", json::array()}};
    if (o.format == Format::Grading) out[i]["singles"] = json::array();
  }
  for (const auto& [key, j] : journal) {
    const std::string kind = j.value("kind", "");
    if (kind == "single") {
      const std::size_t i = who(j["student"]);
      if (i == reference) continue;
      single_points[i] += j.value("point", 0);
      out[i]["singles"].push_back(j);
      if (j.value("point", 0) == 0) {
        out[i]["lost"].push_back(
            {{"task", key}, {"reason", j.value("reason", "")}, {"detail", j.value("detail", "")}});
      }
    } else if (kind == "bye") {
      const std::size_t i = who(j["player"]);
      if (i == reference) continue;
      bye_points[i] += j.value("points", 0.0);
      out[i]["games"].push_back({{"task", key}, {"round", j.value("round", 0)}, {"result", "bye"}});
    } else if (kind == "game") {
      const std::array<std::size_t, 2> p = {who(j["players"][0]), who(j["players"][1])};
      const auto s = game_scores(j);
      scores.push_back({p[0], p[1], s[0]});
      for (std::size_t k = 0; k < 2; ++k) {
        if (p[k] == reference) continue;
        const std::size_t i = p[k];
        const std::string result = s[k] == 1.0 ? "win" : s[k] == 0.0 ? "loss" : "draw";
        ++wdl[i][result == "win" ? 0 : result == "draw" ? 1 : 2];
        if (result == "win" && p[1 - k] == reference) ++reference_wins[i];
        round_reached[i] = std::max(round_reached[i], j.value("round", 0));
        opponents[i].push_back(p[1 - k]);
        json game = {{"task", key},
                     {"round", j.value("round", 0)},
                     {"opponent", j["players"][1 - k]},
                     {"colour", j["sides"][k]},
                     {"result", result},
                     {"reason", j.value("reason", "")},
                     {"plies", j.value("plies", 0)},
                     {"record", j.value("record", "")},
                     {"start", j.value("start", "")},
                     {"opening", j.value("opening", json::array())},
                     {"moves", j.value("moves", json::array())}};
        // The feedback's: each side's clock and what was left of it, and
        // whether a draw was decided by a hair (when the entry says).
        if (j.contains("clock")) game["clock"] = j["clock"];
        if (j.contains("time_left")) {
          game["time_left"] = j["time_left"][k];
          game["opponent_time_left"] = j["time_left"][1 - k];
        }
        if (j.contains("close_call")) game["close_call"] = j["close_call"];
        out[i]["games"].push_back(std::move(game));
        if (result == "loss") {
          out[i]["lost"].push_back({{"task", key}, {"reason", j.value("reason", "")}});
        }
      }
    }
  }

  // Step 3. Points by the format's rules, and Elo from every game at once.
  const auto ratings = arena::fit_ratings(entrants.size() + 1, scores);
  std::vector<double> points(entrants.size(), 0.0);
  for (std::size_t i = 0; i < entrants.size(); ++i) {
    const auto& [w, d, l] = wdl[i];
    json& e = out[i];
    e["wins"] = w;
    e["draws"] = d;
    e["losses"] = l;
    e["score"] = w + 0.5 * d;
    e["elo"] = rounded(ratings[i].elo);
    e["elo_margin"] = rounded(ratings[i].margin);
    if (o.format == Format::Grading) {
      e["single_points"] = single_points[i];
      e["game_points"] = kPointsPerReferenceWin * reference_wins[i];
      points[i] = single_points[i] + kPointsPerReferenceWin * reference_wins[i];
    } else {
      points[i] = w + 0.5 * d + bye_points[i];
    }
    e["points"] = points[i];
  }
  std::vector<double> tiebreak(entrants.size(), 0.0);
  if (o.format == Format::Swiss) {
    // Buchholz: the sum of the points of everyone one has played.
    for (std::size_t i = 0; i < entrants.size(); ++i) {
      for (const std::size_t q : opponents[i]) tiebreak[i] += q < entrants.size() ? points[q] : 0.0;
      out[i]["buchholz"] = tiebreak[i];
      out[i]["byes"] = bye_points[i] / std::max(1, o.games);
    }
  }
  if (o.format == Format::Knockout) {
    const auto winners = knockout_entrants(f, journal, 1 << 20);
    for (std::size_t i = 0; i < entrants.size(); ++i) {
      out[i]["round_reached"] = round_reached[i];
      const bool won = entrants[i].ok() && std::ranges::find(winners, i) != winners.end();
      out[i]["result"] = !entrants[i].ok() ? "did not play"
                         : won             ? (winners.size() > 1 ? "equal winner" : "winner")
                                           : "eliminated";
      tiebreak[i] = won ? 1e9 : round_reached[i];
    }
  }

  if (o.format == Format::Competition) {
    // The final's players first, by their points in it; then by the round
    // each reached.
    const auto finalists = competition_finalists(f, journal);
    std::vector<double> final_points(entrants.size(), 0.0);
    for (const auto& [key, j] : journal) {
      if (j.value("kind", "") != "game" || j.value("stage", "") != "competition") continue;
      const std::array<std::size_t, 2> p = {who(j["players"][0]), who(j["players"][1])};
      if (p[0] == reference || p[1] == reference) continue;
      const bool in_final = std::ranges::find(finalists, p[0]) != finalists.end() &&
                            std::ranges::find(finalists, p[1]) != finalists.end() &&
                            j.value("round", 0) == round_reached[p[0]] &&
                            j.value("round", 0) == round_reached[p[1]];
      if (!in_final) continue;
      const auto sc = game_scores(j);
      final_points[p[0]] += sc[0];
      final_points[p[1]] += sc[1];
    }
    for (std::size_t i = 0; i < entrants.size(); ++i) {
      out[i]["round_reached"] = round_reached[i];
      const bool finalist = entrants[i].ok() && std::ranges::find(finalists, i) != finalists.end();
      out[i]["result"] = !entrants[i].ok() ? "did not play"
                         : finalist        ? fmt::format("final: {:g}", final_points[i])
                                           : fmt::format("out after round {}", round_reached[i]);
      tiebreak[i] = finalist ? 1e6 + final_points[i] : round_reached[i];
    }
  }

  // Step 4. The standings: the knockout's round (winners first) or
  // Buchholz, after points; the broken entrants last; equal places shared.
  std::vector<std::size_t> order(entrants.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto key = [&](std::size_t i) {
    const double ok = entrants[i].ok() ? 1.0 : 0.0;
    return o.format == Format::Knockout || o.format == Format::Competition
               ? std::array{ok, tiebreak[i], points[i]}
               : std::array{ok, points[i], tiebreak[i]};
  };
  std::ranges::stable_sort(order, [&](std::size_t a, std::size_t b) { return key(a) > key(b); });
  json standings = json::array();
  int rank = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t i = order[k];
    if (k == 0 || key(i) != key(order[k - 1])) rank = static_cast<int>(k) + 1;
    json row = {{"rank", rank},
                {"name", entrants[i].name},
                {"points", points[i]},
                {"elo", out[i]["elo"]},
                {"elo_margin", out[i]["elo_margin"]}};
    if (o.format == Format::Knockout || o.format == Format::Competition) {
      row["result"] = out[i]["result"];
    }
    if (o.format == Format::Swiss) row["buchholz"] = tiebreak[i];
    standings.push_back(std::move(row));
  }

  // Step 5. The document.
  json doc = {{"course", course_name(o.course)},
              {"game", o.game},
              {"format", format_name(o.format)},
              {"time", o.game_seconds},
              {"cpu", o.charge == referee::Charge::User ? "user" : "user+sys"},
              {"cpu_tick", o.tick},
              {"sandbox", o.limits.sandbox},
              {"seed", o.seed},
              {"students", out},
              {"standings", standings}};
  if (o.format == Format::Grading) {
    json positions = json::array();
    for (const auto& p : o.singles.empty() ? default_singles() : o.singles) {
      positions.push_back({{"fen", p.fen}, {"seconds", p.seconds}, {"source", p.source}});
    }
    doc["reference"] = o.reference;
    doc["reference_elo"] = rounded(ratings[reference].elo);
    doc["reference_charge"] = reference_charge_of(o);
    doc["positions"] = positions;
  } else {
    doc["games_per_pair"] = o.games;
  }
  if (o.format == Format::Swiss) {
    doc["rounds"] = swiss_rounds(o, static_cast<std::size_t>(std::ranges::count_if(
                                        entrants, [](const auto& s) { return s.ok(); })));
  }
  return doc;
}

}  // namespace duel::tournament
