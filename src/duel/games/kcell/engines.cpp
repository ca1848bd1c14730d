// KCell's searches, compiled once (games/engines.hpp).
#include "duel/games/engines_impl.hpp"
#include "duel/games/kcell/kcell.hpp"

DUEL_GAME_ENGINES(, duel::games::kcell::State);
