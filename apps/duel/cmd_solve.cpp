// duel solve GAME: the exact value of a position and a principal variation.
#include <array>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "common.hpp"
#include "duel/agents/search_agents.hpp"
#include "duel/games/engines.hpp"
#include "duel/registry/any_game.hpp"
#include "duel/registry/games.hpp"
#include "duel/search/solve.hpp"
#include "duel/tournament/split_solve.hpp"

namespace duel::cli {
namespace {

struct SolveOptions {
  std::string game;
  std::string state;
  std::size_t hash_mb = search::kSearchHashMb;
  int threads = 1;
  double time = 0.0;
  bool ordering = true;
  bool json = false;
  std::string scheduler;  // a Dask cluster (docs/cluster.md)
  std::string worker_duel;
  int split = 2;
  bool all_subtrees = false;
};

// The value and the line as text, the same from one machine or a cluster;
// `note` follows the plies (a cut-off's line may not be the shortest).
void print_solution(const std::string& spec, const std::array<std::string_view, 2>& sides,
                    Value value, const std::vector<std::string>& pv, std::string_view note) {
  std::string line;
  for (const auto& m : pv) line += (line.empty() ? "" : " ") + m;
  const Value v = proven_payoff(value);
  std::cout << fmt::format("{}: value {} for {} ({}), {} plies to the end{}\n", spec, v, sides[0],
                           v > 0   ? fmt::format("{} wins", sides[0])
                           : v < 0 ? fmt::format("{} wins", sides[1])
                                   : std::string("draw"),
                           value == 0 ? static_cast<int>(pv.size()) : plies_to_end(value), note);
  std::cout << "principal variation: " << line << '\n';
}

// The same question on a Dask cluster: subtrees below the first plies as
// tasks (tournament/split_solve.hpp).
int run_split_solve(const registry::AnyGame& game, const SolveOptions& o) {
  tournament::SplitOptions options;
  options.scheduler = o.scheduler;
  options.worker_duel = o.worker_duel;
  options.split = o.split;
  options.hash_mb = o.hash_mb;
  options.all_subtrees = o.all_subtrees;
  const std::string spec = registry::spec_of(game);
  Progress progress(!o.json);
  const auto r = tournament::solve_split(game, options, [&](const std::string& line) {
    progress.tick("solving " + spec + ": " + line);
  });
  progress.done();
  if (!r) return bad_input(r.error());
  const Value v = proven_payoff(r->value);
  if (o.json) {
    nlohmann::json j = {{"value", v},
                        {"pv", r->pv},
                        {"plies", plies_to_end(r->value)},
                        {"shortest", r->shortest},
                        {"nodes", r->nodes},
                        {"seconds", r->seconds},
                        {"positions", r->positions},
                        {"subtrees", r->tasks},
                        {"solved", r->solved},
                        {"cancelled", r->cancelled},
                        {"task_max_rss_mb", r->task_max_rss_kb / 1024}};
    std::cout << j.dump() << '\n';
    return 0;
  }
  const auto sides =
      std::visit([](const auto& s) { return std::decay_t<decltype(s)>::kSideNames; }, game);
  print_solution(spec, sides, r->value, r->pv,
                 r->shortest ? "" : " on this line (a shorter win may exist)");
  std::cout << fmt::format(
      "nodes: {}, time: {:.3f} s; {} subtrees at ply {}: {} solved, {} not needed\n", r->nodes,
      r->seconds, r->tasks, o.split, r->solved, r->cancelled);
  return 0;
}

template <class S>
int run_solve(const S& start, const SolveOptions& o) {
  search::EngineOptions options;
  options.hash_mb = o.hash_mb;
  options.threads = o.threads;
  options.ordering = o.ordering;
  options.first_depth = kMaxPly;  // no heuristic: search to the end at once
  const auto engine = games::make_solver<S>(options);
  Progress progress(true);
  search::Limits limits;
  limits.time = o.time;
  limits.progress = [&](std::uint64_t nodes, double seconds) {
    progress.tick(fmt::format("solving {}: {} nodes, {:.1f} s", start.spec(), nodes, seconds));
  };
  const auto r = search::solve(start, *engine, limits);
  progress.done();
  if (!r.exact) {
    std::cerr << fmt::format("duel: not solved within {} s\n", o.time);
    return 1;
  }
  const auto pv = agents::pv_text(start, r.pv);
  if (o.json) {
    nlohmann::json j = {{"value", proven_payoff(r.value)},
                        {"pv", pv},
                        {"nodes", r.stats.nodes()},
                        {"seconds", r.stats.seconds}};
    std::cout << j.dump() << '\n';
    return 0;
  }
  print_solution(start.spec(), S::kSideNames, r.value, pv, "");
  std::cout << fmt::format("nodes: {}, time: {:.3f} s\n", r.stats.nodes(), r.stats.seconds);
  return 0;
}

}  // namespace

Command add_solve(CLI::App& app) {
  auto o = std::make_shared<SolveOptions>();
  CLI::App* sub = app.add_subcommand("solve", "Exact game value of a position, with the best line");
  sub->add_option("game", o->game, "Game spec")->required();
  sub->add_option("--fen,--state", o->state, "Position in the game's text form");
  sub->add_option("--hash", o->hash_mb, "Transposition table, MB")
      ->check(CLI::Range(std::size_t{1}, search::kMaxHashMb))
      ->capture_default_str();
  sub->add_option("--threads", o->threads, "Search threads sharing the table (lazy SMP)")
      ->check(CLI::Range(1, search::kMaxThreads))
      ->capture_default_str();
  sub->add_option("--time", o->time, "Give up after this many seconds (0 = never)")
      ->check(CLI::NonNegativeNumber);
  sub->add_flag(
      "--no-ordering", [o](std::int64_t) { o->ordering = false; },
      "Search moves in generation order (TT move still first)");
  add_cluster_options(sub, o->scheduler, o->worker_duel, "Solve");
  sub->add_option("--split", o->split,
                  "With --scheduler: plies expanded here; the positions below are the tasks")
      ->check(CLI::Range(1, 8))
      ->capture_default_str();
  sub->add_flag("--all-subtrees", o->all_subtrees,
                "With --scheduler: solve every subtree (exact plies to the end, as without it)");
  sub->add_flag("--json", o->json, "One JSON document");
  return {sub, [o] {
            if (!o->scheduler.empty()) {
              if (o->threads != 1 || o->time != 0.0 || !o->ordering) {
                return bad_input(
                    "--scheduler: --threads, --time and --no-ordering are for one machine");
              }
              auto game = registry::make_game(o->game, o->state);
              if (!game) return bad_input(game.error());
              return run_split_solve(*game, *o);
            }
            return with_game(o->game, o->state, [&](const auto& s) { return run_solve(s, *o); });
          }};
}

}  // namespace duel::cli
