#pragma once
// A checkers game record as PDN: one conversion for `duel play --pdn` and
// `duel arena --pdnout` (the referee keeps its own records and calls
// pdn_text directly).
#include <string>
#include <vector>

#include "duel/games/checkers/pdn.hpp"
#include "duel/play/match.hpp"

namespace duel::play {

// The game from its own start (an arena opening may have moved it from the
// match's), read with `like`'s draw limit; the result from the payoff, or
// "*" for a game still going (ended by no rule yet: `duel serve` saves one).
[[nodiscard]] inline std::string pdn_record(const MatchRecord<games::checkers::State>& rec,
                                            const games::checkers::State& like,
                                            const games::checkers::PdnTags& tags) {
  std::vector<std::string> moves;
  for (const auto& m : rec.moves) moves.push_back(m.text);
  const int payoff = rec.payoff > 0 ? 1 : rec.payoff < 0 ? -1 : 0;
  const bool unfinished = rec.ending == Ending::Rules && !rec.final_state.is_terminal();
  const auto start = games::checkers::State::parse(rec.start, like.draw_limit_plies());
  return games::checkers::pdn_text(start ? *start : like, moves,
                                   unfinished ? "*" : games::checkers::pdn_result(payoff), tags);
}

}  // namespace duel::play
