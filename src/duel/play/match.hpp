#pragma once
// One game between two agents: asks each for a move, checks it is legal,
// charges its time, applies the turn limit, and keeps the whole record.
//
// Why: the referee is the only place that decides a game, so a buggy or slow
// agent (or a person closing the terminal) ends the game with a clear reason
// and never loses the record.
#include <array>
#include <atomic>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "duel/agents/agent.hpp"
#include "duel/core/clock.hpp"
#include "duel/core/spec.hpp"
#include "duel/games/game.hpp"

namespace duel::play {

enum class Ending : std::uint8_t {
  Rules,        // the game's own end (win, loss or draw by its rules)
  Timeout,      // an agent exceeded the move time limit: it loses
  IllegalMove,  // an agent returned an illegal move: it loses
  Abandoned,    // an agent gave up (end of input, quit): it loses
  TurnLimit,    // --max-turns reached: a draw
  Adjudicated,  // the scores the agents reported settled it (arena --draw, --resign)
};

[[nodiscard]] inline std::string_view ending_name(Ending e) {
  switch (e) {
    case Ending::Rules: return "rules";
    case Ending::Timeout: return "timeout";
    case Ending::IllegalMove: return "illegal-move";
    case Ending::Abandoned: return "abandoned";
    case Ending::TurnLimit: return "turn-limit";
    case Ending::Adjudicated: return "adjudicated";
  }
  return "?";
}

// A finished game's result and its cause: "White wins: checkmate",
// "draw: 50-move rule".
template <games::PlayableGame S>
[[nodiscard]] std::string rules_reason(const S& final_state) {
  const Value u = final_state.utility();
  const std::string cause = final_state.end_cause();
  if (u == 0) return fmt::format("draw: {}", cause);
  return fmt::format("{} wins: {}", S::kSideNames[u > 0 ? 0 : 1], cause);
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

// Ending a game early from the scores agents report with their moves (as
// cutechess-cli's -draw and -resign do); off when the counts are 0. Scores
// are in the engine's units, from the mover's view; agents that report no
// score are never adjudicated.
struct Adjudication {
  // A draw once `draw_after` turns are played and both sides' last
  // `draw_count` scores each were within `draw_score` of zero.
  int draw_after = 0;
  int draw_count = 0;
  Value draw_score = 0;
  // A loss for a side whose last `resign_count` scores each were at most
  // -`resign_score`.
  int resign_count = 0;
  Value resign_score = 0;
  [[nodiscard]] bool any() const noexcept { return draw_count > 0 || resign_count > 0; }
};

struct MatchOptions {
  double timeout = 0.0;  // seconds a move for programs; 0 = none (people are never timed)
  int max_turns = 0;     // turns (a move by each player); 0 = none
  Adjudication adjudication{};
  // Seed 003 (RULES.md §5): "in a tie the agent with more time left wins",
  // when both agents keep a game clock (agents::Agent::time_left).
  bool tie_to_more_time = false;
  // Set from outside (a Python caller whose callback raised, or Ctrl-C):
  // the game ends before the next move is asked for, a draw by no rule.
  const std::atomic<bool>* stop = nullptr;
};

// The ranges of a match's limits as a caller gives them (the Python module's
// keywords; the CLI states the same to CLI11): the spec's wording, else none.
[[nodiscard]] inline std::optional<std::string> check_match_limits(double timeout,
                                                                   long long max_turns) {
  if (!(timeout >= 0)) return fmt::format("timeout={} must be 0 or more", timeout);
  return out_of_range("max_turns", max_turns, 0, std::numeric_limits<int>::max());
}

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
  // Agents get ready off the clock (an external engine starts, a table is
  // cleared), so the first move is not charged for it.
  players[0]->new_game();
  if (players[1] != players[0]) players[1]->new_game();
  WallClock match_clock;
  S state = start;
  // Adjudication: each side's run of scores near zero and of lost scores.
  std::array<int, 2> quiet_run{};
  std::array<int, 2> lost_run{};
  const Adjudication& adj = options.adjudication;
  const auto lose = [&](Player loser, Ending ending, const std::string& reason) {
    record.payoff = loser == Player::First ? -1 : 1;
    record.ending = ending;
    record.reason = reason;
  };
  while (true) {
    // Step 1. The game's own end, or the turn limit.
    if (state.is_terminal()) {
      record.payoff = state.utility();
      record.ending = Ending::Rules;
      record.reason = rules_reason(state);
      const auto t0 = players[0]->time_left();
      const auto t1 = players[1]->time_left();
      if (record.payoff == 0 && options.tie_to_more_time && t0 && t1 && *t0 != *t1) {
        const int winner = *t0 > *t1 ? 0 : 1;
        record.payoff = winner == 0 ? 1 : -1;
        record.reason = fmt::format("{} wins: {}, with more time left ({:.3f} s to {:.3f} s)",
                                    S::kSideNames[winner], state.end_cause(), std::max(*t0, *t1),
                                    std::min(*t0, *t1));
      }
      break;
    }
    if (options.max_turns > 0 && static_cast<int>(record.moves.size()) >= 2 * options.max_turns) {
      record.payoff = 0;
      record.ending = Ending::TurnLimit;
      record.reason = fmt::format("draw: {} turns played", options.max_turns);
      break;
    }
    if (options.stop != nullptr && options.stop->load()) {
      record.payoff = 0;
      record.ending = Ending::Abandoned;
      record.reason = "stopped from outside before the end";
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
      // A program that failed (crashed, timed out, wrote junk) lost; a
      // person who quit gave up.
      const std::string why = agent.failure();
      lose(mover, Ending::Abandoned,
           why.empty()
               ? fmt::format("{} ({}) gave up", S::kSideNames[index(mover)], agent.name())
               : fmt::format("{} ({}) lost: {}", S::kSideNames[index(mover)], agent.name(), why));
      break;
    }
    // Step 3. Referee: the move must be legal and in time.
    typename S::Moves legal;
    state.actions(legal);
    bool ok = false;
    for (const auto& m : legal) ok = ok || m == *move;
    if (!ok) {
      lose(
          mover, Ending::IllegalMove,
          fmt::format("{} ({}) played an illegal move", S::kSideNames[index(mover)], agent.name()));
      break;
    }
    MoveRecord<S> rec{mover, *move, state.move_text(*move), took, std::nullopt};
    if (const auto* report = agent.last_report()) rec.report = *report;
    state = state.result(*move);
    record.moves.push_back(rec);
    if (observe) observe(state, record.moves.back());
    if (clock.limit > 0 && took > clock.limit) {
      lose(mover, Ending::Timeout,
           fmt::format("{} ({}) took {:.3f} s, over the {:.3f} s limit",
                       S::kSideNames[index(mover)], agent.name(), took, clock.limit));
      break;
    }
    // Step 4. Adjudication from the mover's reported score.
    if (adj.any()) {
      const auto side = static_cast<std::size_t>(index(mover));
      const auto& report = record.moves.back().report;
      if (report) {
        const Value own = mover == Player::First ? report->value : -report->value;
        quiet_run[side] =
            (own <= adj.draw_score && own >= -adj.draw_score) ? quiet_run[side] + 1 : 0;
        lost_run[side] = own <= -adj.resign_score ? lost_run[side] + 1 : 0;
      } else {
        quiet_run[side] = lost_run[side] = 0;
      }
      if (adj.resign_count > 0 && lost_run[side] >= adj.resign_count) {
        lose(mover, Ending::Adjudicated,
             fmt::format("{} ({}) resigns: its score was {} or worse for {} moves",
                         S::kSideNames[index(mover)], agent.name(), -adj.resign_score,
                         adj.resign_count));
        break;
      }
      const int turns = static_cast<int>(record.moves.size()) / 2;
      if (adj.draw_count > 0 && turns >= adj.draw_after && quiet_run[0] >= adj.draw_count &&
          quiet_run[1] >= adj.draw_count) {
        record.payoff = 0;
        record.ending = Ending::Adjudicated;
        record.reason = fmt::format("draw: both scores within {} of zero for {} moves",
                                    adj.draw_score, adj.draw_count);
        break;
      }
    }
  }
  record.final_state = state;
  record.seconds = match_clock.seconds();
  return record;
}

}  // namespace duel::play
