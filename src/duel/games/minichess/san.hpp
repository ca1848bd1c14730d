#pragma once
// Standard Algebraic Notation (PGN standard §8.2.3) for the three 5x5 rule
// sets: the move text people and chess programs expect in game records
// (`Nc3`, `bxc4`, `dxe5=Q+`), written and read for a given state.
//
// Why its own file: UCI (`State::move_text`) names squares only and needs no
// position; SAN names the piece, drops what the position makes obvious and
// marks checks, so it needs the state's legal moves and the state after the
// move. The rule sets differ only in which moves count and what `+`/`#` mean:
// - `gardner`: disambiguation among legal moves; `+` check, `#` checkmate.
// - `gardner-cs3243`: among `actions()` (pseudo-legal moves); `+` when the
//   mover attacks the enemy king afterwards, `#` when the opponent is left
//   with no safe move (Ending::NoSafeMove: it loses, in check or not).
// - `minichess-comp472`: among `actions()`; no marks at all, since its king
//   is an ordinary piece that may be captured (Fairy-Stockfish's `comp472`
//   makes it a non-royal commoner), so nothing is ever "check".
#include <string>
#include <string_view>

#include "duel/core/result.hpp"
#include "duel/games/minichess/minichess.hpp"

namespace duel::games::minichess {

// The SAN of `m`, one of `s.actions()`.
template <class Rules>
[[nodiscard]] std::string san(const State<Rules>& s, Move m);

// The move `text` names in `s`: SAN with or without `+`, `#`, `!`, `?`
// suffixes, with `=Q` or `Q` for a promotion (the piece may be left out
// where only one is allowed), `x` optional, any extra file or rank given;
// otherwise any form `State::parse_move` reads (UCI `b1c3`). A leading
// capital B names the bishop: `B1b3` is the bishop from rank 1 to b3, where
// `State::parse_move`, reading any case, would take b1b3. Errors say why
// no single legal move fits, e.g. "Nd3 is ambiguous: b2d3, e1d3".
template <class Rules>
[[nodiscard]] Result<Move> parse_san(const State<Rules>& s, std::string_view text);

extern template std::string san(const State<Gardner>&, Move);
extern template std::string san(const State<Cs3243>&, Move);
extern template std::string san(const State<Comp472>&, Move);
extern template Result<Move> parse_san(const State<Gardner>&, std::string_view);
extern template Result<Move> parse_san(const State<Cs3243>&, std::string_view);
extern template Result<Move> parse_san(const State<Comp472>&, std::string_view);

}  // namespace duel::games::minichess
