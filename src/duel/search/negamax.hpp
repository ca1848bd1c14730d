#pragma once
// The node functions of SearchWorker (worker.hpp): negamax, the capture
// quiescence below it, and ProbCut.
//
// Why a file of their own: they are the search a reader comes for, every
// node's steps in order; the worker around them keeps the deepening, the
// table's bookkeeping and the limits. Each feature's code is compiled only
// where the game's Features turn it on (features.hpp).
#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "duel/search/worker.hpp"

namespace duel::search {

// Capture quiescence (HasTactics): the heuristic is a floor the mover can
// keep by standing pat; only captures and promotions may raise it. In check
// there is no standing pat and every move is searched, for the first
// kQuiesceCheckPlies plies below the horizon only: after those a position in
// check is judged as it stands (checks answered by checks could otherwise
// run to kMaxPly, as they did under king capture). Chess alternates moves,
// so children are always negated.
template <GameState S, class H, Features F>
Value SearchWorker<S, H, F>::quiesce(const S& s, int ply, Value alpha, Value beta, int qply) {
  assert(-kInfinite <= alpha && alpha < beta && beta <= kInfinite);
  assert(ply >= 0 && ply < kMaxPly && qply >= 0);
  // Step 1. Count the node; stand pat where the mover may.
  if (const auto v = enter_node(s, ply)) return *v;
  const bool stand = qply >= kQuiesceCheckPlies || s.may_stand_pat();
  Value best = -kInfinite;
  if (stand) {
    best = evaluate(s);
    if (best >= beta) return best;
    if (best > alpha) alpha = best;
  }

  // Step 2. The moves to search: the tactical ones (the game may list them
  // alone), or every move in check; losing captures passed over.
  typename S::Moves moves;
  bool listed = false;
  if constexpr (HasTacticalActions<S>) {
    if (stand) {
      s.tactical_actions(moves);
      listed = true;
    }
  }
  if (!listed) s.actions(moves);
  ++m_stats.interior;
  std::vector<int>& scores = m_scores[static_cast<std::size_t>(ply)];
  std::vector<std::uint16_t>& order = m_picks[static_cast<std::size_t>(ply)];
  scores.assign(moves.size(), 0);
  order.clear();
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (stand && !s.is_tactical(moves[i])) continue;
    if constexpr (HasExchange<S> && F.quiescence_skips_losing_captures) {
      if (stand && !s.see_ge(moves[i], 0)) continue;
    }
    if constexpr (HasOrderHint<S>) scores[i] = s.order_hint(moves[i]);
    order.push_back(static_cast<std::uint16_t>(i));
  }

  // Step 3. Search them, best hint first.
  for (std::size_t n = 0; n < order.size(); ++n) {
    MoveOrder<S>::pick_next(order, scores, n);
    const auto& m = moves[order[n]];
    // Not searched, as in negamax: a loss that near.
    if (const int plies = forced_loss(s, m); plies > 0) {
      best = std::max(best, loss_in(ply + plies));
      continue;
    }
    const S child = s.result(m);
    if constexpr (HasPrefetch<H, S>) m_eval.prefetch(child);
    const Value v = -quiesce(child, ply + 1, -beta, -alpha, qply + 1);
    if (m_stop.stopped()) return 0;
    if (v > best) {
      best = v;
      if (v > alpha) {
        alpha = v;
        m_pv.update(ply, m);
        if (v >= beta) break;
      }
    }
  }
  return best;
}

