#include "duel/serve/session.hpp"

#include <variant>

#include "duel/core/spec.hpp"

namespace duel::serve {

std::string refuse_agent(std::string_view spec_text) {
  auto spec = Spec::parse(spec_text);
  if (!spec) return spec.error();
  const std::string& kind = spec->name();
  if (kind == "human" || kind == "uci" || kind == "exec") {
    return fmt::format("agent '{}' is not available in duel serve", kind);
  }
  if (const auto time = spec->get("time")) {
    const auto seconds = parse_number(*time);
    if (seconds && *seconds > kMaxAgentSeconds) {
      return fmt::format("agent '{}': time={} is over duel serve's {} s a move", kind, *time,
                         kMaxAgentSeconds);
    }
  }
  if (const auto hash = spec->get("hash")) {
    const auto mb = parse_integer(*hash);
    if (mb && *mb > kMaxHashMb) {
      return fmt::format("agent '{}': hash={} is over duel serve's {} MB", kind, *hash, kMaxHashMb);
    }
  }
  if (const auto threads = spec->get("threads")) {
    const auto n = parse_integer(*threads);
    if (n && *n > kMaxAgentThreads) {
      return fmt::format("agent '{}': threads={} is over duel serve's {} threads", kind, *threads,
                         kMaxAgentThreads);
    }
  }
  return {};
}

Json agent_kinds(const registry::AnyGame& start) {
  Json out = Json::array();
  const auto add = [&](std::string_view kind, std::string_view example, std::string_view about) {
    out.push_back({{"kind", kind}, {"example", example}, {"about", about}});
  };
  add("engine", "engine:time=1",
      "the full engine: iterative deepening alpha-beta with a transposition table (depth=, "
      "time=, nodes=, eval=, hash= MB, threads=)");
  add("alphabeta", "alphabeta:depth=4",
      "plain alpha-beta to a depth (depth=, time= deepens under a clock, eval=)");
  add("minimax", "minimax:depth=3",
      "plain minimax to a depth (depth=, time= deepens under a clock, eval=)");
  add("random", "random:seed=7", "a uniformly random legal move");
  add("first", "first", "the first legal move");
  std::visit(
      [&](const auto& s) {
        using S = std::decay_t<decltype(s)>;
        if constexpr (agents::ChessState<S>) {
          add("greedy", "greedy",
              "seed 000's greedy opponent: a mate, else a check, else a random safe move");
          add("smart", "smart",
              "seed 000's smart opponent: the best one-ply move (mate, check and capture, ...)");
          add("minimax4", "minimax4",
              "seed 000's minimax4 opponent: a 4-ply search on capture values");
        }
      },
      start);
  return out;
}

}  // namespace duel::serve
