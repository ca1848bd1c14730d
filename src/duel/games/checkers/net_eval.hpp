#pragma once
// Heuristic n1 for checkers: the network of games/net/nnue.hpp on the 32
// dark squares, trained on the engine's self-play positions
// (scripts/train-net.py --rules checkers, docs/net.md, "Checkers").
//
// Inputs, per side: its own and the enemy's men and kings on their squares,
// Black seeing the board as it stands and White turned 180 degrees, so that
// each sees the game from its own back row (2 x 2 x 32 = 128). Its output,
// from the side to move's view, times 100 is in `tuned`'s units (a man
// about 170), which the training's targets used. Exactly colour-symmetric: the
// position turned with colours swapped (Position::flipped) gives each side
// the same inputs and the negated value.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "duel/games/checkers/checkers.hpp"
#include "duel/games/checkers/egdb_probe.hpp"
#include "duel/games/net/nnue.hpp"
#include "duel/search/concepts.hpp"

namespace duel::games::checkers::n1 {

// The board as the network reads it: men and kings on 32 squares, 128 units.
struct Board {
  using Bitboard = checkers::Bitboard;
  static constexpr int kPieceTypes = 2;  // man, king
  static constexpr int kSquares = checkers::kSquares;
  static constexpr std::size_t kHidden = 128;
  [[nodiscard]] static constexpr int seen(Player side, int sq) noexcept {
    return side == Player::First ? sq : kSquares - 1 - sq;
  }
};

inline constexpr std::size_t kHidden = Board::kHidden;
template <std::size_t H>
using Net = nnue::Net<Board, H>;
using Quantized = nnue::Quantized<Board>;
using Pieces = nnue::Pieces<Board>;
using Accumulators = nnue::Accumulators<Board>;
using nnue::Check;
using nnue::forward;
using nnue::Isa;
using nnue::kChecks;
using nnue::kOutputScale;
using nnue::OutputCache;

// The trained weights in integers (n1_weights.hpp, included by net_eval.cpp only).
[[nodiscard]] const Quantized& net() noexcept;

[[nodiscard]] inline Pieces pieces_of(const Position& p) noexcept {
  return {p.men(Player::First), p.kings(Player::First), p.men(Player::Second),
          p.kings(Player::Second)};
}

// The network's output `out` (x kOutputScale, the side to move's view) in
// Value units (x 100: `tuned`'s) from Black's view.
[[nodiscard]] inline Value to_value(const State& s, std::int64_t out) noexcept {
  // Division truncates towards zero: symmetric about zero.
  std::int64_t v = out * 100 / kOutputScale;
  v = std::clamp<std::int64_t>(v, -kUnit, kUnit);
  return search::clamp_estimate(static_cast<Value>(s.to_move() == Player::First ? v : -v));
}

}  // namespace duel::games::checkers::n1

namespace duel::games::checkers {

struct N1 {
  static constexpr std::string_view kName = "n1";
  static constexpr std::string_view kAbout =
      "small network (both sides' men and kings on squares, 128 + 16 clipped units) trained "
      "on self-play positions (scripts/train-net.py)";
  explicit N1(std::uint64_t /*seed*/ = 0) noexcept {}
  // Not const: it keeps the sums of the positions it saw last (one search
  // at a time; each engine owns its heuristic).
  [[nodiscard]] Value operator()(const State& s) noexcept {
    const n1::Quantized& n = n1::net();
    // The key is what the network sees: the pieces and the side to move.
    return n1::to_value(s, m_cache.get(&n, s.key(), [&] {
      return m_acc.forward(n, n1::pieces_of(s.position()), s.to_move());
    }));
  }
  // The endgame tables' value where the engine has them (egdb_probe.hpp).
  [[nodiscard]] std::optional<search::Known> known(const State& s) {
    return egdb::known(s, [&] { return (*this)(s); });
  }
  [[nodiscard]] const n1::OutputCache& cache() const noexcept { return m_cache; }
  // search::HasPrefetch: the output cache's slot for `s`.
  void prefetch(const State& s) const noexcept { m_cache.prefetch(s.key()); }

 private:
  n1::Accumulators m_acc;
  n1::OutputCache m_cache;
};

static_assert(NamedHeuristic<N1, State>);
static_assert(search::HasPrefetch<N1, State>);
static_assert(search::HasKnownValues<N1, State>);

}  // namespace duel::games::checkers
