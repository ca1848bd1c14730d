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

template <ChessState S>
MoveFacts facts(const S& s, const typename S::Move& m) {
  using games::minichess::Piece;
  MoveFacts f;
  const auto& pos = s.position();
  f.safe = pos.is_safe(m);
  const Piece victim = pos.piece_on(m.to());
  f.capture = victim != Piece::None;
  if (f.capture) {
    f.captured = games::minichess::kE0Values[static_cast<std::size_t>(victim)];
  }
  const S next = s.result(m);
  f.check = next.position().king_attacked(next.to_move());
  if (next.is_terminal()) {
    const Value u = next.utility();
    f.wins = s.to_move() == Player::First ? u > 0 : u < 0;
  }
  return f;
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

}  // namespace duel::agents
