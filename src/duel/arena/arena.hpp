#pragma once
// Tournaments: many games between two or more agents, round-robin or
// gauntlet, every opening played twice with colours swapped, games run on
// several threads at once. Each game gets fresh agents seeded from (seed,
// pairing, game), so a tournament replays exactly whatever the concurrency
// (timed agents aside: how deep a clock lets a search go is never exact).
//
// Why one scheduler for every size: the two-agent match of the CLI, the
// SPRT, the round-robin and the gauntlet differ only in their list of
// pairings; the threads, openings and seeds are the same code.
#include <algorithm>
#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "duel/agents/agent.hpp"
#include "duel/arena/pool.hpp"
#include "duel/core/rng.hpp"
#include "duel/core/spec.hpp"
#include "duel/play/match.hpp"

namespace duel::arena {

// Wins, draws and losses from one side's view.
struct Score {
  int wins = 0;
  int draws = 0;
  int losses = 0;
  [[nodiscard]] int games() const noexcept { return wins + draws + losses; }
  [[nodiscard]] double score() const noexcept {
    return games() == 0 ? 0.0 : (wins + 0.5 * draws) / games();
  }
  void add(Value for_us) noexcept {
    if (for_us > 0)
      ++wins;
    else if (for_us < 0)
      ++losses;
    else
      ++draws;
  }
};

// A start for games 2p and 2p+1: `plies` random moves from `start`, seeded by
// the pair, never into a finished game (deterministic agents would otherwise
// replay the same two games over and over; both colours get each opening).
// `line`, when given, gets the moves played (empty when the games start from
// the start).
template <games::PlayableGame S>
S random_opening(const S& start, int plies, std::uint64_t seed,
                 std::vector<typename S::Move>* line = nullptr) {
  Rng rng(seed);
  for (int attempt = 0; attempt < 64; ++attempt) {
    S s = start;
    std::vector<typename S::Move> played;
    int done = 0;
    for (; done < plies; ++done) {
      typename S::Moves moves;
      s.actions(moves);
      std::vector<std::pair<S, typename S::Move>> next;
      for (const auto& m : moves) {
        S after = s.result(m);
        if (!after.is_terminal()) next.emplace_back(std::move(after), m);
      }
      if (next.empty()) break;
      auto& [after, move] = next[rng.below(next.size())];
      s = std::move(after);
      played.push_back(move);
    }
    if (done == plies) {
      if (line != nullptr) *line = std::move(played);
      return s;
    }
  }
  if (line != nullptr) line->clear();
  return start;  // no such line: the games start from the start
}

// Who meets whom. Round-robin: every agent against every other. Gauntlet:
// the first agent against each of the others.
enum class Format : std::uint8_t { RoundRobin, Gauntlet };

struct Pairing {
  int a = 0;  // agent indices; `a` is Player 1 in the even games of the pairing
  int b = 1;
};

[[nodiscard]] inline std::vector<Pairing> pairings(int agents, Format format) {
  std::vector<Pairing> out;
  for (int i = 0; i < agents; ++i) {
    for (int j = i + 1; j < agents; ++j) {
      if (format == Format::Gauntlet && i != 0) break;
      out.push_back({i, j});
    }
  }
  return out;
}

// Game `g` of a pairing: which agent is Player 1, and the seeds. The first
// pairing keeps the seeds of the two-agent arena of earlier versions, so its
// published matches replay.
struct GameSlot {
  int number = 0;                // from 0, in schedule order
  int pairing = 0;               // index into the pairings
  int game = 0;                  // from 0 within the pairing; 2p and 2p+1 share opening p
  std::array<int, 2> players{};  // agent indices: Player 1, Player 2
  std::uint64_t seed_a = 0;
  std::uint64_t seed_b = 0;
};

// The whole schedule: opening pair by opening pair, each pairing in turn,
// so that a tournament stopped early has played every pairing about equally.
[[nodiscard]] inline std::vector<GameSlot> schedule(const std::vector<Pairing>& pairs,
                                                    int games_per_pairing, std::uint64_t seed) {
  std::vector<GameSlot> out;
  for (int pair = 0; 2 * pair < games_per_pairing; ++pair) {
    for (std::size_t p = 0; p < pairs.size(); ++p) {
      for (int k = 0; k < 2 && 2 * pair + k < games_per_pairing; ++k) {
        GameSlot slot;
        slot.number = static_cast<int>(out.size());
        slot.pairing = static_cast<int>(p);
        slot.game = 2 * pair + k;
        slot.players = k == 0 ? std::array<int, 2>{pairs[p].a, pairs[p].b}
                              : std::array<int, 2>{pairs[p].b, pairs[p].a};
        const std::uint64_t base =
            (p == 0 ? seed : mix64(seed ^ (0x5EEDULL * (p + 1)))) * 1000003ULL +
            static_cast<std::uint64_t>(slot.game);
        slot.seed_a = base;
        slot.seed_b = base ^ 0xB0B0B0B0ULL;
        out.push_back(slot);
      }
    }
  }
  return out;
}

// Where each pair of games starts. `Random` plays `plies` random moves (the
// same opening for every pairing: fair to all); `List` cycles through given
// positions (in order, or in one shuffled order).
template <class S>
struct Openings {
  int random_plies = 0;            // > 0: random openings of that many plies
  std::vector<S> list;             // non-empty: these positions, cycled
  std::vector<std::size_t> order;  // non-empty: the list's order (shuffle())

