#pragma once
// What `duel play` says to people beyond the move lines: the result as
// players read it ("1-0 White wins by checkmate", "0-1 Black wins: White
// gave up", "1/2-1/2 draw by repetition"; N-Queens and KCell in their own
// words, "Player 1 wins: Player 2 has no square left for a queen"), and the
// board turned for a person whose pieces the game draws at the top.
//
// Why apart from the games' render() and end_cause(): those are the games'
// own texts, read by tests, the referee's logs and the web page; these are
// the terminal's sentences built on them. The payoff stays in the JSON
// record (record_io.hpp), not on the screen.
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <fmt/format.h>

#include "duel/games/checkers/checkers.hpp"
#include "duel/games/checkers/pdn.hpp"
#include "duel/games/minichess/minichess.hpp"
#include "duel/games/minichess/pgn.hpp"
#include "duel/games/nqueens/nqueens.hpp"
#include "duel/games/score.hpp"
#include "duel/play/match.hpp"

namespace duel::play {

// Step 1. The result token of the game's record format: PGN's from White's
// view, PDN's from Black's (Player 1 in both); none for a game without one.
template <class S>
[[nodiscard]] std::string result_token(Value payoff) {
  const int sign = payoff > 0 ? 1 : payoff < 0 ? -1 : 0;
  if constexpr (S::kRecordFormat == games::RecordFormat::pgn) {
    return std::string(games::minichess::pgn_result(sign));
  } else if constexpr (S::kRecordFormat == games::RecordFormat::pdn) {
    return std::string(games::checkers::pdn_result(sign));
  } else {
    return {};
  }
}

// Step 2. How a game ended by its rules: a method that reads after "by"
// ("checkmate", "repetition"), else a cause that reads after a colon.
struct RulesEnd {
  std::optional<std::string> by;
  std::string cause;
};

template <class S>
[[nodiscard]] RulesEnd rules_end(const S& s) {
  return {std::nullopt, s.end_cause()};
}
template <class Rules>
[[nodiscard]] RulesEnd rules_end(const games::minichess::State<Rules>& s) {
  namespace mc = games::minichess;
  const std::string cause = s.end_cause();
  switch (s.ending()) {
    case mc::Ending::Checkmate: return {"checkmate", cause};
    case mc::Ending::Stalemate: return {"stalemate", cause};
    case mc::Ending::Repetition: return {"repetition", cause};
    case mc::Ending::KingCaptured: return {"capturing the king", cause};
    case mc::Ending::DrawClock:
      if (cause.ends_with("-move rule")) return {"the " + cause, cause};  // "the 50-move rule"
      return {std::nullopt, cause};
    default: return {std::nullopt, cause};
  }
}
[[nodiscard]] inline RulesEnd rules_end(const games::checkers::State& s) {
  if (s.ending() == games::checkers::Ending::Repetition) return {"repetition", s.end_cause()};
  return {std::nullopt, s.end_cause()};
}
[[nodiscard]] inline RulesEnd rules_end(const games::nqueens::State& s) {
  // As the web page says it (serve/view.hpp); 1b also counts the queens.
  std::string cause = fmt::format("{} has no square left for a queen",
                                  games::nqueens::State::kSideNames[index(s.to_move())]);
  if (s.variant() == games::nqueens::Variant::V1b) {
    cause += fmt::format("; {} queen{} placed", s.placed(), s.placed() == 1 ? "" : "s");
  }
  return {std::nullopt, cause};
}

// Step 3. The result line: the token (where the game has one), the winner
// or draw, and why.
namespace detail {
template <class S>
[[nodiscard]] std::string lead_of(Value payoff) {
  const std::string token = result_token<S>(payoff);
  return token.empty() ? "" : token + " ";
}
template <class S>
[[nodiscard]] std::string winner_of(Value payoff) {
  const Value points = payoff < 0 ? -payoff : payoff;
  if (payoff == 0) return "";
  return fmt::format("{} wins{}", S::kSideNames[payoff > 0 ? 0 : 1],
                     points > 1 ? fmt::format(" by {} points", points) : "");
}
}  // namespace detail

// A game over by its rules, from its last position: "1-0 White wins by
// checkmate", "Player 1 wins: Player 2 has no square left for a queen".
template <class S>
[[nodiscard]] std::string rules_result(const S& final_state) {
  const Value payoff = final_state.utility();
  const RulesEnd end = rules_end(final_state);
  const std::string verdict = payoff == 0 ? "draw" : detail::winner_of<S>(payoff);
  const std::string lead = detail::lead_of<S>(payoff);
  if (end.by && payoff >= -1 && payoff <= 1) {
    return fmt::format("{}{} by {}", lead, verdict, *end.by);
  }
  return fmt::format("{}{}: {}", lead, verdict, end.cause);
}

template <class S>
[[nodiscard]] std::string screen_result(const MatchRecord<S>& rec) {
  // A game not played out (a page's record mid-game, a stop from outside)
  // has no result: PGN's and PDN's `*`, as pgn_record.hpp writes it.
  const bool unfinished = (rec.ending == Ending::Rules && !rec.final_state.is_terminal()) ||
                          (rec.ending == Ending::Abandoned && rec.payoff == 0);
  if (unfinished) {
    return fmt::format("{}{}", S::kRecordFormat == games::RecordFormat::none ? "" : "* ",
                       rec.reason);
  }
  const bool by_rules = rec.ending == Ending::Rules && rec.final_state.is_terminal() &&
                        rec.final_state.utility() == rec.payoff;
  if (by_rules) return rules_result(rec.final_state);
  const std::string lead = detail::lead_of<S>(rec.payoff);
  const std::string winner = detail::winner_of<S>(rec.payoff);
  // A forfeit, a cap or an adjudication: the referee's reason, which names
  // the side and its program ("White (uci:sf) lost: ..."); a person is just
  // the side ("White gave up").
  std::string reason = rec.reason;
  for (const std::string_view side : S::kSideNames) {
    const std::string person = fmt::format("{} (human)", side);
    if (const auto at = reason.find(person); at != std::string::npos) {
      reason.replace(at, person.size(), side);
    }
  }
  if (reason.starts_with("draw") || reason.starts_with(winner + ":") || winner.empty()) {
    if (rec.payoff == 0 && !reason.starts_with("draw")) reason = "draw: " + reason;
    return lead + reason;
  }
  return fmt::format("{}{}: {}", lead, winner, reason);
}

// Step 4. The board turned half a circle, for a person whose pieces the
// game draws at the top: Black in the 5x5 chess games (Player 2) and in
// checkers (Player 1, who moves first there). Other games have no sides
// on the board to turn.
template <class S>
[[nodiscard]] constexpr std::optional<Player> top_side() {
  if constexpr (games::kIsMinichess<S>) {
    return Player::Second;
  } else if constexpr (std::is_same_v<S, games::checkers::State>) {
    return Player::First;
  } else {
    return std::nullopt;
  }
}

namespace detail {
// The last line of a game's drawing: its status ("White to move (...)").
[[nodiscard]] inline std::string status_line(const std::string& drawn) {
  const auto at = drawn.find_last_of('\n', drawn.size() >= 2 ? drawn.size() - 2 : 0);
  return at == std::string::npos ? drawn : drawn.substr(at + 1);
}
}  // namespace detail

// The 5x5 boards turned: rank 1 on top, file e on the left; `handout` in
// seed 004's cells (`wK`, `bp`, files A-E) as comp472_trace.hpp draws them.
template <class Rules>
[[nodiscard]] std::string turned_board(const games::minichess::State<Rules>& s, bool handout) {
  namespace mc = games::minichess;
  static constexpr std::string_view kFen = "pnbrqk";
  static constexpr std::string_view kSeed = "pNBRQK";
  const auto& pos = s.position();
  std::string out = handout ? "" : "  +-----------+\n";
  for (int rank = 0; rank < mc::kRanks; ++rank) {
    out += handout ? fmt::format("{}  ", rank + 1) : fmt::format("{} |", rank + 1);
    for (int file = mc::kFiles - 1; file >= 0; --file) {
      const int sq = mc::square(file, rank);
      const mc::Piece type = pos.piece_on(sq);
      const bool white = (pos.pieces(Player::First) & mc::bit(sq)) != 0;
      const auto i = type == mc::Piece::None ? 0 : static_cast<std::size_t>(mc::type_index(type));
      if (handout) {
        const std::string cell =
            type == mc::Piece::None ? "." : std::string(1, white ? 'w' : 'b') + kSeed[i];
        out += fmt::format("{}{:>3}", file == mc::kFiles - 1 ? "" : " ", cell);
      } else {
        const char c = kFen[i];
        out += ' ';
        out += type == mc::Piece::None ? '.' : white ? static_cast<char>(c - 'a' + 'A') : c;
      }
    }
    out += handout ? "\n" : " |\n";
  }
  out += handout ? "     E   D   C   B   A\n" : "  +-----------+\n    e d c b a\n";
  return out + detail::status_line(s.render());
}

// Checkers turned: rank 1 on top, file h on the left, each row's standard
// numbers from left to right (`32-29`).
[[nodiscard]] inline std::string turned_board(const games::checkers::State& s, bool /*handout*/) {
  namespace ck = games::checkers;
  const auto& pos = s.position();
  std::string out = "    h g f e d c b a\n  +-----------------+\n";
  for (int row = 7; row >= 0; --row) {
    out += fmt::format("{} |", 8 - row);
    for (int file = 7; file >= 0; --file) {
      const int sq = ck::square_at(row, file);
      char c = sq < 0 ? ' ' : '.';
      if (sq >= 0 && (pos.occupied() & ck::bit(sq)) != 0) {
        c = (pos.pieces(Player::First) & ck::bit(sq)) != 0 ? 'b' : 'w';
        if ((pos.kings() & ck::bit(sq)) != 0) c = static_cast<char>(c - 'a' + 'A');
      }
      out += ' ';
      out += c;
    }
    out += fmt::format(" | {}   {:>2}-{}\n", 8 - row, 4 * row + 4, 4 * row + 1);
  }
  out += "  +-----------------+\n    h g f e d c b a\n";
  return out + detail::status_line(s.render());
}
template <class S>
[[nodiscard]] std::string turned_board(const S& s, bool /*handout*/) {
  return s.render();
}

}  // namespace duel::play
