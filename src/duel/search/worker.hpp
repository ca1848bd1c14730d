#pragma once
// One search thread of the engine: iterative deepening over a negamax
// principal-variation search with alpha-beta, the shared transposition
// table and its own move ordering (TT move, killers, history, the game's own
// hint), under `Limits {depth, time, nodes}`.
//
// Why: one negamax code path (DESIGN habit 4) that serves play at any time
// control and exact solving. A legal move is ready before the first node is
// searched, so even a 1 ms budget returns a legal move. Every node knows
// whether its subtree used a heuristic; when the root's did not, the value is
// the game-theoretic value and deepening stops. The engine (engine.hpp) runs
// one of these, or with `threads` several over one table (lazy SMP), so
// everything here but the table belongs to one thread.
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "duel/search/concepts.hpp"
#include "duel/search/limits.hpp"
#include "duel/search/options.hpp"
#include "duel/search/pv.hpp"
#include "duel/search/searcher.hpp"
#include "duel/search/tt.hpp"

namespace duel::search {

template <GameState S, class H>
class SearchWorker {
 public:
  using Move = typename S::Move;
  using Result = SearchResult<Move>;
  using InfoFn = typename Searcher<S>::InfoFn;

  // `index` 0 is the main thread; helpers (1, 2, ...) skip some depths.
  SearchWorker(H heuristic, const EngineOptions& options, TranspositionTable& tt, std::size_t index)
      : m_eval(std::move(heuristic)),
        m_options(options),
        m_tt(tt),
        m_index(index),
        m_killers(static_cast<std::size_t>(kMaxPly) + 1),
        m_scores(static_cast<std::size_t>(kMaxPly) + 1),
        m_order(static_cast<std::size_t>(kMaxPly) + 1) {
    if constexpr (HasHistoryIndex<S>) {
      m_history.assign(S::kHistorySize, 0);
      if (m_options.capture_history) m_capture_history.assign(S::kHistorySize, 0);
      if (m_options.continuation_history) {
        m_continuation.assign(S::kHistorySize * S::kHistorySize, 0);
      }
      if (m_options.follow_up_history) {
        m_follow_up.assign(S::kHistorySize * S::kHistorySize, 0);
      }
      m_counter.assign(S::kHistorySize, std::nullopt);
    }
    if constexpr (HasCorrectionKey<S>) {
      if (m_options.correction) m_correction.assign(2 * kCorrectionSize, 0);
    }
    // Late move reductions grow with the log of the depth and of the move's
    // place in the order (the shape Stockfish and most engines use).
    for (int d = 1; d < kLmrSize; ++d) {
      for (int n = 1; n < kLmrSize; ++n) {
        m_lmr[d][n] = static_cast<std::int8_t>(0.75 + std::log(d) * std::log(n) / 2.25);
      }
    }
  }

  SearchWorker(const SearchWorker&) = delete;
  SearchWorker& operator=(const SearchWorker&) = delete;
  SearchWorker(SearchWorker&&) = delete;
  SearchWorker& operator=(SearchWorker&&) = delete;
  ~SearchWorker() = default;

  // Forget what this thread learned (a new game); the engine clears the table.
  void new_game() {
    std::fill(m_history.begin(), m_history.end(), 0);
    std::fill(m_capture_history.begin(), m_capture_history.end(), 0);
    std::fill(m_continuation.begin(), m_continuation.end(), 0);
    std::fill(m_follow_up.begin(), m_follow_up.end(), 0);
    std::fill(m_counter.begin(), m_counter.end(), std::nullopt);
    std::fill(m_correction.begin(), m_correction.end(), 0);
  }
  [[nodiscard]] H& heuristic() noexcept { return m_eval; }

  // This thread's nodes so far in this search (read by other threads).
  [[nodiscard]] std::uint64_t nodes() const noexcept {
    return m_nodes.load(std::memory_order_relaxed);
  }
  [[nodiscard]] const SearchStats& stats() const noexcept { return m_stats; }
  [[nodiscard]] double elapsed() const noexcept { return m_stop.elapsed(); }

  // Iterative deepening from `root`, its time counted from `started`. The
  // engine has already started the table's new search (Engine::search).
  Result search(const S& root, const Limits& limits, const InfoFn& on_info,
                const WallClock& started) {
    // Step 1. Set up: clear per-search tables, pick a fallback move.
    Result out;
    m_stop = StopControl(limits, started);
    m_stats = SearchStats{};
    m_nodes.store(0, std::memory_order_relaxed);
    m_inexact = 0;
    m_root_side = root.to_move();
    for (auto& k : m_killers) k = {};
    for (auto& h : m_history) h /= 8;
    if (root.is_terminal()) {
      out.value = terminal_value(root.utility(), 0);
      out.complete = out.exact = true;
      return out;
    }
    out.best = fallback_move(root);

    // Step 2. Iterative deepening until exact, a limit, or the depth cap.
    const int cap = limits.depth > 0 ? std::min(limits.depth, kMaxPly - 2) : kMaxPly - 2;
    Value last = 0;
    for (int depth = std::min(cap, m_options.first_depth); depth <= cap; ++depth) {
      if (skips(depth, cap)) continue;
      const std::uint64_t inexact_before = m_inexact;
      m_root_best.reset();
      m_root_depth = depth;
      const Value v = root_search(root, depth, last);
      if (m_stop.stopped()) {
        // A move that finished this iteration with the best value so far
        // is better informed than the last iteration's choice.
        if (m_root_best) out.best = m_root_best;
        break;
      }
      last = v;
      out.value = for_player(v, root.to_move());
      out.depth = depth;
      out.pv = m_pv.line(0);
      if (!out.pv.empty()) out.best = out.pv.front();
      out.exact = m_inexact == inexact_before;
      if (on_info) {
        SearchInfo info;
        info.depth = depth;
        info.value = out.value;
        info.exact = out.exact;
        info.nodes = m_stats.nodes();
        info.nodes_by_depth = m_stats.depth_counts();
        info.seconds = m_stop.elapsed();
        on_info(info, out.pv);
      }
      if (out.exact) break;
      if (limits.time > 0 && m_stop.elapsed() > limits.time * m_options.soft_time) break;
    }
    out.complete = !m_stop.stopped() || out.exact;
    out.stats = m_stats;
    out.stats.seconds = m_stop.elapsed();
    return out;
  }

  // The principal variation of a full-window capture quiescence from `s`:
  // the captures (and answers to check) after which the side to move stands
  // pat, so that the position at its end is one the search would judge by
  // the heuristic. Empty when `s` itself is that position. The tuner
  // resolves its positions with it (docs/tuning.md).
  std::vector<Move> quiescence_line(const S& s) requires HasTactics<S> {
    m_stop = StopControl(Limits{});
    m_stats = SearchStats{};
    m_nodes.store(0, std::memory_order_relaxed);
    m_root_side = s.to_move();
    quiesce(s, 0, -kInfinite, kInfinite);
    return m_pv.line(0);
  }

