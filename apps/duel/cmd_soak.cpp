// duel soak [FAMILY...]: time safety under random budgets. Agents play whole
// games in which every move gets its own random time limit; the caller times
// each move (wall and CPU) around the agent's choose() and compares it with
// the limit the agent was given, which an agent promises never to exceed
// (agents/agent.hpp: budget_for). Exit status 1 when any move went over.
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "common.hpp"
#include "duel/core/rng.hpp"
#include "duel/registry/agents.hpp"

namespace duel::cli {
namespace {

struct SoakOptions {
  std::vector<std::string> families;  // empty = all
  std::vector<std::string> games;     // --game SPEC: soak these instead
  std::vector<std::string> agents;    // empty = the defaults below
  int moves = 1000;                   // timed moves per family
  double min = 0.005;                 // seconds
  double max = 1.0;
  std::uint64_t seed = 1;
  std::string clock = "both";  // wall | cpu | both
  int openings = 2;            // random plies before the timed moves of a game
  int max_plies = 200;         // a game longer than this is cut off
  bool quiet = false;
  bool json = false;
};

// Every game family with the specs its games cycle through.
struct Family {
  std::string name;
  std::vector<std::string> specs;
};

const std::vector<Family>& family_list() {
  static const std::vector<Family> kFamilies = {
      {"gardner", {"gardner"}},
      {"gardner-cs3243", {"gardner-cs3243"}},
      {"minichess-comp472", {"minichess-comp472"}},
      {"checkers", {"checkers"}},
      {"nqueens", {"nqueens:n=8,variant=1a", "nqueens:n=8,variant=1b", "nqueens:n=8,variant=2"}},
      {"kcell", {"kcell:n=3,k=15", "kcell:n=4,k=20"}},
  };
  return kFamilies;
}

// The agents soaked by default: everything in Duel that searches under a clock.
const std::vector<std::string>& default_agents() {
  static const std::vector<std::string> kAgents = {"engine", "alphabeta", "minimax"};
  return kAgents;
}

// The worst move of one clock (wall or CPU) and how the moves used their limits.
struct ClockStats {
  double worst = -1e300;  // seconds over the limit (negative: to spare)
  double worst_budget = 0.0;
  std::string worst_agent;
  int worst_move = 0;  // 1-based among the family's timed moves
  // The worst move's time on the other clock: a wall overrun with little
  // CPU time is time the operating system ran something else.
  double worst_other = 0.0;
  int over = 0;      // moves over their limit
  double use = 0.0;  // sum of time / limit
  double max_use = 0.0;

