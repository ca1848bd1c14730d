#pragma once
// A game's record in the format its own tools exchange (games::RecordFormat:
// PGN for the 5x5 chess games, PDN for checkers), for every front end.
//
// Why: `duel play`, `duel arena` and `duel serve` each chose between PGN and
// PDN by testing the game type; the game now states its format once and
// these functions read it, so a new game or format changes one place.
#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "duel/games/game.hpp"
#include "duel/play/match.hpp"
#include "duel/play/pdn_record.hpp"
#include "duel/play/pgn_record.hpp"

namespace duel::play {

using RecordTags = std::vector<std::pair<std::string, std::string>>;

[[nodiscard]] constexpr std::string_view format_name(games::RecordFormat f) noexcept {
  switch (f) {
    case games::RecordFormat::pgn: return "pgn";
    case games::RecordFormat::pdn: return "pdn";
    case games::RecordFormat::none: break;
  }
  return "";
}

// The game's tags for its two sides, in the game's words ("White", "Black";
// "Black", "White" in checkers), Player 1 first.
template <class S>
[[nodiscard]] RecordTags side_tags(const std::array<std::string, 2>& agents) {
  return {{std::string(S::kSideNames[0]), agents[0]}, {std::string(S::kSideNames[1]), agents[1]}};
}

// The record as PGN or PDN text, from the game's own start (`like` gives its
// draw limit). `tags` are the caller's (Event, the sides, Termination, ...).
template <class S>
requires(S::kRecordFormat != games::RecordFormat::none) [[nodiscard]] std::string
    game_record(const MatchRecord<S>& rec, const S& like, const RecordTags& tags) {
  if constexpr (S::kRecordFormat == games::RecordFormat::pgn) {
    return pgn_record(rec, like, tags);
  } else {
    return pdn_record(rec, like, tags);
  }
}

// The Termination tag's value: PGN §9.8.1's words for PGN, the record's
// reason for PDN (as seed 003's referee logs it).
template <class S>
[[nodiscard]] std::string termination(const MatchRecord<S>& rec) {
  if constexpr (S::kRecordFormat == games::RecordFormat::pgn) {
    return std::string(pgn_termination(rec.ending));
  } else {
    return rec.reason;
  }
}

// Today's date as PGN's Date tag writes it (YYYY.MM.DD, UTC).
[[nodiscard]] inline std::string pgn_date() {
  const auto today = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
  const std::chrono::year_month_day ymd{today};
  return fmt::format("{:04}.{:02}.{:02}", static_cast<int>(ymd.year()),
                     static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
}

// The record `duel play --pgn/--pdn` writes for a game (and Python's
// MatchResult.pgn()): Event "duel play", PGN's Date, the sides, Termination.
template <class S>
requires(S::kRecordFormat != games::RecordFormat::none) [[nodiscard]] std::string
    play_record(const MatchRecord<S>& rec, const S& like) {
  RecordTags tags = {{"Event", "duel play"}};
  if constexpr (S::kRecordFormat == games::RecordFormat::pgn) tags.emplace_back("Date", pgn_date());
  for (auto& side : side_tags<S>(rec.agents)) tags.push_back(std::move(side));
  tags.emplace_back("Termination", termination(rec));
  return game_record(rec, like, tags);
}

// The option names a front end uses for each format, and for a game with
// neither (its JSON or trace output).
struct RecordFlags {
  std::string_view pgn;
  std::string_view pdn;
  std::string_view other;
};

// The one-line error when the option for `wanted` is given for a game that
// records in another format, naming the option that game takes; none when the
// game records in `wanted`.
template <class S>
[[nodiscard]] std::optional<std::string> refuse_format(games::RecordFormat wanted,
                                                       const RecordFlags& flags) {
  using F = games::RecordFormat;
  if (wanted == S::kRecordFormat) return std::nullopt;
  const std::string_view flag = wanted == F::pgn ? flags.pgn : flags.pdn;
  const std::string_view what =
      wanted == F::pgn
          ? "PGN records the 5x5 chess games (gardner, gardner-cs3243, minichess-comp472)"
          : "PDN records checkers games";
  const std::string_view use = S::kRecordFormat == F::pgn   ? flags.pgn
                               : S::kRecordFormat == F::pdn ? flags.pdn
                                                            : flags.other;
  return fmt::format("{}: {}; use {} for {}", flag, what, use, S::kName);
}

}  // namespace duel::play
