#pragma once
// Whitespace handling shared by the games' text parsers (positions, moves):
// one definition so every game trims and splits its input the same way; and
// the tag-value escaping PGN and PDN share.
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace duel {

// `s` without leading and trailing whitespace.
[[nodiscard]] inline std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0) s.remove_suffix(1);
  return s;
}

// The whitespace-separated words of `s` (views into it).
[[nodiscard]] inline std::vector<std::string_view> split(std::string_view s) {
  std::vector<std::string_view> out;
  while (true) {
    s = trim(s);
    if (s.empty()) return out;
    std::size_t n = 0;
    while (n < s.size() && std::isspace(static_cast<unsigned char>(s[n])) == 0) ++n;
    out.push_back(s.substr(0, n));
    s.remove_prefix(n);
  }
}

// A PGN/PDN tag value: `"` and `\` escaped with a backslash, line breaks
// made spaces (a tag is one line).
[[nodiscard]] inline std::string tag_value(std::string_view s) {
  std::string out;
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return out;
}

}  // namespace duel