// ProbCut (HasTactics, HasExchange, HasAspiration): at a node where forward
// pruning may cut, kProbCutDepth deep or more, each capture or promotion
// whose static exchange gains at least the bound's distance above the
// estimate is tried against a bound kProbCutMargin aspiration widths (a pawn
// in the chess family) above beta: first by quiescence, then, if it holds,
// by a search kProbCutReduction plies shallower. The first that clears it
// answers the node as a lower bound, stored at the depth it speaks for. Not
// tried when the table already holds a result at least that deep below the
// bound. Empty when the node is to be searched as usual.
template <GameState S, class H, Features F>
std::optional<Value> SearchWorker<S, H, F>::probcut(const S& s, int depth, int ply, Value beta,
                                                    Value static_eval,
                                                    const std::optional<TTEntry>& entry) {
  if constexpr (HasTactics<S> && HasExchange<S> && HasAspiration<S> && F.probcut) {
    if (depth < kProbCutDepth) return std::nullopt;
    const Value bound = beta + kProbCutMargin * S::kAspiration;
    if (is_proven(bound)) return std::nullopt;
    if (entry && entry->depth != kDepthAny && entry->depth >= depth - kProbCutReduction + 1 &&
        entry->bound() != Bound::Lower && from_tt(entry->value, ply) < bound) {
      return std::nullopt;
    }
    const Value eval = static_eval != -kInfinite ? static_eval : estimate(s);
    // The table's move is an index into actions(), found once a capture cuts.
    typename S::Moves moves;
    if constexpr (HasTacticalActions<S>) {
      s.tactical_actions(moves);
    } else {
      s.actions(moves);
    }
    for (const auto& m : moves) {
      // The distance goes to see_ge() as it is, in the heuristic's units,
      // while the exchange counts 100 a pawn: in the chess family (50 a
      // pawn) the gate asks half the distance in pawns, which measured
      // better than the full distance (docs/engine.md, "ProbCut").
      if (!s.is_tactical(m) || forced_loss(s, m) > 0 || !s.see_ge(m, bound - eval)) continue;
      const S child = s.result(m);
      Value v = -quiesce(child, ply + 1, -bound, -bound + 1);
      if (v >= bound && !m_stop.stopped()) {
        v = child_value(child, s.to_move(), depth - kProbCutReduction, ply, bound - 1, bound);
      }
      if (m_stop.stopped()) return std::nullopt;
      if (v >= bound) {
        ++m_inexact;
        if (m_options.hash_mb > 0) {
          typename S::Moves all;
          s.actions(all);
          const auto at = std::find(all.begin(), all.end(), m);
          const auto index = at == all.end() ? 0 : at - all.begin() + 1;
          store_table(s.key(), v, bound - 1, bound, ply, depth - kProbCutReduction + 1,
                      static_cast<std::uint16_t>(index));
        }
        return v;
      }
    }
    return std::nullopt;
  } else {
    (void)s, (void)depth, (void)ply, (void)beta, (void)static_eval, (void)entry;
    return std::nullopt;
  }
}

