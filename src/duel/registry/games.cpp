#include "duel/registry/games.hpp"

#include <fmt/format.h>

namespace duel::registry {

const std::vector<GameInfo>& game_list() {
  static const std::vector<GameInfo> kGames = {
      {"nqueens", "nqueens:n=8,variant=1a",
       "two-player N-Queens (seed 001): variants 1a, 1b (forced column) and 2 (free placement)"},
      {"kcell", "kcell:n=2,k=7",
       "KCell (seed 002): n pieces each on k cells, step or jump forward"},
  };
  return kGames;
}

Result<AnyGame> make_game(std::string_view spec_text) {
  auto spec = Spec::parse(spec_text);
  if (!spec) return fail(spec.error());
  const std::string& name = spec->name();
  const auto wrap = [](auto r) -> Result<AnyGame> {
    if (!r) return fail(r.error());
    return AnyGame(std::move(*r));
  };
  if (name == games::nqueens::State::kName) return wrap(games::nqueens::State::from_spec(*spec));
  if (name == games::kcell::State::kName) return wrap(games::kcell::State::from_spec(*spec));
  std::string known;
  for (const auto& g : game_list()) known += (known.empty() ? "" : ", ") + std::string(g.name);
  return fail(fmt::format("unknown game '{}' (known: {})", name, known));
}

Result<AnyGame> make_game(std::string_view spec_text, std::string_view text) {
  auto start = make_game(spec_text);
  if (!start || text.empty()) return start;
  return std::visit(
      [&](const auto& s) -> Result<AnyGame> {
        auto r = s.from_text(text);
        if (!r) return fail(fmt::format("bad position for {}: {}", s.spec(), r.error()));
        return AnyGame(std::move(*r));
      },
      *start);
}

}  // namespace duel::registry
