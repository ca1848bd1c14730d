// duel games: the games, their options and heuristics.
#include <memory>

#include "common.hpp"

namespace duel::cli {

Command add_games(CLI::App& app) {
  CLI::App* sub = app.add_subcommand("games", "List the games, example specs and heuristics");
  return {sub, [] {
            for (const auto& g : registry::game_list()) {
              auto game = registry::make_game(g.example);
              std::string heuristics;
              if (game) {
                std::visit(
                    [&](const auto& s) {
                      using S = std::decay_t<decltype(s)>;
                      heuristics = games::heuristic_names<S>();
                    },
                    *game);
              }
              std::cout << fmt::format("{:<10} {}\n           e.g. {}   heuristics: {}\n", g.name,
                                       g.about, g.example, heuristics);
            }
            std::cout << "agents: "
                      << "human, first, random:seed=S, minimax|alphabeta:depth=D,time=T,eval=E, "
                      << "engine:depth=D,time=T,nodes=N,eval=E,hash=MB\n";
            return 0;
          }};
}

}  // namespace duel::cli
