#pragma once
// PGN (Portable Game Notation), the record format chess programs read:
// tag pairs, then numbered SAN moves and the result. Written for whole games
// (`duel play --pgn`), read back for tests and for replaying records of any
// of the three 5x5 rule sets. Conventions in docs/rules/minichess.md § PGN.
//
// - The seven-tag roster (Event, Site, Date, Round, White, Black, Result)
//   comes first, "?" (Date "????.??.??") where the caller gives none; then
//   `[Variant]` with Fairy-Stockfish's name for the rule set, `[SetUp "1"]`
//   and `[FEN]` when the start is not the rule set's own start, then the
//   caller's other tags in its order.
// - White is Player::First, so `1-0` is a win for Player 1.
// - Movetext lines stay within 79 characters, as the PGN export format asks.
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "duel/core/result.hpp"
#include "duel/games/minichess/minichess.hpp"

namespace duel::games::minichess {

using PgnTags = std::vector<std::pair<std::string, std::string>>;

// The `[Variant]` value: Fairy-Stockfish's (and pyffish's) variant name.
// `gardner` is built into Fairy-Stockfish; `cs3243` and `comp472` are defined
// in tests/data/fairy-stockfish/variants.ini, which it must load first.
template <class Rules>
[[nodiscard]] constexpr std::string_view pgn_variant() noexcept {
  if constexpr (std::is_same_v<Rules, Gardner>) {
    return "gardner";
  } else if constexpr (std::is_same_v<Rules, Cs3243>) {
    return "cs3243";
  } else {
    static_assert(std::is_same_v<Rules, Comp472>, "a rule set without a PGN variant name");
    return "comp472";
  }
}

// The result token for a payoff from White's (Player::First's) view.
[[nodiscard]] std::string_view pgn_result(int payoff_for_white) noexcept;

// What goes into the movetext besides the moves: `after_move[i]` is a
// comment after move i ("" or missing: none), `before_result` one before the
// result token (e.g. why the game ended).
struct PgnNotes {
  std::vector<std::string> after_move;
  std::string before_result;
};

// One game: `moves` (each legal in turn) played from `start`; `result` is
// "1-0", "0-1", "1/2-1/2" or "*" (unfinished).
template <class Rules>
[[nodiscard]] std::string pgn_text(const State<Rules>& start, const std::vector<Move>& moves,
                                   std::string_view result, const PgnTags& tags = {},
                                   const PgnNotes& notes = {});

template <class Rules>
struct PgnGame {
  PgnTags tags;
  State<Rules> start;
  std::vector<Move> moves;
  std::string result;  // the result token; "*" when the movetext has none
  [[nodiscard]] State<Rules> final_state() const {
    State<Rules> s = start;
    for (const Move m : moves) s = s.result(m);
    return s;
  }
};
using AnyPgnGame = std::variant<PgnGame<Gardner>, PgnGame<Cs3243>, PgnGame<Comp472>>;

struct PgnReadOptions {
  // The rule set of a game without `[Variant]`: a Variant value or a game name.
  std::string default_variant = "gardner";
  // The draw limit in the rule set's spec unit (draw-plies or max-turns);
  // 0: the rule set's default. A game longer than the limit allows fails.
  int limit = 0;
};

// Every game in `text`: tags, movetext with move numbers, `{}` and `;`
// comments, NAGs (`$1`), variations `( )` (skipped) and the result token.
// Each game's rule set comes from its `[Variant]` (Fairy-Stockfish's names
// or ours); its moves are read with `parse_san` from `[FEN]` or the start.
// Errors name the game and ply: "game 2, ply 14: Nd3 is ambiguous: ...".
[[nodiscard]] Result<std::vector<AnyPgnGame>> parse_pgn(std::string_view text,
                                                        const PgnReadOptions& options = {});

// The same for one rule set: a game whose `[Variant]` names another fails.
template <class Rules>
[[nodiscard]] Result<std::vector<PgnGame<Rules>>> parse_pgn_as(std::string_view text,
                                                               int limit = 0);

extern template std::string pgn_text(const State<Gardner>&, const std::vector<Move>&,
                                     std::string_view, const PgnTags&, const PgnNotes&);
extern template std::string pgn_text(const State<Cs3243>&, const std::vector<Move>&,
                                     std::string_view, const PgnTags&, const PgnNotes&);
extern template std::string pgn_text(const State<Comp472>&, const std::vector<Move>&,
                                     std::string_view, const PgnTags&, const PgnNotes&);
extern template Result<std::vector<PgnGame<Gardner>>> parse_pgn_as(std::string_view, int);
extern template Result<std::vector<PgnGame<Cs3243>>> parse_pgn_as(std::string_view, int);
extern template Result<std::vector<PgnGame<Comp472>>> parse_pgn_as(std::string_view, int);

}  // namespace duel::games::minichess
