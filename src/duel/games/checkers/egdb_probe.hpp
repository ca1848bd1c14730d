#pragma once
// What the engine's checkers heuristics know from the endgame tables
// (search::HasKnownValues): the value of a position with few enough pieces.
//
// Why a score and not a proof for a win: the tables' values are those of
// unlimited play, and seed 003's draw clock (50 plies without a capture or
// a crowning) may turn a won position into a draw, so a win is a score
// above every estimate, with the heuristic's own estimate added so that the
// search still prefers the position nearer to the win (fewer enemy pieces,
// kings made). A draw is a draw under every rule: the rules can only add
// draws, so the search takes it as proven.
#include <algorithm>
#include <bit>
#include <optional>

#include "duel/games/checkers/checkers.hpp"
#include "duel/games/checkers/egdb.hpp"
#include "duel/search/concepts.hpp"

namespace duel::games::checkers::egdb {

// A table's win, before the estimate (which is held to a fifth of it).
inline constexpr Value kTableWin = 20'000;

// `s`'s value from Black's view where the engine's tables hold it; the
// estimate (Black's view) is asked only for a win or a loss.
template <class Estimate>
[[nodiscard]] std::optional<search::Known> known(const State& s, Estimate&& estimate) {
  const Egdb* tables = engine_tables();
  if (tables == nullptr) return std::nullopt;
  const Position& p = s.position();
  if (std::popcount(p.occupied()) > tables->max_pieces()) return std::nullopt;
  const auto v = tables->probe(p);
  if (!v) return std::nullopt;
  if (*v == Wld::Draw) return search::Known{0, true};
  const bool black_wins = (*v == Wld::Win) == (s.to_move() == Player::First);
  const Value e = std::clamp<Value>(estimate(), -kTableWin / 5, kTableWin / 5);
  return search::Known{(black_wins ? kTableWin : -kTableWin) + e, false};
}

}  // namespace duel::games::checkers::egdb
