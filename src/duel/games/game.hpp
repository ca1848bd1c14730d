#pragma once
// What a playable game adds to the search's GameState concept: a name, a spec
// to build it from, text for moves and positions, and named heuristics.
//
// Why: the registry, the CLI, the play loop and the tests handle every game
// through this one shape, so adding a game touches only its folder and one
// line of the registry.
#include <array>
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>

#include "duel/core/result.hpp"
#include "duel/core/spec.hpp"
#include "duel/search/concepts.hpp"
#include "duel/search/features.hpp"

namespace duel::games {

// A named heuristic: a function object built from a seed (random ones use it),
// returning an estimate from Player::First's view on the Value scale.
template <class H, class S>
concept NamedHeuristic =
    search::Heuristic<H, S> && std::constructible_from<H, std::uint64_t> && requires {
  { H::kName } -> std::convertible_to<std::string_view>;
  { H::kAbout } -> std::convertible_to<std::string_view>;
};

// The record format a game's own tools exchange: PGN for the 5x5 chess games
// (with [Variant] and [FEN], as Fairy-Stockfish-based tools read it), PDN for
// checkers (seed 003), none for the others (Duel's JSON and trace only).
enum class RecordFormat { none, pgn, pdn };

template <class S>
concept PlayableGame = search::GameState<S> &&
    requires(const S& s, const typename S::Move& m, std::string_view text, const Spec& spec) {
  { S::kName } -> std::convertible_to<std::string_view>;                      // "nqueens"
  { S::kSideNames } -> std::convertible_to<std::array<std::string_view, 2>>;  // Player 1 first
  { S::kRecordFormat } -> std::convertible_to<RecordFormat>;
  { S::from_spec(spec) } -> std::same_as<Result<S>>;                 // start state of a game spec
  { s.spec() } -> std::same_as<std::string>;                         // canonical spec of this game
  { s.move_text(m) } -> std::same_as<std::string>;                   // notation of a legal move
  { s.parse_move(text) } -> std::same_as<Result<typename S::Move>>;  // legal moves only
  { s.render() } -> std::same_as<std::string>;                       // multi-line board for people
  { s.end_cause() } -> std::same_as<std::string>;    // why it is over ("checkmate"); "" until then
  { s.to_text() } -> std::same_as<std::string>;      // one-line position
  { s.from_text(text) } -> std::same_as<Result<S>>;  // a position of the same game
  typename S::Heuristics;  // std::tuple of NamedHeuristic types, the default first
};

// A move as a person or a script writes it: every form `parse_move` reads,
// and more where the game knows more (SAN in the chess games, `read_move`).
// Legal moves only.
template <PlayableGame S>
[[nodiscard]] Result<typename S::Move> read_move(const S& s, std::string_view text) {
  if constexpr (requires { s.read_move(text); }) {
    return s.read_move(text);
  } else {
    return s.parse_move(text);
  }
}

// Calls `f(H{seed})` for the heuristic named `name`; false if there is none.
template <class S, class F>
bool with_heuristic(std::string_view name, std::uint64_t seed, F&& f) {
  bool found = false;
  [&]<class... Hs>(std::tuple<Hs...>*) {
    ((!found && Hs::kName == name ? (found = true, f(Hs{seed}), 0) : 0), ...);
  }(static_cast<typename S::Heuristics*>(nullptr));
  return found;
}

// The names of a game's heuristics, default first, comma-separated.
template <class S>
std::string heuristic_names() {
  std::string out;
  [&]<class... Hs>(std::tuple<Hs...>*) {
    ((out += (out.empty() ? "" : ", ") + std::string(Hs::kName)), ...);
  }(static_cast<typename S::Heuristics*>(nullptr));
  return out;
}

// The side that moves first is Black (checkers, seed 003): `--black` is
// Player 1 there, `--white` everywhere else.
template <class S>
constexpr bool black_moves_first() {
  return S::kSideNames[0] == "Black";
}

template <class S>
std::string_view default_heuristic() {
  return std::tuple_element_t<0, typename S::Heuristics>::kName;
}

}  // namespace duel::games
