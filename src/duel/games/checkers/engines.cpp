// English checkers' searches, compiled once (games/engines.hpp).
#include "duel/games/checkers/checkers.hpp"
#include "duel/games/engines_impl.hpp"

DUEL_GAME_ENGINES(, duel::games::checkers::State);