 private:
  static constexpr int kLmrSize = 64;
  static constexpr int kQuiesceCheckPlies = 8;  // quiescence plies that answer a check
  static constexpr int kHistoryMax = 16384;     // history gravity's bound (below the killers)
  // Capture history's weight against the game's hint (65536 a hint unit):
  // at its bound it moves a capture by 16 units, in the chess family a pawn's
  // worth of victim, so a capture that keeps failing falls below the killers.
  static constexpr int kCaptureHistoryWeight = 64;
  // Reverse futility pruning up to here: depth 5 against 3 measured +8.7 +/- 7.1
  // Elo at a fixed node count and +38 +/- 25 at 0.05 s a move (docs/engine.md).
  static constexpr int kReverseFutilityDepth = 5;
  // Futility pruning of quiet moves up to here: depth 5 against 3 measured
  // +12.5 +/- 9.8 Elo at a fixed node count (docs/engine.md).
  static constexpr int kMoveFutilityDepth = 5;
  static constexpr int kExchangePruneDepth = 4;  // exchange pruning up to here
  static constexpr int kSingularDepth = 6;       // singular extension from here
  static constexpr int kProbCutDepth = 4;        // ProbCut from here
  static constexpr int kProbCutReduction = 4;    // ProbCut's search, this much shallower
  static constexpr int kProbCutMargin = 2;       // ProbCut's bound above beta, aspiration widths
  // Correction history: entries for each side, in heuristic units times the
  // grain, bounded by the limit (in heuristic units); the weight of a new
  // result grows with its depth, up to kCorrectionMaxWeight / 256.
  static constexpr int kCorrectionBits = 14;  // the key's high bits that index an entry
  static constexpr std::size_t kCorrectionSize = std::size_t{1} << kCorrectionBits;
  static constexpr int kCorrectionGrain = 256;
  static constexpr int kCorrectionLimit = 64;
  static constexpr int kCorrectionMaxWeight = 16;

  // Helpers' diversity (lazy SMP): helper i skips some iteration depths, so
  // that the threads spread over depths instead of all searching the same
  // tree in step; the pattern is the one older Stockfish versions used
  // (helper 1 searches the even depths, helpers 2-5 skip pairs of depths
  // at four phases, ...). The main thread and the last depth are never
  // skipped.
  [[nodiscard]] bool skips(int depth, int cap) const noexcept {
    if (m_index == 0 || depth >= cap) return false;
    static constexpr std::array<int, 20> kSkipSize = {1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
                                                      3, 3, 4, 4, 4, 4, 4, 4, 4, 4};
    static constexpr std::array<int, 20> kSkipPhase = {0, 1, 0, 1, 2, 3, 0, 1, 2, 3,
                                                       4, 5, 0, 1, 2, 3, 4, 5, 6, 7};
    const std::size_t i = (m_index - 1) % kSkipSize.size();
    return ((depth + kSkipPhase[i]) / kSkipSize[i]) % 2 != 0;
  }

  // Counts a node; true when a limit says stop.
  [[nodiscard]] bool count_node() noexcept {
    // One writer (this thread): a relaxed load and store, not a locked add.
    const std::uint64_t n = m_nodes.load(std::memory_order_relaxed);
    m_nodes.store(n + 1, std::memory_order_relaxed);
    return m_stop.should_stop(n);
  }

  // One iteration at the root: a full window, or where the game gives a
  // width, an aspiration window around the last value that widens (doubling)
  // on the side that fails.
  Value root_search(const S& root, int depth, Value last) {
    if constexpr (HasAspiration<S>) {
      if (m_options.aspiration && depth >= 5 && !is_proven(last)) {
        Value delta = S::kAspiration;
        Value lo = std::max(last - delta, -kInfinite);
        Value hi = std::min(last + delta, kInfinite);
        for (;;) {
          const Value v = negamax(root, depth, 0, lo, hi);
          if (m_stop.stopped()) return v;
          if (v <= lo && lo > -kInfinite) {
            lo = std::max(v - delta, -kInfinite);
          } else if (v >= hi && hi < kInfinite) {
            hi = std::min(v + delta, kInfinite);
          } else {
            return v;
          }
          delta *= 2;
          if (delta > kUnit / 4) lo = -kInfinite, hi = kInfinite;
        }
      }
    }
    return negamax(root, depth, 0, -kInfinite, kInfinite);
  }

  struct Killers {
    Move first{};
    Move second{};
    std::uint8_t count = 0;
  };

  Move fallback_move(const S& root) {
    typename S::Moves moves;
    root.actions(moves);
    std::size_t pick = 0;
    if (m_options.hash_mb > 0) {
      if (const auto e = m_tt.probe(root.key()); e && e->move != 0 && e->move <= moves.size()) {
        return moves[e->move - 1U];
      }
    }
    if constexpr (HasOrderHint<S>) {
      int best = root.order_hint(moves[0]);
      for (std::size_t i = 1; i < moves.size(); ++i) {
        if (const int h = root.order_hint(moves[i]); h > best) {
          best = h;
          pick = i;
        }
      }
    }
    return moves[pick];
  }

  // Whether `s`'s future depends on its position alone (HasHistory): only
  // then is an exact result of it one for every depth.
  [[nodiscard]] static bool history_free(const S& s) noexcept {
    if constexpr (HasHistory<S>) {
      return s.history_free();
    } else {
      (void)s;
      return true;
    }
  }

  // The heuristic for pruning decisions only: it marks nothing inexact by
  // itself (a pruning that trusts it does).
  [[nodiscard]] Value estimate(const S& s) {
    ++m_stats.evaluations;
    return for_player(clamp_estimate(static_cast<Value>(m_eval(s))), s.to_move());
  }

  // The heuristic at a leaf: an estimate, so the subtree is inexact.
  [[nodiscard]] Value evaluate(const S& s) {
    ++m_stats.leaves;
    ++m_inexact;
    return estimate(s);
  }

  // Correction history (EngineOptions::correction): the entry of `s`.
  [[nodiscard]] int& correction_entry(const S& s) requires HasCorrectionKey<S> {
    const std::size_t side = s.to_move() == Player::First ? 0 : kCorrectionSize;
    return m_correction[side +
                        static_cast<std::size_t>(s.correction_key() >> (64 - kCorrectionBits))];
  }

