// registry/agents.hpp's make_agent, compiled once for every game.
#include "duel/registry/agents.hpp"

#include <string>

#include <fmt/format.h>

#include "duel/agents/baseline.hpp"
#include "duel/agents/chess_opponents.hpp"
#include "duel/agents/exec_agent.hpp"
#include "duel/agents/human.hpp"
#include "duel/agents/search_agents.hpp"
#include "duel/agents/uci.hpp"
#include "duel/core/spec.hpp"
#include "duel/games/game.hpp"
#include "duel/search/options.hpp"

namespace duel::registry {

template <games::PlayableGame S>
Result<std::unique_ptr<agents::Agent<S>>> make_agent(std::string_view text,
                                                     const AgentContext& ctx) {
  using AgentPtr = std::unique_ptr<agents::Agent<S>>;
  auto parsed = Spec::parse(text);
  if (!parsed) return fail(parsed.error());
  const Spec& spec = *parsed;
  const std::string& kind = spec.name();

  // Step 1. Agents without search.
  if (kind == "human" || kind == "first") {
    if (auto e = spec.reject_unknown({})) return *e;
    if (kind == "first") return AgentPtr(std::make_unique<agents::FirstAgent<S>>());
    return AgentPtr(std::make_unique<agents::HumanAgent<S>>(*ctx.in, *ctx.out));
  }
  if (kind == "uci") {
    // Every key is checked now; the engine starts at the first move.
    if constexpr (agents::ChessState<S>) {
      auto settings = agents::parse_uci_spec(spec, S::kName);
      if (!settings) return fail(settings.error());
      return AgentPtr(std::make_unique<agents::UciAgent<S>>(std::move(*settings)));
    } else {
      return fail(fmt::format("agent 'uci' plays the 5x5 chess games only, not {}", S::kName));
    }
  }
  if (kind == "exec") {
    // A program speaking seed 003's file protocol, run once a move.
    if constexpr (std::is_same_v<S, games::checkers::State>) {
      if (auto e = spec.reject_unknown({"cmd", "protocol", "time"})) return *e;
      const auto protocol = spec.choice("protocol", "csci561", {"csci561"});
      if (!protocol) return fail(protocol.error());
      const auto time = spec.number("time", 300.0, 0.001, 1e6);
      if (!time) return fail(time.error());
      const auto cmd = spec.get("cmd");
      if (!cmd) return fail("exec: give the program as cmd=COMMAND");
      auto settings = agents::ExecAgent::parse(*cmd, *time);
      if (!settings) return fail(settings.error());
      return AgentPtr(std::make_unique<agents::ExecAgent>(std::move(*settings)));
    } else {
      return fail(
          fmt::format("agent 'exec' plays checkers only (seed 003's protocol), not {}", S::kName));
    }
  }
  const auto seed = spec.integer("seed", 0, 0, (1LL << 62));
  if (!seed) return fail(seed.error());
  const std::uint64_t mixed = static_cast<std::uint64_t>(*seed) * 0x9E3779B97F4A7C15ULL + ctx.seed;
  if (kind == "random") {
    if (auto e = spec.reject_unknown({"seed"})) return *e;
    return AgentPtr(std::make_unique<agents::RandomAgent<S>>(mixed));
  }
  if (kind == "greedy" || kind == "smart" || kind == "minimax4") {
    if constexpr (agents::ChessState<S>) {
      if (auto e = spec.reject_unknown({"seed"})) return *e;
      if (kind == "greedy") return AgentPtr(std::make_unique<agents::GreedyAgent<S>>(mixed));
      if (kind == "minimax4") return AgentPtr(std::make_unique<agents::Minimax4Agent<S>>(mixed));
      return AgentPtr(std::make_unique<agents::SmartAgent<S>>(mixed));
    } else {
      return fail(fmt::format("agent '{}' plays the 5x5 chess games only, not {}", kind, S::kName));
    }
  }
  if (kind != "minimax" && kind != "alphabeta" && kind != "engine") {
    return fail(
        fmt::format("unknown agent '{}' (known: {}; chess also: greedy, smart, minimax4, uci; "
                    "checkers also: exec)",
                    kind, kAgentKinds));
  }

  // Step 2. Searching agents: their keys, then the heuristic by name. What
  // the engine's search does beyond alpha-beta is its game's (features.hpp),
  // not a key.
  const bool is_engine = kind == "engine";
  if (is_engine) {
    if (auto e = spec.reject_unknown(
            {"depth", "time", "nodes", "eval", "hash", "threads", "soft", "seed", "contempt"})) {
      return *e;
    }
  } else if (auto e = spec.reject_unknown({"depth", "time", "eval", "seed"})) {
    return *e;
  }
  const auto depth = spec.integer("depth", 0, 0, kMaxPly - 2);
  if (!depth) return fail(depth.error());
  const auto time = spec.number("time", 0.0, 0.0, 1e6);
  if (!time) return fail(time.error());
  const auto nodes = spec.integer("nodes", 0, 0, 1LL << 50);
  if (!nodes) return fail(nodes.error());
  const auto hash = spec.integer("hash", search::kAgentHashMb, 1, search::kMaxHashMb);
  if (!hash) return fail(hash.error());
  const auto threads = spec.integer("threads", 1, 1, search::kMaxThreads);  // lazy SMP
  if (!threads) return fail(threads.error());
  agents::EngineSettings settings;
  // The share of a timed move after which no new iteration starts.
  const auto soft = spec.number("soft", settings.options.soft_time, 0.05, 1.0);
  if (!soft) return fail(soft.error());
  // What a draw is worth to the engine's side, in its heuristic's units.
  const auto contempt = spec.integer("contempt", 0, -1000, 1000);
  if (!contempt) return fail(contempt.error());
  const std::string eval = spec.get("eval").value_or(std::string(games::default_heuristic<S>()));

  if (is_engine) {
    settings.depth = static_cast<int>(*depth);
    settings.time = *time;
    settings.nodes = static_cast<std::uint64_t>(*nodes);
    // An engine with no limit at all would search to the end: give it a second.
    if (settings.depth == 0 && settings.time == 0 && settings.nodes == 0) settings.time = 1.0;
    settings.options.hash_mb = static_cast<std::size_t>(*hash);
    settings.options.threads = static_cast<int>(*threads);
    settings.options.soft_time = *soft;
    settings.options.contempt = static_cast<Value>(*contempt);
    settings.options.prefault = true;  // page faults before the game, not on a move's clock
    auto engine = games::make_engine<S>(eval, mixed, settings.options);
    if (!engine) return fail(fmt::format("{}: {}", kind, engine.error()));
    return AgentPtr(std::make_unique<agents::EngineAgent<S>>(std::move(*engine), settings));
  }
  auto plain = games::make_plain<S>(eval, mixed, kind == "alphabeta");
  if (!plain) return fail(fmt::format("{}: {}", kind, plain.error()));
  const agents::PlainSettings plain_settings{static_cast<int>(*depth), *time, kind == "alphabeta"};
  return AgentPtr(std::make_unique<agents::PlainAgent<S>>(std::move(*plain), plain_settings));
}

DUEL_AGENTS_OF(games::nqueens::State);
DUEL_AGENTS_OF(games::kcell::State);
DUEL_AGENTS_OF(games::minichess::GardnerState);
DUEL_AGENTS_OF(games::minichess::Cs3243State);
DUEL_AGENTS_OF(games::minichess::Comp472State);
DUEL_AGENTS_OF(games::checkers::State);

}  // namespace duel::registry
