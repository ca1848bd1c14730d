// Gardner 5x5 chess's searches, compiled once (games/engines.hpp).
#include "duel/games/engines_impl.hpp"
#include "duel/games/minichess/minichess.hpp"

DUEL_GAME_ENGINES(, duel::games::minichess::GardnerState);