  // The estimate `raw` (the side to move's view) with the correction learned
  // for `s` added.
  [[nodiscard]] Value corrected(const S& s, Value raw) {
    if constexpr (HasCorrectionKey<S>) {
      if (m_options.correction) return clamp_estimate(raw + correction_entry(s) / kCorrectionGrain);
    }
    (void)s;
    return raw;
  }

  // Learns from a node's result `best` (found within alpha_orig, beta) how
  // far it was from the heuristic's `raw` estimate, where the result says
  // something about that: not a proven value, not a capture's or
  // promotion's gain, and not a bound on the wrong side of the estimate.
  void learn_correction(const S& s, const Move& best_move, Value best, Value alpha_orig, Value beta,
                        Value raw, Value estimate, int depth) {
    if constexpr (HasCorrectionKey<S> && HasTactics<S>) {
      if (!m_options.correction || is_proven(best)) return;
      if (best > alpha_orig && s.is_tactical(best_move)) return;
      if (best >= beta && best <= estimate) return;
      if (best <= alpha_orig && best >= estimate) return;
      constexpr int kBound = kCorrectionLimit * kCorrectionGrain;
      const int target = std::clamp((best - raw) * kCorrectionGrain, -kBound, kBound);
      const int weight = std::min(depth + 1, kCorrectionMaxWeight);
      int& entry = correction_entry(s);
      entry = (entry * (256 - weight) + target * weight) / 256;
    } else {
      (void)s, (void)best_move, (void)best, (void)alpha_orig, (void)beta, (void)raw, (void)estimate,
          (void)depth;
    }
  }

  // Ordering scores for the moves of `s`; higher is searched first.
  template <class Moves>
  void score_moves(const S& s, const Moves& moves, std::uint16_t tt_move, int ply,
                   std::vector<int>& scores) {
    scores.resize(moves.size());
    const Killers& k = m_killers[static_cast<std::size_t>(ply)];
    const Move* counter = counter_at(ply);                  // once per node, not per move
    int* follow = continuation_at(m_continuation, ply, 1);  // rows of this node's
    int* own = continuation_at(m_follow_up, ply, 2);        // continuation histories
    for (std::size_t i = 0; i < moves.size(); ++i) {
      int score = 0;
      if (m_options.ordering) {
        if constexpr (HasOrderHint<S>) score = s.order_hint(moves[i]) * 65536;
        if constexpr (HasExchange<S> && HasTactics<S>) {
          // A losing capture goes last, still ranked among them by its hint.
          if (m_options.order_see && score > 0 && s.is_tactical(moves[i]) &&
              !s.see_ge(moves[i], 0)) {
            score = score / 65536 - (1 << 20);
          }
        }
        if (k.count > 0 && moves[i] == k.first) score += 40000;
        if (k.count > 1 && moves[i] == k.second) score += 39000;
        if (counter != nullptr && moves[i] == *counter) score += 38000;
        if constexpr (HasHistoryIndex<S>) {
          const int h = m_history[S::history_index(moves[i])];
          score += m_options.history_gravity ? h : std::min(h, 30000);
          if constexpr (HasTactics<S>) {
            if (m_options.capture_history && s.is_tactical(moves[i])) {
              score += m_capture_history[S::history_index(moves[i])] * kCaptureHistoryWeight;
            }
          }
          if ((follow != nullptr || own != nullptr) && !tactical(s, moves[i])) {
            const std::size_t at = S::history_index(moves[i]);
            if (follow != nullptr) score += follow[at];
            if (own != nullptr) score += own[at];
          }
        }
      }
      if (tt_move == i + 1) score = 1 << 30;
      scores[i] = score;
    }
  }

  // The countermove to the move that led to `ply`, if one is known.
  const Move* counter_at(int ply) const {
    if constexpr (HasHistoryIndex<S>) {
      if (!m_options.countermove || ply == 0) return nullptr;
      const std::size_t prev = m_prev[static_cast<std::size_t>(ply)];
      if (prev == kNoMove || !m_counter[prev]) return nullptr;
      return &*m_counter[prev];
    }
    return nullptr;
  }

  // The row of a continuation history (`table`, empty when off) for the
  // move made `back` plies before `ply` (1: the opponent's last move; 2:
  // the side to move's own), indexed by the reply's history index; null
  // when off or unknown.
  int* continuation_at(std::vector<int>& table, int ply, int back) {
    if constexpr (HasHistoryIndex<S>) {
      if (table.empty() || ply < back) return nullptr;
      const std::size_t prev = m_prev[static_cast<std::size_t>(ply - back + 1)];
      if (prev == kNoMove) return nullptr;
      return &table[prev * S::kHistorySize];
    }
    (void)table, (void)ply, (void)back;
    return nullptr;
  }
  // A capture or promotion (HasTactics); no move is where the game cannot tell.
  [[nodiscard]] static bool tactical(const S& s, const Move& m) {
    if constexpr (HasTactics<S>) {
      return s.is_tactical(m);
    } else {
      (void)s, (void)m;
      return false;
    }
  }

  // The plies after which `m` loses by force (HasForcedLoss); 0 when it
  // does not or the game cannot tell.
  [[nodiscard]] static int forced_loss(const S& s, const Move& m) {
    if constexpr (HasForcedLoss<S>) {
      return s.loss_plies(m);
    } else {
      (void)s, (void)m;
      return 0;
    }
  }

  // Whether `m` is a threat the selective search treats as tactical
  // (EngineOptions::threats, HasThreats).
  [[nodiscard]] bool threatens(const S& s, const Move& m) const {
    if constexpr (HasThreats<S>) {
      return m_options.threats && s.is_threat(m);
    } else {
      (void)s, (void)m;
      return false;
    }
  }

  // Whether `m` saves an attacked piece, which late move reductions reduce
  // a ply less (EngineOptions::escapes, HasEscapes).
  [[nodiscard]] bool escapes(const S& s, const Move& m) const {
    if constexpr (HasEscapes<S>) {
      return m_options.escapes && s.is_escape(m);
    } else {
      (void)s, (void)m;
      return false;
    }
  }

  // Whether the killers and the history learn from `m`: every move, or with
  // history gravity only quiet ones (captures are ordered by their hint).
  [[nodiscard]] bool learns_from(const S& s, const Move& m) const {
    if constexpr (HasTactics<S>) {
      if (m_options.history_gravity) return !s.is_tactical(m);
    }
    return true;
  }

  // History gravity: `bonus` (negative for a malus) moves the entry toward
  // +-kHistoryMax by a share that shrinks as it gets there.
  static void nudge_history(int& h, int bonus) { h += bonus - h * std::abs(bonus) / kHistoryMax; }
  // The gravity bonus of a cut-off at `depth` (and the malus of the moves before it).
  static int gravity_bonus(int depth) { return std::min(16 * depth * depth, 1200); }

