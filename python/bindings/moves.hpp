#pragma once
// Moves as Python gives and gets them (docs/python.md, "Moves"): text in any
// form the game reads (SAN too in the chess games, as python-chess users
// write `Nc3`), a `duel.Move` from `State.moves()`, or in the 5x5 chess games
// seed 000's tuple `(('b', 0), ('c', 2))`.
//
// Why one reader: State.result, State.san, State.parse and a Python agent's
// answer in duel.play all take a move; each reads it here, so each takes the
// same forms and refuses the rest with the same words.
#include <optional>
#include <string>
#include <type_traits>

#include <fmt/format.h>

#include "bindings.hpp"
#include "duel/core/result.hpp"
#include "duel/games/minichess/minichess.hpp"
#include "duel/games/minichess/san.hpp"
#include "duel/registry/any_game.hpp"

namespace duel::python {

// A legal move of a position, as `State.moves()` lists it: its text (as
// `actions()` gives it), its SAN in the chess games, and its squares where
// the game has squares to move from and to.
struct Move {
  std::string text;
  std::optional<std::string> san;
  std::optional<std::string> from_square;
  std::optional<std::string> to_square;
  std::optional<std::string> promotion;
};

// The Move of `m`, a legal move of `s`.
template <class S>
Move describe(const S& s, const typename S::Move& m) {
  Move out{s.move_text(m), {}, {}, {}, {}};
  if constexpr (std::is_same_v<typename S::Move, games::minichess::Move>) {
    out.san = games::minichess::san(s, m);
    out.from_square = out.text.substr(0, 2);
    out.to_square = out.text.substr(2, 2);
    if (out.text.size() > 4) out.promotion = out.text.substr(4);
  } else if constexpr (S::kRecordFormat == games::RecordFormat::pdn) {
    // Checkers: `11-15`, `22x15x8`: the first and the last square.
    const auto first = out.text.find_first_of("-x");
    const auto last = out.text.find_last_of("-x");
    out.from_square = out.text.substr(0, first);
    out.to_square = out.text.substr(last + 1);
  }
  return out;
}

// Python's repr of `obj`, cut to a line's worth.
[[nodiscard]] std::string short_repr(const py::handle& obj);

// "(('b', 0), ('c', 2))" from the tuple or list Python gives, or none when it
// is not two (file, row) pairs.
[[nodiscard]] std::optional<std::string> tuple_move_text(const py::handle& obj);

// The legal move `obj` names, or the one-line reason it names none: `what`
// names the caller ("result()"). An object of no move type at all raises
// TypeError, as Python's own functions do.
template <class S>
Result<typename S::Move> read_python_move(const S& s, const py::handle& obj, const char* what) {
  constexpr bool kChess = std::is_same_v<typename S::Move, games::minichess::Move>;
  if (py::isinstance<py::str>(obj)) return registry::legal_move(s, obj.cast<std::string>());
  if (py::isinstance<Move>(obj)) return registry::legal_move(s, obj.cast<const Move&>().text);
  if (kChess && (py::isinstance<py::tuple>(obj) || py::isinstance<py::list>(obj))) {
    if (auto text = tuple_move_text(obj)) return registry::legal_move(s, *text);
    return fail(
        fmt::format("{}: {} is not a move like (('b', 0), ('c', 2))", what, short_repr(obj)));
  }
  throw py::type_error(fmt::format("{}: a move is text{}, or a duel.Move; got {}", what,
                                   kChess ? ", a tuple like (('b', 0), ('c', 2))" : "",
                                   short_repr(obj)));
}

// The legal move `obj` names; ValueError with the reason when it names none.
template <class S>
typename S::Move legal_python_move(const S& s, const py::handle& obj, const char* what) {
  auto m = read_python_move(s, obj, what);
  if (!m) throw_bad_input(m.error());
  return *m;
}

}  // namespace duel::python
