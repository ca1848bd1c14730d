// `duel.search`: one search from one state, run with the GIL released so other
// Python threads go on, returning the result and the statistics of
// `duel search --json`. Python is touched from inside a search only through
// PythonCalls (python_calls.hpp).
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "bindings.hpp"
#include "duel/agents/search_agents.hpp"
#include "duel/games/score.hpp"
#include "python_calls.hpp"
#include "run_search.hpp"

namespace duel::python {
namespace {

// A search's answer with every move as text: built without the GIL, turned
// into Python objects after.
struct SearchOutput {
  std::string game;
  std::string state;
  std::string algo;
  std::string eval;
  std::optional<std::string> move;
  Value value = 0;
  bool exact = false;
  bool complete = false;
  int depth = 0;
  std::vector<std::string> pv;
  search::SearchStats stats;
  games::Score score;  // the value on the scale of every front end
};

// What a progress callback receives.
struct SearchProgress {
  std::uint64_t nodes = 0;
  double seconds = 0.0;
  std::optional<int> depth;  // set after an engine iteration, None on a node-count tick
  std::optional<double> value;
  bool exact = false;
  std::vector<std::string> pv;
};

py::object json_to_python(const nlohmann::json& j) {
  return py::module_::import("json").attr("loads")(j.dump());
}

// The keys and values of `duel search --json` (docs/cli.md), plus the few
// statistics the CLI prints only as text.
py::dict to_dict(const SearchOutput& r) {
  py::dict d;
  d["game"] = r.game;
  d["state"] = r.state;
  d["algo"] = r.algo;
  d["eval"] = r.eval;
  d["best"] = r.move ? py::object(py::str(*r.move)) : py::object(py::str("none"));
  d["value"] = to_points(r.value);
  d["score"] = json_to_python(games::score_json(r.score));
  d["exact"] = r.exact;
  d["complete"] = r.complete;
  d["depth"] = r.depth;
  d["pv"] = r.pv;
  d["nodes"] = r.stats.nodes();
  d["nodes_by_depth"] = r.stats.depth_counts();
  d["interior"] = r.stats.interior;
  d["leaves"] = r.stats.leaves;
  d["branching_factor"] = r.stats.branching_factor();
  d["cutoffs"] = r.stats.cutoffs;
  d["first_move_cutoffs"] = r.stats.first_cutoffs;
  d["cutoffs_by_depth_left"] = r.stats.cutoff_depth_counts(false);
  d["first_move_cutoffs_by_depth_left"] = r.stats.cutoff_depth_counts(true);
  d["table_move_cutoffs"] = r.stats.table_move_cutoffs;
  d["table_move_first_cutoffs"] = r.stats.table_move_first_cutoffs;
  d["tt_probes"] = r.stats.tt_probes;
  d["tt_hits"] = r.stats.tt_hits;
  d["evaluations"] = r.stats.evaluations;
  d["seconds"] = r.stats.seconds;
  return d;
}

SearchOutput search_state(const State& st, SearchRequest request, const py::object& progress) {
  if (!progress.is_none() && !PyCallable_Check(progress.ptr())) {
    throw py::type_error("search(): progress must be a callable or None");
  }
  auto checked = check_request(std::move(request));
  if (!checked) throw_bad_input(checked.error());
  registry::AlgoRequest req = std::move(*checked);

  PythonCalls calls;
  req.stop = calls.stop_flag();
  const bool report = !progress.is_none();
  // Every 2^20 nodes, with or without a callback: that is also where Ctrl-C
  // is noticed.
  req.progress = [&](std::uint64_t nodes, double seconds) {
    calls.call([&] {
      if (!report) return;
      SearchProgress p;
      p.nodes = nodes;
      p.seconds = seconds;
      progress(p);
    });
  };
  if (report) {
    req.on_iteration = [&](const search::SearchInfo& info) {
      calls.call([&] {
        SearchProgress p;
        p.nodes = info.nodes;
        p.seconds = info.seconds;
        p.depth = info.depth;
        p.value = to_points(info.value);
        p.exact = info.exact;
        p.pv = info.pv;
        progress(p);
      });
    };
  }

  std::optional<Result<SearchOutput>> out;
  {
    py::gil_scoped_release release;
    out = std::visit(
        [&](const auto& s) -> Result<SearchOutput> {
          auto r = registry::run_algorithm(s, req);
          if (!r) return fail(r.error());
          SearchOutput o;
          o.game = s.spec();
          o.state = s.to_text();
          o.algo = req.algo;
          o.eval = req.eval.empty()
                       ? std::string(games::default_heuristic<std::decay_t<decltype(s)>>())
                       : req.eval;
          if (r->best) o.move = s.move_text(*r->best);
          o.value = r->value;
          o.exact = r->exact;
          o.complete = r->complete;
          o.depth = r->depth;
          o.pv = agents::pv_text(s, r->pv);
          o.stats = r->stats;
          o.score = games::score_of<std::decay_t<decltype(s)>>(r->value, r->exact, s.to_move());
          return o;
        },
        st.state);
  }
  calls.rethrow();
  if (!*out) throw_bad_input(out->error());
  return std::move(**out);
}

}  // namespace

void bind_search(py::module_& m) {
  py::class_<SearchProgress>(
      m, "SearchProgress",
      "What a search's progress callback receives: after each engine iteration (depth set)\n"
      "and about every million nodes (depth None).")
      .def_readonly("nodes", &SearchProgress::nodes, "Nodes searched so far.")
      .def_readonly("seconds", &SearchProgress::seconds, "Seconds since the search started.")
      .def_readonly("depth", &SearchProgress::depth,
                    "The depth of the iteration just completed; None on a node-count tick.")
      .def_readonly("value", &SearchProgress::value,
                    "The iteration's value in points, Player 1's view; None on a tick.")
      .def_readonly("exact", &SearchProgress::exact, "The iteration's value is proven.")
      .def_readonly("pv", &SearchProgress::pv, "The iteration's principal variation as moves.")
      .def("__repr__", [](const SearchProgress& p) {
        if (!p.depth) return fmt::format("<duel.SearchProgress nodes={}>", p.nodes);
        return fmt::format("<duel.SearchProgress depth={} value={} nodes={}>", *p.depth, *p.value,
                           p.nodes);
      });

  py::class_<SearchOutput>(m, "SearchResult",
                           "The answer of duel.search and its statistics (those of\n"
                           "`duel search --json`; to_dict() gives them under the same keys).")
      .def_readonly("move", &SearchOutput::move,
                    "The best move as text; None only when the position is terminal.")
      .def_property_readonly(
          "value", [](const SearchOutput& r) { return to_points(r.value); },
          "The value in points from Player 1's view: a proven payoff as a whole number,\n"
          "an estimate as a fraction (the CLI's `value`).")
      .def_readonly("raw_value", &SearchOutput::value,
                    "The value on the search's integer scale (100000 a point; a proven win\n"
                    "in p plies is 100000 - p).")
      .def_property_readonly(
          "value_text", [](const SearchOutput& r) { return r.score.text; },
          "The score as `duel search` and the page write it: an estimate in the game's unit\n"
          "from the first player's view ('+10.52', '-0.30', '0.00'), or a proven result\n"
          "('White mates in 3', 'Black wins in 2', 'draw').")
      .def_property_readonly(
          "score", [](const SearchOutput& r) { return r.score.units; },
          "The estimate in the game's unit (score_unit) from the first player's view, to two\n"
          "decimals, as `duel search` and the page show it; None for a proven result.")
      .def_property_readonly(
          "score_unit", [](const SearchOutput& r) { return std::string(r.score.unit); },
          "'pawns' (the 5x5 chess games), 'men' (checkers) or 'points' (payoff).")
      .def_property_readonly(
          "wins_in", [](const SearchOutput& r) { return r.score.wins_in; },
          "A proven win: the winner's moves to the end, positive when the first player wins;\n"
          "else None.")
      .def_property_readonly(
          "plies_to_end",
          [](const SearchOutput& r) -> std::optional<int> {
            if (!is_proven(r.value)) return std::nullopt;
            return plies_to_end(r.value);
          },
          "For a proven win or loss, the plies to the end of the game along the best line;\n"
          "else (an estimate, a draw) None.")
      .def_readonly("exact", &SearchOutput::exact, "The value is the game-theoretic value.")
      .def_readonly("complete", &SearchOutput::complete,
                    "False when the time limit (or a progress callback) stopped the search.")
      .def_readonly("depth", &SearchOutput::depth,
                    "The deepest full iteration (engine) or the cut-off depth used.")
      .def_readonly("pv", &SearchOutput::pv, "The principal variation as moves, from the root.")
      .def_property_readonly(
          "nodes", [](const SearchOutput& r) { return r.stats.nodes(); }, "Nodes visited.")
      .def_property_readonly(
          "nodes_by_depth", [](const SearchOutput& r) { return r.stats.depth_counts(); },
          "Nodes visited at each depth, the root at index 0.")
      .def_property_readonly(
          "interior", [](const SearchOutput& r) { return r.stats.interior; },
          "Nodes whose children were searched.")
      .def_property_readonly(
          "leaves", [](const SearchOutput& r) { return r.stats.leaves; },
          "Terminal, cut-off and table-answered nodes.")
      .def_property_readonly(
          "evaluations", [](const SearchOutput& r) { return r.stats.evaluations; },
          "Heuristic calls.")
      .def_property_readonly(
          "branching_factor", [](const SearchOutput& r) { return r.stats.branching_factor(); },
          "Average children searched per interior node.")
      .def_property_readonly(
          "cutoffs", [](const SearchOutput& r) { return r.stats.cutoffs; }, "Beta cut-offs.")
      .def_property_readonly(
          "first_move_cutoffs", [](const SearchOutput& r) { return r.stats.first_cutoffs; },
          "Beta cut-offs made by the first move searched.")
      .def_property_readonly(
          "tt_probes", [](const SearchOutput& r) { return r.stats.tt_probes; },
          "Transposition-table probes (engine).")
      .def_property_readonly(
          "tt_hits", [](const SearchOutput& r) { return r.stats.tt_hits; },
          "Transposition-table hits (engine).")
      .def_property_readonly(
          "seconds", [](const SearchOutput& r) { return r.stats.seconds; },
          "Wall time of the search.")
      .def_readonly("algo", &SearchOutput::algo, "The algorithm: minimax, alphabeta or engine.")
      .def_readonly("eval", &SearchOutput::eval, "The heuristic used at the cut-off.")
      .def_readonly("game", &SearchOutput::game, "The game's canonical spec.")
      .def_readonly("state", &SearchOutput::state, "The searched position as text.")
      .def("to_dict", &to_dict,
           "The result as a dict with the keys of `duel search --json` (plus eval, tt_probes,\n"
           "evaluations).")
      .def("__repr__", [](const SearchOutput& r) {
        return fmt::format("<duel.SearchResult move={} value={} depth={} nodes={}>",
                           r.move.value_or("None"), r.score.text, r.depth, r.stats.nodes());
      });

  m.def(
      "search",
      [](const State& state, long long depth, double time, std::string algo,
         const std::optional<std::string>& eval, std::uint64_t seed, long long hash, bool ordering,
         const py::object& progress) {
        SearchRequest req;
        req.depth = depth;
        req.hash_mb = hash;
        req.algo.algo = std::move(algo);
        req.algo.time = time;
        req.algo.eval = eval.value_or("");
        req.algo.seed = seed;
        req.algo.ordering = ordering;
        return search_state(state, std::move(req), progress);
      },
      py::arg("state"), py::kw_only(), py::arg("depth") = 0, py::arg("time") = 0.0,
      py::arg("algo") = "engine", py::arg("eval") = py::none(), py::arg("seed") = 0,
      py::arg("hash") = search::kSearchHashMb, py::arg("ordering") = true,
      py::arg("progress") = py::none(),
      "Searches `state` as `duel search` does and returns a SearchResult.\n\n"
      "depth: plies (0 = to the end of the game); time: seconds (0 = none). With neither the\n"
      "engine solves the position. algo: 'minimax', 'alphabeta' or 'engine'. eval: a heuristic\n"
      "of the game (Game.heuristics; None = the default). seed: for random heuristics.\n"
      "hash: the engine's transposition table in MB. ordering: False searches moves in\n"
      "generation order (the CLI's --no-ordering).\n\n"
      "progress: None or a callable taking a SearchProgress, called with the GIL held after\n"
      "each engine iteration and about every million nodes. If it raises, the search stops\n"
      "and the exception propagates from search().\n\n"
      "The GIL is released while searching. Bad arguments raise ValueError with the CLI's\n"
      "message.");
}

}  // namespace duel::python
