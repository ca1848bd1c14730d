#pragma once
// The engine's options: table size, move ordering, the selective-search
// switches, contempt and the number of search threads.
//
// Why its own file: every search thread (worker.hpp) and the engine that
// runs them (engine.hpp) read the same options.
#include <cstddef>
#include <optional>

#include "duel/core/types.hpp"

namespace duel::search {

inline constexpr int kMaxThreads = 64;  // the most `threads` the engine accepts

struct EngineOptions {
  std::size_t hash_mb = 16;  // transposition table size; 0 turns it off
  bool ordering = true;      // killers, history and the game's hints
  double soft_time = 0.5;    // do not start a new iteration past this share of the time
  int first_depth = 1;       // the first iteration's depth (solvers start deep)
  bool prefault = false;     // touch the whole table up front (timed play, benchmarks)
  bool quiescence = true;    // past the depth: checkers plays out captures, chess quiesces
  // Selective search where the game has the hooks (docs/engine.md, each kept
  // because a match measured a gain): null move (HasNullMove), late move
  // reductions and reverse futility pruning (HasTactics), check extension
  // (HasTactics), aspiration windows (HasAspiration).
  // Null move measured no gain in the 5x5 chess games (docs/engine.md):
  // there for users to try, off. Late move reductions alone measured a gain
  // at a fixed node count (docs/engine.md): on.
  bool null_move = false;
  bool reductions = true;  // late move reductions
  bool futility = true;    // reverse futility pruning near the horizon
  bool extensions = true;  // a move that gives check is searched one ply deeper
  bool aspiration = true;
  // Tried, off until a match says they gain (docs/engine.md): late move
  // pruning (quiet moves late in the order near the horizon are skipped) and
  // the transposition table in quiescence.
  bool late_pruning = false;
  bool quiesce_table = false;
  // Quiescence skips captures that lose material by static exchange
  // (HasExchange), unless in check: +24.9 +/- 18.8 Elo (docs/engine.md).
  bool quiesce_see = true;
  // Quiescence's first ply also searches the quiet moves that give check
  // (and do not lose material by static exchange, HasExchange), as
  // Stockfish's does: a check answered only by a capture is a tactic the
  // stand-pat floor cannot see.
  bool quiesce_checks = false;
  // A quiet move that threatens material at once (HasThreats: a pawn's step
  // to the rank before promotion) is neither pruned nor reduced.
  bool threats = false;
  // Late move reductions reduce a quiet move that saves an attacked piece
  // (HasEscapes) a ply less, as Stockfish 11 did for moves that escape a
  // capture. No gain shown against Fairy-Stockfish (docs/engine.md,
  // "Escapes and pawn threats"): off.
  bool escapes = false;
  // Move ordering: a capture that loses material by static exchange
  // (HasExchange) is searched after the killers and quiet moves. +10 +/- 7
  // Elo at a fixed node count with ProbCut from depth 5, -3.5 +/- 14.4 from
  // depth 4 (docs/engine.md, "ProbCut"): off.
  bool order_see = false;
  // Move ordering: a quiet move whose piece can be taken for less than it
  // is worth on its new square (static exchange below 0, HasExchange) is
  // searched after the other quiet moves (still before losing captures).
  bool order_see_quiet = false;
  // Move ordering one ply above the horizon, where the table has no move:
  // each move by the heuristic's estimate of the position it leads to (the
  // stand-pat of the quiescence search that follows), best first; with
  // `order_see` a losing capture, with `order_see_quiet` a quiet move that
  // loses its piece, after the rest (HasExchange). A trial (docs/STRENGTH.md).
  bool frontier_order = false;
  // Move ordering: the move that last refuted the opponent's previous move
  // (its "countermove", HasHistoryIndex) is searched right after the killers.
  bool countermove = false;
  // Move ordering: the history heuristic with gravity (a bonus to the quiet
  // move that cut off and the same malus to the quiet moves tried before it,
  // each scaled down as the entry nears its bound), and killers and history
  // kept for quiet moves only where the game tells them apart (HasTactics).
  bool history_gravity = false;
  // Move ordering: capture history (HasTactics, HasHistoryIndex). Captures
  // and promotions keep a history of their own, with gravity: a bonus when
  // one cuts off, a malus to those tried before the move that did; it
  // reorders captures within about a pawn of their victims' values.
  bool capture_history = false;
  // Move ordering: continuation history (HasHistoryIndex). For each move of
  // the opponent, a history of the quiet replies that cut off after it (a
  // bonus to the one that did, a malus to those tried before it, with
  // gravity): countermoves (`countermove`) with a score for every reply.
  bool continuation_history = false;
  // Move ordering: follow-up history (HasHistoryIndex), the same kept by the
  // side to move's own previous move (two plies back) instead of the
  // opponent's.
  bool follow_up_history = false;
  // Internal iterative reduction: a node at depth 4 or more with no move
  // from the table is searched one ply shallower (it was likely never worth
  // a search, and its next visit will have a move to try first).
  bool iir = false;
  // Futility pruning: near the horizon, away from the principal variation,
  // a quiet move that gives no check is not searched when the heuristic
  // here is so far below alpha that a quiet move is unlikely to make it up.
  // +20.1 +/- 15.7 Elo at a fixed node count (docs/engine.md): on.
  bool move_futility = true;
  // Exchange pruning near the horizon, away from the principal variation: a
  // move that loses more than a margin by static exchange (HasExchange) is
  // not searched. +27.7 +/- 20.0 Elo with futility pruning on, at a fixed
  // node count (docs/engine.md): on.
  bool exchange_pruning = true;
  // A position that occurred before inside the search's line (strictly
  // after the root) is scored a draw, as if the repetition would go on to
  // the rule's draw (Stockfish's rule). A position of the game before the
  // root, met again, is searched on where the game says how far back it was
  // (HasRepetitionDistance); elsewhere any repetition below the root counts.
  // Unset, the game decides: on where it says the distance (the chess
  // family: 47.2% against Fairy-Stockfish over 1,200 games, 45.5% without,
  // docs/STRENGTH.md), off elsewhere (checkers, measured without it).
  std::optional<bool> repetition_draw = std::nullopt;
  // Contempt: what a draw is worth to the side to move at the root, in the
  // heuristic's units (the side not to move there gets the negation). 0
  // scores draws as the game does; above 0 the engine prefers a draw to a
  // position the heuristic rates below that (against a stronger opponent).
  // A draw with contempt is no longer the game's value: inexact.
  Value contempt = 0;
  // Singular extension (HasTactics, docs/engine.md): the table's move is
  // searched a ply deeper when a shallower search without it finds every
  // other move well below its stored value.
  bool singular = false;
  // ProbCut (HasTactics, HasExchange, HasAspiration, docs/engine.md): away
  // from the principal variation, a capture that clears a bound above beta
  // by quiescence and by a search four plies shallower cuts the node.
  // +20.6 +/- 15.9 Elo at a fixed node count in Gardner (docs/engine.md): on.
  bool probcut = true;
  // Dead draws (HasDeadDraw): a position that no sequence of moves can take
  // to a win for either side is answered as a finished game's draw, an
  // exact value, where the heuristic would still see a piece's worth of
  // advantage (docs/engine.md, "Dead draws"). On.
  bool dead_draws = true;
  // The table's value as pruning's estimate (HasTactics): where the node's
  // entry bounds its value on the heuristic's far side (a lower bound above
  // it, an upper bound below it, or an exact value), reverse futility,
  // futility and ProbCut start from the stored value, which a search found,
  // instead of the heuristic's guess. +6.9 +/- 6.7 Elo at a fixed node count
  // against our own engine, but 3.5 +/- 1.75 points below the search without
  // it against Fairy-Stockfish at 0.1 s a move (docs/engine.md, "The
  // table's value as the estimate"): off.
  bool table_estimate = false;
  // Correction history (HasCorrectionKey): by the game's key (the pawns in
  // the chess family) and the side to move, a running average of how far
  // search results landed from the heuristic; pruning's estimate is the
  // heuristic plus that average.
  bool correction = false;
  // With it, quiescence's standing pat takes the corrected estimate too.
  bool correction_leaves = false;
  // Search threads (lazy SMP, docs/engine.md): the main thread searches as
  // with one; threads - 1 helpers search the same root at the same time and
  // share only the transposition table. 1 is the single-threaded search,
  // node for node.
  int threads = 1;
};

}  // namespace duel::search
