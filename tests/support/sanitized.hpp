#pragma once
// Whether this test binary runs in CI's sanitizer tree.
//
// Why: scripts/test.sh sets DUEL_SANITIZED=1 for that tree's suite, where
// code runs many times slower; the tests that time moves or sweep many
// positions ask here, so that one variable means the same to all of them.
#include <cstdlib>

namespace duel::test_support {

[[nodiscard]] inline bool sanitized() {
  return std::getenv("DUEL_SANITIZED") != nullptr;
}

}  // namespace duel::test_support
