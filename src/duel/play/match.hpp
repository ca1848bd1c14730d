#pragma once
// One game between two agents: asks each for a move, checks it is legal,
// charges its time, applies the turn limit, and keeps the whole record.
//
// Why: the referee is the only place that decides a game, so a buggy or slow
// agent (or a person closing the terminal) ends the game with a clear reason
// and never loses the record.
#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "duel/agents/agent.hpp"
#include "duel/core/clock.hpp"
#include "duel/games/game.hpp"

namespace duel::play {

enum class Ending : std::uint8_t {
  Rules,        // the game's own end (win, loss or draw by its rules)
  Timeout,      // an agent exceeded the move time limit: it loses
  IllegalMove,  // an agent returned an illegal move: it loses
  Abandoned,    // an agent gave up (end of input, quit): it loses
  TurnLimit,    // --max-turns reached: a draw
};

[[nodiscard]] inline std::string_view ending_name(Ending e) {
  switch (e) {
    case Ending::Rules: return "rules";
    case Ending::Timeout: return "timeout";
    case Ending::IllegalMove: return "illegal-move";
    case Ending::Abandoned: return "abandoned";
    case Ending::TurnLimit: return "turn-limit";
  }
  return "?";
}

template <class S>
struct MoveRecord {
  Player player = Player::First;
  typename S::Move move{};
  std::string text;
  double seconds = 0.0;
  std::optional<agents::SearchReport> report;
};

template <class S>
struct MatchRecord {
  std::string game;                   // canonical spec
  std::string start;                  // start position text
  std::array<std::string, 2> agents;  // names, Player::First first
  std::vector<MoveRecord<S>> moves;
  S final_state;
  Value payoff = 0;  // points, Player::First's view
  Ending ending = Ending::Rules;
  std::string reason;
  double seconds = 0.0;
};

struct MatchOptions {
  double timeout = 0.0;  // seconds a move for programs; 0 = none (people are never timed)
  int max_turns = 0;     // turns (a move by each player); 0 = none
};

template <class S>
using MoveObserver = std::function<void(const S& after, const MoveRecord<S>& move)>;

template <games::PlayableGame S>
MatchRecord<S> play_match(const S& start, const std::array<agents::Agent<S>*, 2>& players,
                          const MatchOptions& options, const MoveObserver<S>& observe = {}) {
  MatchRecord<S> record;
  record.game = start.spec();
  record.start = start.to_text();
  record.agents = {players[0]->name(), players[1]->name()};
  record.final_state = start;
  WallClock match_clock;
  S state = start;
  const auto lose = [&](Player loser, Ending ending, std::string reason) {
    record.payoff = loser == Player::First ? -1 : 1;
    record.ending = ending;
    record.reason = std::move(reason);
  };
  while (true) {
    // Step 1. The game's own end, or the turn limit.
    if (state.is_terminal()) {
      record.payoff = state.utility();
      record.ending = Ending::Rules;
      record.reason = record.payoff > 0   ? "Player 1 wins"
                      : record.payoff < 0 ? "Player 2 wins"
                                          : "draw";
      break;
    }
    if (options.max_turns > 0 && static_cast<int>(record.moves.size()) >= 2 * options.max_turns) {
      record.payoff = 0;
      record.ending = Ending::TurnLimit;
      record.reason = fmt::format("draw: {} turns played", options.max_turns);
      break;
    }
    // Step 2. Ask the agent to move, on the clock.
    const Player mover = state.to_move();
    agents::Agent<S>& agent = *players[static_cast<std::size_t>(index(mover))];
    agents::MoveClock clock{agent.is_human() ? 0.0 : options.timeout};
    WallClock move_clock;
    const std::optional<typename S::Move> move = agent.choose(state, clock);
    const double took = move_clock.seconds();
    if (!move) {
      lose(mover, Ending::Abandoned,
           fmt::format("Player {} ({}) gave up", number(mover), agent.name()));
      break;
    }
    // Step 3. Referee: the move must be legal and in time.
    typename S::Moves legal;
    state.actions(legal);
    bool ok = false;
    for (const auto& m : legal) ok = ok || m == *move;
    if (!ok) {
      lose(mover, Ending::IllegalMove,
           fmt::format("Player {} ({}) played an illegal move", number(mover), agent.name()));
      break;
    }
    MoveRecord<S> rec{mover, *move, state.move_text(*move), took, std::nullopt};
    if (const auto* report = agent.last_report()) rec.report = *report;
    state = state.result(*move);
    record.moves.push_back(rec);
    if (observe) observe(state, record.moves.back());
    if (clock.limit > 0 && took > clock.limit) {
      lose(mover, Ending::Timeout,
           fmt::format("Player {} ({}) took {:.3f} s, over the {:.3f} s limit", number(mover),
                       agent.name(), took, clock.limit));
      break;
    }
  }
  record.final_state = state;
  record.seconds = match_clock.seconds();
  return record;
}

}  // namespace duel::play
