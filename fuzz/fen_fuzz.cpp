// FEN of one 5x5 rule set (DUEL_FUZZ_RULES: Gardner, Cs3243 or Comp472; the
// CS3243 hand-out's gameboard reaches C++ as a gardner-cs3243 FEN). Input:
// a FEN on the first line, then moves, one a line, in any form a person
// may type (UCI, `B2 B3`, seed 000's tuple, SAN).
//
// Checks: a parsed FEN prints and parses back to the same position; every
// legal move's UCI text, tuple form and SAN parse back to that move; every
// move the input names that parses is one of actions(), and the game goes on
// from it with the same checks.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "duel/core/text.hpp"
#include "duel/games/minichess/minichess.hpp"
#include "duel/games/minichess/san.hpp"
#include "fuzz_support.hpp"

namespace mc = duel::games::minichess;
using S = mc::State<mc::DUEL_FUZZ_RULES>;

namespace {

void check_notations(const S& s, const mc::Move& m) {
  // Seed 000's tuple names no promotion piece: it reads back where the rule
  // set leaves one choice at most (none in CS3243, the queen in COMP 472).
  if (m.promotion() == mc::Piece::None || std::popcount(S::RuleSet::kPromotions) == 1) {
    const auto tuple = s.parse_move(mc::tuple_text(m));
    DUEL_FUZZ_CHECK(tuple.ok() && *tuple == m, s.to_text() + " tuple " + mc::tuple_text(m));
  }
  const std::string san = mc::san(s, m);
  const auto back = mc::parse_san(s, san);
  DUEL_FUZZ_CHECK(back.ok() && *back == m, s.to_text() + " san " + san + " for " + s.move_text(m));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return -1;  // longer inputs add nothing a FEN parser sees
  auto [fen, rest] = duel::fuzz::split_first_line(duel::fuzz::as_text(data, size));
  auto parsed = S::from_fen(fen);
  if (!parsed) return 0;
  S s = *parsed;
  duel::fuzz::check_state(s, check_notations);
  // Moves the input names, each a line, until one fails to parse.
  while (!rest.empty()) {
    const auto [line, after] = duel::fuzz::split_first_line(rest);
    rest = after;
    const auto uci = s.parse_move(line);
    if (uci) duel::fuzz::check_legal(s, *uci, line);
    const auto san = mc::parse_san(s, line);
    if (san) duel::fuzz::check_legal(s, *san, line);
    // The readers differ on one form only, by design (san.hpp): a leading
    // capital B is SAN's bishop (`B1b3`) but parse_move's b-file.
    if (uci && san && *uci != *san) {
      DUEL_FUZZ_CHECK(duel::trim(line).starts_with('B') &&
                          s.position().piece_on(san->from()) == mc::Piece::Bishop,
                      s.to_text() + " '" + std::string(line) + "'");
    }
    if (!uci && !san) break;
    s = s.result(uci ? *uci : *san);
    duel::fuzz::check_state(s, check_notations);
  }
  return 0;
}
