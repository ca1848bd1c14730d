#pragma once
// The Python module `duel._duel` (docs/python.md): what its translation units
// share. Games and states cross into Python type-erased, as the registry's
// `AnyGame` variant (DESIGN habit 3: type erasure only at the edge); every
// method visits the variant once and then runs on the concrete state type.
#include <pybind11/pybind11.h>

#include <string>

#include "duel/registry/games.hpp"

namespace duel::python {

namespace py = pybind11;

// A game: the start state of one spec (`duel.load`).
struct Game {
  registry::AnyGame start;
};

// A position of a game. A value: `result` returns a new State.
struct State {
  registry::AnyGame state;
};

// Bad input leaves as ValueError with the message the CLI prints after
// "duel: " for the same mistake.
[[noreturn]] inline void throw_bad_input(const std::string& message) {
  throw py::value_error(message);
}

// `duel.load`: the game of a spec (module.cpp).
[[nodiscard]] Game load_game(const std::string& spec);
// `text` as a position of the game `like` belongs to, with the CLI's message
// for `--state` when it is not one (module.cpp).
[[nodiscard]] State state_from_text(const registry::AnyGame& like, const std::string& text);

struct Move;
// State.moves(), san(), parse(), end_cause and the methods of duel.Move
// (moves.cpp).
void bind_moves(py::class_<Move>& move, py::class_<State>& state);
// State.cells(), is_check(), move_cells(), cell_of() and the like: what a
// board drawing needs (view.cpp).
void bind_view(py::class_<State>& state);
// Game.num_distinct_actions, observation_shape; State.action_id, move_of,
// legal_action_ids, observation: pyspiel-style integers (actions.cpp).
void bind_actions(py::class_<Game>& game, py::class_<State>& state);
// duel.pgn's reader and writer of PGN and PDN text (records.cpp).
void bind_records(py::module_& m);
// `duel.search` and its result and progress types (search.cpp).
void bind_search(py::module_& m);
// `duel.play`, `duel.arena` and their results (play.cpp).
void bind_play(py::module_& m);

}  // namespace duel::python
