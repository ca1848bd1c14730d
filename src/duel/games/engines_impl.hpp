#pragma once
// The definitions of engines.hpp, for a game's own engines.cpp only: each
// includes this once and instantiates the factories for its state type
// (DUEL_GAME_ENGINES), so every search template is compiled in one place.
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
template <class S>
[[nodiscard]] std::string unknown_eval(std::string_view eval) {
  return fmt::format("unknown eval '{}' for {} (known: {})", eval, S::kName, heuristic_names<S>());
}
}  // namespace detail

template <class S>
Result<SearcherPtr<S>> make_engine(std::string_view eval, std::uint64_t seed,
                                   const search::EngineOptions& options) {
  const std::string_view name = eval.empty() ? default_heuristic<S>() : eval;
  SearcherPtr<S> out;
  const bool found = with_heuristic<S>(name, seed, [&](auto h) {
    out = std::make_unique<search::Engine<S, decltype(h)>>(std::move(h), options);
  });
  if (!found) return fail(detail::unknown_eval<S>(name));
  return Result<SearcherPtr<S>>(std::move(out));
}

template <class S>
SearcherPtr<S> make_solver(const search::EngineOptions& options) {
  return std::make_unique<search::Engine<S, search::NoHeuristic>>(search::NoHeuristic{}, options);
}

template <class S>
Result<SearcherPtr<S>> make_plain(std::string_view eval, std::uint64_t seed, bool prune) {
  const std::string_view name = eval.empty() ? default_heuristic<S>() : eval;
  SearcherPtr<S> out;
  const bool found = with_heuristic<S>(name, seed, [&](auto h) {
    out = std::make_unique<search::PlainSearcher<S, decltype(h)>>(std::move(h), prune);
  });
  if (!found) return fail(detail::unknown_eval<S>(name));
  return Result<SearcherPtr<S>>(std::move(out));
}

}  // namespace duel::games

// The explicit instantiations of the factories for the game state `S`.
#define DUEL_GAME_ENGINES(S)                                                            \
  namespace duel::games {                                                               \
  template Result<SearcherPtr<S>> make_engine<S>(std::string_view, std::uint64_t,       \
                                                 const search::EngineOptions&);         \
  template SearcherPtr<S> make_solver<S>(const search::EngineOptions&);                 \
  template Result<SearcherPtr<S>> make_plain<S>(std::string_view, std::uint64_t, bool); \
  }                                                                                     \
  static_assert(true)
