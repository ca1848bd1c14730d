#pragma once
// A fixed-capacity list of moves: the search's hot path never allocates.
//
// Why: `std::vector` in every node costs an allocation per node; a game knows
// the most moves a position can have and sizes its list with that bound.
#include <array>
#include <cassert>
#include <cstddef>

namespace duel {

template <class M, std::size_t Capacity>
class MoveList {
 public:
  using value_type = M;
  static constexpr std::size_t kCapacity = Capacity;

  void push_back(const M& m) noexcept {
    assert(m_size < Capacity);
    m_moves[m_size++] = m;
  }
  void clear() noexcept { m_size = 0; }
  void resize(std::size_t n) noexcept {
    assert(n <= Capacity);
    m_size = n;
  }
  [[nodiscard]] std::size_t size() const noexcept { return m_size; }
  [[nodiscard]] bool empty() const noexcept { return m_size == 0; }
  [[nodiscard]] M& operator[](std::size_t i) noexcept { return m_moves[i]; }
  [[nodiscard]] const M& operator[](std::size_t i) const noexcept { return m_moves[i]; }
  [[nodiscard]] M* begin() noexcept { return m_moves.data(); }
  [[nodiscard]] M* end() noexcept { return m_moves.data() + m_size; }
  [[nodiscard]] const M* begin() const noexcept { return m_moves.data(); }
  [[nodiscard]] const M* end() const noexcept { return m_moves.data() + m_size; }

 private:
  // Default-initialised, not value-initialised: a move type that is trivially
  // default-constructible (checkers: 612 x 12 bytes) is then not zeroed at
  // every node, which cost perft half its time; slots past size() are never read.
  std::array<M, Capacity> m_moves;
  std::size_t m_size = 0;
};

}  // namespace duel
