#pragma once
// The one place where agent specs become agents (DESIGN habit 3: templates
// inside, type erasure only here at the edge), and the one list of the agent
// kinds, their keys and the games they play, which `duel games`, `duel serve`
// and the errors read.
//
// Declared here, defined and instantiated for every game in agents.cpp: the
// agents' templates (the searches among them) are compiled there once.
#include <cstdint>
#include <iostream>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "duel/agents/agent.hpp"
#include "duel/core/result.hpp"
#include "duel/registry/games.hpp"

namespace duel::registry {

// Which games an agent kind plays.
enum class AgentGames { every, chess, checkers };

// One kind of agent as users name it in a spec (`engine:time=1`).
struct AgentKind {
  std::string_view kind;                   // "engine"
  std::span<const std::string_view> keys;  // the spec's keys
  std::string_view example;                // a spec that works
  std::string_view about;                  // one line, for help and the web page
  AgentGames games = AgentGames::every;
};

// Every agent kind, in the order help lists them.
[[nodiscard]] std::span<const AgentKind> agent_catalogue();

// "the 5x5 chess games", "checkers", "every game".
[[nodiscard]] std::string_view games_text(AgentGames g);

// The agent kinds the game S has, in the catalogue's order.
template <games::PlayableGame S>
[[nodiscard]] std::vector<AgentKind> agent_kinds();

struct AgentContext {
  std::uint64_t seed = 0;          // mixed into every agent's own seed (arena games)
  std::istream* in = &std::cin;    // where a human's moves come from
  std::ostream* out = &std::cout;  // where a human's prompts go
};

// The agent `text` names for the game S, or a one-line error.
template <games::PlayableGame S>
[[nodiscard]] Result<std::unique_ptr<agents::Agent<S>>> make_agent(std::string_view text,
                                                                   const AgentContext& ctx = {});

// Every game's agents are compiled in agents.cpp (PREFIX empty) and
// declared extern here.
// A template argument cannot be parenthesized.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define DUEL_AGENTS_OF(PREFIX, S)                                                               \
  PREFIX template Result<std::unique_ptr<agents::Agent<S>>> make_agent<S>(std::string_view,     \
                                                                          const AgentContext&); \
  PREFIX template std::vector<AgentKind> agent_kinds<S>()
// NOLINTEND(bugprone-macro-parentheses)
DUEL_AGENTS_OF(extern, games::nqueens::State);
DUEL_AGENTS_OF(extern, games::kcell::State);
DUEL_AGENTS_OF(extern, games::minichess::GardnerState);
DUEL_AGENTS_OF(extern, games::minichess::Cs3243State);
DUEL_AGENTS_OF(extern, games::minichess::Comp472State);
DUEL_AGENTS_OF(extern, games::checkers::State);

}  // namespace duel::registry
