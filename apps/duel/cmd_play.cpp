// duel play GAME --white A --black B: one game, the board after every move.
#include <fstream>
#include <memory>

#include "common.hpp"
#include "duel/play/match.hpp"
#include "duel/play/record_io.hpp"
#include "duel/registry/agents.hpp"

namespace duel::cli {
namespace {

struct PlayOptions {
  std::string game = "nqueens:n=8,variant=2";
  std::string white = "human";
  std::string black = "engine:time=1";
  std::string state;
  double timeout = 0.0;
  int max_turns = 0;
  std::string trace;
  std::uint64_t seed = 0;
  bool json = false;
  bool quiet = false;
};

template <class S>
int run_play(const S& start, const PlayOptions& o) {
  // Step 1. Agents. With --json, people and boards use stderr so that stdout
  // holds only the JSON document.
  std::ostream& shown = o.json ? std::cerr : std::cout;
  registry::AgentContext ctx{o.seed, &std::cin, &shown};
  auto white = registry::make_agent<S>(o.white, ctx);
  if (!white) return bad_input("--white: " + white.error());
  auto black = registry::make_agent<S>(o.black, ctx);
  if (!black) return bad_input("--black: " + black.error());
  std::ofstream trace;
  if (!o.trace.empty()) {
    trace.open(o.trace);
    if (!trace) return bad_input("--trace: cannot write " + o.trace);
  }

  // Step 2. Play, showing each move.
  const bool show = !o.quiet;
  if (show) {
    shown << start.spec() << ": Player 1 = " << o.white << ", Player 2 = " << o.black << "\n\n"
          << start.render() << '\n';
  }
  play::MatchOptions options{o.timeout, o.max_turns};
  std::size_t ply = 0;
  auto record = play::play_match<S>(start, {white->get(), black->get()}, options,
                                    [&](const S& after, const play::MoveRecord<S>& m) {
                                      ++ply;
                                      if (!show) return;
                                      shown
                                          << fmt::format("{}. Player {} plays {} ({:.3f} s)\n", ply,
                                                         number(m.player), m.text, m.seconds);
                                      if (m.report)
                                        shown << "   " << play::describe(*m.report) << '\n';
                                      shown << '\n' << after.render() << '\n';
                                    });
  record.agents = {o.white, o.black};

  // Step 3. The result, the trace, the JSON.
  if (show) shown << "Result: " << play::result_line(record) << '\n';
  if (trace.is_open()) {
    play::write_trace(trace, record);
    if (show) shown << "Trace written to " << o.trace << '\n';
  }
  if (o.json) std::cout << play::to_json(record).dump() << '\n';
  return 0;
}

}  // namespace

Command add_play(CLI::App& app) {
  auto o = std::make_shared<PlayOptions>();
  CLI::App* sub = app.add_subcommand("play", "Play one game (people and programs in any mix)");
  sub->add_option("game", o->game, "Game spec, e.g. nqueens:n=10,variant=1b or kcell:n=3,k=15")
      ->capture_default_str();
  sub->add_option("--white,--p1,-1", o->white,
                  "Player 1 (moves first): human, first, random, "
                  "minimax, alphabeta, engine, with :key=value")
      ->capture_default_str();
  sub->add_option("--black,--p2,-2", o->black, "Player 2")->capture_default_str();
  sub->add_option("--state", o->state, "Start from this position (the game's text form)");
  sub->add_option("--timeout", o->timeout, "Seconds a move for programs; over it loses (0 = none)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--max-turns", o->max_turns, "Draw after this many turns (0 = none)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--trace", o->trace, "Write the game record to this file");
  sub->add_option("--seed", o->seed, "Seed mixed into every agent's randomness");
  sub->add_flag("--json", o->json, "Print the game record as one JSON document");
  sub->add_flag("--quiet,-q", o->quiet, "Do not show the board after each move");
  return {sub, [o] {
            return with_game(o->game, o->state, [&](const auto& s) { return run_play(s, *o); });
          }};
}

}  // namespace duel::cli
