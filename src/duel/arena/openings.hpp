#pragma once
// `--openings` as `duel arena` and `duel tournament` read it: P (random
// plies), random:plies=P, or a file with one position a line in the game's
// own text (FEN for the chess games and checkers); blank lines and lines
// starting with '#' are skipped.
//
// Why here and not in each command: a tournament of Duel agents must start
// its games exactly where the arena would, so that the same agents and seed
// give the same games in both.
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "duel/arena/arena.hpp"
#include "duel/core/file.hpp"
#include "duel/core/result.hpp"
#include "duel/core/spec.hpp"

namespace duel::arena {

// `text` empty: every game from the start. `random_order`: a file's
// positions in one shuffled order (by `seed`) instead of the file's.
template <games::PlayableGame S>
[[nodiscard]] Result<Openings<S>> parse_openings(const S& start, const std::string& text,
                                                 bool random_order, std::uint64_t seed) {
  Openings<S> out;
  if (text.empty()) return out;
  if (const auto plies = parse_integer(text)) {
    if (auto e = out_of_range("plies", *plies, 0, kMaxOpeningPlies)) {
      return fail("--openings: " + *e);
    }
    out.random_plies = static_cast<int>(*plies);
    return out;
  }
  if (text.starts_with("random:")) {
    const auto spec = Spec::parse("x:" + text.substr(7));
    if (!spec) return fail("--openings: " + spec.error());
    if (auto e = spec->reject_unknown({"plies"})) return fail("--openings: " + e->message);
    const auto plies = spec->integer("plies", 4, 0, kMaxOpeningPlies);
    if (!plies) {
      const std::string& e = plies.error();
      return fail("--openings: " + (e.starts_with("x: ") ? e.substr(3) : e));
    }
    out.random_plies = static_cast<int>(*plies);
    return out;
  }
  const auto body = read_file(text);
  if (!body) return fail("--openings: cannot read " + text);
  std::istringstream lines(*body);
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    auto position = start.from_text(line.substr(first));
    if (!position) {
      return fail(fmt::format("--openings: {} line {}: {}", text, number, position.error()));
    }
    if (position->is_terminal()) {
      return fail(fmt::format("--openings: {} line {}: the game is already over", text, number));
    }
    out.list.push_back(std::move(*position));
  }
  if (out.list.empty()) return fail("--openings: no position in " + text);
  if (random_order) out.shuffle(seed);
  return out;
}

}  // namespace duel::arena
