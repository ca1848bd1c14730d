#pragma once
// Whitespace handling shared by the games' text parsers (positions, moves):
// one definition so every game trims and splits its input the same way; and
// the tag-value escaping PGN and PDN share; text from outside made valid UTF-8.
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

// `s` as valid UTF-8: each byte that does not start a well-formed sequence
// (a file name in another encoding, a program's output) becomes U+FFFD.
[[nodiscard]] inline std::string valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    unsigned min = 0;
    if (c < 0x80) {
      n = 1;
    } else if ((c & 0xE0) == 0xC0) {
      n = 2;
      min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
      n = 3;
      min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
      n = 4;
      min = 0x10000;
    }
    bool good = n > 0 && i + n <= s.size();
    unsigned code = n == 1 ? c : c & (0x7F >> n);
    for (std::size_t k = 1; good && k < n; ++k) {
      const auto d = static_cast<unsigned char>(s[i + k]);
      good = (d & 0xC0) == 0x80;
      code = (code << 6) | (d & 0x3F);
    }
    good = good && code >= min && code <= 0x10FFFF && (code < 0xD800 || code > 0xDFFF);
    if (good) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

}  // namespace duel
