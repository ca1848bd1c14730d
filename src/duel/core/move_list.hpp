#pragma once
// A fixed-capacity list of moves: the search's hot path never allocates.
//
// Why: `std::vector` in every node costs an allocation per node; a game knows
// the most moves a position can have and sizes its list with that bound.
#include <cassert>
#include <cstddef>
#include <type_traits>

namespace duel {

template <class M, std::size_t Capacity>
class MoveList {
 public:
  using value_type = M;
  static constexpr std::size_t kCapacity = Capacity;

  void push_back(const M& m) noexcept {
    assert(m_size < Capacity);
    m_slots.moves[m_size++] = m;
  }
  void clear() noexcept { m_size = 0; }
  void resize(std::size_t n) noexcept {
    assert(n <= Capacity);
    m_size = n;
  }
  [[nodiscard]] std::size_t size() const noexcept { return m_size; }
  [[nodiscard]] bool empty() const noexcept { return m_size == 0; }
  [[nodiscard]] M& operator[](std::size_t i) noexcept { return m_slots.moves[i]; }
  [[nodiscard]] const M& operator[](std::size_t i) const noexcept { return m_slots.moves[i]; }
  [[nodiscard]] M* begin() noexcept { return m_slots.moves; }
  [[nodiscard]] M* end() noexcept { return m_slots.moves + m_size; }
  [[nodiscard]] const M* begin() const noexcept { return m_slots.moves; }
  [[nodiscard]] const M* end() const noexcept { return m_slots.moves + m_size; }

 private:
  // Not initialised: slots past size() are never read, and a move written
  // by push_back (or through operator[] after resize, by assignment) starts
  // its life there. An array of moves initialised at every node cost perft
  // half its time with checkers' 612 x 12 bytes, and 85% of Gardner
  // perft's own time with 256 moves whose default constructor sets the
  // "no promotion" bits (docs/BENCHMARKS.md, "Slider tables and two copies").
  // A union member with no initialiser is left alone by its union's
  // constructor, whatever the move type's default constructor does.
  static_assert(std::is_trivially_copyable_v<M> && std::is_trivially_destructible_v<M>);
  union Slots {
    Slots() noexcept {}  // NOLINT(modernize-use-equals-default): leaves `moves` alone
    M moves[Capacity];   // NOLINT(*-avoid-c-arrays): assignment starts a member's life
  };
  Slots m_slots;
  std::size_t m_size = 0;
};

}  // namespace duel
