#pragma once
// Specs: the one grammar for games and agents, `name:key=value,key=value`
// (e.g. `nqueens:n=10,variant=1b`, `alphabeta:depth=4,eval=attack`).
//
// Why: every boundary (CLI, Python, web) names games and agents the same way,
// and every mistake in one gets the same precise one-line message.
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "duel/core/result.hpp"

namespace duel {

class Spec {
 public:
  // Parses `text`; errors name the offending part ("empty key in spec 'x:=3'").
  [[nodiscard]] static Result<Spec> parse(std::string_view text);

  [[nodiscard]] const std::string& name() const noexcept { return m_name; }
  [[nodiscard]] const std::string& text() const noexcept { return m_text; }
  [[nodiscard]] bool has(std::string_view key) const noexcept;
  [[nodiscard]] std::optional<std::string> get(std::string_view key) const;
  [[nodiscard]] const std::vector<std::pair<std::string, std::string>>& entries() const noexcept {
    return m_entries;
  }

  // Typed accessors with defaults and ranges; errors read like
  // "nqueens: n=abc is not a whole number" or "n=99 is out of range 1..32".
  [[nodiscard]] Result<long long> integer(std::string_view key, long long fallback, long long lo,
                                          long long hi) const;
  [[nodiscard]] Result<double> number(std::string_view key, double fallback, double lo,
                                      double hi) const;
  [[nodiscard]] Result<std::string> choice(std::string_view key, std::string_view fallback,
                                           std::initializer_list<std::string_view> allowed) const;
  [[nodiscard]] Result<bool> flag(std::string_view key, bool fallback) const;
  // An error for the first key not in `known`, listing the known keys.
  [[nodiscard]] std::optional<Error> reject_unknown(std::span<const std::string_view> known) const;
  [[nodiscard]] std::optional<Error> reject_unknown(
      std::initializer_list<std::string_view> known) const {
    return reject_unknown(std::span<const std::string_view>(known.begin(), known.size()));
  }

 private:
  std::string m_text;
  std::string m_name;
  std::vector<std::pair<std::string, std::string>> m_entries;
};

// Strict number parsing shared by specs and the CLI: the whole text must be
// the number ("12x", "", " 3" are rejected).
[[nodiscard]] std::optional<long long> parse_integer(std::string_view text);
[[nodiscard]] std::optional<double> parse_number(std::string_view text);

// A named value checked as a spec checks its keys: "depth=999 is out of range
// 0..254" when v is outside [lo, hi] (or NaN), else nothing. For the values
// the CLI and the Python module both take under their own names.
[[nodiscard]] std::optional<std::string> out_of_range(std::string_view key, long long v,
                                                      long long lo, long long hi);
[[nodiscard]] std::optional<std::string> out_of_range(std::string_view key, double v, double lo,
                                                      double hi);

}  // namespace duel
