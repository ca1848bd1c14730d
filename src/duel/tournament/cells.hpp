#pragma once
// How a results document's values are written in the teacher's tables
// (report.cpp's results.csv and index.html, feedback.cpp's feedback files
// and tasks.csv): one way for all of them.
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace duel::tournament {

// A value as a cell: a string as it is, a number as `{:g}`, null as "".
[[nodiscard]] inline std::string text(const nlohmann::json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) return fmt::format("{:g}", v.get<double>());
  return v.dump();
}

// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
[[nodiscard]] inline std::string csv(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (const char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace duel::tournament