  void add(double took, double other, double budget, const std::string& agent, int move) {
    const double overrun = took - budget;
    if (overrun > worst) {
      worst = overrun;
      worst_budget = budget;
      worst_agent = agent;
      worst_move = move;
      worst_other = other;
    }
    if (took > budget) ++over;
    use += took / budget;
    max_use = std::max(max_use, took / budget);
  }
  [[nodiscard]] nlohmann::json to_json(int moves) const {
    return {{"worst_overrun_ms", worst * 1e3},
            {"worst_budget_ms", worst_budget * 1e3},
            {"worst_agent", worst_agent},
            {"worst_move", worst_move},
            {"worst_other_clock_ms", worst_other * 1e3},
            {"over_limit", over},
            {"mean_use", moves > 0 ? use / moves : 0.0},
            {"max_use", max_use}};
  }
};

struct FamilyStats {
  std::string name;
  int moves = 0;
  int games = 0;
  double budget_sum = 0.0;
  ClockStats wall;
  ClockStats cpu;
  std::string failure;  // an agent that gave no move or an illegal one
};

// A log-uniform budget in [min, max] (as many 5-10 ms moves as 0.5-1 s ones).
double draw_budget(Rng& rng, double min, double max) {
  const double u = rng.unit();
  return std::exp(std::log(min) + u * (std::log(max) - std::log(min)));
}

// The agents for one game of `start`'s type, or the first spec's error.
template <class S>
Result<std::vector<std::unique_ptr<agents::Agent<S>>>> make_agents(
    const std::vector<std::string>& specs, std::uint64_t seed) {
  std::vector<std::unique_ptr<agents::Agent<S>>> out;
  for (const auto& spec : specs) {
    if (spec == "human" || spec.rfind("human:", 0) == 0) {
      return fail("soak: a human has no time limit; give agents that search");
    }
    registry::AgentContext ctx;
    ctx.seed = seed;
    auto agent = registry::make_agent<S>(spec, ctx);
    if (!agent) return fail(fmt::format("--agent {}: {}", spec, agent.error()));
    out.push_back(std::move(*agent));
  }
  return out;
}

// One game: random opening plies off the clock, then every move on a random
// limit, timed from outside, until the game ends, the family has its moves,
// or `max_plies`.
template <class S>
void soak_game(const S& start, const std::vector<std::unique_ptr<agents::Agent<S>>>& players,
               std::size_t first, const SoakOptions& o, Rng& rng, FamilyStats& stats,
               Progress& progress) {
  // Step 1. Off the clock: new game, random opening plies.
  for (const auto& p : players) p->new_game();
  S state = start;
  typename S::Moves legal;
  for (int ply = 0; ply < o.openings && !state.is_terminal(); ++ply) {
    state.actions(legal);
    if (legal.empty()) break;
    state = state.result(legal[rng.below(legal.size())]);
  }
  // Step 2. Timed moves: Player 1 is players[first], Player 2 the next one
  // (asked by whose turn it is: in some games a player moves twice).
  for (int ply = 0; ply < o.max_plies && stats.moves < o.moves && !state.is_terminal(); ++ply) {
    const std::size_t side = (first + (state.to_move() == Player::First ? 0 : 1)) % players.size();
    agents::Agent<S>& agent = *players[side];
    const double budget = draw_budget(rng, o.min, o.max);
    const agents::MoveClock clock{budget};
    const double cpu_start = process_cpu_seconds();
    const WallClock wall;
    const auto move = agent.choose(state, clock);
    const double wall_took = wall.seconds();
    const double cpu_took = process_cpu_seconds() - cpu_start;
    ++stats.moves;
    stats.budget_sum += budget;
    stats.wall.add(wall_took, cpu_took, budget, o.agents[side], stats.moves);
    stats.cpu.add(cpu_took, wall_took, budget, o.agents[side], stats.moves);
    // Step 3. The move must exist and be legal.
    state.actions(legal);
    const bool legal_move = move && std::find(legal.begin(), legal.end(), *move) != legal.end();
    if (!legal_move) {
      stats.failure = fmt::format("{} gave {} at move {} of {} ({})", o.agents[side],
                                  move ? "an illegal move" : "no move", stats.moves, start.spec(),
                                  state.to_text());
      return;
    }
    state = state.result(*move);
    progress.tick(fmt::format("soak {}: {} of {} moves, worst wall overrun {:.2f} ms", stats.name,
                              stats.moves, o.moves, stats.wall.worst * 1e3));
  }
}

// All the games of one family (or one --game spec) until it has its moves.
Result<FamilyStats> soak_family(const Family& family, const SoakOptions& o, Rng& rng,
                                Progress& progress) {
  FamilyStats stats;
  stats.name = family.name;
  int empty_games = 0;  // in a row
  while (stats.moves < o.moves && stats.failure.empty()) {
    const std::string& spec =
        family.specs[static_cast<std::size_t>(stats.games) % family.specs.size()];
    auto game = registry::make_game(spec);
    if (!game) return fail(game.error());
    const int before = stats.moves;
    std::optional<std::string> error;
    std::visit(
        [&](const auto& start) {
          using S = std::decay_t<decltype(start)>;
          auto players = make_agents<S>(o.agents, rng.next());
          if (!players) {
            error = players.error();
            return;
          }
          soak_game(start, *players, static_cast<std::size_t>(stats.games) % o.agents.size(), o,
                    rng, stats, progress);
        },
        *game);
    if (error) return fail(*error);
    ++stats.games;
    // A start that is already over (or whose openings end it) gives no moves.
    empty_games = stats.moves == before ? empty_games + 1 : 0;
    if (empty_games >= 100) {
      return fail(fmt::format("soak: {} ends before any timed move", spec));
    }
  }
  return stats;
}

// Checks the options and turns families and --game specs into the run's list.
Result<std::vector<Family>> plan(SoakOptions& o) {
  if (!(o.min > 0) || !(o.max >= o.min)) {
    return fail(fmt::format("soak: need 0 < --min <= --max (got --min {} --max {})", o.min, o.max));
  }
  if (o.agents.empty()) o.agents = default_agents();
  std::vector<Family> out;
  for (const auto& spec : o.games) out.push_back({spec, {spec}});
  for (const auto& name : o.families) {
    const auto& all = family_list();
    const auto it =
        std::find_if(all.begin(), all.end(), [&](const Family& f) { return f.name == name; });
    if (it == all.end()) {
      std::string known;
      for (const auto& f : all) known += (known.empty() ? "" : ", ") + f.name;
      return fail(fmt::format("soak: unknown game family '{}' (known: {})", name, known));
    }
    out.push_back(*it);
  }
  if (out.empty()) out = family_list();
  // Every spec and agent is checked before the first timed move.
  for (const auto& family : out) {
    for (const auto& spec : family.specs) {
      auto game = registry::make_game(spec);
      if (!game) return fail(game.error());
      std::optional<std::string> error;
      std::visit(
          [&](const auto& start) {
            using S = std::decay_t<decltype(start)>;
            auto players = make_agents<S>(o.agents, 0);
            if (!players) error = players.error();
          },
          *game);
      if (error) return fail(*error);
    }
  }
  return out;
}

std::string ms(double seconds) {
  return fmt::format("{:.2f}", seconds * 1e3);
}

int run_soak(SoakOptions& o) {
  auto families = plan(o);
  if (!families) return bad_input(families.error());
  const bool wall_counts = o.clock != "cpu";
  const bool cpu_counts = o.clock != "wall";
  Progress progress(!o.quiet && !o.json);
  Rng rng(o.seed);
  std::vector<FamilyStats> results;
  for (const auto& family : *families) {
    auto stats = soak_family(family, o, rng, progress);
    if (!stats) return bad_input(stats.error());
    results.push_back(std::move(*stats));
  }
  progress.done();
  bool failed = false;
  for (const auto& r : results) {
    failed = failed || !r.failure.empty() || (wall_counts && r.wall.over > 0) ||
             (cpu_counts && r.cpu.over > 0);
  }
  if (o.json) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : results) {
      nlohmann::json row = {{"family", r.name},
                            {"moves", r.moves},
                            {"games", r.games},
                            {"mean_budget_ms", r.moves > 0 ? r.budget_sum / r.moves * 1e3 : 0.0}};
      if (wall_counts) row["wall"] = r.wall.to_json(r.moves);
      if (cpu_counts) row["cpu"] = r.cpu.to_json(r.moves);
      if (!r.failure.empty()) row["failure"] = r.failure;
      rows.push_back(row);
    }
    std::cout << nlohmann::json{{"agents", o.agents}, {"min", o.min},     {"max", o.max},
                                {"seed", o.seed},     {"clock", o.clock}, {"families", rows},
                                {"passed", !failed}}
                     .dump()
              << '\n';
    return failed ? 1 : 0;
  }
  std::cout << fmt::format("agents: {}; limits {}-{} s (log-uniform), seed {}\n",
                           fmt::join(o.agents, ", "), o.min, o.max, o.seed);
  std::cout << fmt::format("{:<24} {:>6} {:>6}", "family", "moves", "games");
  if (wall_counts)
    std::cout << fmt::format(" {:>36} {:>5} {:>5}", "wall worst overrun", "over", "use");
  if (cpu_counts)
    std::cout << fmt::format(" {:>36} {:>5} {:>5}", "cpu worst overrun", "over", "use");
  std::cout << '\n';
  const auto cell = [&](const ClockStats& c, int moves) {
    return fmt::format(
        " {:>36} {:>5} {:>4.0f}%",
        fmt::format("{} ms (limit {} ms, {})", ms(c.worst), ms(c.worst_budget), c.worst_agent),
        c.over, moves > 0 ? 100.0 * c.use / moves : 0.0);
  };
  for (const auto& r : results) {
    std::cout << fmt::format("{:<24} {:>6} {:>6}", r.name, r.moves, r.games);
    if (wall_counts) std::cout << cell(r.wall, r.moves);
    if (cpu_counts) std::cout << cell(r.cpu, r.moves);
    std::cout << '\n';
    if (!r.failure.empty()) std::cout << "  failure: " << r.failure << '\n';
  }
  std::cout << (failed ? "FAILED: a move went over its limit or was not legal\n"
                       : "passed: no move went over its limit\n");
  return failed ? 1 : 0;
}

}  // namespace

