#pragma once
// A 5x5 chess game record as PGN: one conversion for `duel play --pgn` (and
// any later arena output), like pdn_record.hpp for checkers.
//
// What the record adds to the moves: a comment after each move a searching
// agent made, `{+0.35/7 0.10s}` as cutechess-cli writes it (the score in
// pawns from the mover's view, `+M3`/`-M2` for a proven win or loss in that
// many moves, then the depth and the move's time), and the reason the game
// ended as a comment before the result. White is Player::First.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "duel/core/types.hpp"
#include "duel/games/minichess/pgn.hpp"
#include "duel/play/match.hpp"

namespace duel::play {

// PGN §9.8.1's Termination values for how a match ended.
[[nodiscard]] inline std::string_view pgn_termination(Ending e) noexcept {
  switch (e) {
    case Ending::Rules: return "normal";
    case Ending::Timeout: return "time forfeit";
    case Ending::IllegalMove: return "rules infraction";
    case Ending::Abandoned: return "abandoned";
    case Ending::TurnLimit:
    case Ending::Adjudicated: return "adjudication";
  }
  return "unterminated";
}

// The cutechess-style comment for one move: empty without a search report.
template <class S>
[[nodiscard]] std::string pgn_move_comment(const MoveRecord<S>& m) {
  if (!m.report) return "";
  const Value own = for_player(m.report->value, m.player);
  std::string score;
  if (is_proven(own) && own != kDraw) {
    // UCI's convention (agents/uci.hpp): a win in p plies is mate in (p+1)/2
    // moves, a loss in p plies is mated in p/2.
    const int plies = plies_to_end(own);
    score = own > 0 ? fmt::format("+M{}", (plies + 1) / 2) : fmt::format("-M{}", plies / 2);
  } else {
    score = fmt::format("{:+.2f}", games::minichess::to_pawns(own));
  }
  return fmt::format("{}/{} {:.2f}s", score, m.report->depth, m.seconds);
}

// The game from its own start (an arena opening may have moved it from the
// match's), read with `like`'s draw limit; the result from the payoff.
// `tags` are the caller's (Event, White, Black, Termination, ...).
template <class Rules>
[[nodiscard]] std::string pgn_record(const MatchRecord<games::minichess::State<Rules>>& rec,
                                     const games::minichess::State<Rules>& like,
                                     const games::minichess::PgnTags& tags) {
  using State = games::minichess::State<Rules>;
  std::vector<games::minichess::Move> moves;
  games::minichess::PgnNotes notes;
  for (const auto& m : rec.moves) {
    moves.push_back(m.move);
    notes.after_move.push_back(pgn_move_comment<State>(m));
  }
  notes.before_result = rec.reason;
  // A game still going (`duel serve` saves one) ends by the rules but is
  // not over: no ending to name, result "*".
  const bool unfinished = rec.ending == Ending::Rules && !rec.final_state.is_terminal();
  if (rec.ending == Ending::Rules && !unfinished) {
    notes.before_result +=
        fmt::format(" ({})", games::minichess::ending_text(rec.final_state.ending()));
  }
  const int payoff = rec.payoff > 0 ? 1 : rec.payoff < 0 ? -1 : 0;
  const auto start = like.from_text(rec.start);
  return games::minichess::pgn_text(start ? *start : like, moves,
                                    unfinished ? "*" : games::minichess::pgn_result(payoff), tags,
                                    notes);
}

}  // namespace duel::play
