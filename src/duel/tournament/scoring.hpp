#pragma once
// Scoring a tournament from its journal (tournament.hpp): seed 003's grading
// points, the competition's rounds, and the standings with Elo.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "duel/tournament/tournament.hpp"

namespace duel::tournament {

// A knockout round's pairs (indices into the students), shuffled by the seed
// and the round; an odd one out has a bye (it advances) and is not listed.
[[nodiscard]] std::vector<std::pair<std::size_t, std::size_t>> knockout_pairs(
    const std::vector<std::size_t>& entrants, std::uint64_t seed, int round);

// Who goes on after `round` (seed 003): "advance both agents ... if they
// both win or draw on half of the games. If an agent loses more than half of
// the games, it will be eliminated". Byes go on.
[[nodiscard]] std::vector<std::size_t> knockout_survivors(
    const std::vector<std::size_t>& entrants,
    const std::vector<std::pair<std::size_t, std::size_t>>& pairs,
    const std::vector<Submission>& students, const std::map<std::string, nlohmann::json>& journal,
    int round, int games);

// results.json: one entry per student (its points, games and the reason for
// every loss) and the standings with Elo and its interval.
[[nodiscard]] nlohmann::json results_document(const Options& options,
                                              const std::vector<SinglePosition>& singles,
                                              const std::vector<Submission>& students,
                                              const std::map<std::string, nlohmann::json>& journal);

}  // namespace duel::tournament
