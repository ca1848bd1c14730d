#pragma once
// What the page draws of one position, per game (docs/serve.md § the game
// view): the board as a grid of cells as drawn (row 0 at the top), the
// squares a person clicks for each legal move, the shaded squares, whether
// the side to move is in check, and why a finished game ended. One overload
// per game; everything comes from the game's own accessors, no rule is
// repeated here.
#include <array>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "duel/games/checkers/checkers.hpp"
#include "duel/games/kcell/kcell.hpp"
#include "duel/games/minichess/minichess.hpp"
#include "duel/games/nqueens/nqueens.hpp"

namespace duel::serve {

using Json = nlohmann::json;
using Square = std::array<int, 2>;  // [row, col] as drawn, row 0 at the top

[[nodiscard]] inline Json grid(int rows, int cols, std::string_view kind = "grid") {
  Json cells = Json::array();
  for (int r = 0; r < rows; ++r) cells.push_back(std::vector<std::string>(cols));
  return {{"kind", kind}, {"rows", rows}, {"cols", cols}, {"cells", std::move(cells)}};
}

// Step 1. N-Queens: row 1 at the top, column 1 on the left, as the game
// writes its moves.
[[nodiscard]] inline Json board_of(const games::nqueens::State& s) {
  Json b = grid(s.n(), s.n());
  for (int c = 0; c < s.n(); ++c) {
    if (s.queen_row(c) >= 0) b["cells"][s.queen_row(c)][c] = "Q";
  }
  return b;
}
[[nodiscard]] inline std::vector<Square> squares_of(const games::nqueens::State& /*s*/,
                                                    const games::nqueens::Move& m) {
  return {{m.row, m.col}};
}
// The empty squares a queen attacks (no queen can go there any more).
[[nodiscard]] inline std::vector<Square> marks_of(const games::nqueens::State& s) {
  std::vector<Square> out;
  for (int r = 0; r < s.n(); ++r) {
    for (int c = 0; c < s.n(); ++c) {
      if (s.queen_row(c) != r && !s.is_free(r, c)) out.push_back({r, c});
    }
  }
  return out;
}
[[nodiscard]] inline std::string reason_of(const games::nqueens::State& s) {
  return fmt::format("Player {} has no square left for a queen", number(s.to_move()));
}

// Step 2. KCell: one line of k cells, cell 1 on the left; `1`/`2` for the
// players' pieces. A pass clicks nothing.
[[nodiscard]] inline Json board_of(const games::kcell::State& s) {
  Json b = grid(1, s.k(), "line");
  for (int cell = 1; cell <= s.k(); ++cell) {
    const char c = s.at(cell);
    if (c != '_') b["cells"][0][cell - 1] = c == 'o' ? "1" : "2";
  }
  return b;
}
[[nodiscard]] inline std::vector<Square> squares_of(const games::kcell::State& s,
                                                    const games::kcell::Move& m) {
  if (m == games::kcell::kPass) return {};
  return {{0, m - 1}, {0, s.destination(m) - 1}};
}
[[nodiscard]] inline std::string reason_of(const games::kcell::State& s) {
  for (const Player p : {Player::First, Player::Second}) {
    if (s.is_home(p)) return fmt::format("Player {} has every piece home", number(p));
  }
  return fmt::format("neither player can move: runs from the far edge {} to {}",
                     s.run(Player::First), s.run(Player::Second));
}

// Step 3. The 5x5 chess rule sets: FEN letters, rank 5 at the top.
template <class Rules>
[[nodiscard]] Json board_of(const games::minichess::State<Rules>& s) {
  namespace mc = games::minichess;
  constexpr std::string_view kLetters = "pnbrqk";
  Json b = grid(mc::kRanks, mc::kFiles);
  const auto& pos = s.position();
  for (int sq = 0; sq < mc::kSquares; ++sq) {
    const mc::Piece p = pos.piece_on(sq);
    if (p == mc::Piece::None) continue;
    char c = kLetters[static_cast<std::size_t>(mc::type_index(p))];
    if ((pos.pieces(Player::First) & mc::bit(sq)) != 0) c = static_cast<char>(c - 'a' + 'A');
    b["cells"][mc::kRanks - 1 - mc::rank_of(sq)][mc::file_of(sq)] = std::string(1, c);
  }
  return b;
}
template <class Rules>
[[nodiscard]] std::vector<Square> squares_of(const games::minichess::State<Rules>& /*s*/,
                                             const games::minichess::Move& m) {
  namespace mc = games::minichess;
  const auto at = [](int sq) { return Square{mc::kRanks - 1 - mc::rank_of(sq), mc::file_of(sq)}; };
  return {at(m.from()), at(m.to())};
}
// The side to move's king attacked (COMP 472 has no check rule, but a king
// en prise is still worth showing; a captured king is no check).
template <class Rules>
[[nodiscard]] bool check_of(const games::minichess::State<Rules>& s) {
  const auto& pos = s.position();
  return pos.has_king(pos.to_move()) && pos.in_check();
}
template <class Rules>
[[nodiscard]] std::string reason_of(const games::minichess::State<Rules>& s) {
  return std::string(games::minichess::ending_text(s.ending()));
}

// Step 4. Checkers: rank 8 at the top (standard square 1 is b8); Black
// (Player 1) `b`/`B`, White `w`/`W`; a jump clicks every landing square.
[[nodiscard]] inline Json board_of(const games::checkers::State& s) {
  namespace ck = games::checkers;
  Json b = grid(8, 8);
  const auto& pos = s.position();
  for (int sq = 0; sq < ck::kSquares; ++sq) {
    const ck::Bitboard bit = ck::bit(sq);
    if ((pos.occupied() & bit) == 0) continue;
    const bool black = (pos.pieces(Player::First) & bit) != 0;
    const bool king = (pos.kings() & bit) != 0;
    b["cells"][ck::row_of(sq)][ck::file_of(sq)] = black ? (king ? "B" : "b") : (king ? "W" : "w");
  }
  return b;
}
[[nodiscard]] inline std::vector<Square> squares_of(const games::checkers::State& /*s*/,
                                                    const games::checkers::Move& m) {
  namespace ck = games::checkers;
  const auto at = [](int sq) { return Square{ck::row_of(sq), ck::file_of(sq)}; };
  std::vector<Square> out = {at(m.from())};
  if (!m.is_jump()) {
    out.push_back(at(m.to()));
  } else {
    for (int i = 0; i < m.jumps(); ++i) out.push_back(at(m.landing(i)));
  }
  return out;
}
[[nodiscard]] inline std::string reason_of(const games::checkers::State& s) {
  return std::string(games::checkers::ending_text(s.ending()));
}

// Step 5. What the other games lack: no check, no shaded squares.
template <class S>
[[nodiscard]] bool check_of(const S& /*s*/) {
  return false;
}
template <class S>
[[nodiscard]] std::vector<Square> marks_of(const S& /*s*/) {
  return {};
}

// "1-0", "0-1" or "1/2-1/2" for a payoff from Player 1's view.
[[nodiscard]] inline std::string result_token(Value payoff) {
  return payoff > 0 ? "1-0" : payoff < 0 ? "0-1" : "1/2-1/2";
}

}  // namespace duel::serve
