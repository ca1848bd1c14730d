#pragma once
// The transposition table: a hash table of search results keyed by a state's
// 64-bit key, in buckets of four entries (one cache line).
//
// Why: positions reached by different move orders (or, where a game's key is
// symmetry-reduced, by mirror images) are searched once. Entries that proved a
// value without any heuristic in their subtree are marked `exact` and are
// reused at any depth, which is what makes exact solving fast.
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>

#include "duel/core/large_pages.hpp"
#include "duel/core/types.hpp"

namespace duel::search {

enum class Bound : std::uint8_t { None = 0, Upper = 1, Lower = 2, Exact = 3 };

// One entry as a probe returns it (a copy: another search thread may
// overwrite the table's entry meanwhile).
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

// Bit layout in the table (16 bytes, two 64-bit words):
//   word 0        check  the full 64-bit key XOR word 1
//   word 1 0-31   value  int32, relative to this node (see to_tt/from_tt)
//          32-47  move   1 + index of the best move in the state's action list, 0 = none
//          48-55  depth  plies searched below this node, 255 = independent of depth
//          56-63  flags  bits 0-1 Bound, bits 2-7 generation
// Search threads share the table without locks: each word is read and
// written whole (relaxed atomics: plain moves on x86-64), and an entry that
// two threads wrote at once mixes one's word 0 with the other's word 1, so
// it fails the key check (word 0 XOR word 1 is no key it was stored for,
// but for a 2^-64 chance) instead of returning a mix of two results.
struct TTSlot {
  std::uint64_t check = 0;
  std::uint64_t data = 0;
};
static_assert(sizeof(TTSlot) == 16, "TT entries are 16 bytes; see the layout comment");

[[nodiscard]] constexpr std::uint64_t pack_entry(const TTEntry& e) noexcept {
  return static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.value)) |
         (static_cast<std::uint64_t>(e.move) << 32) | (static_cast<std::uint64_t>(e.depth) << 48) |
         (static_cast<std::uint64_t>(e.flags) << 56);
}
[[nodiscard]] constexpr TTEntry unpack_entry(std::uint64_t key, std::uint64_t data) noexcept {
  TTEntry e;
  e.key = key;
  e.value = static_cast<std::int32_t>(static_cast<std::uint32_t>(data));
  e.move = static_cast<std::uint16_t>(data >> 32);
  e.depth = static_cast<std::uint8_t>(data >> 48);
  e.flags = static_cast<std::uint8_t>(data >> 56);
  return e;
}

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

class TranspositionTable {
 public:
  static constexpr std::size_t kBucket = 4;

  explicit TranspositionTable(std::size_t megabytes = 16) { resize(megabytes); }

  // Not while a search runs.
  void resize(std::size_t megabytes) {
    std::size_t entries = megabytes * 1024 * 1024 / sizeof(TTSlot);
    std::size_t buckets = 1;
    while (buckets * 2 * kBucket <= entries) buckets *= 2;
    m_mask = buckets - 1;
    m_size = buckets * kBucket;
    // An anonymous mapping: zeroed pages arrive lazily, so a big table that a
    // short search touches only in part costs little to set up; from 2 MiB
    // on, on 2 MiB pages where the kernel allows them, which cut page faults
    // and the page walks of nearly every probe (map_zeroed).
    const std::size_t bytes = m_size * sizeof(TTSlot);
    m_entries =
        std::unique_ptr<TTSlot, Unmap>(static_cast<TTSlot*>(map_zeroed(bytes)), Unmap{bytes});
  }
  // Not while a search runs (nor prefault, nor new_search).
  void clear() noexcept {
    if (m_generation == 0 && !m_used.load(std::memory_order_relaxed)) return;  // as mapped
    std::memset(static_cast<void*>(m_entries.get()), 0, m_size * sizeof(TTSlot));
    m_generation = 0;
    m_used.store(false, std::memory_order_relaxed);
  }
  // Touches every page now, so that a timed search does not pay the kernel
  // for zeroing them (measured: 60% of a 1 s chess search from a fresh
  // 256 MB table went to page faults).
  void prefault() noexcept {
    std::memset(static_cast<void*>(m_entries.get()), 0, m_size * sizeof(TTSlot));
    m_generation = 0;
    m_used.store(false, std::memory_order_relaxed);
  }
  void new_search() noexcept { m_generation = static_cast<std::uint8_t>((m_generation + 1) & 63U); }
  [[nodiscard]] std::size_t size() const noexcept { return m_size; }

