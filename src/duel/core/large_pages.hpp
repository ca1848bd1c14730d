#pragma once
// Zeroed memory for the search's big random-access tables (the transposition
// table), on 2 MiB pages where the kernel allows them.
//
// A probe into a table of many megabytes lands on a different 4 KiB page
// almost every time, and the processor's page-translation cache covers only
// a few megabytes of 4 KiB pages: each probe then walks the page tables
// before it reaches its cache line, and a prefetch walks them too. On 2 MiB
// pages a 16 MiB table is 8 translations (docs/BENCHMARKS.md, "Tables on
// 2 MiB pages"). The mapping is anonymous, so its pages arrive zeroed on first
// touch; a region of at least 2 MiB is aligned to 2 MiB and marked
// MADV_HUGEPAGE (Linux's transparent huge pages, in their default "madvise"
// mode). Where the kernel gives no huge pages the memory is the same, on
// 4 KiB pages. A large page is zeroed whole on its first touch, so a timed
// search should touch its table before the clock starts (the engine's
// `prefault`), as agents and UCI do.
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <new>

namespace duel {

inline constexpr std::size_t kLargePage = std::size_t{2} << 20;

// Releases a mapping made by map_zeroed (a unique_ptr's deleter).
struct Unmap {
  std::size_t bytes = 0;
  void operator()(void* p) const noexcept {
    if (p != nullptr) munmap(p, bytes);
  }
};

// `bytes` of zeroed memory (throws std::bad_alloc when the kernel refuses).
// The deleter must be given the same `bytes`.
[[nodiscard]] inline void* map_zeroed(std::size_t bytes) {
  // From a large page on, map a large page more than asked, keep the part
  // that starts on a large page's boundary, and give the rest back.
  const bool large = bytes >= kLargePage;
  const std::size_t span = large ? bytes + kLargePage : bytes;
  void* raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  if (!large) return raw;
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + kLargePage - 1) & ~(std::uintptr_t{kLargePage} - 1);
  const std::size_t head = aligned - start;
  const std::size_t tail = span - head - bytes;
  if (head > 0) munmap(raw, head);
  if (tail > 0) munmap(reinterpret_cast<void*>(aligned + bytes), tail);
  void* p = reinterpret_cast<void*>(aligned);
  madvise(p, bytes, MADV_HUGEPAGE);  // advice only: without it, 4 KiB pages
  return p;
}

}  // namespace duel
