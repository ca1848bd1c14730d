#pragma once
// How the page writes moves and scores, per game (docs/serve.md § the game
// view): SAN in the chess games, the seed's square numbers in checkers
// (`11-15`, `22x15`), `pass` for KCell's pass; a search's score in the
// game's own unit from the leading side's view, or who wins in how many
// moves once it is proven.
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
#include "duel/registry/any_game.hpp"

namespace duel::serve {

template <class S>
inline constexpr bool kIsMinichess = false;
template <class Rules>
inline constexpr bool kIsMinichess<games::minichess::State<Rules>> = true;

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

// The unit a game's estimates are read in: its name and how many Values
// make one (the 5x5 chess games: a pawn is kE0Scale; checkers: a man is
// 100, `tuned`'s and `n1`'s scale); elsewhere points of payoff.
struct ScoreUnit {
  std::string_view name;
  double values;
};
template <class S>
[[nodiscard]] constexpr ScoreUnit score_unit() {
  if constexpr (kIsMinichess<S>) {
    return {"pawns", static_cast<double>(games::minichess::kE0Scale)};
  } else if constexpr (std::is_same_v<S, games::checkers::State>) {
    return {"men", 100.0};
  } else {
    return {"points", static_cast<double>(kUnit)};
  }
}

// `value` (Player 1's view) for people: "White wins in 4 moves (7 plies)",
// "draw (proven)", "Black ahead by 0.35 pawns" or "level (0.00 pawns)".
// `root` is the side to move where the search began: a win in p plies is
// (p + 1) / 2 of the winner's moves when the winner moves first, else p / 2.
[[nodiscard]] inline std::string score_words(Value value, bool exact, Player root,
                                             const std::array<std::string_view, 2>& names,
                                             ScoreUnit unit) {
  if (is_proven(value) && value != kDraw) {
    const Player winner = value > 0 ? Player::First : Player::Second;
    const int plies = plies_to_end(value);
    const int moves = winner == root ? (plies + 1) / 2 : plies / 2;
    const Value points = proven_payoff(value);
    const std::string by =
        points == 1 || points == -1 ? "" : fmt::format(" by {}", points > 0 ? points : -points);
    return fmt::format("{} wins{} in {} move{} ({} pl{})", names[index(winner)], by, moves,
                       moves == 1 ? "" : "s", plies, plies == 1 ? "y" : "ies");
  }
  if (exact && value == kDraw) return "draw (proven)";
  const double units = static_cast<double>(value) / unit.values;
  if (std::abs(units) < 0.005) return fmt::format("level (0.00 {})", unit.name);
  return fmt::format("{} ahead by {:.2f} {}", names[units > 0 ? 0 : 1], std::abs(units), unit.name);
}

}  // namespace duel::serve
