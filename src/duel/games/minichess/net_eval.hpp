#pragma once
// Heuristic n1: a small network trained on self-play positions
// (scripts/train-net.py, docs/net.md), seen from both sides as NNUE's are.
//
// Inputs, per side: its own and the enemy's pieces by type on their squares,
// the board mirrored top to bottom for Black (2 x 6 x 25 = 300). One shared
// layer of kHidden units turns each side's inputs into an accumulator; the
// side to move's and the other side's, clipped to [0, 1], feed kHidden2
// clipped units, then one output in pawns from the side to move's view.
// The draw clock scales it as it scales e3 (the network cannot see the
// clock).
//
// Exactly colour-symmetric: a colour-flipped position gives each side the
// same inputs, so the same integer sums, and the negated value.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string_view>

#include "duel/games/minichess/minichess.hpp"
#include "duel/games/net/nnue.hpp"
#include "duel/search/concepts.hpp"

namespace duel::games::minichess::n1 {

// The 5x5 board as the network reads it (games/net/nnue.hpp): six piece
// types on 25 squares, 128 units, Black seeing the board mirrored top to
// bottom (both sides see the game from their own first rank).
struct Board {
  using Bitboard = minichess::Bitboard;
  static constexpr int kPieceTypes = minichess::kPieceTypes;
  static constexpr int kSquares = minichess::kSquares;
  static constexpr std::size_t kHidden = 128;
  [[nodiscard]] static constexpr int seen(Player side, int sq) noexcept {
    return square(file_of(sq), relative_rank(side, sq));
  }
};

inline constexpr int kInputs = nnue::kInputs<Board>;
inline constexpr std::size_t kHidden = Board::kHidden;
template <std::size_t H>
using Net = nnue::Net<Board, H>;
using Quantized = nnue::Quantized<Board>;
using Pieces = nnue::Pieces<Board>;
using Accumulators = nnue::Accumulators<Board>;
using nnue::Check;
using nnue::forward;
using nnue::has_avx2;
using nnue::Isa;
using nnue::kChecks;
using nnue::kOutputScale;
using nnue::OutputCache;

// The trained weights in integers (n1_weights.hpp, included by net_eval.cpp only).
template <class Rules>
[[nodiscard]] const Quantized& net() noexcept;

template <class Pos>
[[nodiscard]] Pieces pieces_of(const Pos& p) noexcept {
  Pieces out{};
  for (int t = 0; t < kPieceTypes; ++t) {
    out[static_cast<std::size_t>(t)] = p.pieces(Player::First, static_cast<Piece>(t));
    out[static_cast<std::size_t>(kPieceTypes + t)] =
        p.pieces(Player::Second, static_cast<Piece>(t));
  }
  return out;
}

// The network's output `out` (pawns x kOutputScale, the side to move's
// view) in Value units from White's view, scaled by the draw clock as e3 is.
template <class Rules>
[[nodiscard]] Value to_value(const State<Rules>& s, std::int64_t out) noexcept {
  const Player us = s.to_move();
  std::int64_t v = s.scaled_by_draw_clock(out);
  // Division truncates towards zero: symmetric about zero.
  v = v * kE0Scale / kOutputScale;
  v = std::clamp<std::int64_t>(v, -kUnit, kUnit);
  return search::clamp_estimate(static_cast<Value>(us == Player::First ? v : -v));
}

// n1 in Value units from White's view, scaled by the draw clock as e3 is.
template <class Rules>
[[nodiscard]] Value evaluate(const State<Rules>& s, Accumulators& acc) noexcept {
  return to_value(s, acc.forward(net<Rules>(), pieces_of(s.position()), s.to_move()));
}

// The same, the output read from `cache` where it holds the position.
template <class Rules>
[[nodiscard]] Value evaluate(const State<Rules>& s, Accumulators& acc,
                             OutputCache& cache) noexcept {
  const Quantized& n = net<Rules>();
  return to_value(s, cache.get(&n, s.key(), [&] {
    return acc.forward(n, pieces_of(s.position()), s.to_move());
  }));
}

}  // namespace duel::games::minichess::n1

namespace duel::games::minichess {

struct N1 {
  static constexpr std::string_view kName = "n1";
  static constexpr std::string_view kAbout =
      "small network (both sides' pieces on squares, 128 + 16 clipped units) trained on "
      "self-play positions (scripts/train-net.py); gardner and gardner-cs3243";
  explicit N1(std::uint64_t /*seed*/ = 0) noexcept {}
  // Not const: it keeps the sums of the positions it saw last (one search
  // at a time; each engine owns its heuristic).
  template <class Rules>
  [[nodiscard]] Value operator()(const State<Rules>& s) noexcept {
    return n1::evaluate(s, m_acc, m_cache);
  }
  [[nodiscard]] const n1::OutputCache& cache() const noexcept { return m_cache; }
  // search::HasPrefetch: the output cache's slot for `s`.
  template <class Rules>
  void prefetch(const State<Rules>& s) const noexcept {
    m_cache.prefetch(s.key());
  }

 private:
  n1::Accumulators m_acc;
  n1::OutputCache m_cache;
};

static_assert(NamedHeuristic<N1, GardnerState> && NamedHeuristic<N1, Cs3243State>);
// The search loads the cache slot ahead (docs/BENCHMARKS.md): keep the hook bound.
static_assert(search::HasPrefetch<N1, GardnerState> && search::HasPrefetch<N1, Cs3243State>);

}  // namespace duel::games::minichess
