// registry/agents.hpp's make_agent, compiled once for every game.
#include "duel/registry/agents.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <concepts>
#include <span>
#include <string>

#include <fmt/format.h>

#include "duel/agents/baseline.hpp"
#include "duel/agents/chess_opponents.hpp"
#include "duel/agents/csci561_ta.hpp"
#include "duel/agents/exec_agent.hpp"
#include "duel/agents/human.hpp"
#include "duel/agents/search_agents.hpp"
#include "duel/agents/uci.hpp"
#include "duel/core/spec.hpp"
#include "duel/games/game.hpp"
#include "duel/search/options.hpp"

namespace duel::registry {
namespace {

using Keys = std::span<const std::string_view>;
constexpr std::array<std::string_view, 0> kNoKeys{};
constexpr std::array<std::string_view, 1> kSeedKey{"seed"};
constexpr std::array<std::string_view, 4> kPlainKeys{"depth", "time", "eval", "seed"};
constexpr std::array<std::string_view, 9> kEngineKeys{"depth",   "time", "nodes",    "eval", "hash",
                                                      "threads", "soft", "contempt", "seed"};
constexpr std::array<std::string_view, 7> kUciKeys{"cmd",   "variant", "variants",   "movetime",
                                                   "depth", "nodes",   "option.NAME"};
constexpr std::array<std::string_view, 7> kExecKeys{"cmd", "protocol", "time",   "dir",
                                                    "cpu", "reading",  "sandbox"};
// exec's keys with `lenient`, the old name of reading=course (old scripts).
constexpr std::array<std::string_view, 8> kExecKeysAccepted{
    "cmd", "protocol", "time", "dir", "cpu", "reading", "sandbox", "lenient"};
constexpr std::array<std::string_view, 4> kCsci561TaKeys{"seed", "depth", "mode", "left"};

constexpr std::array kCatalogue = {
    AgentKind{"human", Keys(kNoKeys), "human", "a person at the terminal"},
    AgentKind{"first", Keys(kNoKeys), "first", "the first legal move (NUS CS3243's Dummy Agent)"},
    AgentKind{"random", Keys(kSeedKey), "random:seed=7", "a uniformly random legal move"},
    AgentKind{"minimax", Keys(kPlainKeys), "minimax:depth=3",
              "plain minimax to a depth (0: to the end); time= deepens under a clock"},
    AgentKind{"alphabeta", Keys(kPlainKeys), "alphabeta:depth=4",
              "plain alpha-beta to a depth (0: to the end); time= deepens under a clock"},
    AgentKind{"engine", Keys(kEngineKeys), "engine:time=1",
              "the full engine: iterative deepening alpha-beta with a transposition table "
              "(hash= MB, threads= lazy SMP, soft= share of a move's time, contempt=; "
              "docs/engine.md)"},
    AgentKind{"greedy", Keys(kSeedKey), "greedy",
              "NUS CS3243's Greedy Agent: a mate, else a check, else a random safe move",
              AgentGames::chess},
    AgentKind{"smart", Keys(kSeedKey), "smart",
              "NUS CS3243's Smart Agent: the best one-ply move (mate, check and capture, ...)",
              AgentGames::chess},
    AgentKind{"minimax4", Keys(kSeedKey), "minimax4",
              "NUS CS3243's Minimax Agent: a 4-ply alpha-beta search on capture values",
              AgentGames::chess},
    AgentKind{"uci", Keys(kUciKeys), "uci:cmd=fairy-stockfish,movetime=100",
              "a UCI engine such as Fairy-Stockfish (docs/uci.md)", AgentGames::chess},
    AgentKind{"exec", Keys(kExecKeys),
              "exec:cmd=python3 homework.py,dir=tests/data/class561/s01-first-py,time=300",
              "a program speaking USC CSCI-561's homework 2 protocol, run once a move: it reads "
              "input.txt and writes output.txt (docs/referee.md)",
              AgentGames::checkers},
    AgentKind{"csci561-ta", Keys(kCsci561TaKeys), "csci561-ta:seed=1",
              "USC CSCI-561's reference agent (the TA's): plain minimax 3 plies deep (2, 1 as "
              "its time runs out), captures searched on, ties at random by seed "
              "(docs/referee.md)",
              AgentGames::checkers},
};

template <class S>
constexpr bool plays(AgentGames g) {
  switch (g) {
    case AgentGames::every: return true;
    case AgentGames::chess: return agents::ChessState<S>;
    case AgentGames::checkers: return std::same_as<S, games::checkers::State>;
  }
  return false;
}

}  // namespace

std::span<const AgentKind> agent_catalogue() {
  return kCatalogue;
}

std::string_view games_text(AgentGames g) {
  switch (g) {
    case AgentGames::every: return "every game";
    case AgentGames::chess: return "the 5x5 chess games";
    case AgentGames::checkers: return "checkers";
  }
  return "";
}

template <games::PlayableGame S>
std::vector<AgentKind> agent_kinds() {
  std::vector<AgentKind> out;
  for (const auto& k : kCatalogue) {
    if (plays<S>(k.games)) out.push_back(k);
  }
  return out;
}

template <games::PlayableGame S>
Result<std::unique_ptr<agents::Agent<S>>> make_agent(std::string_view text,
                                                     const AgentContext& ctx) {
  using AgentPtr = std::unique_ptr<agents::Agent<S>>;
  // `duel:SPEC` is how the referee and exec= name Duel's own agents as
  // programs; here, where Duel's agents are native, it means SPEC itself.
  if (text.starts_with("duel:")) text.remove_prefix(5);
  auto parsed = Spec::parse(text);
  if (!parsed) return fail(parsed.error());
  const Spec& spec = *parsed;
  const std::string& kind = spec.name();

  // Step 1. The kind, from the catalogue: known, for this game, its keys.
  const auto* entry = std::ranges::find(kCatalogue, kind, &AgentKind::kind);
  if (entry == kCatalogue.end()) {
    std::string known;
    for (const auto& k : agent_kinds<S>())
      known += (known.empty() ? "" : ", ") + std::string(k.kind);
    return fail(fmt::format("unknown agent '{}' (known for {}: {})", kind, S::kName, known));
  }
  if (!plays<S>(entry->games)) {
    return fail(
        fmt::format("agent '{}' plays {} only, not {}", kind, games_text(entry->games), S::kName));
  }
  if (kind != "uci") {  // uci's option.NAME keys are its parser's to check
    const Keys keys = kind == "exec" ? Keys(kExecKeysAccepted) : entry->keys;
    if (auto e = spec.reject_unknown(keys)) return *e;
  }

  // Step 2. Agents without search.
  if (kind == "human") return AgentPtr(std::make_unique<agents::HumanAgent<S>>(*ctx.in, *ctx.out));
  if (kind == "first") return AgentPtr(std::make_unique<agents::FirstAgent<S>>());
  if constexpr (agents::ChessState<S>) {
    if (kind == "uci") {
      // Every key is checked now; the engine starts at the first move.
      auto settings = agents::parse_uci_spec(spec, S::kName);
      if (!settings) return fail(settings.error());
      return AgentPtr(std::make_unique<agents::UciAgent<S>>(std::move(*settings)));
    }
  }
  if constexpr (std::same_as<S, games::checkers::State>) {
    if (kind == "exec") {
      // A program speaking seed 003's file protocol, run once a move.
      const auto protocol = spec.choice("protocol", "csci561", {"csci561"});
      if (!protocol) return fail(protocol.error());
      const auto time = spec.number("time", 300.0, 0.001, 1e6);
      if (!time) return fail(time.error());
      const auto cmd = spec.get("cmd");
      if (!cmd) return fail("exec: give the program as cmd=COMMAND");
      const auto cpu = spec.choice("cpu", "user", {"user", "user+sys"});
      if (!cpu) return fail(cpu.error());
      // reading=course (RULES.md §6a) or strict; the old key lenient=true
      // reads as the course did, lenient=false strictly, as it always did.
      auto reading = spec.choice("reading", "course", {"course", "strict"});
      if (!reading) return fail(reading.error());
      if (spec.get("lenient")) {
        if (spec.get("reading")) return fail("exec: give reading=course|strict, not lenient= too");
        const auto lenient = spec.flag("lenient", true);
        if (!lenient) return fail(lenient.error());
        *reading = *lenient ? "course" : "strict";
      }
      // sandbox=off: a program the user trusts, run with their rights.
      const auto sandbox = spec.choice("sandbox", "on", {"on", "off"});
      if (!sandbox) return fail(sandbox.error());
      agents::ExecSettings wanted;
      wanted.command = *cmd;
      wanted.sandbox = *sandbox == "on";
      wanted.seconds = *time;
      wanted.source = spec.get("dir").value_or("");
      wanted.charge = *cpu == "user" ? referee::Charge::User : referee::Charge::UserSystem;
      wanted.reading = *games::checkers::protocol::reading_of(*reading);
      auto settings = agents::ExecAgent::parse(std::move(wanted));
      if (!settings) return fail(settings.error());
      return AgentPtr(std::make_unique<agents::ExecAgent>(std::move(*settings)));
    }
    if (kind == "csci561-ta") {
      // The course's reference; `duel homework` adds input.txt's mode and
      // time left (play/homework.hpp), which pick the depth unless depth= does.
      const auto seed = spec.integer("seed", 0, 0, (1LL << 62));
      if (!seed) return fail(seed.error());
      const auto depth = spec.integer("depth", 0, 1, 8);  // 0 (absent): by the rule
      if (!depth) return fail(depth.error());
      const auto mode = spec.choice("mode", "game", {"game", "single"});
      if (!mode) return fail(mode.error());
      const auto left = spec.number("left", 300.0, 0.0, 1e6);
      if (!left) return fail(left.error());
      agents::Csci561TaSettings settings;
      settings.seed = static_cast<std::uint64_t>(*seed) ^ ctx.seed;
      settings.depth = static_cast<int>(*depth);
      settings.single = *mode == "single";
      settings.left = *left;
      return AgentPtr(std::make_unique<agents::Csci561TaAgent>(settings));
    }
  }
  const auto seed = spec.integer("seed", 0, 0, (1LL << 62));
  if (!seed) return fail(seed.error());
  const std::uint64_t mixed = static_cast<std::uint64_t>(*seed) * 0x9E3779B97F4A7C15ULL + ctx.seed;
  if (kind == "random") return AgentPtr(std::make_unique<agents::RandomAgent<S>>(mixed));
  if constexpr (agents::ChessState<S>) {
    if (kind == "greedy") return AgentPtr(std::make_unique<agents::GreedyAgent<S>>(mixed));
    if (kind == "minimax4") return AgentPtr(std::make_unique<agents::Minimax4Agent<S>>(mixed));
    if (kind == "smart") return AgentPtr(std::make_unique<agents::SmartAgent<S>>(mixed));
  }

  // Step 3. Searching agents: their keys, then the heuristic by name. What
  // the engine's search does beyond alpha-beta is its game's (features.hpp),
  // not a key.
  assert(kind == "minimax" || kind == "alphabeta" || kind == "engine");
  const bool is_engine = kind == "engine";
  const auto depth = spec.integer("depth", 0, 0, search::kMaxDepth);
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

DUEL_AGENTS_OF(, games::nqueens::State);
DUEL_AGENTS_OF(, games::kcell::State);
DUEL_AGENTS_OF(, games::minichess::GardnerState);
DUEL_AGENTS_OF(, games::minichess::Cs3243State);
DUEL_AGENTS_OF(, games::minichess::Comp472State);
DUEL_AGENTS_OF(, games::checkers::State);

}  // namespace duel::registry
