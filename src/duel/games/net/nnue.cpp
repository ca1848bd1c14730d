// Which instructions the networks may use (games/net/nnue.hpp).
#include "duel/games/net/nnue.hpp"

namespace duel::games::nnue {

bool has_avx2() noexcept {
  static const bool kHas = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return kHas;
}

}  // namespace duel::games::nnue
