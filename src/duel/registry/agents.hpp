#pragma once
// The one place where agent specs become agents (DESIGN habit 3: templates
// inside, type erasure only here at the edge).
//
//   human                      a person at the terminal
//   first                      the first legal move (seed 000's dummy)
//   random:seed=S              a uniformly random legal move
//   minimax:depth=D,time=T,eval=E,seed=S     plain minimax (depth 0 = to the end)
//   alphabeta:depth=D,time=T,eval=E,seed=S   plain alpha-beta
//   engine:depth=D,time=T,nodes=N,eval=E,hash=MB,threads=N,soft=F,contempt=V,seed=S
//                              the full engine (threads: 1 to 64 search threads
//                              sharing the table, lazy SMP; soft: the share of a
//                              timed move after which no new iteration starts;
//                              contempt: what a draw is worth to the engine's side,
//                              -1000..1000 in its heuristic's units; docs/engine.md)
//   greedy, smart, minimax4 (:seed=S)  seed 000's opponents (5x5 chess only)
//   uci:cmd=PATH,variant=V,variants=INI,movetime=MS|depth=D|nodes=N,option.NAME=VALUE
//                              a UCI engine such as Fairy-Stockfish (5x5 chess only;
//                              docs/uci.md)
//   exec:cmd=COMMAND,protocol=csci561,time=SECONDS
//                              a checkers agent program run through seed 003's
//                              input.txt/output.txt (checkers only; docs/referee.md)
//
// Declared here, defined and instantiated for every game in agents.cpp: the
// agents' templates (the searches among them) are compiled there once.
#include <cstdint>
#include <iostream>
#include <memory>
#include <string_view>

#include "duel/agents/agent.hpp"
#include "duel/core/result.hpp"
#include "duel/registry/games.hpp"

namespace duel::registry {

inline constexpr std::string_view kAgentKinds = "human, first, random, minimax, alphabeta, engine";

struct AgentContext {
  std::uint64_t seed = 0;          // mixed into every agent's own seed (arena games)
  std::istream* in = &std::cin;    // where a human's moves come from
  std::ostream* out = &std::cout;  // where a human's prompts go
};

// The agent `text` names for the game S, or a one-line error.
template <games::PlayableGame S>
[[nodiscard]] Result<std::unique_ptr<agents::Agent<S>>> make_agent(std::string_view text,
                                                                   const AgentContext& ctx = {});

// Every game's agents are compiled in agents.cpp.
// A template argument cannot be parenthesized.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define DUEL_AGENTS_OF(S)                                                            \
  template Result<std::unique_ptr<agents::Agent<S>>> make_agent<S>(std::string_view, \
                                                                   const AgentContext&)
// NOLINTEND(bugprone-macro-parentheses)
extern DUEL_AGENTS_OF(games::nqueens::State);
extern DUEL_AGENTS_OF(games::kcell::State);
extern DUEL_AGENTS_OF(games::minichess::GardnerState);
extern DUEL_AGENTS_OF(games::minichess::Cs3243State);
extern DUEL_AGENTS_OF(games::minichess::Comp472State);
extern DUEL_AGENTS_OF(games::checkers::State);

}  // namespace duel::registry
