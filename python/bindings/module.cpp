// The Python module `duel._duel`: games, states and the game list. Searches
// are in search.cpp. The docstrings here are what `help(duel.State)` shows;
// python/duel/__init__.pyi repeats them for editors.
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "bindings.hpp"
#include "duel/games/game.hpp"
#include "duel/registry/any_game.hpp"
#include "moves.hpp"

namespace duel::python {

Game load_game(const std::string& spec) {
  auto g = registry::make_game(spec);
  if (!g) throw_bad_input(g.error());
  return Game{std::move(*g)};
}

State state_from_text(const registry::AnyGame& like, const std::string& text) {
  return std::visit(
      [&](const auto& s) {
        auto r = s.from_text(text);
        if (!r) throw_bad_input(fmt::format("bad position for {}: {}", s.spec(), r.error()));
        return State{registry::AnyGame(std::move(*r))};
      },
      like);
}

namespace {

using registry::heuristic_list;
using registry::spec_of;
using registry::text_of;

// The state that `spec` and `text` name, for unpickling.
State restore(const std::string& spec, const std::string& text) {
  return state_from_text(load_game(spec).start, text);
}

std::vector<std::string> actions(const State& st) {
  return std::visit([](const auto& s) { return registry::move_texts(s); }, st.state);
}

State result(const State& st, const py::object& action) {
  return std::visit(
      [&](const auto& s) {
        return State{registry::AnyGame(s.result(legal_python_move(s, action, "result()")))};
      },
      st.state);
}

using GameInfo = registry::GameEntry;

void bind_games(py::module_& m) {
  py::class_<GameInfo>(m, "GameInfo", "One game Duel plays: its name, an example spec, a summary.")
      .def_readonly("name", &GameInfo::name, "The game's name, the first part of a spec.")
      .def_readonly("example", &GameInfo::example, "An example spec for duel.load.")
      .def_readonly("about", &GameInfo::about, "What the game is, in one line.")
      .def_readonly("heuristics", &GameInfo::heuristics,
                    "Names of the game's heuristics for search(eval=...), default first.")
      .def("__repr__", [](const GameInfo& g) { return fmt::format("<duel.GameInfo {}>", g.name); });

  m.def("games", &registry::game_entries, "Every game Duel plays, as `duel games` lists them.");

  m.def("load", &load_game, py::arg("spec"),
        "The game of a spec such as 'nqueens:n=8,variant=2', 'kcell:n=3,k=15', 'gardner',\n"
        "'gardner-cs3243', 'minichess-comp472' or 'checkers'.\n\n"
        "Raises ValueError with the CLI's message when the spec is bad.");
}

void bind_game(py::class_<Game>& cls) {
  cls.def_property_readonly(
         "spec", [](const Game& g) { return spec_of(g.start); },
         "The canonical spec, every option spelled out (load(spec) gives the same game).")
      .def_property_readonly(
          "name",
          [](const Game& g) {
            return std::visit([](const auto& s) { return std::string(s.kName); }, g.start);
          },
          "The game's name, e.g. 'nqueens'.")
      .def_property_readonly(
          "heuristics",
          [](const Game& g) {
            return std::visit(
                [](const auto& s) { return heuristic_list<std::decay_t<decltype(s)>>(); }, g.start);
          },
          "Names of the heuristics search(eval=...) accepts here, the default first.")
      .def(
          "initial_state", [](const Game& g) { return State{g.start}; },
          "The start position (Player 1 to move).")
      .def(
          "from_text",
          [](const Game& g, const std::string& text) { return state_from_text(g.start, text); },
          py::arg("text"),
          "The position written as `text` (the form of State.text: FEN for the chess games).\n\n"
          "Raises ValueError with the message `duel search --fen` prints when it is not one.")
      .def(
          "__eq__",
          [](const Game& a, const Game& b) { return spec_of(a.start) == spec_of(b.start); },
          py::is_operator())
      .def("__hash__", [](const Game& g) { return py::hash(py::str(spec_of(g.start))); })
      .def("__repr__",
           [](const Game& g) { return fmt::format("duel.load('{}')", spec_of(g.start)); })
      .def(py::pickle([](const Game& g) { return spec_of(g.start); },
                      [](const std::string& spec) { return load_game(spec); }));
}

void bind_state(py::class_<State>& cls) {
  cls.def_property_readonly(
         "to_move",
         [](const State& st) {
           return std::visit([](const auto& s) { return number(s.to_move()); }, st.state);
         },
         "The player to move: 1 (moves first; MAX; in checkers Black) or 2.")
      .def("actions", &actions,
           "The moves as text, in the game's notation (UCI for the chess games); empty when\n"
           "the game is over. In gardner-cs3243 and minichess-comp472 these are the\n"
           "pseudo-legal moves, as their rules make them: a move may leave the king attacked\n"
           "(CS3243: the mover then loses; COMP 472: the king may be captured).")
      .def("result", &result, py::arg("action"),
           "The state after `action`: a move as text in any form the game reads (an element\n"
           "of actions(); in the chess games SAN such as 'Nc3' too, and 'B2 B3' in COMP 472\n"
           "chess), a duel.Move from moves(), or in the 5x5 chess games seed 000's tuple\n"
           "(('b', 0), ('c', 2)).\n\n"
           "Raises ValueError with the CLI's message when it is not a legal move.")
      .def(
          "is_terminal",
          [](const State& st) {
            return std::visit([](const auto& s) { return static_cast<bool>(s.is_terminal()); },
                              st.state);
          },
          "True when the game is over.")
      .def(
          "utility",
          [](const State& st) {
            return std::visit(
                [](const auto& s) {
                  if (!s.is_terminal())
                    throw_bad_input("utility() of a state that is not terminal");
                  return static_cast<int>(s.utility());
                },
                st.state);
          },
          "The payoff of a terminal state in points from Player 1's view: 1 win, -1 loss,\n"
          "0 draw (N-Queens 1b: +-k). Raises ValueError before the end.")
      .def_property_readonly(
          "key",
          [](const State& st) {
            return std::visit([](const auto& s) { return static_cast<std::uint64_t>(s.key()); },
                              st.state);
          },
          "The position's 64-bit hash as the search uses it (equal for positions that play\n"
          "the same, e.g. N-Queens' symmetric boards).")
      .def_property_readonly(
          "text", [](const State& st) { return text_of(st.state); },
          "The position in one line (FEN for the chess games), as `duel search --fen` reads it.")
      .def_property_readonly(
          "fen", [](const State& st) { return text_of(st.state); }, "The same as text.")
      .def(
          "from_text",
          [](const State& st, const std::string& text) { return state_from_text(st.state, text); },
          py::arg("text"), "A position of the same game from its text (see Game.from_text).")
      .def_property_readonly(
          "spec", [](const State& st) { return spec_of(st.state); }, "The game's canonical spec.")
      .def_property_readonly(
          "game", [](const State& st) { return load_game(spec_of(st.state)); },
          "The game this position belongs to.")
      .def(
          "render",
          [](const State& st) {
            return std::visit([](const auto& s) { return s.render(); }, st.state);
          },
          "The board as `duel play` shows it (several lines); str(state) is the same.")
      .def("__str__",
           [](const State& st) {
             return std::visit([](const auto& s) { return s.render(); }, st.state);
           })
      .def("__repr__",
           [](const State& st) {
             return fmt::format("duel.load('{}').from_text('{}')", spec_of(st.state),
                                text_of(st.state));
           })
      .def(
          "__eq__",
          [](const State& a, const State& b) {
            return spec_of(a.state) == spec_of(b.state) && text_of(a.state) == text_of(b.state);
          },
          py::is_operator())
      .def("__hash__",
           [](const State& st) {
             return py::hash(py::make_tuple(spec_of(st.state), text_of(st.state)));
           })
      .def(py::pickle(
          [](const State& st) { return py::make_tuple(spec_of(st.state), text_of(st.state)); },
          [](const py::tuple& t) {
            if (t.size() != 2) throw std::runtime_error("duel.State: bad pickle");
            return restore(t[0].cast<std::string>(), t[1].cast<std::string>());
          }));
}

}  // namespace
}  // namespace duel::python

PYBIND11_MODULE(_duel, m) {
  namespace dp = duel::python;
  m.doc() =
      "Duel's engine from Python: games, states and searches (docs/python.md). Import the\n"
      "package `duel`, which re-exports this module.";
  m.attr("__version__") = DUEL_VERSION;
  // Step 1. The classes first, so that every signature help() shows names
  // Python types (duel.State), never the C++ ones.
  dp::py::class_<dp::Game> game(
      m, "Game", "A game: the rules of one spec and its start position. Made by duel.load.");
  dp::py::class_<dp::State> state(
      m, "State",
      "A position of a game, with the AIMA interface: to_move, actions(), result(a),\n"
      "is_terminal(), utility(). States are values: result() returns a new one.");
  dp::py::class_<dp::Move> move(
      m, "Move",
      "A legal move of a position, from State.moves(): its text (as actions() gives it)\n"
      "and, where the game has them, its SAN and squares. State.result takes it.");
  // Step 2. Their methods and the functions.
  dp::bind_game(game);
  dp::bind_state(state);
  dp::bind_moves(move, state);
  dp::bind_view(state);
  dp::bind_actions(game, state);
  dp::bind_records(m);
  dp::bind_games(m);
  dp::bind_search(m);
  dp::bind_play(m);
}
