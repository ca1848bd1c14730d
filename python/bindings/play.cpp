// `duel.play` and `duel.arena`: games between agents refereed by Duel's match
// loop (src/duel/play/match.hpp), where an agent is a spec of the CLI's
// grammar or a Python callable `f(state) -> move text`. The loop runs with
// the GIL released; a Python agent takes it back for its move.
#include <pybind11/stl.h>

#include <array>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "bindings.hpp"
#include "duel/arena/arena.hpp"
#include "duel/arena/elo.hpp"
#include "duel/arena/ratings.hpp"
#include "duel/play/game_record.hpp"
#include "duel/play/record_io.hpp"
#include "duel/registry/agents.hpp"
#include "moves.hpp"
#include "python_calls.hpp"

namespace duel::python {
namespace {

// A Python callable as an agent: called with the State, it returns a move
// (text, a duel.Move, or a tuple in the 5x5 chess games: moves.hpp). A move
// that is not legal, or anything else, loses the game (the referee's reason
// says why); an exception stops the match and propagates.
template <class S>
class PythonAgent final : public agents::Agent<S> {
 public:
  using Move = typename S::Move;
  // Made and destroyed possibly on an arena's thread: the reference to the
  // callable changes only under the GIL.
  PythonAgent(const py::object& fn, std::string name, PythonCalls& calls)
      : m_name(std::move(name)), m_calls(calls) {
    py::gil_scoped_acquire gil;
    m_fn = fn;
  }
  ~PythonAgent() override {
    try {
      py::gil_scoped_acquire gil;
      m_fn = py::object();
    } catch (...) {
      // No GIL to be had (the interpreter is going away): the reference is
      // dropped without a decrement rather than touched without the lock.
      (void)m_fn.release();
    }
  }
  PythonAgent(const PythonAgent&) = delete;
  PythonAgent& operator=(const PythonAgent&) = delete;

  std::optional<Move> choose(const S& state, const agents::MoveClock& /*clock*/) override {
    std::optional<Move> out;
    m_failure.clear();
    const bool ran = m_calls.call([&] {
      const py::object answer = m_fn(State{registry::AnyGame(state)});
      if (!py::isinstance<py::str>(answer) && !py::isinstance<python::Move>(answer) &&
          !py::isinstance<py::tuple>(answer) && !py::isinstance<py::list>(answer)) {
        m_failure =
            fmt::format("returned {} instead of a move (text or a duel.Move)", short_repr(answer));
        return;
      }
      auto move = read_python_move(state, answer, "its answer");
      if (!move) {
        m_failure = "illegal move: " + move.error();
        return;
      }
      out = *move;
    });
    if (!ran && m_failure.empty()) m_failure = "raised an exception";
    return out;
  }
  [[nodiscard]] std::string name() const override { return m_name; }
  [[nodiscard]] std::string failure() const override { return m_failure; }