  // A beta cut-off at `ply` by the move order[n]; order[0..n) were tried first.
  void learn_cutoff(const S& s, const typename S::Moves& moves,
                    const std::vector<std::uint16_t>& order, std::size_t n, int depth, int ply) {
    const Move& m = moves[order[n]];
    learn_captures(s, moves, order, n, depth);
    learn_continuation(s, moves, order, n, depth, ply);
    if (!m_options.history_gravity) {
      record_cutoff(m, depth, ply);
      return;
    }
    if (!learns_from(s, m)) return;
    record_cutoff(m, depth, ply);
    if constexpr (HasHistoryIndex<S>) {
      const int bonus = gravity_bonus(depth);
      for (std::size_t j = 0; j < n; ++j) {
        const Move& tried = moves[order[j]];
        if (learns_from(s, tried)) nudge_history(m_history[S::history_index(tried)], -bonus);
      }
    }
  }

  // Capture history (EngineOptions::capture_history): a bonus to the capture
  // or promotion that cut off, the same malus to those tried before the move
  // that did, with gravity (nudge_history).
  void learn_captures(const S& s, const typename S::Moves& moves,
                      const std::vector<std::uint16_t>& order, std::size_t n, int depth) {
    if constexpr (HasTactics<S> && HasHistoryIndex<S>) {
      if (!m_options.capture_history) return;
      reward_tried(m_capture_history.data(), moves, order, n, depth,
                   [&](const Move& m) { return s.is_tactical(m); });
    } else {
      (void)s, (void)moves, (void)order, (void)n, (void)depth;
    }
  }

  // Continuation history (EngineOptions::continuation_history): after the
  // move that led here, a bonus to the quiet move that cut off and the same
  // malus to the quiet moves tried before it, with gravity.
  void learn_continuation(const S& s, const typename S::Moves& moves,
                          const std::vector<std::uint16_t>& order, std::size_t n, int depth,
                          int ply) {
    if constexpr (HasHistoryIndex<S>) {
      if ((m_continuation.empty() && m_follow_up.empty()) || tactical(s, moves[order[n]])) return;
      for (int* row :
           {continuation_at(m_continuation, ply, 1), continuation_at(m_follow_up, ply, 2)}) {
        if (row != nullptr) {
          reward_tried(row, moves, order, n, depth, [&](const Move& m) { return !tactical(s, m); });
        }
      }
    } else {
      (void)s, (void)moves, (void)order, (void)n, (void)depth, (void)ply;
    }
  }

  // A history with gravity (`row`, by history index) learns from a cut-off
  // by order[n]: a bonus to it and a malus to the moves tried before it,
  // counting only the moves `kept` takes (captures, or quiet moves).
  template <class Kept>
  static void reward_tried(int* row, const typename S::Moves& moves,
                           const std::vector<std::uint16_t>& order, std::size_t n, int depth,
                           Kept kept) {
    const int bonus = gravity_bonus(depth);
    for (std::size_t j = 0; j <= n; ++j) {
      const Move& tried = moves[order[j]];
      if (kept(tried)) nudge_history(row[S::history_index(tried)], j == n ? bonus : -bonus);
    }
  }

  void record_cutoff(const Move& m, int depth, int ply) {
    if constexpr (HasHistoryIndex<S>) {
      if (m_options.countermove && ply > 0) {
        const std::size_t prev = m_prev[static_cast<std::size_t>(ply)];
        if (prev != kNoMove) m_counter[prev] = m;
      }
    }
    Killers& k = m_killers[static_cast<std::size_t>(ply)];
    if (!(k.count > 0 && k.first == m)) {
      k.second = k.first;
      k.first = m;
      k.count = static_cast<std::uint8_t>(std::min(2, k.count + 1));
    }
    if constexpr (HasHistoryIndex<S>) {
      if (m_options.history_gravity) {
        nudge_history(m_history[S::history_index(m)], gravity_bonus(depth));
        return;
      }
      // Bounded bonus, and halve the table before any entry can overflow.
      const int d = std::min(depth, 16);
      int& h = m_history[S::history_index(m)];
      h += d * d;
      if (h > (1 << 20)) {
        for (auto& x : m_history) x /= 2;
      }
    }
  }

  // Selection sort, one step at a time: brings the best-scored move of
  // order[n..] to position n (scores are indexed by move). Most nodes cut
  // off after a move or two, so sorting the whole list would be wasted.
  static void pick_next(std::vector<std::uint16_t>& order, const std::vector<int>& scores,
                        std::size_t n) {
    std::size_t pick = n;
    for (std::size_t j = n + 1; j < order.size(); ++j) {
      if (scores[order[j]] > scores[order[pick]]) pick = j;
    }
    std::swap(order[n], order[pick]);
  }

  // EngineOptions::frontier_order: scores each move by the estimate of the
  // position it leads to (the mover's view), in place of score_moves; false,
  // `scores` untouched, where the game has no selective search to order for
  // (HasTactics).
  template <class Moves>
  bool frontier_scores(const S& s, const Moves& moves, std::vector<int>& scores) {
    if constexpr (HasTactics<S>) {
      scores.resize(moves.size());
      for (std::size_t i = 0; i < moves.size(); ++i) {
        // Estimates lie inside +-kUnit, so a score fits in +-(1 << 27).
        int score = -estimate(s.result(moves[i])) * 1024;
        if constexpr (HasExchange<S>) {
          const bool capture = s.is_tactical(moves[i]);
          if (((capture && m_options.order_see) || (!capture && m_options.order_see_quiet)) &&
              !s.see_ge(moves[i], 0)) {
            score -= 1 << 28;
          }
        }
        scores[i] = score;
      }
      return true;
    } else {
      (void)s, (void)moves, (void)scores;
      return false;
    }
  }

  // `oseq` (HasExchange): the move just picked for order[n] is kept unless
  // it is a quiet move that loses its piece by static exchange; such a move
  // goes below every other quiet move, killers too (above the losing
  // captures), and the next best is picked in its place. Asked when a quiet
  // move comes up, not when the list is scored: most nodes cut off before
  // their quiet moves. The order is the one scoring them all up front gives,
  // up to ties between equal scores (pick_next's swaps differ).
  template <class Moves>
  static void demote_losing_quiet(const S& s, const Moves& moves, std::vector<std::uint16_t>& order,
                                  std::vector<int>& scores, std::size_t n) {
    if constexpr (HasExchange<S> && HasTactics<S>) {
      // Quiet moves score within +-(1 << 18) (killers, countermove and the
      // histories add up to under 150,000), a demoted one below -(1 << 18);
      // the table's move scores 1 << 30 and is never demoted.
      for (;;) {
        const std::size_t i = order[n];
        if (scores[i] < -(1 << 18) || scores[i] >= (1 << 30) || s.is_tactical(moves[i]) ||
            s.see_ge(moves[i], 0)) {
          return;
        }
        scores[i] -= 1 << 19;
        pick_next(order, scores, n);
      }
    } else {
      (void)s, (void)moves, (void)order, (void)scores, (void)n;
    }
  }

