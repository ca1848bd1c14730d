// n1's weights: the one file that includes the generated n1_weights.hpp.
#include "duel/games/minichess/net_eval.hpp"

#include "duel/games/minichess/n1_weights.hpp"

namespace duel::games::minichess::n1 {

namespace {
// Integers once, at compile time.
template <class Rules>
constexpr Quantized kQuantized = quantize(kNet<Rules>);
static_assert(accumulators_fit(kNet<Gardner>), "n1: a first-layer sum may not fit in 16 bits");
}  // namespace

template <class Rules>
const Quantized& net() noexcept {
  return kQuantized<Rules>;
}

template const Quantized& net<Gardner>() noexcept;

}  // namespace duel::games::minichess::n1
