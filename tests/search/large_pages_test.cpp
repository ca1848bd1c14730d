// map_zeroed: the memory of the transposition table.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include "duel/core/large_pages.hpp"
#include "duel/search/tt.hpp"

namespace duel {
namespace {

// Every byte zero, every byte writable, and a region of a large page or more
// starts on a large page's boundary (so that all of it can be on 2 MiB pages).
TEST(LargePages, MemoryIsZeroedWritableAndAlignedFromTwoMebibytes) {
  for (const std::size_t bytes : {std::size_t{64}, std::size_t{4096}, kLargePage - 64, kLargePage,
                                  kLargePage + 64, 3 * kLargePage + 4096, 16 * kLargePage}) {
    const std::unique_ptr<unsigned char, Unmap> p(static_cast<unsigned char*>(map_zeroed(bytes)),
                                                  Unmap{bytes});
    ASSERT_NE(p.get(), nullptr) << bytes;
    const auto address = reinterpret_cast<std::uintptr_t>(p.get());
    if (bytes >= kLargePage) {
      EXPECT_EQ(address % kLargePage, 0U) << bytes;
    } else {
      EXPECT_EQ(address % 4096, 0U) << bytes;
    }
    std::size_t nonzero = 0;
    for (std::size_t i = 0; i < bytes; ++i) nonzero += p.get()[i] != 0 ? 1 : 0;
    EXPECT_EQ(nonzero, 0U) << bytes;
    std::memset(p.get(), 0xa5, bytes);
    EXPECT_EQ(p.get()[0], 0xa5);
    EXPECT_EQ(p.get()[bytes - 1], 0xa5);
  }
}

// The table on that memory: empty as mapped, and it keeps what it is given
// at the far end of a multi-page table as at the near end.
TEST(LargePages, ATableOnLargePagesStoresAndProbesAtBothEnds) {
  search::TranspositionTable tt(16);
  EXPECT_FALSE(tt.probe(0x0123456789abcdefULL).has_value());
  const std::uint64_t low = 0x0000000000012345ULL;   // the first bucket
  const std::uint64_t high = 0xffffffffffe12345ULL;  // the last bucket
  tt.store(low, 7, search::Bound::Exact, 3, 2);
  tt.store(high, -9, search::Bound::Lower, 5, 4);
  const auto a = tt.probe(low);
  const auto b = tt.probe(high);
  ASSERT_TRUE(a.has_value());
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(a->value, 7);
  EXPECT_EQ(a->move, 2);
  EXPECT_EQ(b->value, -9);
  EXPECT_EQ(b->move, 4);
}

}  // namespace
}  // namespace duel
