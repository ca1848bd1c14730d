// e3's weights: the one file that includes the generated e3_weights.hpp.
#include "duel/games/minichess/linear_eval.hpp"

#include "duel/games/minichess/e3_weights.hpp"

namespace duel::games::minichess::e3 {

namespace {
// Fixed point once, at compile time.
template <class Rules>
constexpr FixedWeights kFixedWeights = to_fixed(kWeights<Rules>);
}  // namespace

template <class Rules>
const Weights& tuned_weights() noexcept {
  return kWeights<Rules>;
}
template <class Rules>
const FixedWeights& tuned_fixed_weights() noexcept {
  return kFixedWeights<Rules>;
}

template const Weights& tuned_weights<Gardner>() noexcept;
template const Weights& tuned_weights<Cs3243>() noexcept;
template const Weights& tuned_weights<Comp472>() noexcept;
template const FixedWeights& tuned_fixed_weights<Gardner>() noexcept;
template const FixedWeights& tuned_fixed_weights<Cs3243>() noexcept;
template const FixedWeights& tuned_fixed_weights<Comp472>() noexcept;

}  // namespace duel::games::minichess::e3
