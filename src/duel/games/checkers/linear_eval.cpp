// Heuristic `tuned`'s weights: the one file that includes the generated
// tuned_weights.hpp.
#include "duel/games/checkers/linear_eval.hpp"

#include "duel/games/checkers/tuned_weights.hpp"

namespace duel::games::checkers::linear {

namespace {
// Fixed point once, at compile time.
constexpr FixedWeights kFixedWeights = to_fixed(kWeights);
}  // namespace

const Weights& tuned_weights() noexcept {
  return kWeights;
}
const FixedWeights& tuned_fixed_weights() noexcept {
  return kFixedWeights;
}

}  // namespace duel::games::checkers::linear
