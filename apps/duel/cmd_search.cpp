// duel search GAME: one search from one position, with its statistics.
#include <cstddef>
#include <cstdint>
#include <memory>

#include <nlohmann/json.hpp>

#include "common.hpp"
#include "duel/agents/search_agents.hpp"
#include "duel/games/score.hpp"
#include "run_search.hpp"

namespace duel::cli {
namespace {

struct SearchOptions {
  std::string game;
  std::string state;
  AlgoRequest req;
  bool json = false;
};

template <class S>
int run_search(const S& start, const SearchOptions& o) {
  auto r = run_algorithm(start, o.req);
  if (!r) return bad_input(r.error());
  const auto& res = *r;
  const auto pv = agents::pv_text(start, res.pv);
  const std::string best = res.best ? start.move_text(*res.best) : "none";
  const games::Score score = games::score_of<S>(res.value, res.exact, start.to_move());
  if (o.json) {
    nlohmann::json j = {{"game", start.spec()},
                        {"state", start.to_text()},
                        {"algo", o.req.algo},
                        {"best", best},
                        {"value", to_points(res.value)},
                        {"score", games::score_json(score)},
                        {"exact", res.exact},
                        {"complete", res.complete},
                        {"depth", res.depth},
                        {"pv", pv},
                        {"nodes", res.stats.nodes()},
                        {"nodes_by_depth", res.stats.depth_counts()},
                        {"interior", res.stats.interior},
                        {"leaves", res.stats.leaves},
                        {"branching_factor", res.stats.branching_factor()},
                        {"cutoffs", res.stats.cutoffs},
                        {"first_move_cutoffs", res.stats.first_cutoffs},
                        {"cutoffs_by_depth_left", res.stats.cutoff_depth_counts(false)},
                        {"first_move_cutoffs_by_depth_left", res.stats.cutoff_depth_counts(true)},
                        {"table_move_cutoffs", res.stats.table_move_cutoffs},
                        {"table_move_first_cutoffs", res.stats.table_move_first_cutoffs},
                        {"tt_hits", res.stats.tt_hits},
                        {"seconds", res.stats.seconds}};
    std::cout << j.dump() << '\n';
    return 0;
  }
  std::cout << start.render() << '\n';
  std::cout << fmt::format("best move: {}\nscore: {}\n", best, games::score_line<S>(score));
  std::cout << fmt::format("depth: {}{}\n", res.depth,
                           res.complete ? "" : " (stopped by the time limit)");
  std::string line;
  for (const auto& m : pv) line += (line.empty() ? "" : " ") + m;
  std::cout << "principal variation: " << line << '\n';
  std::cout << fmt::format("nodes: {} ({} interior, {} leaves), branching factor {:.2f}\n",
                           res.stats.nodes(), res.stats.interior, res.stats.leaves,
                           res.stats.branching_factor());
  std::cout << fmt::format(
      "cut-offs: {} ({:.1f}% on the first move), TT hits: {}/{}, time: {:.3f} s\n",
      res.stats.cutoffs, 100.0 * res.stats.first_cutoff_share(), res.stats.tt_hits,
      res.stats.tt_probes, res.stats.seconds);
  const auto by_depth = res.stats.cutoff_depth_counts(false);
  if (!by_depth.empty()) {
    const auto first = res.stats.cutoff_depth_counts(true);
    const auto share = [](std::uint64_t part, std::uint64_t all) {
      return all == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(all);
    };
    std::cout << "cut-offs by depth left (first-move share):";
    for (std::size_t d = 0; d < by_depth.size(); ++d) {
      if (by_depth[d] != 0) {
        std::cout << fmt::format(" {}:{} ({:.1f}%)", d, by_depth[d], share(first[d], by_depth[d]));
      }
    }
    std::cout << fmt::format(
        "\ncut-offs where the table gave a move: {} ({:.1f}% on the first move), "
        "elsewhere: {} ({:.1f}%)\n",
        res.stats.table_move_cutoffs,
        share(res.stats.table_move_first_cutoffs, res.stats.table_move_cutoffs),
        res.stats.cutoffs - res.stats.table_move_cutoffs,
        share(res.stats.first_cutoffs - res.stats.table_move_first_cutoffs,
              res.stats.cutoffs - res.stats.table_move_cutoffs));
  }
  std::cout << "nodes by depth:";
  const auto counts = res.stats.depth_counts();
  for (std::size_t d = 0; d < counts.size(); ++d) std::cout << fmt::format(" {}:{}", d, counts[d]);
  std::cout << '\n';
  return 0;
}

}  // namespace

Command add_search(CLI::App& app) {
  auto o = std::make_shared<SearchOptions>();
  CLI::App* sub = app.add_subcommand("search", "Search one position and print the statistics");
  sub->add_option("game", o->game, "Game spec")->required();
  sub->add_option("--fen,--state", o->state, "Position in the game's text form (default: start)");
  sub->add_option("--algo", o->req.algo, "minimax, alphabeta or engine")->capture_default_str();
  sub->add_option("--depth", o->req.depth, "Depth cut-off (0 = to the end)")
      ->check(CLI::Range(0, search::kMaxDepth));
  sub->add_option("--time", o->req.time, "Seconds (0 = none)")->check(CLI::NonNegativeNumber);
  sub->add_option("--eval", o->req.eval, "Heuristic at the cut-off (see `duel games`)");
  sub->add_option("--hash", o->req.hash_mb, "Engine transposition table, MB")
      ->check(CLI::Range(std::size_t{1}, search::kMaxHashMb));
  sub->add_option("--threads", o->req.threads, "Engine search threads (lazy SMP)")
      ->check(CLI::Range(1, search::kMaxThreads));
  sub->add_option("--seed", o->req.seed, "Seed for random heuristics");
  sub->add_flag(
      "--no-ordering", [o](std::int64_t) { o->req.ordering = false; },
      "Engine: search moves in generation order (TT move still first)");
  sub->add_flag("--json", o->json, "One JSON document");
  return {sub, [o] {
            if (auto ok = check_algo(o->req); !ok) return bad_input(ok.error());
            return with_game(o->game, o->state, [&](const auto& s) { return run_search(s, *o); });
          }};
}

}  // namespace duel::cli
