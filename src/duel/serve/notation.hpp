#pragma once
// How the page writes moves and scores, per game (docs/serve.md § the game
// view): SAN in the chess games, the seed's square numbers in checkers
// (`11-15`, `22x15`), `pass` for KCell's pass (scores: games/score.hpp).
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
#include "duel/games/score.hpp"
#include "duel/registry/any_game.hpp"

namespace duel::serve {

using games::kIsMinichess;

// The move `m` of `s` as people write it.
template <class S>
[[nodiscard]] std::string notation_of(const S& s, const typename S::Move& m) {
  if constexpr (kIsMinichess<S>) {
    return games::minichess::san(s, m);
  } else if constexpr (std::is_same_v<S, games::kcell::State>) {
    return m == games::kcell::kPass ? "pass" : s.move_text(m);
  } else {
    return s.move_text(m);
  }
}

// A line of moves (a principal variation in the game's move text) from
// `root` in notation; it stops at the first text that is not a legal move.
template <class S>
[[nodiscard]] std::vector<std::string> line_notation(S s, const std::vector<std::string>& line) {
  std::vector<std::string> out;
  for (const auto& text : line) {
    auto m = registry::legal_move(s, text);
    if (!m) break;
    out.push_back(notation_of(s, *m));
    s = s.result(*m);
  }
  return out;
}

}  // namespace duel::serve
