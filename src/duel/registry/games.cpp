#include "duel/registry/games.hpp"

#include <optional>
#include <utility>

#include <fmt/format.h>

namespace duel::registry {

const std::vector<GameInfo>& game_list() {
  static const std::vector<GameInfo> kGames = {
      {"nqueens", "nqueens:n=8,variant=1a",
       "two-player N-Queens (seed 001): variants 1a, 1b (forced column) and 2 (free placement)"},
      {"kcell", "kcell:n=2,k=7",
       "KCell (seed 002): n pieces each on k cells, step or jump forward"},
      {"gardner", "gardner", "Gardner 5x5 minichess, standard chess rules (RULES.md 1a)"},
      {"gardner-cs3243", "gardner-cs3243:draw-plies=50",
       "Gardner 5x5 minichess, NUS CS3243 rules: no promotion, king capture (seed 000)"},
      {"minichess-comp472", "minichess-comp472:max-turns=100",
       "Concordia COMP 472 5x5 mini chess: no check rule, king capture (seed 004)"},
      {"checkers", "checkers:draw-plies=50",
       "English draughts / American checkers, Black moves first (seed 003, RULES.md 5)"},
  };
  return kGames;
}

Result<AnyGame> make_game(std::string_view spec_text) {
  auto spec = Spec::parse(spec_text);
  if (!spec) return fail(spec.error());
  const std::string& name = spec->name();
  // The game whose kName matches, among the alternatives of AnyGame.
  std::optional<Result<AnyGame>> made;
  [&]<class... Games>(std::variant<Games...>*) {
    (
        [&] {
          if (made || name != Games::kName) return;
          auto r = Games::from_spec(*spec);
          made = r ? Result<AnyGame>(AnyGame(std::move(*r))) : Result<AnyGame>(fail(r.error()));
        }(),
        ...);
  }(static_cast<AnyGame*>(nullptr));
  if (made) return std::move(*made);
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

Result<std::pair<AnyGame, bool>> with_max_turns(const AnyGame& state, long long max_turns) {
  return std::visit(
      [&](const auto& s) -> Result<std::pair<AnyGame, bool>> {
        if constexpr (requires { s.with_max_turns(0); }) {
          if (max_turns > 0) {
            namespace mc = games::minichess;
            if (auto e = out_of_range("max_turns", max_turns, 0, mc::kMaxTurnCap)) return fail(*e);
            return std::pair{AnyGame(s.with_max_turns(static_cast<int>(max_turns))), true};
          }
        }
        return std::pair{AnyGame(s), false};
      },
      state);
}

}  // namespace duel::registry