  // The table's answer for a node searched `depth` plies deep (0 in
  // quiescence, which any entry satisfies) within (alpha, beta), if a stored
  // bound decides it. The stored move goes to `tt_move` either way, for
  // ordering. With `may_answer` false only the move is taken; `free` is
  // history_free() of the node.
  std::optional<Value> probe_table(std::uint64_t key, int depth, int ply, bool may_answer,
                                   bool free, Value alpha, Value beta, std::uint16_t& tt_move,
                                   std::optional<TTEntry>* entry = nullptr) {
    ++m_stats.tt_probes;
    const std::optional<TTEntry> e = m_tt.probe(key);
    if (entry != nullptr) *entry = e;
    if (!e) return std::nullopt;
    ++m_stats.tt_hits;
    tt_move = e->move;
    if (!may_answer || (e->depth != kDepthAny && e->depth < depth)) return std::nullopt;
    const Value v = from_tt(e->value, ply);
    const Bound b = e->bound();
    if (b == Bound::Exact || (b == Bound::Lower && v >= beta) ||
        (b == Bound::Upper && v <= alpha)) {
      // An exact result holds for any depth, but only where the position's
      // future depends on the position alone (history_free below).
      if (e->depth != kDepthAny || !free) ++m_inexact;
      ++m_stats.leaves;
      return v;
    }
    return std::nullopt;
  }

  // Pruning's estimate refined by the node's table entry: a stored bound on
  // the estimate's far side (a lower bound above it, an upper bound below
  // it) or an exact value is what a search found here, so it replaces the
  // heuristic's guess. Proven values stay out: a mate score would make the
  // margins meaningless, and the table answers those nodes itself.
  static Value table_estimate(Value estimate, const std::optional<TTEntry>& entry, int ply) {
    if (!entry || entry->depth == 0) return estimate;
    const Value v = from_tt(entry->value, ply);
    if (is_proven(v)) return estimate;
    const Bound b = entry->bound();
    const bool tighter = b == Bound::Exact || (b == Bound::Lower && v > estimate) ||
                         (b == Bound::Upper && v < estimate);
    return tighter ? v : estimate;
  }

  // Stores `best`, found within (alpha_orig, beta), as the bound it is.
  void store_table(std::uint64_t key, Value best, Value alpha_orig, Value beta, int ply, int depth,
                   std::uint16_t move) {
    const Bound bound =
        best >= beta ? Bound::Lower : (best > alpha_orig ? Bound::Exact : Bound::Upper);
    m_tt.store(key, to_tt(best, ply), bound, depth, move);
  }

  // A child's value for `mover` within (alpha, beta): negated when the turn
  // passes, as is; when the same player moves again (the concept allows it).
  // `depth` is the child's own depth (its parent's less one, extended or reduced).
  Value child_value(const S& child, Player mover, int depth, int ply, Value alpha, Value beta) {
    if (child.to_move() == mover) return negamax(child, depth, ply + 1, alpha, beta);
    return -negamax(child, depth, ply + 1, -beta, -alpha);
  }

  // Both searches' first step: count the node and poll the limits (0 when
  // they say stop), answer a finished game, and judge a node at the ply cap
  // by the heuristic. Empty when the node is to be searched.
  std::optional<Value> enter_node(const S& s, int ply) {
    m_stats.visit(ply);
    m_pv.clear(ply);
    if (count_node()) return Value{0};
    if (s.is_terminal()) {
      ++m_stats.leaves;
      return terminal(s, ply);
    }
    if constexpr (HasDeadDraw<S>) {
      // Not at the root, which must name a move: its children answer.
      if (m_options.dead_draws && ply > 0 && s.dead_draw()) {
        ++m_stats.leaves;
        return draw_value(s);
      }
    }
    if (ply >= kMaxPly - 1) return evaluate(s);
    return std::nullopt;
  }

  // Capture quiescence (HasTactics): the heuristic is a floor the mover can
  // keep by standing pat; only captures and promotions may raise it. In
  // check there is no standing pat and every move is searched, for the
  // first kQuiesceCheckPlies plies below the horizon only: after those a
  // position in check is judged as it stands. Checks answered by checks
  // could otherwise run to kMaxPly, and did under king capture, where every
  // pseudo-legal move is an answer (a COMP 472 search at depth 7 with null
  // move and LMR ran for minutes). Chess alternates moves, so children are
  // always negated.
  Value quiesce(const S& s, int ply, Value alpha, Value beta, int qply = 0) {
    if (const auto v = enter_node(s, ply)) return *v;
    const bool use_table = m_options.quiesce_table && m_options.hash_mb > 0;
    const Value alpha_orig = alpha;
    std::uint16_t tt_move = 0;
    if (use_table) {
      // Any stored result answers here: quiescence is the shallowest search.
      if (const auto v =
              probe_table(s.key(), 0, ply, true, history_free(s), alpha, beta, tt_move)) {
        return *v;
      }
    }
    const bool stand = qply >= kQuiesceCheckPlies || s.may_stand_pat();
    Value best = -kInfinite;
    if (stand) {
      best = evaluate(s);
      if (m_options.correction_leaves) best = corrected(s, best);
      if (best >= beta) return best;
      if (best > alpha) alpha = best;
    }
    // Quiet moves that may give check (known once made): searched last.
    const bool checks = stand && m_options.quiesce_checks && qply == 0;
    typename S::Moves moves;
    // Standing pat, only the tactical moves are searched: the game may list
    // them alone, unless a stored move's index (into actions()) is wanted.
    bool listed = false;
    if constexpr (HasTacticalActions<S>) {
      if (stand && !checks && !use_table) {
        s.tactical_actions(moves);
        listed = true;
      }
    }
    if (!listed) s.actions(moves);
    ++m_stats.interior;
    std::vector<int>& scores = m_scores[static_cast<std::size_t>(ply)];
    std::vector<std::uint16_t>& order = m_order[static_cast<std::size_t>(ply)];
    scores.assign(moves.size(), 0);
    order.clear();
    for (std::size_t i = 0; i < moves.size(); ++i) {
      const bool quiet = stand && !s.is_tactical(moves[i]);
      if (quiet && !checks) continue;
      if constexpr (HasExchange<S>) {
        if (stand && m_options.quiesce_see && !s.see_ge(moves[i], 0)) continue;
      }
      if constexpr (HasOrderHint<S>) scores[i] = s.order_hint(moves[i]);
      if (quiet) scores[i] = -(1 << 20);
      if (tt_move == i + 1) scores[i] = 1 << 30;
      order.push_back(static_cast<std::uint16_t>(i));
    }
    std::uint16_t best_move = 0;
    for (std::size_t n = 0; n < order.size(); ++n) {
      pick_next(order, scores, n);
      const auto& m = moves[order[n]];
      // Not searched, as in negamax: a loss that near.
      if (const int plies = forced_loss(s, m); plies > 0) {
        best = std::max(best, loss_in(ply + plies));
        continue;
      }
      const S child = s.result(m);
      // A quiet move is here only to give check.
      if (checks && !s.is_tactical(m) && child.may_stand_pat()) continue;
      if constexpr (HasPrefetch<H, S>) m_eval.prefetch(child);
      const Value v = -quiesce(child, ply + 1, -beta, -alpha, qply + 1);
      if (m_stop.stopped()) return 0;
      if (v > best) {
        best = v;
        if (v > alpha) {
          alpha = v;
          best_move = static_cast<std::uint16_t>(order[n] + 1U);
          m_pv.update(ply, m);
          if (v >= beta) break;
        }
      }
    }
    if (use_table && best > -kInfinite)
      store_table(s.key(), best, alpha_orig, beta, ply, 0, best_move);
    return best;
  }

