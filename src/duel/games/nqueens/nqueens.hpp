#pragma once
// The two-player N-Queens game of seed 001 (RULES.md §3): players alternate
// placing queens on unattacked squares; the player to move with no square
// loses. Variant 1a/1b force the left-most empty column (1b scores ±k, k the
// queens on the board at the end); variant 2 allows any unattacked square.
//
// Why this shape: a state is a few machine words of bitmasks (rows, columns,
// both diagonals) plus the queens for display, so copy-make is cheap for N up
// to 32. The key hashes only what the future depends on — the set of free
// squares (for 1a/1b only the columns still to play, with the queen count) —
// reduced by the board's symmetries, so the transposition table merges every
// position that plays the same.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>

#include "duel/core/move_list.hpp"
#include "duel/core/result.hpp"
#include "duel/core/spec.hpp"
#include "duel/core/types.hpp"
#include "duel/games/game.hpp"

namespace duel::games::nqueens {

inline constexpr int kMaxN = 32;

enum class Variant : std::uint8_t {
  V1a = 0,  // left-most empty column, ±1 (RULES.md §3, seed 001 variation 1a)
  V1b = 1,  // left-most empty column, ±k queens on the board (variation 1b)
  V2 = 2,   // any unattacked square, ±1 (the seed's "work for the ambitious")
};

[[nodiscard]] std::string_view variant_name(Variant v) noexcept;

// A placement; rows and columns are 0-based inside, 1-based in text (row 1 at
// the top, column 1 on the left).
struct Move {
  std::uint8_t row = 0;
  std::uint8_t col = 0;
  friend bool operator==(const Move&, const Move&) = default;
};

struct Mobility;
struct RandomHeuristic;

class State {
 public:
  using Move = nqueens::Move;
  using Moves = MoveList<Move, kMaxN * kMaxN>;
  using Heuristics = std::tuple<Mobility, RandomHeuristic>;
  static constexpr std::string_view kName = "nqueens";
  static constexpr std::array<std::string_view, 2> kSideNames = {"Player 1", "Player 2"};
  static constexpr RecordFormat kRecordFormat = RecordFormat::none;
  static constexpr std::size_t kHistorySize = kMaxN * kMaxN;

  State() : State(8, Variant::V1a) {}
  State(int n, Variant variant);

  [[nodiscard]] static Result<State> from_spec(const Spec& spec);
  [[nodiscard]] std::string spec() const;

  // Step 1. The Game concept (AIMA names).
  [[nodiscard]] Player to_move() const noexcept {
    return (m_placed & 1) == 0 ? Player::First : Player::Second;
  }
  void actions(Moves& out) const;
  [[nodiscard]] State result(const Move& m) const;
  [[nodiscard]] bool is_terminal() const;
  [[nodiscard]] Value utility() const;  // terminal only: ±1, or ±k for 1b (First's view)
  [[nodiscard]] std::uint64_t key() const;
  // The largest |utility()| the game can reach: a win of it cannot be bettered.
  [[nodiscard]] Value max_payoff() const noexcept { return m_variant == Variant::V1b ? m_n : 1; }

  // Step 2. Ordering and history hooks for the engine.
  [[nodiscard]] int order_hint(const Move& m) const;
  [[nodiscard]] static std::size_t history_index(const Move& m) noexcept {
    return static_cast<std::size_t>(m.row) * kMaxN + m.col;
  }

  // Step 3. Text.
  [[nodiscard]] std::string move_text(const Move& m) const;
  [[nodiscard]] Result<Move> parse_move(std::string_view text) const;
  [[nodiscard]] std::string render() const;
  // Why the game is over, in the words of its rules; empty while it goes on.
  [[nodiscard]] std::string end_cause() const;
  [[nodiscard]] std::string to_text() const;
  [[nodiscard]] Result<State> from_text(std::string_view text) const;

  // Step 4. Queries for heuristics, tables and tests.
  [[nodiscard]] int n() const noexcept { return m_n; }
  [[nodiscard]] Variant variant() const noexcept { return m_variant; }
  [[nodiscard]] int placed() const noexcept { return m_placed; }
  // The column a 1a/1b player must play (0-based); n when all are placed.
  [[nodiscard]] int column() const noexcept { return m_placed; }
  [[nodiscard]] bool is_free(int row, int col) const noexcept {
    return ((free_in_row(row) >> col) & 1U) != 0;
  }
  // Free (unattacked, empty) squares of a row, as a column bit mask.
  [[nodiscard]] std::uint32_t free_in_row(int row) const noexcept;
  // The queen in a column (0-based row), or -1.
  [[nodiscard]] int queen_row(int col) const noexcept { return m_row_of_col[col]; }
  // Who placed the queen in a column (meaningful only where queen_row >= 0).
  [[nodiscard]] Player placed_by(int col) const noexcept {
    return ((m_second_cols >> col) & 1U) != 0 ? Player::Second : Player::First;
  }
  [[nodiscard]] bool is_legal(const Move& m) const noexcept;

 private:
  [[nodiscard]] std::uint32_t full() const noexcept {
    return m_n == 32 ? 0xFFFFFFFFU : ((1U << m_n) - 1U);
  }
  void place(int row, int col);

  std::uint64_t m_diag = 0;  // bit row + col
  std::uint64_t m_anti = 0;  // bit col - row + n - 1
  std::uint32_t m_rows = 0;
  std::uint32_t m_cols = 0;
  std::uint32_t m_second_cols = 0;  // columns whose queen Player::Second placed
  std::uint8_t m_n = 8;
  Variant m_variant = Variant::V1a;
  std::uint8_t m_placed = 0;
  std::array<std::int8_t, kMaxN> m_row_of_col{};
};

// Heuristic `mobility` (the default). 1a/1b: the first column ahead with no
// free square ends the game there at the latest, so the player who would have
// to play it is likely to lose; the sooner that column, the surer the
// estimate. Variant 2: the game lasts about as many more moves as the smaller
// of the counts of rows and columns that still have a free square; if that
// count is odd the side to move is likely to place the last queen.
struct Mobility {
  static constexpr std::string_view kName = "mobility";
  static constexpr std::string_view kAbout =
      "1a/1b: the first dead column ahead decides; 2: parity of the moves left";
  explicit Mobility(std::uint64_t /*seed*/ = 0) {}
  [[nodiscard]] Value operator()(const State& s) const;
};

// Heuristic `random`: a seeded random estimate (the seed's "random utility").
struct RandomHeuristic {
  static constexpr std::string_view kName = "random";
  static constexpr std::string_view kAbout = "a uniformly random estimate (seeded)";
  explicit RandomHeuristic(std::uint64_t seed = 0) : m_state(seed) {}
  [[nodiscard]] Value operator()(const State& s);

 private:
  std::uint64_t m_state;
};

static_assert(PlayableGame<State>);

}  // namespace duel::games::nqueens