Command add_soak(CLI::App& app) {
  auto o = std::make_shared<SoakOptions>();
  CLI::App* sub = app.add_subcommand(
      "soak", "Time safety: random move limits, every move timed from outside (exit 1 if over)");
  sub->add_option("family", o->families,
                  "Game families (default all): gardner, gardner-cs3243, minichess-comp472, "
                  "checkers, nqueens, kcell");
  sub->add_option("--game", o->games, "A game spec to soak (instead of or besides families)");
  sub->add_option("--agent", o->agents,
                  "Agent spec to soak, repeatable (default: engine, alphabeta, minimax)");
  sub->add_option("--moves", o->moves, "Timed moves per family")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000000));
  sub->add_option("--min", o->min, "Smallest move limit, seconds")
      ->capture_default_str()
      ->check(CLI::Range(0.0001, 1e6));
  sub->add_option("--max", o->max, "Largest move limit, seconds")
      ->capture_default_str()
      ->check(CLI::Range(0.0001, 1e6));
  sub->add_option("--seed", o->seed, "Seed for limits, openings and agents")->capture_default_str();
  sub->add_option("--clock", o->clock, "Which time must stay under the limit: wall, cpu or both")
      ->capture_default_str()
      ->check(CLI::IsMember({"wall", "cpu", "both"}));
  sub->add_option("--openings", o->openings, "Random plies before each game's timed moves")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000));
  sub->add_option("--max-plies", o->max_plies, "Timed plies per game at most")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  sub->add_flag("--quiet", o->quiet, "No progress lines on stderr");
  sub->add_flag("--json", o->json, "One JSON document");
  return {sub, [o] { return run_soak(*o); }};
}

}  // namespace duel::cli
