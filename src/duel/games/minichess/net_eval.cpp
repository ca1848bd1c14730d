// n1's weights (the one file that includes the generated n1_weights.hpp) and
// its forward pass (games/net/nnue_impl.hpp), compiled once for the 5x5 board.
#include "duel/games/minichess/net_eval.hpp"

#include "duel/games/minichess/eval.hpp"
#include "duel/games/minichess/n1_weights.hpp"
#include "duel/games/net/nnue_impl.hpp"

DUEL_NNUE_INSTANTIATE(duel::games::minichess::n1::Board);

namespace duel::games::minichess::n1 {

namespace {
// Integers once, at compile time.
template <class Rules>
constexpr Quantized kQuantized = nnue::quantize<Board>(kNet<Rules>);
static_assert(nnue::accumulators_fit<Board>(kNet<Gardner>),
              "n1: a first-layer sum may not fit in 16 bits");
static_assert(nnue::accumulators_fit<Board>(kNet<Cs3243>),
              "n1: a first-layer sum may not fit in 16 bits");
}  // namespace

template <class Rules>
const Quantized& net() noexcept {
  return kQuantized<Rules>;
}

template const Quantized& net<Gardner>() noexcept;
template const Quantized& net<Cs3243>() noexcept;

}  // namespace duel::games::minichess::n1
