#pragma once
// The one place where game specs become games (DESIGN habit 3). Adding a game
// means one include and one line in each list below.
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "duel/core/result.hpp"
#include "duel/games/checkers/checkers.hpp"
#include "duel/games/engines.hpp"
#include "duel/games/kcell/kcell.hpp"
#include "duel/games/minichess/minichess.hpp"
#include "duel/games/nqueens/nqueens.hpp"

namespace duel::registry {

// Every game Duel plays, as the start state of one spec.
using AnyGame = std::variant<games::nqueens::State, games::kcell::State,
                             games::minichess::GardnerState, games::minichess::Cs3243State,
                             games::minichess::Comp472State, games::checkers::State>;

}  // namespace duel::registry

// Each game's searches are compiled in its own engines.cpp (games/engines.hpp).
DUEL_GAME_ENGINES(extern, duel::games::nqueens::State);
DUEL_GAME_ENGINES(extern, duel::games::kcell::State);
DUEL_GAME_ENGINES(extern, duel::games::minichess::GardnerState);
DUEL_GAME_ENGINES(extern, duel::games::minichess::Cs3243State);
DUEL_GAME_ENGINES(extern, duel::games::minichess::Comp472State);
DUEL_GAME_ENGINES(extern, duel::games::checkers::State);

namespace duel::registry {

struct GameInfo {
  std::string_view name;
  std::string_view example;
  std::string_view about;
};

// Games, one line each: name, an example spec, what it is.
[[nodiscard]] const std::vector<GameInfo>& game_list();

// `nqueens:n=10,variant=1b` -> the start state; a one-line error otherwise.
[[nodiscard]] Result<AnyGame> make_game(std::string_view spec_text);

// The start state, or the position `text` of that game (`--state`).
[[nodiscard]] Result<AnyGame> make_game(std::string_view spec_text, std::string_view text);

// A turn limit of M turns, as `--max-turns M` means it: in a game whose rules
// cap its length (COMP 472's m), `state` with that cap and true; in the
// others `state` unchanged and false (the match loop then draws the game
// after M turns). An error when M is over the game's own cap's range.
[[nodiscard]] Result<std::pair<AnyGame, bool>> with_max_turns(const AnyGame& state,
                                                              long long max_turns);

}  // namespace duel::registry
