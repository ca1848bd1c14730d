// duel bench: fixed searches on fixed positions; the total node count is the
// search's signature (it changes only when the search or a game changes), and
// nodes per second its speed. Quote the signature in commits that change search.
#include <memory>

#include <nlohmann/json.hpp>

#include "common.hpp"
#include "run_search.hpp"

namespace duel::cli {
namespace {

struct BenchCase {
  const char* game;
  const char* state;
  int depth;  // 0 = solve
};

// Positions chosen to exercise every game and variant, cut-off searches and
// exact solving; for the chess rule sets and checkers the start and a
// position 12 random plies in (`duel arena GAME --openings random:plies=12
// --seed 3`), each taking a few tenths of a second.
constexpr BenchCase kCases[] = {
    {"nqueens:n=12,variant=1a", "", 8},
    {"nqueens:n=16,variant=1b", "", 0},
    {"nqueens:n=11,variant=2", "", 0},
    {"nqueens:n=16,variant=2", "", 5},
    {"kcell:n=3,k=15", "", 0},
    {"kcell:n=3,k=12", "", 0},
    {"kcell:n=4,k=20", "", 16},
    {"gardner", "", 9},
    {"gardner", "rnb1k/1pp1p/pP2p/2qPQ/RNB1K w - - 0 7", 8},
    {"gardner-cs3243", "", 9},
    {"minichess-comp472", "", 8},
    {"checkers", "", 13},
    {"checkers", "B:W13,20,23,25,26,28,29,30,31,32:B1,2,3,4,5,6,8,11,16,21 2", 12},
};

}  // namespace

Command add_bench(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  CLI::App* sub =
      app.add_subcommand("bench", "Fixed searches: total nodes (signature) and nodes/s");
  sub->add_flag("--json", *json, "One JSON document");
  return {sub, [json] {
            std::uint64_t nodes = 0;
            double seconds = 0;
            nlohmann::json cases = nlohmann::json::array();
            for (const auto& c : kCases) {
              AlgoRequest req;
              req.algo = "engine";
              req.depth = c.depth;
              req.hash_mb = 64;
              const int status = with_game(c.game, c.state, [&](const auto& s) {
                auto r = run_algorithm(s, req);
                if (!r) return bad_input(r.error());
                nodes += r->stats.nodes();
                seconds += r->stats.seconds;
                cases.push_back({{"game", c.game},
                                 {"state", c.state},
                                 {"depth", c.depth},
                                 {"nodes", r->stats.nodes()},
                                 {"value", to_points(r->value)},
                                 {"seconds", r->stats.seconds}});
                if (!*json) {
                  std::cerr << fmt::format("{:<26} {:<10} depth {:>2}: {:>10} nodes {:>8.3f} s\n",
                                           c.game, *c.state != 0 ? "(position)" : "(start)",
                                           c.depth, r->stats.nodes(), r->stats.seconds);
                }
                return 0;
              });
              if (status != 0) return status;
            }
            const double nps = seconds > 0 ? static_cast<double>(nodes) / seconds : 0.0;
            if (*json) {
              std::cout << nlohmann::json{{"nodes", nodes},
                                          {"seconds", seconds},
                                          {"nodes_per_second", nps},
                                          {"cases", cases}}
                               .dump()
                        << '\n';
            } else {
              std::cout << fmt::format("nodes/s {:.0f}\n{}\n", nps, nodes);
            }
            return 0;
          }};
}

}  // namespace duel::cli