// Negamax from the side to move's view: a principal-variation search whose
// subtree is exact when no heuristic answered in it. Forward pruning and
// reductions (HasTactics, the chess family) are what the game's Features
// keep; each marks the subtree inexact where it cuts.
template <GameState S, class H, Features F>
Value SearchWorker<S, H, F>::negamax(const S& s, int depth, int ply, Value alpha, Value beta) {
  assert(-kInfinite <= alpha && alpha < beta && beta <= kInfinite);
  assert(ply >= 0 && ply < kMaxPly && depth >= -1 && depth < kMaxPly);
  if constexpr (HasTactics<S> && F.quiescence) {
    if (depth <= 0) return quiesce(s, ply, alpha, beta);
  }
  // Step 1. Count the node, poll the limits, answer terminals and the horizon.
  if (const auto v = enter_node(s, ply)) return *v;
  // A position that occurred before (in the game or this line) may be one
  // repetition away from the rule's draw: its stored value, found along
  // another path, does not know that (Step 2).
  [[maybe_unused]] bool repeated = false;
  if constexpr (HasRepetition<S>) {
    repeated = ply > 0 && s.repetitions() > 0;
    if constexpr (F.repetition_draws) {
      // A repetition whose earlier occurrence lies inside this search's
      // line is scored a draw; where the game knows how far back it was
      // (HasRepetitionDistance), a position played before the search began,
      // met again, is searched on: the rule's draw needs a third
      // occurrence. Not a proof (the side that repeated may avoid the
      // rule's draw), so the subtree is inexact.
      bool in_line = repeated;
      if constexpr (HasRepetitionDistance<S>) in_line = repeated && s.repetition_distance() < ply;
      if (in_line) {
        ++m_stats.leaves;
        ++m_inexact;
        return draw_value(s);
      }
    }
  }
  if constexpr (WinLossDraw<S>) {
    // Mate-distance pruning: no line from here can win faster than the next
    // ply or lose later than this one, so a window outside that range is
    // already decided (a proven bound, so it stays exact).
    if (ply > 0) {
      alpha = std::max(alpha, loss_in(ply));
      beta = std::min(beta, win_in(ply + 1));
      if (alpha >= beta) {
        ++m_stats.leaves;
        return alpha;
      }
    }
  }
  if (depth <= 0) {
    // At the horizon only a quiet position is judged by the heuristic; a
    // game with forced replies (checkers' compulsory captures) plays them
    // out first. Each such move shrinks the material, so this ends.
    bool quiet = true;
    if constexpr (HasQuietness<S> && F.quiescence) quiet = s.is_quiet();
    if (quiet) return evaluate(s);
    depth = 0;
  }

  // Step 2. Transposition table: a stored bound may answer the node. The
  // root only takes the stored move (it must name a move of its own); nor
  // does a repeated position take a stored value, written along a path where
  // the next repetition was not the rule's draw
  // (MinichessSearch.ARepeatedPositionTakesNoStoredValue).
  const Value alpha_orig = alpha;
  const std::uint64_t key = s.key();
  const bool free = memoryless(s);  // the probe and the store both ask
  std::uint16_t tt_move = 0;
  std::optional<TTEntry> tt_entry;
  if (m_options.hash_mb > 0) {
    if (const auto v = probe_table(key, depth, ply, ply > 0 && !repeated, free, alpha, beta,
                                   tt_move, tt_entry)) {
      return *v;
    }
  }

  // Step 3. Forward pruning at the node, never on the principal variation:
  // in the chess family never in check, reverse futility then ProbCut; in
  // checkers reverse futility where no capture is pending.
  [[maybe_unused]] bool in_check = false;
  [[maybe_unused]] const bool pv_node = beta - alpha > 1;
  [[maybe_unused]] bool prunable = false;              // forward pruning may cut here
  [[maybe_unused]] bool quiet_futility = false;        // quiet moves may be pruned
  [[maybe_unused]] Value futility_margin = kInfinite;  // a ply's worth of heuristic
  [[maybe_unused]] Value static_eval = -kInfinite;     // the estimate, when pruning asked
  if constexpr (HasTactics<S>) {
    in_check = !s.may_stand_pat();
    prunable = !pv_node && !in_check && ply > 0 && !is_proven(beta);
    if constexpr (HasFutilityMargin<S> && (F.reverse_futility || F.quiet_move_futility)) {
      if (prunable) {
        const bool reverse = F.reverse_futility && depth <= kReverseFutilityDepth;
        quiet_futility = F.quiet_move_futility && depth <= kQuietFutilityDepth;
        futility_margin = S::kFutilityMargin;
        if (reverse || quiet_futility) {
          static_eval = estimate(s);
          if (reverse && static_eval - futility_margin * depth >= beta) {
            ++m_inexact;
            ++m_stats.leaves;
            return static_eval;
          }
        }
      }
    }
    if (prunable) {
      if (const auto v = probcut(s, depth, ply, beta, static_eval, tt_entry)) return *v;
      if (m_stop.stopped()) return 0;
    }
  } else if constexpr (HasQuietness<S> && HasFutilityMargin<S> && F.reverse_futility &&
                       F.quiescence) {
    // Checkers: reverse futility where no capture is pending (a pending
    // capture is compulsory, so the estimate bounds nothing there).
    if (!pv_node && ply > 0 && !is_proven(beta) && depth <= kQuietReverseFutilityDepth &&
        s.is_quiet()) {
      const Value e = estimate(s);
      if (e - S::kFutilityMargin * depth >= beta) {
        ++m_inexact;
        ++m_stats.leaves;
        return e;
      }
    }
  }

  // Step 4. Generate and order the moves.
  typename S::Moves moves;
  s.actions(moves);
  ++m_stats.interior;
  std::vector<int>& scores = m_scores[static_cast<std::size_t>(ply)];
  m_order.score(s, moves, tt_move, ply, scores);
  std::vector<std::uint16_t>& order = m_picks[static_cast<std::size_t>(ply)];
  order.resize(moves.size());
  for (std::size_t i = 0; i < moves.size(); ++i) order[i] = static_cast<std::uint16_t>(i);

  // Step 5. Principal-variation search over the moves, best-scored first:
  // the first with the full window, the rest with a null window (late quiet
  // ones reduced first), searched again only when they beat alpha.
  const std::uint64_t inexact_before = m_inexact;
  Value best = -kInfinite;
  std::size_t best_index = 0;
  std::size_t lost = 0;  // moves that lose by force, passed over (HasForcedLoss)
  for (std::size_t n = 0; n < order.size(); ++n) {
    MoveOrder<S>::pick_next(order, scores, n);
    const std::size_t i = order[n];
    const std::size_t k = n - lost;  // the move's place among those searched
    Value v;
    const int plies = forced_loss(s, moves[i]);
    if (plies > 0 && (plies <= depth || F.quiescence)) {
      // Step 5a. Known without a search (HasForcedLoss): a loss that near is
      // below every other value but a faster loss, so it is the node's value
      // only when nothing better is found. Taken where the search would have
      // seen the loss itself (within the depth, or by quiescence), so a
      // fixed-depth value without quiescence stays minimax's.
      ++lost;
      v = loss_in(ply + plies);
      m_pv.clear(ply + 1);  // no line below it for m_pv.update to copy
    } else {
      const S child = s.result(moves[i]);
      // The child probes the table first thing, unless it is a horizon node.
      if (m_options.hash_mb > 0 && depth > 1) m_tt.prefetch(child.key());
      if constexpr (HasPrefetch<H, S>) m_eval.prefetch(child);
      int next = depth - 1;
      int reduction = 0;
      if constexpr (HasTactics<S>) {
        // Step 5b. Prune, extend or reduce the move (the chess family).
        const bool gives_check = !child.may_stand_pat();
        const bool quiet = !s.is_tactical(moves[i]);
        if (prunable && k > 0 && !gives_check && !is_proven(best)) {
          if (quiet_futility && quiet && static_eval + futility_margin * (1 + 2 * depth) <= alpha) {
            ++m_inexact;
            continue;
          }
          if constexpr (HasExchange<S> && F.losing_exchange_pruning) {
            if (depth <= kExchangePruneDepth &&
                !s.see_ge(moves[i], quiet ? -25 * depth * depth : -100 * depth)) {
              ++m_inexact;
              continue;
            }
          }
        }
        if constexpr (F.check_extension) {
          if (gives_check && ply < 2 * m_root_depth) ++next;
        }
        if constexpr (F.reductions) {
          if (depth >= 3 && k >= 3 && !in_check && !gives_check && quiet &&
              !m_order.is_killer(moves[i], ply)) {
            reduction = late_move_reduction(depth, k, beta - alpha > 1, next);
          }
        }
      }
      if constexpr (!HasTactics<S> && HasQuietness<S> && HasOrderHint<S> && F.reductions) {
        // Step 5b'. In a game with forced replies (checkers), where no
        // capture is pending, late moves the game's hint does not favour
        // (no crowning) are reduced as quiet moves are in chess.
        if (depth >= 3 && k >= 3 && s.is_quiet() && s.order_hint(moves[i]) == 0 &&
            !m_order.is_killer(moves[i], ply)) {
          reduction = late_move_reduction(depth, k, beta - alpha > 1, next);
        }
      }
      // Step 5c. Search the move.
      if (k == 0) {
        v = child_value(child, s.to_move(), next, ply, alpha, beta);
      } else {
        v = child_value(child, s.to_move(), next - reduction, ply, alpha, alpha + 1);
        if (reduction > 0 && v > alpha && !m_stop.stopped()) {
          v = child_value(child, s.to_move(), next, ply, alpha, alpha + 1);
        }
        if (v > alpha && v < beta && !m_stop.stopped()) {
          v = child_value(child, s.to_move(), next, ply, alpha, beta);
        }
      }
    }
    if (m_stop.stopped()) return 0;
    if (v > best) {
      best = v;
      best_index = i;
      if (v > alpha) {
        alpha = v;
        m_pv.update(ply, moves[i]);
        if (ply == 0) {
          // What a stop before the iteration's end plays and reports.
          m_root_best = moves[i];
          m_root_line = m_pv.line(0);
          m_root_value = v;
        }
        if (v >= beta) {
          m_stats.cutoff(depth, k == 0, tt_move != 0);
          m_order.cutoff(moves[i], depth, ply);
          break;
        }
      }
    }
  }

  // Step 6. Store the result. Exact subtrees are valid at any depth, unless
  // the game's past may change the future (HasMemory): right for this line,
  // but another path to the same position may repeat other positions or run
  // the clock out elsewhere.
  if (m_options.hash_mb > 0) {
    const bool any_depth = m_inexact == inexact_before && free;
    const int stored_depth = any_depth ? kDepthAny : std::min(depth, kDepthAny - 1);
    store_table(key, best, alpha_orig, beta, ply, stored_depth,
                static_cast<std::uint16_t>(best_index + 1));
  }
  return best;
}

}  // namespace duel::search
