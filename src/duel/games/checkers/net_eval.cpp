// Checkers n1's weights (the one file that includes the generated
// n1_weights.hpp) and its forward pass (games/net/nnue_impl.hpp), compiled
// once for the checkers board.
#include "duel/games/checkers/net_eval.hpp"

#include "duel/games/checkers/n1_weights.hpp"
#include "duel/games/net/nnue_impl.hpp"

DUEL_NNUE_INSTANTIATE(duel::games::checkers::n1::Board);

namespace duel::games::checkers::n1 {

namespace {
// Integers once, at compile time.
constexpr Quantized kQuantized = nnue::quantize<Board>(kNet<State>);
static_assert(nnue::accumulators_fit<Board>(kNet<State>),
              "n1: a first-layer sum may not fit in 16 bits");
}  // namespace

const Quantized& net() noexcept {
  return kQuantized;
}

}  // namespace duel::games::checkers::n1
