#pragma once
// Many games between two agents with colours alternating: agent A is Player 1
// in even-numbered games and Player 2 in odd ones. Each game gets fresh agents
// seeded from (seed, game number), so a match replays exactly.
#include <functional>
#include <memory>
#include <vector>

#include "duel/agents/agent.hpp"
#include "duel/core/rng.hpp"
#include "duel/play/match.hpp"

namespace duel::arena {

// Wins, draws and losses from agent A's view.
struct Score {
  int wins = 0;
  int draws = 0;
  int losses = 0;
  [[nodiscard]] int games() const noexcept { return wins + draws + losses; }
  [[nodiscard]] double score() const noexcept {
    return games() == 0 ? 0.0 : (wins + 0.5 * draws) / games();
  }
};

struct ArenaOptions {
  int games = 10;
  std::uint64_t seed = 0;
  play::MatchOptions match;
  int openings = 0;  // random plies played before each pair of games (0 = none)
};

// A start for games 2p and 2p+1: `plies` random moves from `start`, seeded by
// the pair, never into a finished game (deterministic agents would otherwise
// replay the same two games over and over; both colours get each opening).
template <games::PlayableGame S>
S random_opening(const S& start, int plies, std::uint64_t seed) {
  Rng rng(seed);
  for (int attempt = 0; attempt < 64; ++attempt) {
    S s = start;
    int done = 0;
    for (; done < plies; ++done) {
      typename S::Moves moves;
      s.actions(moves);
      std::vector<S> next;
      for (const auto& m : moves) {
        S after = s.result(m);
        if (!after.is_terminal()) next.push_back(std::move(after));
      }
      if (next.empty()) break;
      s = next[rng.below(next.size())];
    }
    if (done == plies) return s;
  }
  return start;  // no such line: the games start from the start
}

// `make(which, seed)` builds agent A (which = 0) or B (which = 1).
template <class S>
using AgentFactory =
    std::function<std::unique_ptr<agents::Agent<S>>(int which, std::uint64_t seed)>;

// What the caller sees after each game: the totals so far, the game's number
// (A was Player 1 when it is even) and its whole record.
template <class S>
using AfterGame = std::function<bool(const Score&, int game, const play::MatchRecord<S>& record)>;

// After each game `after_game` sees the totals and the record; returning
// false stops the run there (an SPRT that has decided).
template <games::PlayableGame S>
Score run_arena(const S& start, const AgentFactory<S>& make, const ArenaOptions& options,
                const AfterGame<S>& after_game = {}) {
  Score score;
  for (int g = 0; g < options.games; ++g) {
    const std::uint64_t seed = options.seed * 1000003ULL + static_cast<std::uint64_t>(g);
    auto a = make(0, seed);
    auto b = make(1, seed ^ 0xB0B0B0B0ULL);
    const bool a_first = (g % 2) == 0;
    const std::array<agents::Agent<S>*, 2> players =
        a_first ? std::array<agents::Agent<S>*, 2>{a.get(), b.get()}
                : std::array<agents::Agent<S>*, 2>{b.get(), a.get()};
    const S first =
        options.openings > 0
            ? random_opening(start, options.openings,
                             mix64(options.seed * 7919ULL + static_cast<std::uint64_t>(g / 2)))
            : start;
    const auto record = play::play_match<S>(first, players, options.match);
    const Value for_a = a_first ? record.payoff : -record.payoff;
    if (for_a > 0)
      ++score.wins;
    else if (for_a < 0)
      ++score.losses;
    else
      ++score.draws;
    if (after_game && !after_game(score, g, record)) break;
  }
  return score;
}

}  // namespace duel::arena
