#pragma once
// PDN (Portable Draughts Notation), the record format draughts programs
// read: tag pairs, then numbered moves in standard square numbers and the
// result. Written for whole games (`duel play --pdn`, the referee's
// `--pdnout`), read back for tests and for replaying records.
//
// English checkers conventions: `[GameType "21"]`, Black moves first and is
// the first side of a result (`1-0` Black won, `0-1` White won, `1/2-1/2`),
// a position other than the start given as `[SetUp "1"]` and `[FEN "..."]`.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "duel/core/result.hpp"
#include "duel/games/checkers/checkers.hpp"

namespace duel::games::checkers {

using PdnTags = std::vector<std::pair<std::string, std::string>>;

// The PDN result for a payoff from Black's view (+1, 0, -1).
[[nodiscard]] std::string_view pdn_result(int payoff_for_black) noexcept;

// One game: `tags` first (Event, Black, White... as given; GameType, SetUp,
// FEN and Result are added), `moves` as standard numbers played from `start`.
// `result` is "1-0", "0-1", "1/2-1/2" or "*" (unfinished).
[[nodiscard]] std::string pdn_text(const State& start, const std::vector<std::string>& moves,
                                   std::string_view result, const PdnTags& tags = {});

struct PdnGame {
  PdnTags tags;
  State start;
  std::vector<Move> moves;
  std::string result;
};
// Reads one game: tags, `{comments}`, move numbers (`12.` and `12...`),
// moves in any form State::parse_move reads, and the result. Every move must
// be legal; errors name the move and why.
[[nodiscard]] Result<PdnGame> parse_pdn(std::string_view text,
                                        int draw_limit = State::kLimitDefault);
// Reads every game of a file of games, each as parse_pdn reads one. A game
// ends at its result token, or where tags begin after its moves (a game
// with no result token). Errors name the game: "game 2: PDN: move 14 ...".
[[nodiscard]] Result<std::vector<PdnGame>> parse_pdn_games(std::string_view text,
                                                           int draw_limit = State::kLimitDefault);

}  // namespace duel::games::checkers
