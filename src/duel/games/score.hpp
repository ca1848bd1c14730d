#pragma once
// A search's value as people read it, one scale for every front end
// (`duel search`, Python, the page; docs/engine.md § Scores): an estimate in
// the game's unit (pawns in the 5x5 chess games, men in checkers, points of
// payoff elsewhere) from the first player's view, as lichess shows White's;
// a proven result as who wins in how many of their own moves.
//
// Why one function: the same position once read "0.01" in `duel search`,
// "+10.52" nowhere and "White ahead by 10.52 pawns" on the page.
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "duel/core/types.hpp"
#include "duel/games/checkers/checkers.hpp"
#include "duel/games/minichess/minichess.hpp"

namespace duel::games {

template <class S>
inline constexpr bool kIsMinichess = false;
template <class Rules>
inline constexpr bool kIsMinichess<minichess::State<Rules>> = true;

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
    return {"pawns", static_cast<double>(minichess::kE0Scale)};
  } else if constexpr (std::is_same_v<S, checkers::State>) {
    return {"men", 100.0};
  } else {
    return {"points", static_cast<double>(kUnit)};
  }
}

// Whether a proven win in `S` is a checkmate (standard chess rules), so it
// reads "mates in N" rather than "wins in N".
template <class S>
inline constexpr bool kWinsByMate = false;
template <class Rules>
inline constexpr bool kWinsByMate<minichess::State<Rules>> =
    Rules::kMoveRule == minichess::MoveRule::Legal;

struct Score {
  std::optional<double> units;  // an estimate: the first player's, in `unit`, to 2 decimals
  std::optional<int> wins_in;   // proven: the winner's moves, > 0 the first player wins
  int by = 1;                   // proven: the payoff's size (N-Queens' variants win by more)
  bool draw = false;            // a proven draw
  std::string_view unit;
  std::string text;  // "+10.52", "-0.35", "0.00", "White mates in 3", "Black wins in 4", "draw"
};

// `value` (the first player's view) of a search begun with `root` to move;
// `exact`: the search proved it. A win in p plies is (p + 1) / 2 of the
// winner's moves when the winner moves first at the root, else p / 2.
template <class S>
[[nodiscard]] Score score_of(Value value, bool exact, Player root) {
  Score out;
  out.unit = score_unit<S>().name;
  if (is_proven(value) && value != kDraw) {
    const Player winner = value > 0 ? Player::First : Player::Second;
    const int plies = plies_to_end(value);
    const int moves = winner == root ? (plies + 1) / 2 : plies / 2;
    const Value points = proven_payoff(value);
    out.by = static_cast<int>(points > 0 ? points : -points);
    out.wins_in = winner == Player::First ? moves : -moves;
    const std::string by = out.by == 1 ? "" : fmt::format(" by {}", out.by);
    out.text = fmt::format("{} {}{} in {}", S::kSideNames[index(winner)],
                           kWinsByMate<S> ? "mates" : "wins", by, moves);
    return out;
  }
  if (exact && value == kDraw) {
    out.draw = true;
    out.text = "draw";
    return out;
  }
  const double units = std::round(static_cast<double>(value) / score_unit<S>().values * 100) / 100;
  out.units = units == 0 ? 0.0 : units;  // no "-0.00"
  out.text = *out.units == 0 ? "0.00" : fmt::format("{:+.2f}", *out.units);
  return out;
}

// The text with its unit and side, for a line of its own:
// "+10.52 pawns (White's view)", "White mates in 3", "draw (proven)".
template <class S>
[[nodiscard]] std::string score_line(const Score& s) {
  if (s.draw) return "draw (proven)";
  if (s.wins_in) return s.text;
  return fmt::format("{} {} ({}'s view)", s.text, s.unit, S::kSideNames[0]);
}

// As `duel search --json`, Python's to_dict and the page's search write it.
[[nodiscard]] inline nlohmann::json score_json(const Score& s) {
  using J = nlohmann::json;
  return {{"eval", s.units ? J(*s.units) : J(nullptr)},
          {"wins_in", s.wins_in ? J(*s.wins_in) : J(nullptr)},
          {"by", s.by},
          {"draw", s.draw},
          {"unit", s.unit},
          {"text", s.text}};
}

}  // namespace duel::games
