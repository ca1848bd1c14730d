#include "duel/registry/games.hpp"

#include <optional>
#include <utility>

#include <fmt/format.h>

namespace duel::registry {

const std::vector<GameInfo>& game_list() {
  static const std::vector<GameInfo> kGames = {
      {"nqueens", "nqueens:n=8,variant=1a",
       "two-player N-Queens: each in turn puts a queen on a square no queen attacks, and the "
       "last to place one wins; variants 1a, 1b (the left-most empty column; 1b scores the "
       "queens on the board) and 2 (any such square; docs/rules/nqueens.md)"},
      {"kcell", "kcell:n=2,k=7",
       "KCell, the rules of the University of Tübingen's Artificial Intelligence course, "
       "assignment 8: n pieces each on a line of k cells, step or jump forward; the first with "
       "all n on the far cells wins (docs/rules/kcell.md)"},
      {"gardner", "gardner",
       "Gardner 5x5 minichess, standard chess rules: checkmate wins, stalemate draws "
       "(docs/rules/minichess.md)"},
      {"gardner-cs3243", "gardner-cs3243:draw-plies=50",
       "Gardner 5x5 minichess, the rules of NUS CS3243 Introduction to AI, project 3: no "
       "promotion, king capture (a move that leaves one's own king attacked loses)"},
      {"minichess-comp472", "minichess-comp472:max-turns=100",
       "5x5 mini chess, the rules of Concordia COMP 472's project: 6 pieces a side, no check "
       "rule, king capture, a draw after 10 turns without a capture"},
      {"checkers", "checkers:draw-plies=50",
       "English draughts / American checkers, the rules of USC CSCI-561 Foundations of AI, "
       "homework 2: Black moves first, captures are compulsory (docs/rules/checkers.md)"},
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