  // A draw's value for the side to move in `s`: contempt's, signed.
  Value draw_value(const S& s) {
    if (m_options.contempt == 0) return kDraw;
    ++m_inexact;
    return s.to_move() == m_root_side ? m_options.contempt : -m_options.contempt;
  }
  // A finished game's value for the side to move (draws through contempt).
  Value terminal(const S& s, int ply) {
    const auto u = s.utility();
    if (u == 0) return draw_value(s);
    return for_player(terminal_value(u, ply), s.to_move());
  }

  // Singular extension (`EngineOptions::singular`, HasTactics): at depth
  // kSingularDepth or more, when the table holds a lower bound or an exact
  // value for its move from a search at most 3 plies shallower, the node is
  // searched again to half the depth without that move, against a bound a
  // little below the stored value (S::kAspiration / 25 per ply: a 50th of a
  // pawn in the chess family). When every other move falls short of it, the
  // table's move is the only good one, and it is searched a ply deeper.
  bool singular_move(const S& s, int depth, int ply, Value beta, std::uint16_t tt_move,
                     const std::optional<TTEntry>& entry) {
    if constexpr (HasTactics<S> && HasAspiration<S>) {
      // tt_move is 0 inside a singular search, so none nests at the same ply.
      if (!m_options.singular || depth < kSingularDepth || ply == 0 || tt_move == 0 || !entry ||
          entry->depth == kDepthAny || entry->depth + 3 < depth || entry->bound() == Bound::Upper) {
        return false;
      }
      const Value stored = from_tt(entry->value, ply);
      if (is_proven(stored) || is_proven(beta)) return false;
      const Value bound = stored - depth * S::kAspiration / 25;
      m_excluded[static_cast<std::size_t>(ply)] = tt_move;
      const Value v = negamax(s, (depth - 1) / 2, ply, bound - 1, bound);
      m_excluded[static_cast<std::size_t>(ply)] = 0;
      if (v >= bound) return false;
      ++m_inexact;  // the extension rests on a heuristic search
      return true;
    } else {
      (void)s, (void)depth, (void)ply, (void)beta, (void)tt_move, (void)entry;
      return false;
    }
  }

