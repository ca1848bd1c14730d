#include "duel/core/spec.hpp"

#include <cctype>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

namespace duel {
namespace {

bool valid_word(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (!std::isalnum(u) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

}  // namespace

// Drops one leading '+'; false when what follows cannot start a number
// ("+-3", "++3", "+").
static bool strip_plus(std::string_view& text) {
  if (text.empty() || text.front() != '+') return !text.empty();
  text.remove_prefix(1);
  return !text.empty() && text.front() != '+' && text.front() != '-';
}

std::optional<long long> parse_integer(std::string_view text) {
  if (!strip_plus(text)) return std::nullopt;
  long long v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || ptr != text.data() + text.size()) return std::nullopt;
  return v;
}

std::optional<double> parse_number(std::string_view text) {
  if (!strip_plus(text)) return std::nullopt;
  double v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || ptr != text.data() + text.size() || !std::isfinite(v)) {
    return std::nullopt;
  }
  return v;
}

Result<Spec> Spec::parse(std::string_view text) {
  Spec spec;
  for (char c : text) {
    if (std::iscntrl(static_cast<unsigned char>(c))) {
      return fail("spec contains a control character (use name:key=value,...)");
    }
  }
  spec.m_text = std::string(text);
  const auto colon = text.find(':');
  const std::string_view name = text.substr(0, colon);
  if (name.empty()) return fail(fmt::format("empty name in spec '{}'", text));
  if (!valid_word(name)) return fail(fmt::format("bad name '{}' in spec '{}'", name, text));
  spec.m_name = std::string(name);
  if (colon == std::string_view::npos) return spec;
  std::string_view rest = text.substr(colon + 1);
  if (rest.empty()) return fail(fmt::format("nothing after ':' in spec '{}'", text));
  while (true) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const auto eq = item.find('=');
    if (eq == std::string_view::npos) {
      return fail(fmt::format("'{}' in spec '{}' is not key=value", item, text));
    }
    const std::string_view key = item.substr(0, eq);
    const std::string_view value = item.substr(eq + 1);
    if (key.empty()) return fail(fmt::format("empty key in spec '{}'", text));
    if (!valid_word(key)) return fail(fmt::format("bad key '{}' in spec '{}'", key, text));
    if (value.empty()) return fail(fmt::format("empty value for '{}' in spec '{}'", key, text));
    if (spec.has(key)) return fail(fmt::format("key '{}' given twice in spec '{}'", key, text));
    spec.m_entries.emplace_back(std::string(key), std::string(value));
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return spec;
}

bool Spec::has(std::string_view key) const noexcept {
  for (const auto& [k, v] : m_entries) {
    if (k == key) return true;
  }
  return false;
}

std::optional<std::string> Spec::get(std::string_view key) const {
  for (const auto& [k, v] : m_entries) {
    if (k == key) return v;
  }
  return std::nullopt;
}

Result<long long> Spec::integer(std::string_view key, long long fallback, long long lo,
                                long long hi) const {
  const auto text = get(key);
  if (!text) return fallback;
  const auto v = parse_integer(*text);
  if (!v) return fail(fmt::format("{}: {}={} is not a whole number", m_name, key, *text));
  if (*v < lo || *v > hi) {
    return fail(fmt::format("{}: {}={} is out of range {}..{}", m_name, key, *text, lo, hi));
  }
  return *v;
}

std::optional<std::string> out_of_range(std::string_view key, long long v, long long lo,
                                        long long hi) {
  if (v >= lo && v <= hi) return std::nullopt;
  return fmt::format("{}={} is out of range {}..{}", key, v, lo, hi);
}

std::optional<std::string> out_of_range(std::string_view key, double v, double lo, double hi) {
  if (v >= lo && v <= hi) return std::nullopt;
  return fmt::format("{}={} is out of range {}..{}", key, v, lo, hi);
}

Result<double> Spec::number(std::string_view key, double fallback, double lo, double hi) const {
  const auto text = get(key);
  if (!text) return fallback;
  const auto v = parse_number(*text);
  if (!v) return fail(fmt::format("{}: {}={} is not a number", m_name, key, *text));
  if (*v < lo || *v > hi) {
    return fail(fmt::format("{}: {}={} is out of range {}..{}", m_name, key, *text, lo, hi));
  }
  return *v;
}

Result<std::string> Spec::choice(std::string_view key, std::string_view fallback,
                                 std::initializer_list<std::string_view> allowed) const {
  const auto text = get(key);
  if (!text) return std::string(fallback);
  for (auto a : allowed) {
    if (a == *text) return *text;
  }
  std::string list;
  for (auto a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
  return fail(fmt::format("{}: {}={} is not one of: {}", m_name, key, *text, list));
}

Result<bool> Spec::flag(std::string_view key, bool fallback) const {
  const auto text = get(key);
  if (!text) return fallback;
  if (*text == "true" || *text == "on" || *text == "1" || *text == "yes") return true;
  if (*text == "false" || *text == "off" || *text == "0" || *text == "no") return false;
  return fail(fmt::format("{}: {}={} is not true or false", m_name, key, *text));
}

std::optional<Error> Spec::reject_unknown(std::span<const std::string_view> known) const {
  for (const auto& [k, v] : m_entries) {
    bool found = false;
    for (auto q : known) found = found || q == k;
    if (!found) {
      std::string list;
      for (auto q : known) list += (list.empty() ? "" : ", ") + std::string(q);
      if (list.empty()) return fail(fmt::format("{} takes no options, got '{}'", m_name, k));
      return fail(fmt::format("{}: unknown option '{}' (known: {})", m_name, k, list));
    }
  }
  return std::nullopt;
}

}  // namespace duel
