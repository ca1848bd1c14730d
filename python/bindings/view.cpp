// What duel.Board and duel.svg draw of a position (docs/python.md, "Boards
// and pictures"): the cells as the game's page draws them, the squares a
// move touches, check, the shaded squares, and where a square's name lies on
// the drawing. Everything comes from serve/view.hpp, which the page uses, so
// the notebook and the page show the same board.
#include <pybind11/stl.h>

#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "bindings.hpp"
#include "duel/games/checkers/board.hpp"
#include "duel/play/screen.hpp"
#include "duel/serve/view.hpp"
#include "moves.hpp"

namespace duel::python {
namespace {

using Cell = std::pair<int, int>;  // (row, col) as drawn, row 0 at the top

std::vector<std::vector<std::string>> cells(const State& st) {
  return std::visit(
      [](const auto& s) {
        const serve::Json b = serve::board_of(s);
        return b["cells"].template get<std::vector<std::vector<std::string>>>();
      },
      st.state);
}

std::string board_kind(const State& st) {
  return std::visit(
      [](const auto& s) {
        const serve::Json b = serve::board_of(s);
        return b["kind"].template get<std::string>();
      },
      st.state);
}

std::vector<Cell> as_cells(const std::vector<serve::Square>& squares) {
  std::vector<Cell> out;
  out.reserve(squares.size());
  for (const auto& sq : squares) out.emplace_back(sq[0], sq[1]);
  return out;
}

std::vector<Cell> move_cells(const State& st, const py::object& move) {
  return std::visit(
      [&](const auto& s) {
        return as_cells(serve::squares_of(s, legal_python_move(s, move, "move_cells()")));
      },
      st.state);
}

// A square's cell. Names as each game writes its moves: 'b1' (rank 1 at
// the bottom) in the chess games, 1..32 in checkers (standard numbering, 1
// at the top right of Black's side as drawn), (row, col) from 1 in N-Queens,
// the cell number 1..k in KCell.
template <class S>
Cell cell_of_square(const S& s, const py::object& square) {
  const auto bad = [&]() {
    throw_bad_input(
        fmt::format("cell_of(): {} is not a square of {}", short_repr(square), s.spec()));
  };
  const auto as_int = [&](int lo, int hi) {
    if (py::isinstance<py::bool_>(square)) bad();
    int v = 0;
    if (py::isinstance<py::int_>(square)) {
      v = square.cast<int>();
    } else if (py::isinstance<py::str>(square)) {
      const auto t = square.cast<std::string>();
      if (t.empty() || t.size() > 4 || t.find_first_not_of("0123456789") != std::string::npos)
        bad();
      v = std::stoi(t);
    } else {
      bad();
    }
    if (v < lo || v > hi) bad();
    return v;
  };
  if constexpr (std::is_same_v<typename S::Move, games::minichess::Move>) {
    namespace mc = games::minichess;
    if (py::isinstance<py::str>(square)) {
      const auto t = square.cast<std::string>();
      if (t.size() != 2 || t[0] < 'a' || t[0] >= 'a' + mc::kFiles || t[1] < '1' ||
          t[1] >= '1' + mc::kRanks) {
        bad();
      }
      return {mc::kRanks - 1 - (t[1] - '1'), t[0] - 'a'};
    }
    const int sq = as_int(0, mc::kSquares - 1);  // python-chess's order: a1 = 0, b1 = 1
    return {mc::kRanks - 1 - sq / mc::kFiles, sq % mc::kFiles};
  } else if constexpr (S::kRecordFormat == games::RecordFormat::pdn) {
    namespace ck = games::checkers;
    const int sq = as_int(1, ck::kSquares) - 1;
    return {ck::row_of(sq), ck::file_of(sq)};
  } else if constexpr (requires { s.queen_row(0); }) {
    if (py::isinstance<py::tuple>(square) && py::len(square) == 2) {
      const auto t = square.cast<py::tuple>();
      const py::object r = t[0];
      const py::object c = t[1];
      if (!py::isinstance<py::int_>(r) || !py::isinstance<py::int_>(c)) bad();
      const int row = r.cast<int>();
      const int col = c.cast<int>();
      if (row < 1 || row > s.n() || col < 1 || col > s.n()) bad();
      return {row - 1, col - 1};
    }
    bad();
    return {};
  } else {
    return {0, as_int(1, s.k()) - 1};
  }
}

}  // namespace

void bind_view(py::class_<State>& state) {
  state
      .def("cells", &cells,
           "The board as the game's page draws it: rows of cell texts, row 0 at the top\n"
           "('' empty; chess FEN letters, checkers b/B/w/W, N-Queens Q, KCell 1/2).")
      .def_property_readonly("board_kind", &board_kind,
                             "'grid' (a board of squares) or 'line' (KCell's row of cells).")
      .def(
          "is_check",
          [](const State& st) {
            return std::visit([](const auto& s) { return serve::check_of(s); }, st.state);
          },
          "True when the side to move's king is attacked (the chess games); False elsewhere.")
      .def(
          "marks",
          [](const State& st) {
            return std::visit([](const auto& s) { return as_cells(serve::marks_of(s)); }, st.state);
          },
          "The cells the page shades: in N-Queens the empty squares a queen attacks.")
      .def("move_cells", &move_cells, py::arg("move"),
           "The cells (row, col) as drawn that a legal move touches: from and to, every\n"
           "landing square of a checkers jump, the square of an N-Queens queen.")
      .def(
          "cell_of",
          [](const State& st, const py::object& square) {
            return std::visit([&](const auto& s) { return cell_of_square(s, square); }, st.state);
          },
          py::arg("square"),
          "The cell (row, col) as drawn of a square: 'b1' or 0..24 (a1 = 0, b1 = 1, as\n"
          "python-chess counts) in the chess games, 1..32 in checkers, (row, col) from 1 in\n"
          "N-Queens, 1..k in KCell. ValueError for a square the board does not have.")
      .def_property_readonly(
          "result_text",
          [](const State& st) {
            return std::visit(
                [](const auto& s) { return s.is_terminal() ? play::rules_result(s) : ""; },
                st.state);
          },
          "The result as `duel play` writes it: '1-0 White wins by checkmate', '1/2-1/2 draw\n"
          "by repetition', 'Player 1 wins: Player 2 has no square left for a queen'; ''\n"
          "while the game goes on.")
      .def_property_readonly(
          "side_names",
          [](const State& st) {
            return std::visit(
                [](const auto& s) {
                  using S = std::decay_t<decltype(s)>;
                  return std::vector<std::string>{std::string(S::kSideNames[0]),
                                                  std::string(S::kSideNames[1])};
                },
                st.state);
          },
          "The players' names, the first mover first: ['White', 'Black'], ['Black', 'White']\n"
          "in checkers, ['Player 1', 'Player 2'] in N-Queens and KCell.");
}

}  // namespace duel::python
