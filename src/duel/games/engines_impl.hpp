#pragma once
// The definitions of engines.hpp, for a game's own engines.cpp only: each
// includes this once and instantiates the factories for its state type
// (DUEL_GAME_ENGINES(, S), engines.hpp), so every search template is
// compiled in one place.
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "duel/games/engines.hpp"
#include "duel/games/game.hpp"
#include "duel/search/engine.hpp"
#include "duel/search/plain.hpp"

namespace duel::games {

namespace detail {
// The search `make(h)` builds with the heuristic `eval` (empty: the game's
// default) made from `seed`, or the error naming the game's heuristics.
template <class S, class Make>
[[nodiscard]] Result<SearcherPtr<S>> with_named(std::string_view eval, std::uint64_t seed,
                                                Make make) {
  const std::string_view name = eval.empty() ? default_heuristic<S>() : eval;
  SearcherPtr<S> out;
  if (!with_heuristic<S>(name, seed, [&](auto h) { out = make(std::move(h)); })) {
    return fail(
        fmt::format("unknown eval '{}' for {} (known: {})", name, S::kName, heuristic_names<S>()));
  }
  return Result<SearcherPtr<S>>(std::move(out));
}
}  // namespace detail

template <class S>
Result<SearcherPtr<S>> make_engine(std::string_view eval, std::uint64_t seed,
                                   const search::EngineOptions& options) {
  return detail::with_named<S>(eval, seed, [&](auto h) -> SearcherPtr<S> {
    return std::make_unique<search::Engine<S, decltype(h)>>(std::move(h), options);
  });
}

template <class S>
SearcherPtr<S> make_solver(const search::EngineOptions& options) {
  return std::make_unique<search::Engine<S, search::NoHeuristic>>(search::NoHeuristic{}, options);
}

template <class S>
Result<SearcherPtr<S>> make_plain(std::string_view eval, std::uint64_t seed, bool prune) {
  return detail::with_named<S>(eval, seed, [&](auto h) -> SearcherPtr<S> {
    return std::make_unique<search::PlainSearcher<S, decltype(h)>>(std::move(h), prune);
  });
}

}  // namespace duel::games
