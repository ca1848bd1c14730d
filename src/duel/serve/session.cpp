#include "duel/serve/session.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "duel/agents/chess_opponents.hpp"
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
  // A whole-number key over the server's cap (make_agent checks the rest).
  const auto over = [&](std::string_view key, long long max,
                        std::string_view unit) -> std::optional<std::string> {
    const auto text = spec->get(key);
    if (!text) return std::nullopt;
    const auto n = parse_integer(*text);
    if (!n || *n <= max) return std::nullopt;
    return fmt::format("agent '{}': {}={} is over duel serve's {} {}", kind, key, *text, max, unit);
  };
  if (auto e = over("hash", kMaxHashMb, "MB")) return *e;
  if (auto e = over("threads", kMaxAgentThreads, "threads")) return *e;
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
