#pragma once
// Seed 000's reference opponents for the 5x5 chess rule sets (RULES.md §1,
// "Seed 000's reference opponents"): `greedy` and `smart`. (`first` and
// `random` are the game-independent baselines.)
//
// Why here: they read chess facts (check, capture values) that only the
// minichess state has, so they are templates over its rule sets, chosen by the
// registry only for those games.
#include <vector>

#include "duel/agents/agent.hpp"
#include "duel/core/clock.hpp"
#include "duel/core/rng.hpp"
#include "duel/games/minichess/minichess.hpp"

namespace duel::agents {

// A chess state: a minichess::State of some rule set.
template <class S>
concept ChessState = requires {
  typename S::RuleSet;
}
&&std::same_as<S, games::minichess::State<typename S::RuleSet>>;

// What one move does, seen one ply ahead.
struct MoveFacts {
  bool safe = false;   // the mover's king is not attacked afterwards
  bool wins = false;   // the game ends at once in the mover's favour (mate, king capture)
  bool check = false;  // the opponent's king is attacked afterwards
  int captured = 0;    // value of the captured piece (P 1, N 3, B 3, R 5, Q 9), 0 if none
  bool capture = false;
};

// The facts of `m` when the caller already has the state after it.
template <ChessState S>
MoveFacts facts(const S& s, const typename S::Move& m, const S& next) {
  using games::minichess::Piece;
  MoveFacts f;
  const auto& pos = s.position();
  f.safe = pos.is_safe(m);
  const Piece victim = pos.piece_on(m.to());
  f.capture = victim != Piece::None;
  if (f.capture) {
    f.captured = games::minichess::kE0Values[static_cast<std::size_t>(victim)];
  }
  f.check = next.position().king_attacked(next.to_move());
  if (next.is_terminal()) {
    const Value u = next.utility();
    f.wins = s.to_move() == Player::First ? u > 0 : u < 0;
  }
  return f;
}

template <ChessState S>
MoveFacts facts(const S& s, const typename S::Move& m) {
  return facts(s, m, s.result(m));
}

// `greedy`: a winning move (checkmate) if any; else a checking move; else a
// random move that keeps its own king safe; with none, it has lost and plays
// the first move it has.
template <ChessState S>
class GreedyAgent final : public Agent<S> {
 public:
  explicit GreedyAgent(std::uint64_t seed) : m_rng(seed) {}
  std::optional<typename S::Move> choose(const S& state, const MoveClock&) override {
    typename S::Moves moves;
    state.actions(moves);
    if (moves.empty()) return std::nullopt;
    std::vector<typename S::Move> wins;
    std::vector<typename S::Move> checks;
    std::vector<typename S::Move> safe;
    for (const auto& m : moves) {
      const MoveFacts f = facts(state, m);
      if (!f.safe) continue;
      safe.push_back(m);
      if (f.wins) wins.push_back(m);
      if (f.check) checks.push_back(m);
    }
    for (const auto* list : {&wins, &checks, &safe}) {
      if (!list->empty()) return (*list)[m_rng.below(list->size())];
    }
    return moves[0];
  }
  [[nodiscard]] std::string name() const override { return "greedy"; }

 private:
  Rng m_rng;
};

// `smart`: the highest one-ply utility — checkmate > check and capture >
// capture > check > quiet, captures ranked by the captured piece's value —
// ties at random; never a move that leaves its own king attacked while a safe
// one exists.
template <ChessState S>
class SmartAgent final : public Agent<S> {
 public:
  explicit SmartAgent(std::uint64_t seed) : m_rng(seed) {}

  // The seed's utility of a move (higher is better).
  [[nodiscard]] static int utility(const MoveFacts& f) {
    if (f.wins) return 1000;
    if (f.capture && f.check) return 300 + f.captured;
    if (f.capture) return 200 + f.captured;
    if (f.check) return 100;
    return 0;
  }

  std::optional<typename S::Move> choose(const S& state, const MoveClock&) override {
    typename S::Moves moves;
    state.actions(moves);
    if (moves.empty()) return std::nullopt;
    std::vector<typename S::Move> best;
    int best_score = -1;
    for (const auto& m : moves) {
      const MoveFacts f = facts(state, m);
      if (!f.safe) continue;
      const int score = utility(f);
      if (score > best_score) {
        best_score = score;
        best.clear();
      }
      if (score == best_score) best.push_back(m);
    }
    if (best.empty()) return moves[0];  // no safe move: it has lost
    return best[m_rng.below(best.size())];
  }
  [[nodiscard]] std::string name() const override { return "smart"; }

