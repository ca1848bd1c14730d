#pragma once
// Players and values shared by every game and search.
//
// Why: one scale for every search so that a game's utility, a heuristic's
// estimate and a proven win can be compared. A game's payoff (±1, ±k, 0) is
// worth `kUnit` per point; a proven result `ply` plies from the root is moved
// one step towards zero per ply, so shorter wins score higher and the payoff is
// still recovered by rounding. Heuristics return estimates on the same scale,
// strictly inside ±(kUnit - kMaxPly) unless they are certain.
#include <cstdint>
#include <cstdlib>
#include <limits>

namespace duel {

enum class Player : std::uint8_t { First = 0, Second = 1 };

[[nodiscard]] constexpr Player other(Player p) noexcept {
  return p == Player::First ? Player::Second : Player::First;
}
[[nodiscard]] constexpr int index(Player p) noexcept {
  return static_cast<int>(p);
}
// The seeds' names: Player 1 is MAX and moves first.
[[nodiscard]] constexpr int number(Player p) noexcept {
  return index(p) + 1;
}

using Value = std::int32_t;

inline constexpr int kMaxPly = 512;                             // deepest line any search follows
inline constexpr Value kUnit = 100'000;                         // one point of a game's payoff
inline constexpr Value kMaxPayoff = 10'000;                     // |payoff| a game may report
inline constexpr Value kInfinite = kUnit * kMaxPayoff + kUnit;  // beyond any value
inline constexpr Value kDraw = 0;

static_assert(static_cast<long long>(kInfinite) * 2 < std::numeric_limits<Value>::max());

// The value of a terminal state with payoff `payoff` (First's view, in points)
// reached `ply` plies below the root.
[[nodiscard]] constexpr Value terminal_value(Value payoff, int ply) noexcept {
  if (payoff > 0) return payoff * kUnit - ply;
  if (payoff < 0) return payoff * kUnit + ply;
  return kDraw;
}
// A single-point win or loss `ply` plies from the root (DESIGN habit 4).
[[nodiscard]] constexpr Value win_in(int ply) noexcept {
  return terminal_value(1, ply);
}
[[nodiscard]] constexpr Value loss_in(int ply) noexcept {
  return terminal_value(-1, ply);
}

// True when `v` can only come from a terminal state (a proven result).
[[nodiscard]] constexpr bool is_proven(Value v) noexcept {
  const Value a = v < 0 ? -v : v;
  return a >= kUnit - kMaxPly;
}
[[nodiscard]] constexpr bool is_win(Value v) noexcept {
  return v > 0 && is_proven(v);
}
[[nodiscard]] constexpr bool is_loss(Value v) noexcept {
  return v < 0 && is_proven(v);
}

// The payoff in points a proven value stands for (rounded), e.g. 3 for a
// three-queen win (0 for estimates; `to_points` gives their fraction).
[[nodiscard]] constexpr Value proven_payoff(Value v) noexcept {
  if (v > 0) return (v + kMaxPly) / kUnit;
  if (v < 0) return -((-v + kMaxPly) / kUnit);
  return 0;
}
[[nodiscard]] constexpr double to_points(Value v) noexcept {
  if (is_proven(v)) return static_cast<double>(proven_payoff(v));
  return static_cast<double>(v) / kUnit;
}
// Plies to the end of the game for a proven value.
[[nodiscard]] constexpr int plies_to_end(Value v) noexcept {
  const Value a = v < 0 ? -v : v;
  const Value p = (a + kMaxPly) / kUnit;
  return static_cast<int>(p * kUnit - a);
}

// A value from Player::First's view seen by `p` (negamax's side-to-move view).
[[nodiscard]] constexpr Value for_player(Value first_view, Player p) noexcept {
  return p == Player::First ? first_view : -first_view;
}

}  // namespace duel