  // ProbCut (EngineOptions::probcut; HasTactics, HasExchange, HasAspiration):
  // at a node where selective pruning may cut (`prunable`), kProbCutDepth
  // deep or more, each capture or promotion whose static exchange gains at
  // least the bound's distance above the heuristic is tried against a
  // bound kProbCutMargin aspiration widths (a pawn in the chess family)
  // above beta: first by quiescence, then, if it holds, by a search
  // kProbCutReduction plies shallower. The first that clears it answers the
  // node as a lower bound, stored at the depth it speaks for. Not tried when
  // the table already holds a result at least that deep below the bound.
  // Empty when the node is to be searched as usual.
  std::optional<Value> probcut(const S& s, int depth, int ply, Value beta, bool prunable,
                               Value static_eval, const std::optional<TTEntry>& entry) {
    if constexpr (HasTactics<S> && HasExchange<S> && HasAspiration<S>) {
      if (!m_options.probcut || !prunable || depth < kProbCutDepth) return std::nullopt;
      const Value bound = beta + kProbCutMargin * S::kAspiration;
      if (is_proven(bound)) return std::nullopt;
      if (entry && entry->depth != kDepthAny && entry->depth >= depth - kProbCutReduction + 1 &&
          entry->bound() != Bound::Lower && from_tt(entry->value, ply) < bound) {
        return std::nullopt;
      }
      const Value eval = static_eval != -kInfinite ? static_eval : estimate(s);
      // The game may list the captures and promotions alone; the table's
      // move is an index into actions(), found once a capture cuts.
      typename S::Moves moves;
      if constexpr (HasTacticalActions<S>) {
        s.tactical_actions(moves);
      } else {
        s.actions(moves);
      }
      for (const auto& m : moves) {
        // The distance goes to see_ge() as it is, in the heuristic's units,
        // while the exchange counts 100 a pawn (HasExchange): in the chess
        // family (50 a pawn) the gate asks half the distance in pawns.
        // Converted to the full distance it measured no gain (docs/engine.md,
        // "ProbCut"). A promotion that captures nothing passes only when the
        // heuristic is already at the bound.
        if (!s.is_tactical(m) || forced_loss(s, m) > 0 || !s.see_ge(m, bound - eval)) continue;
        const S child = s.result(m);
        if constexpr (HasHistoryIndex<S>) {
          m_prev[static_cast<std::size_t>(ply) + 1] = S::history_index(m);
        }
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
      (void)s, (void)depth, (void)ply, (void)beta, (void)prunable, (void)static_eval, (void)entry;
      return std::nullopt;
    }
  }

  // Negamax from the side to move's view.
  Value negamax(const S& s, int depth, int ply, Value alpha, Value beta) {
    if constexpr (HasTactics<S>) {
      if (depth <= 0 && m_options.quiescence) return quiesce(s, ply, alpha, beta);
    }
    // Step 1. Count the node, poll the limits, answer terminals and the horizon.
    if (const auto v = enter_node(s, ply)) return *v;
    // A position that occurred before (in the game or this line) may be one
    // repetition away from the rule's draw: its stored value, found along
    // another path, does not know that (below).
    [[maybe_unused]] bool repeated = false;
    if constexpr (HasRepetition<S>) {
      repeated = ply > 0 && s.repetitions() > 0;
      // With `repetition_draw`, a repetition is scored a draw where the
      // earlier occurrence lies inside this search's line (strictly after
      // the root); where the game knows how far back it was
      // (HasRepetitionDistance), a position played before the search
      // began, met again, is searched on: the rule's draw needs a third
      // occurrence. Not a proof: the side that repeated may still be able
      // to avoid the rule's draw, so the subtree is inexact.
      bool in_line = repeated;
      if constexpr (HasRepetitionDistance<S>) {
        in_line = repeated && s.repetition_distance() < ply;
      }
      if (m_options.repetition_draw.value_or(HasRepetitionDistance<S>) && in_line) {
        ++m_stats.leaves;
        ++m_inexact;
        return draw_value(s);
      }
    }
    if constexpr (WinLossDraw<S>) {
      // Mate-distance pruning: no line from here can win faster than the
      // next ply or lose later than this one, so a window outside that
      // range is already decided (a proven bound, so it stays exact).
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
      if constexpr (HasQuietness<S>) quiet = !m_options.quiescence || s.is_quiet();
      if (quiet) return evaluate(s);
      depth = 0;
    }

    // Step 2. Transposition table: a stored bound may answer the node.
    const Value alpha_orig = alpha;
    const std::uint64_t key = s.key();
    const bool free = history_free(s);  // the probe and the store both ask
    std::uint16_t tt_move = 0;
    // A singular search (below) searches this node again without one move:
    // the table's answer and move are for the whole node, so neither is used.
    const std::uint16_t excluded = m_excluded[static_cast<std::size_t>(ply)];
    std::optional<TTEntry> tt_entry;
    if (m_options.hash_mb > 0) {
      // The root only takes the stored move: it must name a move of its own.
      // Nor does a repeated position take a stored value: the entry was
      // written along a path where the next repetition was not the rule's
      // draw, so it would hide that draw. An engine four pawns ahead by its
      // own count shuffled into threefold repetition that way, trusting what
      // an earlier search had stored for the position it was repeating
      // (MinichessSearch.ARepeatedPositionTakesNoStoredValue). Searched, its
      // children that end the game by repetition say so.
      if (const auto v = probe_table(key, depth, ply, ply > 0 && excluded == 0 && !repeated, free,
                                     alpha, beta, tt_move, &tt_entry)) {
        return *v;
      }
      if (excluded != 0) tt_move = 0;
    }
    if (m_options.iir && depth >= 4 && tt_move == 0 && ply > 0) {
      --depth;
      ++m_inexact;
    }

    // Step 3. Selective search (the chess family): prune a node whose
    // heuristic is far above beta near the horizon, or that stays above
    // beta even after passing. Neither is a proof, so both mark the subtree
    // inexact. Never in check, never on the principal variation.
    [[maybe_unused]] bool in_check = false;
    [[maybe_unused]] const bool pv_node = beta - alpha > 1;
    [[maybe_unused]] bool prunable = false;  // selective pruning may cut here
    [[maybe_unused]] bool move_futility = false;
    [[maybe_unused]] Value futility_margin = kInfinite;  // a ply's worth of heuristic
    [[maybe_unused]] Value static_eval = -kInfinite;     // the heuristic, when pruning asked
    [[maybe_unused]] Value raw_eval = -kInfinite;        // the same before correction history
    [[maybe_unused]] Value corrected_eval = -kInfinite;  // and before the table's value
    if constexpr (HasTactics<S>) {
      in_check = !s.may_stand_pat();
      prunable = !pv_node && !in_check && ply > 0 && !is_proven(beta) && excluded == 0;
      if (prunable) {
        bool try_futility = false;
        if constexpr (HasFutilityMargin<S>) {
          try_futility = m_options.futility && depth <= kReverseFutilityDepth;
          move_futility = m_options.move_futility && depth <= kMoveFutilityDepth;
          futility_margin = S::kFutilityMargin;
        }
        bool try_null = false;
        if constexpr (HasNullMove<S>) {
          try_null =
              m_options.null_move && depth >= 3 && !m_null[static_cast<std::size_t>(ply - 1)];
        }
        bool learn = false;  // correction history learns from this node
        if constexpr (HasCorrectionKey<S>) learn = m_options.correction;
        if (try_futility || try_null || move_futility || learn) {
          raw_eval = estimate(s);
          static_eval = corrected(s, raw_eval);
          corrected_eval = static_eval;
          if (m_options.table_estimate) static_eval = table_estimate(static_eval, tt_entry, ply);
          if (try_futility && static_eval - futility_margin * depth >= beta) {
            ++m_inexact;
            ++m_stats.leaves;
            return static_eval;
          }
          if constexpr (HasNullMove<S>) {
            if (try_null && static_eval >= beta && s.may_null_move()) {
              const int reduced = depth - 1 - (3 + depth / 4);
              m_null[static_cast<std::size_t>(ply)] = true;
              m_prev[static_cast<std::size_t>(ply) + 1] = kNoMove;
              const Value v = -negamax(s.null_move(), reduced, ply + 1, -beta, -beta + 1);
              m_null[static_cast<std::size_t>(ply)] = false;
              if (m_stop.stopped()) return 0;
              if (v >= beta) {
                ++m_inexact;
                return is_proven(v) ? beta : v;
              }
            }
          }
        }
      }
    }

    // Step 3a. ProbCut: a capture that wins enough by static exchange, and
    // still clears a bound a pawn above beta after quiescence and then a
    // search four plies shallower, is taken as proof enough that the node
    // fails high.
    if (const auto v = probcut(s, depth, ply, beta, prunable, static_eval, tt_entry)) return *v;
    if (m_stop.stopped()) return 0;

    // Step 3b. Singular extension: is the table's move the only good one?
    const bool singular = singular_move(s, depth, ply, beta, tt_move, tt_entry);
    if (m_stop.stopped()) return 0;

    // Step 4. Generate and order the moves.
    typename S::Moves moves;
    s.actions(moves);
    ++m_stats.interior;
    std::vector<int>& scores = m_scores[static_cast<std::size_t>(ply)];
    // At the frontier (fso) the estimates replace every other score, so the
    // usual scoring is not run there.
    const bool frontier = m_options.frontier_order && m_options.ordering && depth == 1 &&
                          tt_move == 0 && frontier_scores(s, moves, scores);
    if (!frontier) score_moves(s, moves, tt_move, ply, scores);
    std::vector<std::uint16_t>& order = m_order[static_cast<std::size_t>(ply)];
    order.resize(moves.size());
    for (std::size_t i = 0; i < moves.size(); ++i) order[i] = static_cast<std::uint16_t>(i);

    // Step 5. Principal-variation search over the moves, best-scored first:
    // the first with the full window, the rest with a null window (late
    // quiet ones reduced first), searched again only when they beat alpha.
    const std::uint64_t inexact_before = m_inexact;
    const Killers& killers = m_killers[static_cast<std::size_t>(ply)];
    Value best = -kInfinite;
    std::size_t best_index = 0;
    std::size_t lost = 0;  // moves that lose by force, passed over (HasForcedLoss)
    for (std::size_t n = 0; n < order.size(); ++n) {
      pick_next(order, scores, n);
      if (m_options.order_see_quiet && m_options.ordering && !frontier)
        demote_losing_quiet(s, moves, order, scores, n);
      const std::size_t i = order[n];
      if (excluded == i + 1) continue;
      // The move's place among those the search took up.
      const std::size_t k = n - lost;
      Value v;
      const int plies = forced_loss(s, moves[i]);
      if (plies > 0 && (plies <= depth || m_options.quiescence)) {
        // Known without a search (HasForcedLoss): a loss that near is below
        // every other value but a faster loss, so it is the node's value
        // only when nothing better is found. Taken where the search would
        // have seen the loss itself (within the depth, or by quiescence:
        // the opponent's winning move is a capture), so a fixed-depth value
        // without quiescence stays minimax's.
        ++lost;
        v = loss_in(ply + plies);
        m_pv.clear(ply + 1);  // no line below it for m_pv.update to copy
      } else {
        const S child = s.result(moves[i]);
        // The child probes the table first thing, unless it is a horizon node.
        if (m_options.hash_mb > 0 && depth > 1) m_tt.prefetch(child.key());
        if constexpr (HasPrefetch<H, S>) m_eval.prefetch(child);
        if constexpr (HasHistoryIndex<S>) {
          m_prev[static_cast<std::size_t>(ply) + 1] = S::history_index(moves[i]);
        }
        int next = depth - 1;
        int reduction = 0;
        if constexpr (HasTactics<S>) {
          const bool gives_check = !child.may_stand_pat();
          // A threat (HasThreats) is searched like a capture: not pruned, not reduced.
          const bool quiet = !s.is_tactical(moves[i]) && !threatens(s, moves[i]);
          // Late move pruning: near the horizon, away from the principal
          // variation, quiet moves past the first 3 + depth^2 are not searched.
          if (m_options.late_pruning && !pv_node && !in_check && depth <= 3 &&
              k >= static_cast<std::size_t>(3 + depth * depth) && !gives_check && quiet &&
              !is_proven(best)) {
            ++m_inexact;
            continue;
          }
          // Futility and exchange pruning: near the horizon, away from the
          // principal variation, once a move has been searched.
          if (prunable && k > 0 && !gives_check && !is_proven(best)) {
            if (move_futility && quiet &&
                static_eval + futility_margin * (1 + 2 * depth) <= alpha) {
              ++m_inexact;
              continue;
            }
            if constexpr (HasExchange<S>) {
              if (m_options.exchange_pruning && depth <= kExchangePruneDepth &&
                  !s.see_ge(moves[i], quiet ? -25 * depth * depth : -100 * depth)) {
                ++m_inexact;
                continue;
              }
            }
          }
          if ((gives_check && m_options.extensions) || (singular && tt_move == i + 1)) {
            if (ply < 2 * m_root_depth) ++next;
          }
          if (m_options.reductions && depth >= 3 && k >= 3 && !in_check && !gives_check && quiet &&
              !(killers.count > 0 && (moves[i] == killers.first || moves[i] == killers.second))) {
            reduction =
                m_lmr[std::min(depth, kLmrSize - 1)][std::min<std::size_t>(k, kLmrSize - 1)];
            if (beta - alpha > 1) --reduction;
            if (escapes(s, moves[i])) --reduction;
            reduction = std::clamp(reduction, 0, next - 1);
          }
        }
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
          if (ply == 0) m_root_best = moves[i];
          if (v >= beta) {
            m_stats.cutoff(depth, k == 0, tt_move != 0);
            if (m_options.ordering) learn_cutoff(s, moves, order, n, depth, ply);
            break;
          }
        }
      }
    }

    // Step 6. Store the result; exact subtrees are valid at any depth.
    if (raw_eval != -kInfinite && excluded == 0) {
      learn_correction(s, moves[best_index], best, alpha_orig, beta, raw_eval, corrected_eval,
                       depth);
    }
    if (m_options.hash_mb > 0 && excluded == 0) {
      // Inexact results keep their depth, capped below the "any depth" mark;
      // so do exact ones where the game's history may change the future
      // (HasHistory): right for this line, but another path to the same
      // position may repeat other positions or run the clock out elsewhere.
      const bool any_depth = m_inexact == inexact_before && free;
      const int stored_depth = any_depth ? kDepthAny : std::min(depth, kDepthAny - 1);
      store_table(key, best, alpha_orig, beta, ply, stored_depth,
                  static_cast<std::uint16_t>(best_index + 1));
    }
    return best;
  }