 private:
  py::object m_fn;
  std::string m_name;
  PythonCalls& m_calls;
  std::string m_failure;
};

// An agent as Python gives it: a spec or a callable. Specs are checked for
// the game before anything is played.
struct AgentArg {
  std::optional<std::string> spec;
  py::object fn;
  std::string name;
};

AgentArg agent_arg(const py::object& a, const std::string& option) {
  if (py::isinstance<py::str>(a)) return {a.cast<std::string>(), py::object(), {}};
  if (!PyCallable_Check(a.ptr())) {
    throw py::type_error(fmt::format("{}: an agent spec (str) or a callable", option));
  }
  std::string name = "python";
  if (py::hasattr(a, "__name__")) name += ":" + py::str(a.attr("__name__")).cast<std::string>();
  return {std::nullopt, a, name};
}

template <class S>
std::unique_ptr<agents::Agent<S>> make(const AgentArg& a, std::uint64_t seed, PythonCalls& calls,
                                       const std::string& option) {
  if (!a.spec) return std::make_unique<PythonAgent<S>>(a.fn, a.name, calls);
  registry::AgentContext ctx;
  ctx.seed = seed;
  auto made = registry::make_agent<S>(*a.spec, ctx);
  if (!made) throw_bad_input(option + ": " + made.error());
  return std::move(*made);
}

// A finished game for Python.
struct MatchOutput {
  std::string game;
  std::string start;
  std::array<std::string, 2> players;
  State final_state;
  int payoff = 0;
  std::string ending;
  std::string reason;
  double seconds = 0.0;
  std::string json;  // play::to_json, the document of `duel play --json`
  std::vector<std::string> moves;
  std::string record;  // PGN or PDN as `duel play --pgn/--pdn` writes it; "" for other games
};

// The record `duel play` writes with --pgn or --pdn (play/game_record.hpp).
template <class S>
std::string record_text(const play::MatchRecord<S>& rec, const S& start) {
  if constexpr (S::kRecordFormat == games::RecordFormat::none) {
    return "";
  } else {
    return play::play_record(rec, start);
  }
}

template <class S>
MatchOutput match_output(const play::MatchRecord<S>& rec) {
  MatchOutput o{rec.game,
                rec.start,
                rec.agents,
                State{registry::AnyGame(rec.final_state)},
                static_cast<int>(rec.payoff),
                std::string(play::ending_name(rec.ending)),
                rec.reason,
                rec.seconds,
                play::to_json(rec).dump(),
                {},
                {}};
  for (const auto& m : rec.moves) o.moves.push_back(m.text);
  return o;
}

void check_match_options(const char* caller, double timeout, long long max_turns) {
  if (auto e = play::check_match_limits(timeout, max_turns)) {
    throw_bad_input(fmt::format("{}: {}", caller, *e));
  }
}

MatchOutput play_game(const py::object& game, const py::object& white, const py::object& black,
                      const std::optional<std::string>& state_text, double timeout,
                      long long max_turns, std::uint64_t seed, const py::object& on_move) {
  constexpr const char* caller_name = "play()";
  check_match_options(caller_name, timeout, max_turns);
  if (!on_move.is_none() && !PyCallable_Check(on_move.ptr())) {
    throw py::type_error("play(): on_move must be a callable or None");
  }
  const registry::AnyGame given = [&] {
    if (py::isinstance<State>(game)) return game.cast<const State&>().state;
    const Game g =
        py::isinstance<py::str>(game) ? load_game(game.cast<std::string>()) : game.cast<Game>();
    if (!state_text) return g.start;
    return state_from_text(g.start, *state_text).state;
  }();
  // max_turns as `duel play --max-turns` means it: COMP 472's m, else a draw
  // by the match loop after that many turns.
  auto capped = registry::with_max_turns(given, max_turns);
  if (!capped) throw_bad_input(std::string(caller_name) + ": " + capped.error());
  const registry::AnyGame start = capped->first;
  const bool own_cap = capped->second;
  const AgentArg w = agent_arg(white, "play(): white");
  const AgentArg b = agent_arg(black, "play(): black");
  PythonCalls calls;
  std::optional<MatchOutput> out;
  std::visit(
      [&](const auto& s) {
        using S = std::decay_t<decltype(s)>;
        auto wa = make<S>(w, seed, calls, "play(): white");
        auto ba = make<S>(b, seed, calls, "play(): black");
        // Player 1 moves first: White in the chess games, Black in checkers
        // (seed 003), as `duel play` has it.
        constexpr bool kBlackFirst = games::black_moves_first<S>();
        agents::Agent<S>* first = kBlackFirst ? ba.get() : wa.get();
        agents::Agent<S>* second = kBlackFirst ? wa.get() : ba.get();
        play::MatchOptions options{timeout, own_cap ? 0 : static_cast<int>(max_turns)};
        // A raised exception (on_move's, a Python agent's, Ctrl-C) ends the
        // game before the next move instead of after the last one.
        options.stop = calls.stop_flag();
        // After every move: on_move if given, and Ctrl-C noticed either way.
        const play::MoveObserver<S> observe = [&](const S& after, const play::MoveRecord<S>& m) {
          calls.call([&] {
            if (!on_move.is_none()) on_move(State{registry::AnyGame(after)}, m.text);
          });
        };
        {
          py::gil_scoped_release release;
          auto rec = play::play_match<S>(s, {first, second}, options, observe);
          // Named as given, as `duel play` names them.
          const std::string wn = w.spec ? *w.spec : w.name;
          const std::string bn = b.spec ? *b.spec : b.name;
          rec.agents =
              kBlackFirst ? std::array<std::string, 2>{bn, wn} : std::array<std::string, 2>{wn, bn};
          out = match_output(rec);
          out->record = record_text(rec, s);
        }
        // The agents are destroyed here, with the GIL held again.
      },
      start);
  calls.rethrow();
  return std::move(*out);
}

// One agent's standing in an arena.
struct Standing {
  std::string name;
  arena::Score result;  // the arena's own tally
};

// One game of an arena, by agent index.
struct ArenaGame {
  std::array<int, 2> players{};  // agent indices: Player 1, Player 2
  std::string start;
  int payoff = 0;  // points, Player 1's view
  std::string ending;
  std::string reason;
  int plies = 0;
};

struct ArenaOutput {
  std::vector<Standing> standings;  // in the order the agents were given
  std::vector<ArenaGame> games;     // in the order they finished
  std::optional<double> elo;        // two agents: the first's Elo difference
  std::optional<double> elo_margin;
};

ArenaOutput run_arena(const py::object& game, const std::vector<py::object>& agent_objs,
                      long long games, std::uint64_t seed, double timeout, long long max_turns,
                      long long openings, long long concurrency) {
  constexpr const char* caller_name = "arena()";
  check_match_options(caller_name, timeout, max_turns);
  if (agent_objs.size() < 2) throw_bad_input("arena(): give at least two agents");
  if (auto e = arena::check_tournament_limits(games, openings, concurrency)) {
    throw_bad_input("arena(): " + *e);
  }
  const registry::AnyGame given = py::isinstance<State>(game) ? game.cast<const State&>().state
                                  : py::isinstance<py::str>(game)
                                      ? load_game(game.cast<std::string>()).start
                                      : game.cast<Game>().start;
  auto capped = registry::with_max_turns(given, max_turns);
  if (!capped) throw_bad_input(std::string(caller_name) + ": " + capped.error());
  const registry::AnyGame start = capped->first;
  const bool own_cap = capped->second;
  std::vector<AgentArg> args;
  for (std::size_t i = 0; i < agent_objs.size(); ++i) {
    args.push_back(agent_arg(agent_objs[i], fmt::format("arena(): agents[{}]", i)));
  }
  PythonCalls calls;
  ArenaOutput out;
  std::visit(
      [&](const auto& s) {
        using S = std::decay_t<decltype(s)>;
        // Every spec is checked (and named) before the first game.
        for (auto& a : args) {
          if (a.spec && (*a.spec == "human" || a.spec->rfind("human:", 0) == 0)) {
            throw_bad_input("arena(): the arena plays programs only, not human");
          }
          if (a.spec) {
            (void)make<S>(a, 0, calls, "arena(): agents");  // ValueError now for a bad spec
            a.name = *a.spec;
          }
          out.standings.push_back(Standing{a.name, arena::Score{}});
        }
        const auto slots = arena::schedule(
            arena::pairings(static_cast<int>(args.size()), arena::Format::RoundRobin),
            static_cast<int>(games), seed);
        arena::Openings<S> book;
        book.random_plies = static_cast<int>(openings);
        arena::TournamentOptions options;
        options.games_per_pairing = static_cast<int>(games);
        options.concurrency = static_cast<int>(concurrency);
        options.seed = seed;
        options.match = play::MatchOptions{timeout, own_cap ? 0 : static_cast<int>(max_turns)};
        options.match.stop = calls.stop_flag();  // games under way end at their next move
        const arena::AgentFactory<S> factory = [&](int agent, std::uint64_t agent_seed) {
          return make<S>(args[static_cast<std::size_t>(agent)], agent_seed, calls,
                         "arena(): agents");
        };
        py::gil_scoped_release release;
        arena::run_tournament<S>(
            s, slots, book, factory, options, [&](const arena::GameResult<S>& r) {
              const auto& rec = r.record;
              const auto payoff = static_cast<int>(rec.payoff);
              out.games.push_back({r.slot.players, r.start.to_text(), payoff,
                                   std::string(play::ending_name(rec.ending)), rec.reason,
                                   static_cast<int>(rec.moves.size())});
              out.standings[static_cast<std::size_t>(r.slot.players[0])].result.add(payoff);
              out.standings[static_cast<std::size_t>(r.slot.players[1])].result.add(-payoff);
              return !calls.raised();  // a Python agent raised: no new game
            });
      },
      start);
  calls.rethrow();
  if (out.standings.size() == 2) {
    const auto& a = out.standings[0].result;
    const auto e = arena::estimate(a.wins, a.draws, a.losses);
    out.elo = e.elo;
    out.elo_margin = e.margin;
  }
  return out;
}

}  // namespace

void bind_play(py::module_& m) {
  py::class_<MatchOutput>(m, "MatchResult", "One finished game of duel.play.")
      .def_readonly("game", &MatchOutput::game, "The game's canonical spec.")
      .def_readonly("start", &MatchOutput::start, "The start position as text.")
      .def_readonly("players", &MatchOutput::players,
                    "The agents' names, Player 1 (who moved first) first.")
      .def_readonly("moves", &MatchOutput::moves, "The moves played, as text.")
      .def_readonly("final_state", &MatchOutput::final_state, "The position at the end.")
      .def_readonly("payoff", &MatchOutput::payoff,
                    "The result in points from Player 1's view (1 win, -1 loss, 0 draw).")
      .def_property_readonly(
          "winner",
          [](const MatchOutput& o) -> std::optional<int> {
            if (o.payoff == 0) return std::nullopt;
            return o.payoff > 0 ? 1 : 2;
          },
          "1 or 2, or None for a draw.")
      .def_readonly("ending", &MatchOutput::ending,
                    "How it ended: rules, timeout, illegal-move, abandoned, turn-limit.")
      .def_readonly("reason", &MatchOutput::reason,
                    "Why, in words ('White wins: checkmate', 'draw: 50-move rule').")
      .def_readonly("seconds", &MatchOutput::seconds, "Wall time of the game.")
      .def(
          "to_dict",
          [](const MatchOutput& o) { return py::module_::import("json").attr("loads")(o.json); },
          "The game record as `duel play --json` writes it (moves with their search\n"
          "statistics).")
      .def(
          "pgn",
          [](const MatchOutput& o) {
            if (o.record.empty()) {
              throw_bad_input(fmt::format(
                  "pgn(): {} has no record format (PGN: the 5x5 chess games; PDN: checkers)",
                  o.game));
            }
            return o.record;
          },
          "The game as `duel play --pgn` (chess games: PGN) or `--pdn` (checkers: PDN)\n"
          "writes it: the same tags (Event, Date, the players, Termination), the moves with\n"
          "the searches' scores as comments. duel.pgn.read_game reads it back. ValueError\n"
          "for the games with neither format.")
      .def("__repr__", [](const MatchOutput& o) {
        return fmt::format("<duel.MatchResult {} vs {}: {}>", o.players[0], o.players[1], o.reason);
      });

  m.def(
      "play", &play_game, py::arg("game"), py::arg("white"), py::arg("black"), py::kw_only(),
      py::arg("state") = py::none(), py::arg("timeout") = 0.0, py::arg("max_turns") = 0,
      py::arg("seed") = 0, py::arg("on_move") = py::none(),
      "Plays one game, refereed as `duel play` does, and returns a MatchResult.\n\n"
      "game: a Game, a spec, or a State to start from. white, black: agent specs as the\n"
      "CLI's --white/--black ('engine:time=0.1', 'alphabeta:depth=4,eval=e1', 'random:seed=7',\n"
      "...; in checkers Black moves first) or a callable f(state) -> move text. A callable's\n"
      "illegal move (or non-text answer) loses the game; its exception stops the game and\n"
      "propagates. state: start from this position's text. timeout: seconds a move (0 =\n"
      "none); over it loses. max_turns: a draw after this many turns (0 = none; in\n"
      "minichess-comp472 the game's own m, as `duel play --max-turns`). seed: mixed\n"
      "into every agent's randomness. on_move: called as on_move(state, move) after each move.\n\n"
      "The GIL is released while spec agents think. Bad specs raise ValueError with the\n"
      "CLI's message.");

  py::class_<Standing>(m, "Standing", "One agent's results in duel.arena.")
      .def_readonly("name", &Standing::name, "The agent's spec or python:NAME.")
      .def_property_readonly(
          "wins", [](const Standing& st) { return st.result.wins; }, "Games won.")
      .def_property_readonly(
          "draws", [](const Standing& st) { return st.result.draws; }, "Games drawn.")
      .def_property_readonly(
          "losses", [](const Standing& st) { return st.result.losses; }, "Games lost.")
      .def_property_readonly(
          "games", [](const Standing& st) { return st.result.games(); }, "Games played.")
      .def_property_readonly(
          "score", [](const Standing& st) { return st.result.score(); },
          "(wins + draws / 2) / games.")
      .def("__repr__", [](const Standing& st) {
        return fmt::format("<duel.Standing {} +{} ={} -{}>", st.name, st.result.wins,
                           st.result.draws, st.result.losses);
      });
  py::class_<ArenaGame>(m, "ArenaGame", "One game of duel.arena.")
      .def_readonly("players", &ArenaGame::players,
                    "Indices into the agents given: Player 1's, Player 2's.")
      .def_readonly("start", &ArenaGame::start, "The start position as text.")
      .def_readonly("payoff", &ArenaGame::payoff, "Points from Player 1's view.")
      .def_readonly("ending", &ArenaGame::ending, "How it ended (as MatchResult.ending).")
      .def_readonly("reason", &ArenaGame::reason, "Why, in words.")
      .def_readonly("plies", &ArenaGame::plies, "Moves played.");
  py::class_<ArenaOutput>(m, "ArenaResult", "The outcome of duel.arena.")
      .def_readonly("standings", &ArenaOutput::standings,
                    "One Standing per agent, in the order given.")
      .def_readonly("games", &ArenaOutput::games, "Every game, in the order they finished.")
      .def_readonly("elo", &ArenaOutput::elo,
                    "Two agents: the first's Elo difference over the second (None when one\n"
                    "scored everything).")
      .def_readonly("elo_margin", &ArenaOutput::elo_margin,
                    "Its 95% margin, as `duel arena` prints it; None when unbounded.");

  m.def(
      "fit_ratings",
      [](std::size_t players,
         const std::vector<std::tuple<std::size_t, std::size_t, double>>& games) {
        std::vector<arena::GameScore> scores;
        for (const auto& [i, j, score] : games) {
          if (i >= players || j >= players)
            throw py::value_error("fit_ratings: a player index is out of range");
          if (!(score >= 0.0 && score <= 1.0))
            throw py::value_error("fit_ratings: a score is not from 0 to 1");
          scores.push_back({i, j, score});
        }
        std::vector<std::pair<std::optional<double>, std::optional<double>>> out;
        for (const auto& r : arena::fit_ratings(players, scores)) out.emplace_back(r.elo, r.margin);
        return out;
      },
      py::arg("players"), py::arg("games"),
      "Every player's Elo and its 95% margin from `games`, (i, j, i's score) each, fitted\n"
      "jointly as `duel tournament` does (Ordo's model: the most likely ratings), averaging\n"
      "0; (None, None) for a player with no game.");
  m.def(
      "sprt_llr",
      [](int wins, int draws, int losses, double elo0, double elo1) {
        if (wins < 0 || draws < 0 || losses < 0)
          throw py::value_error("sprt_llr: a count is negative");
        return arena::sprt_llr(wins, draws, losses, elo0, elo1);
      },
      py::arg("wins"), py::arg("draws"), py::arg("losses"), py::arg("elo0"), py::arg("elo1"),
      "The log-likelihood ratio of an SPRT of elo0 against elo1 after these results, as\n"
      "`duel arena --sprt` reports it (cutechess-cli's model; 0 until there is a win, a\n"
      "draw and a loss).");
  m.def("arena", &run_arena, py::arg("game"), py::arg("agents"), py::kw_only(),
        py::arg("games") = 10, py::arg("seed") = 0, py::arg("timeout") = 0.0,
        py::arg("max_turns") = 0, py::arg("openings") = 0, py::arg("concurrency") = 1,
        "Plays a round-robin between `agents` (specs or callables, as in play), `games`\n"
        "games a pairing with colours alternating, and returns an ArenaResult.\n\n"
        "openings: random plies before each pair of games (both colours get each one).\n"
        "concurrency: games at once, on threads (Python agents take turns with the GIL).\n"
        "seed, timeout, max_turns: as in play. An exception in a Python agent stops the\n"
        "arena (games already running finish) and propagates.");
}

}  // namespace duel::python