  // A fixed permutation of the list from the seed (Fisher–Yates), made once
  // and cycled: every position before any repeats.
  void shuffle(std::uint64_t seed) {
    order.resize(list.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    Rng rng(mix64(seed ^ 0x0BE41C65ULL));
    for (std::size_t k = order.size(); k > 1; --k) std::swap(order[k - 1], order[rng.below(k)]);
  }

  // The position games 2p and 2p+1 start from; `line` (random openings)
  // gets the moves that lead there from `start`.
  [[nodiscard]] S for_pair(const S& start, int pair, std::uint64_t seed,
                           std::vector<typename S::Move>* line = nullptr) const {
    if (line != nullptr) line->clear();
    if (!list.empty()) {
      const std::size_t i = static_cast<std::size_t>(pair) % list.size();
      return list[order.empty() ? i : order[i]];
    }
    if (random_plies > 0) {
      return random_opening(start, random_plies,
                            mix64(seed * 7919ULL + static_cast<std::uint64_t>(pair)), line);
    }
    return start;
  }
};

// The limits of a tournament that callers check before it starts.
inline constexpr int kMaxGamesPerPairing = 1'000'000;
inline constexpr int kMaxConcurrency = 256;
inline constexpr int kMaxOpeningPlies = 40;  // random plies before a game

// The ranges of `games`, random opening `plies` and `concurrency` (the Python
// module's keywords; the CLI states the same to CLI11): an error, else none.
[[nodiscard]] inline std::optional<std::string> check_tournament_limits(long long games,
                                                                        long long plies,
                                                                        long long concurrency) {
  if (auto e = out_of_range("games", games, 1, kMaxGamesPerPairing)) return e;
  if (auto e = out_of_range("openings", plies, 0, kMaxOpeningPlies)) return e;
  return out_of_range("concurrency", concurrency, 1, kMaxConcurrency);
}

struct TournamentOptions {
  int games_per_pairing = 10;
  int concurrency = 1;  // games at once
  std::uint64_t seed = 0;
  play::MatchOptions match;
};

// `make(agent, seed)` builds agent number `agent` for one game.
template <class S>
using AgentFactory =
    std::function<std::unique_ptr<agents::Agent<S>>(int agent, std::uint64_t seed)>;

// One finished game: its slot, where it started and its whole record.
template <class S>
struct GameResult {
  const GameSlot& slot;
  const S& start;
  const play::MatchRecord<S>& record;
};

// Called once per finished game, one at a time (under a lock), in the order
// games finish; returning false stops the tournament: no new game starts,
// and the games already running finish and are reported.
template <class S>
using OnGame = std::function<bool(const GameResult<S>&)>;

// Plays the schedule on `options.concurrency` threads. Returns how many
// games were played.
template <games::PlayableGame S>
int run_tournament(const S& start, const std::vector<GameSlot>& slots, const Openings<S>& openings,
                   const AgentFactory<S>& make, const TournamentOptions& options,
                   const OnGame<S>& on_game = {}) {
  std::mutex report;
  int played = 0;
  run_pool(slots.size(), options.concurrency, [&](std::size_t i) {
    const GameSlot& slot = slots[i];
    const S first = openings.for_pair(start, slot.game / 2, options.seed);
    std::array<std::unique_ptr<agents::Agent<S>>, 2> players;
    // Agent A of the pairing gets seed_a whatever its colour.
    const bool a_first = slot.game % 2 == 0;
    players[0] = make(slot.players[0], a_first ? slot.seed_a : slot.seed_b);
    players[1] = make(slot.players[1], a_first ? slot.seed_b : slot.seed_a);
    const auto record =
        play::play_match<S>(first, {players[0].get(), players[1].get()}, options.match);
    players = {};  // external programs are gone before the next game starts
    const std::lock_guard lock(report);
    ++played;
    return !on_game || on_game(GameResult<S>{slot, first, record});
  });
  return played;
}

// The two-agent match of earlier versions: A (agent 0) is Player 1 in the
// even games. `openings` random plies before each pair of games.
struct ArenaOptions {
  int games = 10;
  std::uint64_t seed = 0;
  play::MatchOptions match;
  int openings = 0;
};

template <games::PlayableGame S>
Score run_arena(const S& start, const AgentFactory<S>& make, const ArenaOptions& options) {
  Score score;
  const auto slots = schedule({{0, 1}}, options.games, options.seed);
  Openings<S> openings;
  openings.random_plies = options.openings;
  run_tournament<S>(start, slots, openings, make,
                    TournamentOptions{options.games, 1, options.seed, options.match},
                    [&](const GameResult<S>& r) {
                      score.add(r.slot.players[0] == 0 ? r.record.payoff : -r.record.payoff);
                      return true;
                    });
  return score;
}

}  // namespace duel::arena
