#pragma once
// Scoring a tournament from its journal (tournament.hpp): seed 003's
// grading points, the knockout's rounds, Swiss points with Buchholz, and
// the standings with every entrant's Elo from all games at once
// (arena/ratings.hpp).
#include <nlohmann/json.hpp>

#include "duel/tournament/plan.hpp"

namespace duel::tournament {

// results.json: one entry per entrant (its points, games and the reason for
// every loss) and the standings.
[[nodiscard]] nlohmann::json results_document(const Field& field, const Entries& journal);

}  // namespace duel::tournament
