#pragma once
// How the page writes moves and scores, per game (docs/serve.md § the game
// view): as `duel play` writes them for people (games/notation.hpp: SAN in
// the chess games, the seed's square numbers in checkers, `pass` for
// KCell's pass; scores: games/score.hpp).
//
// Why apart from view.hpp: these are words for people, not the board's
// geometry; the move a request names is still any form the game reads, and
// `history` keeps the game's own move text (what `duel play` records).
#include <array>
#include <cmath>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "duel/core/types.hpp"
#include "duel/games/checkers/checkers.hpp"
#include "duel/games/kcell/kcell.hpp"
#include "duel/games/minichess/minichess.hpp"
#include "duel/games/minichess/san.hpp"
#include "duel/games/notation.hpp"
#include "duel/games/score.hpp"
#include "duel/registry/any_game.hpp"

namespace duel::serve {

using games::kIsMinichess;

// A line of moves (a principal variation in the game's move text) from
// `root` in notation; it stops at the first text that is not a legal move.
template <class S>
[[nodiscard]] std::vector<std::string> line_notation(S s, const std::vector<std::string>& line) {
  std::vector<std::string> out;
  for (const auto& text : line) {
    auto m = registry::legal_move(s, text);
    if (!m) break;
    out.push_back(games::people_text(s, *m));
    s = s.result(*m);
  }
  return out;
}

}  // namespace duel::serve
