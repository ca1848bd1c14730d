#pragma once
// What a tournament plays, round by round, as task documents (tasks.hpp):
// seed 003's grading, a round-robin or gauntlet (one round, the arena's own
// schedule), seed 003's knockout competition and a Swiss system (a round
// at a time, each from the journal of the rounds before).
//
// Why a pure function of the journal: a resumed run plans exactly the tasks
// the interrupted one did, so finished ones are found in the journal by
// their keys and the rest are played as they would have been.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "duel/tournament/tasks.hpp"
#include "duel/tournament/tournament.hpp"

namespace duel::tournament {

struct Field {
  const Options& options;
  const std::vector<Submission>& entrants;   // prepared; those with an error never play
  std::function<Opening(int pair)> opening;  // the arena's openings for opening pair p
};

using Entries = std::map<std::string, nlohmann::json>;

// Round `round`'s tasks (from 1); empty when the tournament is over.
[[nodiscard]] std::vector<nlohmann::json> plan_round(const Field& field, const Entries& journal,
                                                     int round);

// The Swiss rounds the options ask for, or ceil(log2 players), at least 1.
[[nodiscard]] int swiss_rounds(const Options& options, std::size_t players);

// Knockout: the entrants still in at the start of `round` (indices), from
// the journal of the rounds before it (seed 003: "If an agent loses more
// than half of the games, it will be eliminated"); at the end, the winners.
[[nodiscard]] std::vector<std::size_t> knockout_entrants(const Field& field, const Entries& journal,
                                                         int round);

// Competition: the rounds of 4-5 opponents before the final at most
// (--rounds; the course had 20, rounds 2 to 21).
[[nodiscard]] int competition_rounds(const Options& options);

// Competition: the entrants who played the final round-robin (or, before
// it, those still in).
[[nodiscard]] std::vector<std::size_t> competition_finalists(const Field& field,
                                                             const Entries& journal);

// A folder name for a task's key: letters, digits, '.', '-' and '_' kept,
// the rest '_', and a hash of the whole key so that two keys never share one.
[[nodiscard]] std::string task_folder(const std::string& key);

}  // namespace duel::tournament
