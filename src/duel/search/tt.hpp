#pragma once
// The transposition table: a hash table of search results keyed by a state's
// 64-bit key, in buckets of four entries (one cache line).
//
// Why: positions reached by different move orders (or, where a game's key is
// symmetry-reduced, by mirror images) are searched once. Entries that proved a
// value without any heuristic in their subtree are marked `exact` and are
// reused at any depth, which is what makes exact solving fast.
#include <sys/mman.h>
#include <cstdint>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

#include "duel/core/types.hpp"

namespace duel::search {

enum class Bound : std::uint8_t { None = 0, Upper = 1, Lower = 2, Exact = 3 };

// Bit layout (16 bytes):
//   bytes 0-7   key    full 64-bit key (no false matches from index bits)
//   bytes 8-11  value  int32, relative to this node (see to_tt/from_tt)
//   bytes 12-13 move   1 + index of the best move in the state's action list, 0 = none
//   byte  14    depth  plies searched below this node, 255 = independent of depth
//   byte  15    flags  bits 0-1 Bound, bits 2-7 generation
struct TTEntry {
  std::uint64_t key = 0;
  std::int32_t value = 0;
  std::uint16_t move = 0;
  std::uint8_t depth = 0;
  std::uint8_t flags = 0;

  [[nodiscard]] Bound bound() const noexcept { return static_cast<Bound>(flags & 3U); }
  [[nodiscard]] std::uint8_t generation() const noexcept {
    return static_cast<std::uint8_t>(flags >> 2);
  }
};
static_assert(sizeof(TTEntry) == 16, "TT entries are 16 bytes; see the layout comment");

inline constexpr std::uint8_t kDepthAny = 255;  // an exact result: valid for every depth

// Values in the table are relative to the node, so a win found at one ply is
// still right when the position is met again at another.
[[nodiscard]] constexpr Value to_tt(Value v, int ply) noexcept {
  if (is_win(v)) return v + ply;
  if (is_loss(v)) return v - ply;
  return v;
}
[[nodiscard]] constexpr Value from_tt(Value v, int ply) noexcept {
  if (is_win(v)) return v - ply;
  if (is_loss(v)) return v + ply;
  return v;
}

// Releases the table's mapping.
struct TTUnmap {
  std::size_t bytes = 0;
  void operator()(TTEntry* p) const noexcept { munmap(p, bytes); }
};

class TranspositionTable {
 public:
  static constexpr std::size_t kBucket = 4;

  explicit TranspositionTable(std::size_t megabytes = 16) { resize(megabytes); }

  void resize(std::size_t megabytes) {
    std::size_t entries = megabytes * 1024 * 1024 / sizeof(TTEntry);
    std::size_t buckets = 1;
    while (buckets * 2 * kBucket <= entries) buckets *= 2;
    m_mask = buckets - 1;
    m_size = buckets * kBucket;
    // An anonymous mapping: zeroed pages arrive lazily, so a big table that a
    // short search touches only in part costs nothing to set up; huge pages
    // (where the kernel allows them) cut page faults and TLB misses for the
    // solver-sized tables; small ones stay on 4 KiB pages, zeroed as touched.
    const std::size_t bytes = m_size * sizeof(TTEntry);
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    if (bytes >= (std::size_t{256} << 20)) madvise(p, bytes, MADV_HUGEPAGE);
    m_entries = std::unique_ptr<TTEntry, TTUnmap>(static_cast<TTEntry*>(p), TTUnmap{bytes});
  }
  void clear() noexcept {
    if (m_generation == 0 && !m_used) return;  // still as the mapping left it
    std::memset(static_cast<void*>(m_entries.get()), 0, m_size * sizeof(TTEntry));
    m_generation = 0;
    m_used = false;
  }
  // Touches every page now, so that a timed search does not pay the kernel
  // for zeroing them (measured: 60% of a 1 s chess search from a fresh
  // 256 MB table went to page faults).
  void prefault() noexcept {
    std::memset(static_cast<void*>(m_entries.get()), 0, m_size * sizeof(TTEntry));
    m_generation = 0;
    m_used = false;
  }
  void new_search() noexcept { m_generation = static_cast<std::uint8_t>((m_generation + 1) & 63U); }
  [[nodiscard]] std::size_t size() const noexcept { return m_size; }

  [[nodiscard]] const TTEntry* probe(std::uint64_t key) const noexcept {
    const TTEntry* b = bucket(key);
    for (std::size_t i = 0; i < kBucket; ++i) {
      if (b[i].key == key && b[i].bound() != Bound::None) return &b[i];
    }
    return nullptr;
  }

  void store(std::uint64_t key, Value value, Bound bound, int depth, std::uint16_t move) noexcept {
    m_used = true;
    TTEntry* b = bucket(key);
    TTEntry* victim = &b[0];
    int victim_score = 1 << 30;
    for (std::size_t i = 0; i < kBucket; ++i) {
      TTEntry& e = b[i];
      if (e.key == key || e.bound() == Bound::None) {
        victim = &e;
        break;
      }
      // Keep deep and recent entries: replace the shallowest, oldest one.
      const int age = (m_generation - e.generation()) & 63;
      const int score = e.depth - 8 * age;
      if (score < victim_score) {
        victim_score = score;
        victim = &e;
      }
    }
    if (victim->key == key && move == 0) move = victim->move;  // keep a known best move
    victim->key = key;
    victim->value = value;
    victim->move = move;
    victim->depth = static_cast<std::uint8_t>(depth < 0 ? 0 : (depth > 254 ? 254 : depth));
    if (depth == kDepthAny) victim->depth = kDepthAny;
    victim->flags = static_cast<std::uint8_t>(static_cast<unsigned>(bound) |
                                              (static_cast<unsigned>(m_generation) << 2));
  }

 private:
  [[nodiscard]] TTEntry* bucket(std::uint64_t key) const noexcept {
    // High bits pick the bucket; the full key is compared on probe.
    return m_entries.get() + ((key >> 20) & m_mask) * kBucket;
  }

  std::unique_ptr<TTEntry, TTUnmap> m_entries;
  std::size_t m_mask = 0;
  std::size_t m_size = 0;
  std::uint8_t m_generation = 0;
  bool m_used = false;
};

}  // namespace duel::search
