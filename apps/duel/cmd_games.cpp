// duel games: the games, their options, heuristics and agents, from the
// registry (games.hpp's list, agents.hpp's catalogue).
#include <algorithm>
#include <memory>
#include <string>

#include <fmt/ranges.h>

#include "common.hpp"
#include "duel/registry/agents.hpp"

namespace duel::cli {

namespace {

// "engine(depth time ...)" for each agent kind the game has.
template <class S>
std::string agent_line() {
  std::string out;
  for (const auto& k : registry::agent_kinds<S>()) {
    if (!out.empty()) out += ", ";
    out += k.kind;
    if (!k.keys.empty()) out += fmt::format("({})", fmt::join(k.keys, " "));
  }
  return out;
}

}  // namespace

Command add_games(CLI::App& app) {
  CLI::App* sub =
      app.add_subcommand("games", "List the games, example specs, heuristics and agents");
  auto describe = std::make_shared<bool>(false);
  sub->add_flag("--agents", *describe, "Describe every agent kind, its keys and games");
  return {sub, [describe] {
            if (*describe) {
              for (const auto& k : registry::agent_catalogue()) {
                std::cout << fmt::format(
                    "{:<10} {} ({})\n           keys: {}   e.g. {}\n", k.kind, k.about,
                    registry::games_text(k.games),
                    k.keys.empty() ? "none" : fmt::format("{}", fmt::join(k.keys, ", ")),
                    k.example);
              }
              return 0;
            }
            // One column for the names, as wide as the longest
            // (minichess-comp472), so every line starts its text in it.
            std::size_t width = 0;
            for (const auto& g : registry::game_list()) width = std::max(width, g.name.size());
            const std::string indent(width + 1, ' ');
            for (const auto& g : registry::game_list()) {
              auto game = registry::make_game(g.example);
              std::string heuristics;
              std::string agent_kinds;
              if (game) {
                std::visit(
                    [&](const auto& s) {
                      using S = std::decay_t<decltype(s)>;
                      heuristics = games::heuristic_names<S>();
                      agent_kinds = agent_line<S>();
                    },
                    *game);
              }
              std::cout << fmt::format("{:<{}} {}\n{}e.g. {}   heuristics: {}\n{}agents: {}\n",
                                       g.name, width, g.about, indent, g.example, heuristics,
                                       indent, agent_kinds);
            }
            std::cout << "duel games --agents describes each agent kind\n";
            return 0;
          }};
}

}  // namespace duel::cli
