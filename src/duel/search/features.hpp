#pragma once
// The engine's selective search, fixed per game at compile time: each game
// states its `kFeatures` as it states its rules, and the engine's code for a
// feature that is off is not there (`if constexpr`).
//
// Why types, not switches: a runtime switch keeps its branch and its state
// in every node of every game, and each mix of switches is another engine
// to test. One set per game is the engine users run and the tests check
// (docs/engine.md lists what each feature measured; the experiments that
// measured no gain are in its history). A feature applies only where the
// game has the hooks it needs (the concepts in concepts.hpp).
#include "duel/search/concepts.hpp"

namespace duel::search {

struct Features {
  // Past the depth a game with forced replies plays them out (checkers'
  // compulsory captures, HasQuietness), a chess game searches its captures
  // (HasTactics).
  bool quiescence = true;
  // Quiescence passes over captures that lose material by static exchange,
  // unless in check (HasExchange).
  bool quiescence_skips_losing_captures = true;
  // The root searches a window around the last iteration's value that
  // widens on the side that fails (HasAspiration).
  bool aspiration = true;
  // Forward pruning, away from the principal variation (HasTactics): a node
  // whose estimate is far above beta near the horizon is cut
  // (HasFutilityMargin; in checkers, HasQuietness: where no capture is
  // pending) ...
  bool reverse_futility = true;
  // ... a quiet move from a node whose estimate is far below alpha is not
  // searched (HasFutilityMargin) ...
  bool quiet_move_futility = true;
  // ... a move that loses more than a margin by static exchange is not
  // searched (HasExchange) ...
  bool losing_exchange_pruning = true;
  // ... a capture that clears a bound above beta by quiescence and a
  // shallower search cuts the node (ProbCut; HasExchange, HasAspiration) ...
  bool probcut = true;
  // ... and late quiet moves are searched shallower first (late move
  // reductions; HasTactics, or HasQuietness and HasOrderHint: a game with
  // forced replies reduces late moves where none is pending).
  bool reductions = true;
  // A move that gives check is searched a ply deeper (HasTactics).
  bool check_extension = true;
  // A position no sequence of moves can win is an exact draw (HasDeadDraw).
  bool dead_draws = true;
  // A position met before strictly inside the search's line is scored a
  // draw (HasRepetition; with HasRepetitionDistance a position of the game
  // before the root needs a second repeat).
  bool repetition_draws = false;

  // Whether any part may prune a move or a node that full-width search
  // would have searched.
  [[nodiscard]] constexpr bool forward_pruning() const noexcept {
    return reverse_futility || quiet_move_futility || losing_exchange_pruning || probcut ||
           reductions;
  }
  friend constexpr bool operator==(const Features&, const Features&) = default;
};

// A game's features: its own `kFeatures`, or the defaults with repetition
// draws where the game says how far back a repetition was.
template <class S>
[[nodiscard]] consteval Features features_of() {
  if constexpr (requires { S::kFeatures; }) {
    return S::kFeatures;
  } else {
    Features f;
    f.repetition_draws = HasRepetitionDistance<S>;
    return f;
  }
}

// For the tests alone: the engine whose fixed-depth value is plain
// minimax's at the same depth (no quiescence, no pruning, no extension, no
// knowledge minimax does not have); what is left (principal-variation
// search, ordering, mate-distance pruning, aspiration windows) must not
// change a value.
inline constexpr Features kMinimaxEquivalent = {.quiescence = false,
                                                .quiescence_skips_losing_captures = false,
                                                .aspiration = true,
                                                .reverse_futility = false,
                                                .quiet_move_futility = false,
                                                .losing_exchange_pruning = false,
                                                .probcut = false,
                                                .reductions = false,
                                                .check_extension = false,
                                                .dead_draws = false,
                                                .repetition_draws = false};

}  // namespace duel::search
