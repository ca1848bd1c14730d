// The files a tournament leaves in DIR (docs/tournament.md): results.json
// (the document), results.csv (the standings, one row a student),
// tasks.csv (a row a single move and game), feedback/NAME.txt (each
// student's, feedback.hpp) and index.html (the table, each game's record
// and each student's feedback), all from the document.
#include <cctype>
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "duel/tournament/cells.hpp"
#include "duel/tournament/feedback.hpp"
#include "duel/tournament/tournament.hpp"

namespace duel::tournament {
namespace {

using json = nlohmann::json;

[[nodiscard]] std::string html(const std::string& s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// A file name as a link: bytes other than letters, digits and `-._~` as %XX.
[[nodiscard]] std::string url(const std::string& s) {
  std::string out;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0 || c == '-' || c == '.' || c == '_' || c == '~') {
      out += c;
    } else {
      out += fmt::format("%{:02X}", u);
    }
  }
  return out;
}

// An id for a name: its bytes as hex, so any name is a valid fragment.
[[nodiscard]] std::string anchor(const std::string& name) {
  std::string out = "e";
  for (const char c : name) out += fmt::format("{:02x}", static_cast<unsigned char>(c));
  return out;
}

[[nodiscard]] const json* student(const json& doc, const json& name) {
  for (const auto& s : doc["students"]) {
    if (s["name"] == name) return &s;
  }
  return nullptr;
}

}  // namespace

void write_reports(const std::filesystem::path& out, const json& doc) {
  const bool grading = doc["format"] == "grading";
  // Step 1. The document itself, written whole then renamed, so that a
  // reader never sees half of it.
  const auto write = [&](const std::string& name, const std::string& body) {
    const auto tmp = out / (name + ".tmp");
    std::ofstream(tmp) << body;
    std::error_code ec;
    std::filesystem::rename(tmp, out / name, ec);
  };
  write("results.json", doc.dump(2) + "\n");

  // Step 2. The standings as CSV.
  const std::string format = text(doc["format"]);
  const std::string extra = format == "competition" || format == "knockout" ? "result"
                            : format == "swiss"                             ? "buchholz"
                                                                            : "";
  std::string rows = grading ? "rank,name,language,points,single_points,game_points,wins,draws,"
                               "losses,elo,elo_margin,calibration,error\n"
                             : fmt::format(
                                   "rank,name,language,points,wins,draws,losses,elo,"
                                   "elo_margin,{}calibration,error\n",
                                   extra.empty() ? "" : extra + ",");
  for (const auto& r : doc["standings"]) {
    const json& s = *student(doc, r["name"]);
    rows += fmt::format("{},{},{},{}", text(r["rank"]), csv(text(s["name"])),
                        csv(text(s["language"])), text(s["points"]));
    if (grading) rows += fmt::format(",{},{}", text(s["single_points"]), text(s["game_points"]));
    rows += fmt::format(",{},{},{},{},{}", text(s["wins"]), text(s["draws"]), text(s["losses"]),
                        text(s["elo"]), text(s["elo_margin"]));
    if (!extra.empty()) rows += "," + csv(text(s[extra]));
    rows += fmt::format(",{},{}\n", csv(text(s["calibration"])), csv(text(s["error"])));
  }
  write("results.csv", rows);
  write("tasks.csv", tasks_csv(doc));

  // Step 3. Each entrant's feedback, a file each.
  std::error_code ec;
  std::filesystem::create_directories(out / "feedback", ec);
  for (const auto& s : doc["students"]) {
    write("feedback/" + feedback_file(text(s["name"])), feedback_text(doc, s));
  }

  // Step 4. A static page: the table, then each entrant's games and losses.
  const std::string title = fmt::format(
      "{} {}", text(doc["course"]) == "game" ? text(doc["game"]) : text(doc["course"]), format);
  std::string page = fmt::format(
      "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      "<title>Duel tournament: {}</title>\n<style>body{{font-family:sans-serif;margin:2em}}"
      "table{{border-collapse:collapse}}td,th{{border:1px solid #999;padding:.2em .6em;"
      "text-align:left}}td.n{{text-align:right}}</style></head><body>\n<h1>{}</h1>\n<table>\n"
      "<tr><th>rank</th><th>{}</th><th>points</th><th>W</th><th>D</th><th>L</th><th>Elo</th>{}"
      "<th>note</th></tr>\n",
      html(title), html(title), text(doc["course"]) == "game" ? "agent" : "student",
      grading ? "<th>single moves</th><th>game points</th>"
              : (extra.empty() ? "" : "<th>" + extra + "</th>"));
  if (!doc.value("sandbox", true)) {
    // Said above the table, as in results.json: nothing bounded these programs.
    page.insert(page.find("<table>"),
                "<p><strong>The programs ran unboxed, with the teacher's rights "
                "(--no-sandbox).</strong></p>\n");
  }
  for (const auto& r : doc["standings"]) {
    const json& s = *student(doc, r["name"]);
    const std::string elo =
        r["elo"].is_null()
            ? std::string()
            : text(r["elo"]) + (r["elo_margin"].is_null() ? std::string()
                                                          : " &plusmn; " + text(r["elo_margin"]));
    page += fmt::format(
        "<tr><td class=\"n\">{}</td><td><a href=\"#{}\">{}</a></td><td class=\"n\">{}</td>"
        "<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
        "<td class=\"n\">{}</td>{}<td>{}</td></tr>\n",
        text(r["rank"]), html(anchor(text(s["name"]))), html(text(s["name"])), text(s["points"]),
        text(s["wins"]), text(s["draws"]), text(s["losses"]), elo,
        grading ? fmt::format("<td class=\"n\">{}</td><td class=\"n\">{}</td>",
                              text(s["single_points"]), text(s["game_points"]))
                : (extra.empty() ? "" : "<td>" + html(text(s[extra])) + "</td>"),
        html(text(s["error"]).empty() ? text(s["calibration"]) : text(s["error"])));
  }
  page += "</table>\n";
  for (const auto& s : doc["students"]) {
    const std::string file = "feedback/" + feedback_file(text(s["name"]));
    page += fmt::format(
        "<h2 id=\"{}\">{}</h2>\n<details><summary>feedback (<a href=\"{}\">{}</a>)</summary>"
        "<pre>{}</pre></details>\n<ul>\n",
        html(anchor(text(s["name"]))), html(text(s["name"])),
        html("feedback/" + url(feedback_file(text(s["name"])))), html(file),
        html(feedback_text(doc, s)));
    for (const auto& g : s["games"]) {
      if (text(g["result"]) == "bye") {
        page += fmt::format("<li>{}: a bye</li>\n", html(text(g["task"])));
        continue;
      }
      page += fmt::format("<li>{} as {} against {}: {} ({}) <a href=\"{}\">record</a></li>\n",
                          html(text(g["task"])), html(text(g["colour"])), html(text(g["opponent"])),
                          text(g["result"]), html(text(g["reason"])), html(text(g["record"])));
    }
    for (const auto& l : s["lost"]) {
      if (!l.contains("detail")) continue;  // a lost game is listed above
      page += fmt::format("<li>{}: 0 points, {} {}</li>\n", html(text(l["task"])),
                          html(text(l["reason"])), html(text(l["detail"])));
    }
    page += "</ul>\n";
  }
  page += "</body></html>\n";
  write("index.html", page);
}

}  // namespace duel::tournament
