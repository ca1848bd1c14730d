// Checkers positions in both text forms Duel reads (docs/rules/checkers.md):
// PDN FEN (`B:W21,22:B1,K5`, a clock after it) and the seed's 8 board lines
// with the side to move. Input: the position, then optionally a line `--`
// and moves, one a line, in any form a person may type (`11-15`, `c3-d4`,
// `E c3 d4`, `J c3 e5 J e5 g7`).
//
// Checks: a parsed position prints (PDN FEN) and parses back to the same
// position; its seed board lines with the side to move parse back to the
// same placement; every legal move's standard text and seed text parse back
// to that move; every move the input names that parses is legal, and the
// game goes on from it with the same checks.
#include <cstddef>
#include <cstdint>
#include <string>

#include "duel/games/checkers/checkers.hpp"
#include "fuzz_support.hpp"

namespace ck = duel::games::checkers;

namespace {

void check_seed_text(const ck::State& s, const ck::Move& m) {
  const std::string text = s.seed_text(m);
  const auto back = s.parse_move(text);
  DUEL_FUZZ_CHECK(back.ok() && *back == m, s.to_text() + " seed move " + text);
}

void check_board_lines(const ck::State& s) {
  const std::string lines =
      s.board_lines() + (s.to_move() == duel::Player::First ? "BLACK" : "WHITE");
  const auto back = ck::State::parse(lines, s.draw_limit_plies());
  DUEL_FUZZ_CHECK(back.ok(), s.to_text() + " -> " + lines);
  // The board lines carry no clock: compare the placement and the mover.
  DUEL_FUZZ_CHECK(back->position().placement_key() == s.position().placement_key() &&
                      back->to_move() == s.to_move() && back->board_lines() == s.board_lines(),
                  s.to_text() + " -> " + lines);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return -1;
  const auto [position, moves] = duel::fuzz::split_at_dashes(duel::fuzz::as_text(data, size));
  // The draw limit is part of the game, not of the text: vary it a little.
  const int limit = 1 + static_cast<int>(size % ck::State::kLimitMax);
  const auto parsed = ck::State::parse(position, limit);
  if (!parsed) return 0;
  duel::fuzz::check_state(*parsed, check_seed_text);
  check_board_lines(*parsed);
  const ck::State last = duel::fuzz::play_lines(*parsed, moves, check_seed_text);
  check_board_lines(last);
  return 0;
}
