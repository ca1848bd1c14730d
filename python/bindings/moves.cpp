// `duel.Move` and the State methods that take or give one: moves(), san(),
// parse(), end_cause (docs/python.md, "Moves").
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "bindings.hpp"
#include "moves.hpp"

namespace duel::python {

std::string short_repr(const py::handle& obj) {
  constexpr std::size_t kMax = 60;
  std::string r = py::repr(obj).cast<std::string>();
  if (r.size() > kMax) r = r.substr(0, kMax) + "...";
  return r;
}

std::optional<std::string> tuple_move_text(const py::handle& obj) {
  const auto pair = [](const py::handle& h) -> std::optional<std::pair<char, long>> {
    if (!py::isinstance<py::tuple>(h) && !py::isinstance<py::list>(h)) return std::nullopt;
    const auto seq = py::reinterpret_borrow<py::sequence>(h);
    if (seq.size() != 2 || !py::isinstance<py::str>(seq[0]) || !py::isinstance<py::int_>(seq[1]) ||
        py::isinstance<py::bool_>(seq[1])) {
      return std::nullopt;
    }
    const auto file = seq[0].cast<std::string>();
    const auto row = seq[1].cast<py::int_>();
    // Range checks are the game's (its message names the hand-out's squares).
    long r = 0;
    try {
      r = row.cast<long>();
    } catch (const py::cast_error&) {
      return std::nullopt;
    }
    if (file.size() != 1 || r < -9 || r > 99) return std::nullopt;
    return std::pair<char, long>{file[0], r};
  };
  const auto seq = py::reinterpret_borrow<py::sequence>(obj);
  if (seq.size() != 2) return std::nullopt;
  const auto from = pair(seq[0]);
  const auto to = pair(seq[1]);
  if (!from || !to) return std::nullopt;
  return fmt::format("(('{}', {}), ('{}', {}))", from->first, from->second, to->first, to->second);
}

namespace {

std::vector<Move> moves(const State& st) {
  return std::visit(
      [](const auto& s) {
        std::vector<Move> out;
        for (const auto& m : registry::legal_moves(s)) out.push_back(describe(s, m));
        return out;
      },
      st.state);
}

Move parse(const State& st, const py::object& move) {
  return std::visit(
      [&](const auto& s) { return describe(s, legal_python_move(s, move, "parse()")); }, st.state);
}

std::string san(const State& st, const py::object& move) {
  return std::visit(
      [&](const auto& s) -> std::string {
        using S = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<typename S::Move, games::minichess::Move>) {
          return games::minichess::san(s, legal_python_move(s, move, "san()"));
        } else {
          throw_bad_input(
              fmt::format("san(): SAN is the chess games' notation; {} writes moves "
                          "as actions() gives them",
                          S::kName));
        }
      },
      st.state);
}

std::string text_of_optional(const std::optional<std::string>& s) {
  return s ? fmt::format("'{}'", *s) : "None";
}

}  // namespace

void bind_moves(py::class_<Move>& move, py::class_<State>& state) {
  move.def_readonly("text", &Move::text, "The move as actions() writes it ('b1c3', '11-15').")
      .def_readonly("san", &Move::san, "Its SAN ('Nc3') in the chess games; None elsewhere.")
      .def_readonly("from_square", &Move::from_square,
                    "The square it leaves: 'b1' in the chess games, '11' in checkers (PDN\n"
                    "numbers); None in the games without one.")
      .def_readonly("to_square", &Move::to_square,
                    "The square it ends on ('c3'; '15', or a jump's last square); None in the\n"
                    "games without one.")
      .def_readonly("promotion", &Move::promotion, "The piece a pawn becomes ('q'), else None.")
      .def("__str__", [](const Move& m) { return m.text; })
      .def("__repr__",
           [](const Move& m) {
             return fmt::format("duel.Move(text='{}', san={})", m.text, text_of_optional(m.san));
           })
      .def(
          "__eq__",
          [](const Move& a, const py::object& b) {
            if (py::isinstance<Move>(b)) return a.text == b.cast<const Move&>().text;
            if (py::isinstance<py::str>(b)) return a.text == b.cast<std::string>();
            return false;
          },
          py::is_operator())
      .def("__hash__", [](const Move& m) { return py::hash(py::str(m.text)); });

  state
      .def("moves", &moves,
           "The moves of actions(), in the same order, as duel.Move objects (text, SAN,\n"
           "squares).")
      .def("parse", &parse, py::arg("move"),
           "The duel.Move that `move` names (text in any form result() reads, a duel.Move,\n"
           "or a tuple in the 5x5 chess games), as python-chess's parse_san does.\n\n"
           "Raises ValueError with the CLI's message when it is not a legal move.")
      .def("san", &san, py::arg("move"),
           "The SAN of a legal move ('Nc3', 'bxc4', 'e5=Q+'), given in any form result()\n"
           "reads. Chess games only; ValueError elsewhere or for a move that is not legal.")
      .def_property_readonly(
          "end_cause",
          [](const State& st) {
            return std::visit([](const auto& s) { return s.end_cause(); }, st.state);
          },
          "Why the game is over, in the words of its rules ('checkmate', 'Black's king\n"
          "captured', '50-move rule'); '' while it goes on.");
}

}  // namespace duel::python
