// The N-Queens game's searches, compiled once (games/engines.hpp).
#include "duel/games/engines_impl.hpp"
#include "duel/games/nqueens/nqueens.hpp"

DUEL_GAME_ENGINES(, duel::games::nqueens::State);
