// KCell (seed 002): the game spec (`n`, `k`) and the position text
// `[_oox_x_] o`, then moves (a cell number, -1 to pass). See
// fuzz_spec_and_text for the input's shape and the checks.
#include <cstddef>
#include <cstdint>

#include "duel/games/kcell/kcell.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return -1;
  duel::fuzz::fuzz_spec_and_text<duel::games::kcell::State>(duel::fuzz::as_text(data, size));
  return 0;
}