 private:
  Rng m_rng;
};

// `minimax4`: alpha-beta to depth 4 with the `smart` utility as evaluation
// (RULES.md §1, seed 000). The utility scores a move, not a position, so a
// line of play is scored by adding up its moves' utilities, each counted for
// the side that made it (+ for the root mover, − for the opponent): a line
// that captures a queen and then loses a pawn scores 209 − 201. A win ends a
// line at once and beats any sum (a sooner win beats a later one); a side with
// no safe move has lost; a drawn end adds nothing more. Like `smart` it only
// plays moves that keep its king safe, and breaks ties at random. Its reported
// value is the line's sum ÷ 100 in the game's points (a queen capture reads
// 2.09), or a win or loss in so many plies.
template <ChessState S>
class Minimax4Agent final : public Agent<S> {
 public:
  static constexpr int kDepth = 4;
  explicit Minimax4Agent(std::uint64_t seed) : m_rng(seed) {}

  std::optional<typename S::Move> choose(const S& state, const MoveClock&) override {
    typename S::Moves moves;
    state.actions(moves);
    if (moves.empty()) return std::nullopt;
    m_report = SearchReport{};
    m_report.algorithm = "minimax4";
    m_report.depth = kDepth;
    WallClock clock;
    m_report.stats.visit(0);
    ++m_report.stats.interior;
    std::vector<typename S::Move> best;
    int best_score = -kInfinity;
    for (const auto& m : moves) {
      const S next = state.result(m);
      const MoveFacts f = facts(state, m, next);
      if (!f.safe) continue;
      // A window just below the best so far keeps equal moves exact (ties).
      const int score = move_score(f, next, kDepth, best_score - 1, kInfinity, 0, 0);
      if (score > best_score) {
        best_score = score;
        best.clear();
      }
      if (score == best_score) best.push_back(m);
    }
    m_report.stats.seconds = clock.seconds();
    if (best.empty()) return moves[0];  // no safe move: it has lost
    m_report.value = for_player(report_value(best_score), state.to_move());
    return best[m_rng.below(best.size())];
  }
  [[nodiscard]] std::string name() const override { return "minimax4"; }
  [[nodiscard]] const SearchReport* last_report() const override { return &m_report; }

 private:
  static constexpr int kInfinity = 1 << 28;
  static constexpr int kWin = 1 << 20;  // beats any sum of four utilities

  [[nodiscard]] static Value report_value(int score) noexcept {
    if (score >= kWin - kMaxPly) return win_in(kWin - score);
    if (score <= -(kWin - kMaxPly)) return loss_in(kWin + score);
    return games::minichess::from_centipawns(score);
  }

  // The score, for the side to move in the state before it, of a move with
  // facts `f` leading to `next`, made at `ply` with `depth` plies left
  // (counting this one); `path` is the line's sum so far for that side.
  int move_score(const MoveFacts& f, const S& next, int depth, int alpha, int beta, int ply,
                 int path) {
    m_report.stats.visit(ply + 1);
    if (f.wins) {
      ++m_report.stats.leaves;
      return kWin - (ply + 1);
    }
    const int sum = path + SmartAgent<S>::utility(f);
    if (depth == 1 || next.is_terminal()) {
      ++m_report.stats.leaves;
      return sum;
    }
    return -search(next, depth - 1, -beta, -alpha, ply + 1, -sum);
  }

  // Fail-hard negamax for the side to move in `s`.
  int search(const S& s, int depth, int alpha, int beta, int ply, int path) {
    ++m_report.stats.interior;
    typename S::Moves moves;
    s.actions(moves);
    bool any = false;
    for (const auto& m : moves) {
      const S next = s.result(m);
      const MoveFacts f = facts(s, m, next);
      if (!f.safe) continue;
      any = true;
      const int score = move_score(f, next, depth, alpha, beta, ply, path);
      if (score >= beta) {
        ++m_report.stats.cutoffs;
        return beta;
      }
      if (score > alpha) alpha = score;
    }
    if (!any) return -(kWin - ply);  // no move keeps the king safe: lost
    return alpha;
  }

  Rng m_rng;
  SearchReport m_report;
};

}  // namespace duel::agents
