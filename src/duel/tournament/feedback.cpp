#include "duel/tournament/feedback.hpp"

#include <algorithm>
#include <cctype>
#include <concepts>
#include <cstdint>
#include <string_view>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "duel/games/checkers/protocol.hpp"
#include "duel/registry/games.hpp"
#include "duel/tournament/cells.hpp"

namespace duel::tournament {
namespace {

using json = nlohmann::json;
namespace checkers = games::checkers;

// A field of an entry, or null when it has none (a point has no reason, an
// older journal no output): json's const operator[] may not be asked for a
// missing key.
[[nodiscard]] const json& field(const json& j, const char* key) {
  static const json kNone;
  if (!j.is_object()) return kNone;
  const auto it = j.find(key);
  return it == j.end() ? kNone : *it;
}

// Keys in the order people count: "reference/x/10" after "reference/x/9".
[[nodiscard]] bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    const bool da = std::isdigit(static_cast<unsigned char>(a[i])) != 0;
    const bool db = std::isdigit(static_cast<unsigned char>(b[j])) != 0;
    if (da && db) {
      std::size_t ei = i;
      std::size_t ej = j;
      while (ei < a.size() && std::isdigit(static_cast<unsigned char>(a[ei])) != 0) ++ei;
      while (ej < b.size() && std::isdigit(static_cast<unsigned char>(b[ej])) != 0) ++ej;
      const std::string_view na = std::string_view(a).substr(i, ei - i);
      const std::string_view nb = std::string_view(b).substr(j, ej - j);
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = ei;
      j = ej;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

// An entrant's games in the order they were planned (their keys' numbers
// read as numbers), and its single moves by position.
[[nodiscard]] std::vector<json> games_of(const json& student) {
  std::vector<json> out;
  for (const auto& g : student.value("games", json::array())) out.push_back(g);
  std::ranges::stable_sort(out, [](const json& a, const json& b) {
    return natural_less(text(field(a, "task")), text(field(b, "task")));
  });
  return out;
}
[[nodiscard]] std::vector<json> singles_of(const json& student) {
  std::vector<json> out;
  for (const auto& s : student.value("singles", json::array())) out.push_back(s);
  std::ranges::stable_sort(out, {}, [](const json& s) { return s.value("position", 0); });
  return out;
}

[[nodiscard]] bool has_text(const std::string& s, std::string_view part) {
  return s.find(part) != std::string::npos;
}

// Each line of `block` indented by `pad`.
[[nodiscard]] std::string indented(const std::string& block, std::string_view pad) {
  std::string out;
  std::size_t at = 0;
  while (at < block.size()) {
    std::size_t end = block.find('\n', at);
    if (end == std::string::npos) end = block.size();
    out += fmt::format("{}{}\n", pad, block.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

[[nodiscard]] std::string seconds_text(const json& v) {
  return v.is_number() ? fmt::format("{:.3f} s", v.get<double>()) : std::string("-");
}

// The side to move of a PDN FEN ("B:W..." or "W:..."), as the course names it.
[[nodiscard]] std::string side_of_fen(const std::string& fen) {
  if (fen.starts_with("B")) return "Black";
  if (fen.starts_with("W")) return "White";
  return "";
}

// Step 1 of the feedback: who, the points, and what went wrong before any move.
void header(std::string& out, const json& doc, const json& s) {
  const bool grading = text(field(doc, "format")) == "grading";
  out += fmt::format("Feedback for {}", text(field(s, "name")));
  if (!text(field(s, "program")).empty()) {
    out += fmt::format(" ({}, {})", text(field(s, "program")), text(field(s, "language")));
  }
  out += "\n";
  out += fmt::format(
      "{} {}: {} points",
      text(field(doc, "course")) == "game" ? text(field(doc, "game")) : text(field(doc, "course")),
      text(field(doc, "format")), text(field(s, "points")));
  if (grading) {
    out += fmt::format(" = {} single-move points + {} game points (10 a win against the reference)",
                       text(field(s, "single_points")), text(field(s, "game_points")));
  }
  out += fmt::format("; games won {}, drawn {}, lost {}\n", text(field(s, "wins")),
                     text(field(s, "draws")), text(field(s, "losses")));
  if (!text(field(s, "error")).empty())
    out += fmt::format("\nIt could not play: {}\n", text(field(s, "error")));
  // calibrate's CPU time differs from run to run (it is run again on
  // resume): only whether it ran well is said here.
  if (const std::string cal = text(field(s, "calibration")); !cal.empty()) {
    const bool ok = cal.starts_with("ok");
    const bool none = has_text(cal, "no calibration.txt");
    out += fmt::format("\ncalibrate: {}\n", !ok    ? cal
                                            : none ? "ran, but wrote no calibration.txt"
                                                   : "ran, ok");
  }
  if (!text(field(s, "message")).empty()) {
    out += "\nWhat the compiler (or calibrate) said, whole:\n";
    out += indented(text(field(s, "message")), "  | ");
  }
}

// Step 2: each single move, its position as input.txt gave it, what the
// program wrote and the point or why not.
void singles(std::string& out, const json& doc, const json& s) {
  const auto list = singles_of(s);
  if (list.empty()) return;
  const json positions = doc.value("positions", json::array());
  out += fmt::format("\n== Single moves: {} of {} points ==\n", text(field(s, "single_points")),
                     list.size());
  for (const auto& m : list) {
    const int k = m.value("position", 0);
    const json p = k < static_cast<int>(positions.size()) ? positions[static_cast<std::size_t>(k)]
                                                          : json::object();
    const std::string fen = p.value("fen", "");
    const bool point = m.value("point", 0) == 1;
    out += fmt::format("\nSingle move {} ({}): {}\n", k + 1, text(field(m, "key")),
                       point ? "1 point" : "no point");
    if (!p.value("source", "").empty())
      out += fmt::format("  position: {}\n", text(field(p, "source")));
    out += fmt::format("  FEN: {}\n", fen);
    const auto state = checkers::State::parse(fen);
    if (state) {
      out += fmt::format("  input.txt ({} to play, {} s):\n", side_of_fen(fen),
                         text(p.value("seconds", json())));
      out += indented(checkers::protocol::input_text(checkers::protocol::Mode::Single,
                                                     p.value("seconds", 0.0), *state),
                      "    ");
    }
    if (m.contains("output")) {
      out +=
          fmt::format("  output.txt ({} bytes{}): {}\n", text(field(m, "output_bytes")),
                      m.value("output_bytes", std::uintmax_t{0}) > text(field(m, "output")).size()
                          ? ", the first 4096 shown"
                          : "",
                      quoted(text(field(m, "output"))));
    } else {
      out += "  output.txt: none written\n";
    }
    if (point) {
      std::string move = text(field(m, "move"));
      if (state) {
        const auto shown = course_moves("checkers", fen, {move});
        if (!shown.empty()) move = shown[0];
      }
      out += fmt::format("  the move: {}\n", move);
    } else {
      out += fmt::format("  why no point: {}{}\n", text(field(m, "reason")),
                         text(field(m, "detail")).empty() ? "" : ": " + text(field(m, "detail")));
    }
    out += fmt::format("  CPU: {} (user {}, system {})\n", seconds_text(field(m, "cpu")),
                       seconds_text(field(m, "user")), seconds_text(field(m, "system")));
  }
}

// Step 3: each game, its result and why, the clocks, and its moves.
void games(std::string& out, const json& doc, const json& s) {
  const auto list = games_of(s);
  if (list.empty()) return;
  out += fmt::format("\n== Games: won {}, drawn {}, lost {} ==\n", text(field(s, "wins")),
                     text(field(s, "draws")), text(field(s, "losses")));
  int n = 0;
  for (const auto& g : list) {
    ++n;
    if (text(field(g, "result")) == "bye") {
      out += fmt::format("\nGame {} ({}): a bye\n", n, text(field(g, "task")));
      continue;
    }
    out +=
        fmt::format("\nGame {} ({}): {} as {} against {}\n", n, text(field(g, "task")),
                    text(field(g, "result")), text(field(g, "colour")), text(field(g, "opponent")));
    out += fmt::format("  why: {}\n", text(field(g, "reason")));
    if (g.contains("close_call"))
      out += fmt::format("  close call: {}\n", text(field(g, "close_call")));
    if (g.contains("time_left")) {
      out += fmt::format("  time left: {} of {} (the opponent: {})\n",
                         seconds_text(field(g, "time_left")),
                         g.contains("clock") ? seconds_text(field(g, "clock")) : std::string("?"),
                         seconds_text(field(g, "opponent_time_left")));
    }
    if (!text(field(g, "record")).empty())
      out += fmt::format("  record: {}\n", text(field(g, "record")));
    std::vector<std::string> all;
    const json opening = g.value("opening", json::array());
    for (const auto& m : opening) all.push_back(text(m));
    for (const auto& m : g.value("moves", json::array())) all.push_back(text(m));
    const auto shown = course_moves(text(field(doc, "game")), text(field(g, "start")), all);
    const std::size_t first = std::min(opening.size(), shown.size());
    if (first > 0) {
      out += "  opening:";
      for (std::size_t i = 0; i < first; ++i) out += " " + shown[i] + (i + 1 < first ? ";" : "");
      out += "\n";
    }
    if (shown.size() == first) {
      out += "  moves: none\n";
      continue;
    }
    out += fmt::format("  moves ({} plies, Player 1 first):\n", shown.size() - first);
    for (std::size_t i = first; i < shown.size(); i += 2) {
      out += fmt::format("    {:>3}. {}{}\n", (i - first) / 2 + 1, shown[i],
                         i + 1 < shown.size() ? "  |  " + shown[i + 1] : "");
    }
  }
}

// The moves replayed in `S`: the course's form beside the text in checkers.
template <class S>
std::vector<std::string> replay(S s, const std::vector<std::string>& moves) {
  std::vector<std::string> out;
  for (const auto& t : moves) {
    auto m = s.parse_move(t);
    if (!m) {
      out.push_back(t);  // not for a journaled game's moves; shown as they are
      continue;
    }
    if constexpr (std::same_as<S, checkers::State>) {
      std::string seed = s.seed_text(*m);
      std::ranges::replace(seed, '\n', ',');
      std::string spaced;
      for (const char c : seed) spaced += c == ',' ? std::string(", ") : std::string(1, c);
      out.push_back(fmt::format("{} ({})", spaced, t));
    } else {
      out.push_back(t);
    }
    s = s.result(*m);
  }
  return out;
}

}  // namespace

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      default:
        if (u < 0x20 || u == 0x7F) {
          out += fmt::format("\\x{:02x}", u);
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::vector<std::string> course_moves(const std::string& game, const std::string& start,
                                      const std::vector<std::string>& moves) {
  auto made = registry::make_game(game, start);
  if (!made) return moves;
  return std::visit([&](const auto& s) { return replay(s, moves); }, *made);
}

std::string feedback_file(const std::string& name) {
  std::string out = name;
  std::ranges::replace(out, '/', '_');
  if (out == "." || out == ".." || out.empty()) out = "_" + out;
  return out + ".txt";
}

std::string feedback_text(const json& doc, const json& student) {
  std::string out;
  header(out, doc, student);
  singles(out, doc, student);
  games(out, doc, student);
  return out;
}

std::string tasks_csv(const json& doc) {
  std::string rows =
      "student,task,key,opponent,colour,result,reason,detail,time_used,time_left,close_call\n";
  const json positions = doc.value("positions", json::array());
  const auto seconds = [](const json& v) {
    return v.is_number() ? fmt::format("{:.3f}", v.get<double>()) : std::string();
  };
  for (const auto& s : field(doc, "students")) {
    const std::string name = csv(text(field(s, "name")));
    for (const auto& m : singles_of(s)) {
      const auto k = static_cast<std::size_t>(m.value("position", 0));
      const std::string fen = k < positions.size() ? positions[k].value("fen", "") : "";
      const bool point = m.value("point", 0) == 1;
      rows += fmt::format("{},single move {},{},,{},{},{},{},{},,\n", name, k + 1,
                          csv(text(field(m, "key"))), side_of_fen(fen),
                          point ? "point" : "no point", csv(text(field(m, "reason"))),
                          csv(text(field(m, "detail"))), seconds(field(m, "cpu")));
    }
    int n = 0;
    for (const auto& g : games_of(s)) {
      ++n;
      std::string used;
      if (g.contains("clock") && g.contains("time_left") && field(g, "clock").is_number() &&
          field(g, "time_left").is_number()) {
        used = fmt::format("{:.3f}",
                           field(g, "clock").get<double>() - field(g, "time_left").get<double>());
      }
      rows +=
          fmt::format("{},game {},{},{},{},{},{},,{},{},{}\n", name, n, csv(text(field(g, "task"))),
                      csv(text(field(g, "opponent"))), csv(text(field(g, "colour"))),
                      csv(text(field(g, "result"))), csv(text(field(g, "reason"))), used,
                      g.contains("time_left") ? seconds(field(g, "time_left")) : std::string(),
                      csv(text(g.value("close_call", json()))));
    }
  }
  return rows;
}

}  // namespace duel::tournament
