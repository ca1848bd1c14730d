#pragma once
// What every type-erased front end (the Python module, `duel serve`) asks of
// a game held as `AnyGame`: its spec and text, its heuristics, its legal
// moves as text, a move given as text played with the CLI's error wording.
// One copy here, so that Python and HTTP answer the same question the same
// way.
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "duel/core/result.hpp"
#include "duel/games/game.hpp"
#include "duel/registry/games.hpp"

namespace duel::registry {

// A game's heuristic names, default first.
template <class S>
[[nodiscard]] std::vector<std::string> heuristic_list() {
  std::vector<std::string> out;
  [&]<class... Hs>(std::tuple<Hs...>*) {
    (out.emplace_back(Hs::kName), ...);
  }(static_cast<typename S::Heuristics*>(nullptr));
  return out;
}

// One line of game_list() with the heuristics of its example spec.
struct GameEntry {
  std::string name;
  std::string example;
  std::string about;
  std::vector<std::string> heuristics;  // default first
};

[[nodiscard]] inline std::vector<GameEntry> game_entries() {
  std::vector<GameEntry> out;
  for (const auto& g : game_list()) {
    auto made = make_game(g.example);
    std::vector<std::string> hs;
    if (made) {
      hs = std::visit([](const auto& s) { return heuristic_list<std::decay_t<decltype(s)>>(); },
                      *made);
    }
    out.push_back({std::string(g.name), std::string(g.example), std::string(g.about), hs});
  }
  return out;
}

[[nodiscard]] inline std::string spec_of(const AnyGame& g) {
  return std::visit([](const auto& s) { return s.spec(); }, g);
}
[[nodiscard]] inline std::string text_of(const AnyGame& g) {
  return std::visit([](const auto& s) { return s.to_text(); }, g);
}

// The legal moves; none once the game is over (AIMA: a terminal state has
// no actions, even where a rule such as a draw clock ended it with moves
// still generated).
template <games::PlayableGame S>
[[nodiscard]] typename S::Moves legal_moves(const S& s) {
  typename S::Moves moves;
  if (!s.is_terminal()) s.actions(moves);
  return moves;
}

// The legal moves as text.
template <games::PlayableGame S>
[[nodiscard]] std::vector<std::string> move_texts(const S& s) {
  std::vector<std::string> out;
  for (const auto& m : legal_moves(s)) out.push_back(s.move_text(m));
  return out;
}

// The legal move `text` names (any form the game reads, SAN too), or the
// game's own parse error; none is legal once the game is over.
template <games::PlayableGame S>
[[nodiscard]] Result<typename S::Move> legal_move(const S& s, std::string_view text) {
  if (s.is_terminal()) {
    return fail(fmt::format("the game is over; '{}' is not a legal move", text));
  }
  return games::read_move(s, text);
}

}  // namespace duel::registry