  // Safe while other threads probe and store.
  [[nodiscard]] std::optional<TTEntry> probe(std::uint64_t key) const noexcept {
    TTSlot* b = bucket(key);
    for (std::size_t i = 0; i < kBucket; ++i) {
      const std::uint64_t data = load(b[i].data);
      if ((load(b[i].check) ^ data) == key && (data >> 56 & 3U) != 0) {
        return unpack_entry(key, data);
      }
    }
    return std::nullopt;
  }

  // Asks the processor to bring `key`'s bucket into the cache, so that a
  // probe soon after (the child's, once it is entered) does not wait for
  // memory.
  void prefetch(std::uint64_t key) const noexcept { __builtin_prefetch(bucket(key)); }

  // Safe while other threads probe and store: a slot written by two at once
  // holds one's result, the other's, or a mix that no probe takes.
  void store(std::uint64_t key, Value value, Bound bound, int depth, std::uint16_t move) noexcept {
    if (!m_used.load(std::memory_order_relaxed)) m_used.store(true, std::memory_order_relaxed);
    TTSlot* b = bucket(key);
    TTSlot* victim = &b[0];
    std::uint64_t victim_data = 0;
    bool same_key = false;
    int victim_score = 1 << 30;
    for (std::size_t i = 0; i < kBucket; ++i) {
      const std::uint64_t data = load(b[i].data);
      const TTEntry e = unpack_entry(load(b[i].check) ^ data, data);
      if (e.key == key || e.bound() == Bound::None) {
        victim = &b[i];
        victim_data = data;
        same_key = e.key == key;
        break;
      }
      // Keep deep and recent entries: replace the shallowest, oldest one.
      const int age = (m_generation - e.generation()) & 63;
      const int score = e.depth - 8 * age;
      if (score < victim_score) {
        victim_score = score;
        victim = &b[i];
        victim_data = data;
        same_key = false;
      }
    }
    if (same_key && move == 0)
      move = unpack_entry(key, victim_data).move;  // keep a known best move
    TTEntry e;
    e.value = value;
    e.move = move;
    e.depth = static_cast<std::uint8_t>(depth < 0 ? 0 : (depth > 254 ? 254 : depth));
    if (depth == kDepthAny) e.depth = kDepthAny;
    e.flags = static_cast<std::uint8_t>(static_cast<unsigned>(bound) |
                                        (static_cast<unsigned>(m_generation) << 2));
    const std::uint64_t data = pack_entry(e);
    save(victim->data, data);
    save(victim->check, key ^ data);
  }

 private:
  [[nodiscard]] TTSlot* bucket(std::uint64_t key) const noexcept {
    // High bits pick the bucket; the full key is compared on probe.
    return m_entries.get() + ((key >> 20) & m_mask) * kBucket;
  }
  [[nodiscard]] static std::uint64_t load(std::uint64_t& word) noexcept {
    return std::atomic_ref<std::uint64_t>(word).load(std::memory_order_relaxed);
  }
  static void save(std::uint64_t& word, std::uint64_t value) noexcept {
    std::atomic_ref<std::uint64_t>(word).store(value, std::memory_order_relaxed);
  }

  std::unique_ptr<TTSlot, Unmap> m_entries;  // map_zeroed
  std::size_t m_mask = 0;
  std::size_t m_size = 0;
  std::uint8_t m_generation = 0;  // written between searches only
  std::atomic<bool> m_used{false};
};

}  // namespace duel::search