  H m_eval;  // this thread's own copy (a heuristic may keep state, as n1 does)
  EngineOptions m_options;
  TranspositionTable& m_tt;  // shared by every thread of the engine
  std::size_t m_index = 0;   // 0 = the main thread
  std::vector<Killers> m_killers;
  std::vector<int> m_history;
  std::vector<int> m_capture_history;  // by history index, EngineOptions::capture_history
  // by the previous move's history index, then the reply's (continuation_history)
  std::vector<int> m_continuation;
  // by the side to move's own previous move, then its reply (follow_up_history)
  std::vector<int> m_follow_up;
  std::vector<int> m_correction;  // by side, then the game's key (EngineOptions::correction)
  static constexpr std::size_t kNoMove = ~std::size_t{0};
  std::vector<std::optional<Move>> m_counter;     // by the history index of the move refuted
  std::array<std::size_t, kMaxPly + 1> m_prev{};  // history index of the move into ply p
  std::vector<std::vector<int>> m_scores;         // per-ply scratch, sized once, reused
  std::vector<std::vector<std::uint16_t>> m_order;
  PvTable<Move> m_pv;
  StopControl m_stop{Limits{}};
  SearchStats m_stats;
  std::array<std::array<std::int8_t, kLmrSize>, kLmrSize> m_lmr{};
  std::array<std::uint16_t, kMaxPly + 1> m_excluded{};  // 1 + the move a singular search skips
  std::array<bool, kMaxPly + 1> m_null{};               // the move into ply p+1 was a null move
  std::optional<Move> m_root_best;                      // this iteration's best finished root move
  int m_root_depth = 1;
  Player m_root_side = Player::First;
  std::atomic<std::uint64_t> m_nodes{0};  // written by this thread only
  std::uint64_t m_inexact = 0;  // heuristic answers so far; unchanged over a subtree = exact
};

}  // namespace duel::search
