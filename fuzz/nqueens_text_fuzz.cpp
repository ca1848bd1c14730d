// The N-Queens game (seed 001): the game spec (`n`, `variant`) and the
// position text, then moves (`3,4`, `3 4`). See fuzz_spec_and_text for the
// input's shape and the checks.
#include <cstddef>
#include <cstdint>

#include "duel/games/nqueens/nqueens.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return -1;
  duel::fuzz::fuzz_spec_and_text<duel::games::nqueens::State>(duel::fuzz::as_text(data, size));
  return 0;
}
