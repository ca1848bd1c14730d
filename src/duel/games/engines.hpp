#pragma once
// The searches of a game, made by name: the engine, plain minimax and plain
// alpha-beta with one of the game's heuristics, and the solver (the engine
// with no heuristic).
//
// Why declarations only: the definitions (engines_impl.hpp) are compiled in
// each game's own translation unit (`engines.cpp` in its folder), where
// every heuristic of the game is instantiated once. Everything else calls
// these factories and compiles no search.
#include <cstdint>
#include <memory>
#include <string_view>

#include "duel/core/result.hpp"
#include "duel/search/options.hpp"
#include "duel/search/searcher.hpp"

namespace duel::games {

template <class S>
using SearcherPtr = std::unique_ptr<search::Searcher<S>>;

// The engine with the heuristic `eval` (empty: the game's default), built
// from `seed`; a one-line error naming the game's heuristics otherwise.
template <class S>
[[nodiscard]] Result<SearcherPtr<S>> make_engine(std::string_view eval, std::uint64_t seed,
                                                 const search::EngineOptions& options);

// The engine with no heuristic at all: it searches to the end (duel solve).
template <class S>
[[nodiscard]] SearcherPtr<S> make_solver(const search::EngineOptions& options);

// Plain alpha-beta (`prune`) or plain minimax with the heuristic `eval`.
template <class S>
[[nodiscard]] Result<SearcherPtr<S>> make_plain(std::string_view eval, std::uint64_t seed,
                                                bool prune);

}  // namespace duel::games

// The factories' explicit instantiations for the game state S:
// `DUEL_GAME_ENGINES(, S)` defines them (a game's engines.cpp),
// `DUEL_GAME_ENGINES(extern, S)` declares them defined there.
// A template argument cannot be parenthesized.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define DUEL_GAME_ENGINES(PREFIX, S)                                                           \
  namespace duel::games {                                                                      \
  PREFIX template Result<SearcherPtr<S>> make_engine<S>(std::string_view, std::uint64_t,       \
                                                        const search::EngineOptions&);         \
  PREFIX template SearcherPtr<S> make_solver<S>(const search::EngineOptions&);                 \
  PREFIX template Result<SearcherPtr<S>> make_plain<S>(std::string_view, std::uint64_t, bool); \
  }                                                                                            \
  static_assert(true)
// NOLINTEND(bugprone-macro-parentheses)
