#pragma once
// Baseline agents: `first` (the first legal move in the generator's order,
// the seeds' "dummy") and `random` (uniform over legal moves, seeded).
#include <string>

#include "duel/agents/agent.hpp"
#include "duel/core/rng.hpp"

namespace duel::agents {

template <class S>
class FirstAgent final : public Agent<S> {
 public:
  std::optional<typename S::Move> choose(const S& state, const MoveClock&) override {
    typename S::Moves moves;
    state.actions(moves);
    if (moves.empty()) return std::nullopt;
    return moves[0];
  }
  [[nodiscard]] std::string name() const override { return "first"; }
};

template <class S>
class RandomAgent final : public Agent<S> {
 public:
  explicit RandomAgent(std::uint64_t seed) : m_rng(seed) {}
  std::optional<typename S::Move> choose(const S& state, const MoveClock&) override {
    typename S::Moves moves;
    state.actions(moves);
    if (moves.empty()) return std::nullopt;
    return moves[m_rng.below(moves.size())];
  }
  [[nodiscard]] std::string name() const override { return "random"; }

 private:
  Rng m_rng;
};

}  // namespace duel::agents
