// What a person types to `duel play --white human` in every game: the
// input's first line is a game spec (`gardner`, `checkers`,
// `nqueens:n=6,variant=2`, ...), the other lines go to the human agent as
// typed (moves in any form the game reads, `?`, `help`, `quit`, nonsense).
//
// Checks: every move the agent returns is one of actions(); every position
// reached passes the text and move-notation round trips (fuzz_support.hpp);
// the agent ends (gives up) when its input ends rather than looping.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <variant>

#include "duel/registry/agents.hpp"
#include "duel/registry/games.hpp"
#include "fuzz_support.hpp"

namespace {

template <duel::games::PlayableGame S>
void play(S s, std::string_view typed) {
  std::istringstream in{std::string(typed)};
  std::ostringstream out;
  const duel::registry::AgentContext context{0, &in, &out};
  auto agent = duel::registry::make_agent<S>("human", context);
  DUEL_FUZZ_CHECK(agent.ok() && (*agent)->is_human(), "human");
  duel::fuzz::check_state(s);
  // Each move takes at least one line of input, so this ends; the bound
  // only guards against an agent that returns moves without reading.
  for (std::size_t ply = 0; ply <= typed.size() && !s.is_terminal(); ++ply) {
    const auto m = (*agent)->choose(s, duel::agents::MoveClock{});
    if (!m) return;
    duel::fuzz::check_legal(s, *m, typed);
    s = s.result(*m);
    duel::fuzz::check_state(s);
  }
  DUEL_FUZZ_CHECK(s.is_terminal(), "the human agent played more moves than it read lines");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return -1;
  const auto input = duel::fuzz::split_first_line(duel::fuzz::as_text(data, size));
  const auto game = duel::registry::make_game(input.first);
  if (!game) return 0;
  std::visit([&](const auto& s) { play(s, input.rest); }, *game);
  return 0;
}
