#pragma once
// KCell, seed 002 (RULES.md §4): n pieces each on a line of k cells. Player 1
// (`o`) starts on cells 1..n and moves right, player 2 (`x`) starts on cells
// k-n+1..k and moves left. A move names the cell of one of the mover's pieces:
// it steps one cell forward if that cell is empty, otherwise jumps over the
// piece in front if the cell after it is empty and then keeps jumping while it
// can. A player with no move passes (-1). Bringing all n pieces to the n far
// cells wins at once; when neither player can move, the longer unbroken run of
// pieces from the far edge wins (equal runs draw).
//
// Why this shape: a position is two 64-bit masks (bit c-1 = cell c), the board
// size and the side to move — 24 bytes, copied by `result()`. Which pieces can
// move is a handful of shifts on the masks, so `actions()`, `is_terminal()` and
// the heuristics never loop over empty cells. No pass flag is needed: a pass is
// only legal when the mover is stuck and the opponent is not (both stuck is a
// terminal position), so two passes in a row cannot happen.
#include <array>
#include <bit>
#include <cassert>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>

#include "duel/core/move_list.hpp"
#include "duel/core/result.hpp"
#include "duel/core/rng.hpp"
#include "duel/core/spec.hpp"
#include "duel/core/types.hpp"
#include "duel/games/game.hpp"

namespace duel::games::kcell {

inline constexpr int kMaxCells = 64;                    // a board fits in one machine word
inline constexpr int kMaxPieces = (kMaxCells - 1) / 2;  // 31, from k >= 2n + 1

// A move: the cell number (1..k) of the piece that moves, or kPass. RULES.md
// §4 and the seed: "a legal move is completely defined by the number of a cell".
using Move = std::int8_t;
inline constexpr Move kPass = -1;  // RULES.md §4: "a pass is written -1"

struct Tempo;
struct Progress;
struct RandomHeuristic;

class State {
 public:
  using Move = kcell::Move;
  using Moves = MoveList<Move, kMaxPieces>;  // one move per piece, or the lone pass
  using Heuristics = std::tuple<Tempo, Progress, RandomHeuristic>;
  static constexpr std::string_view kName = "kcell";
  static constexpr std::array<std::string_view, 2> kSideNames = {"Player 1", "Player 2"};
  static constexpr RecordFormat kRecordFormat = RecordFormat::none;
  static constexpr int kDefaultN = 2;  // the seed's illustration [oo___xx]
  static constexpr int kDefaultK = 7;

  // The start position of kcell:n=2,k=7.
  State() : State(kDefaultN, kDefaultK) {}
  // The start position; requires 1 <= n and 2n + 1 <= k <= 64 (see `make`).
  State(int n, int k);
  // The start position, or a one-line error naming the bad parameter.
  [[nodiscard]] static Result<State> make(int n, int k);
  [[nodiscard]] static Result<State> from_spec(const Spec& spec);
  [[nodiscard]] std::string spec() const;

  // Step 1. The Game concept (AIMA names).
  [[nodiscard]] Player to_move() const noexcept { return m_to_move; }
  void actions(Moves& out) const noexcept;
  [[nodiscard]] State result(const Move& m) const noexcept;
  [[nodiscard]] bool is_terminal() const noexcept {
    return is_home(Player::First) || is_home(Player::Second) ||
           (movable(Player::First) | movable(Player::Second)) == 0;
  }
  [[nodiscard]] Value utility() const noexcept;  // terminal only: +1 o wins, -1 x wins, 0 draw
  [[nodiscard]] std::uint64_t key() const noexcept;

  // Step 2. Move ordering for the engine: the default heuristic's (`tempo`)
  // estimate of the position the move leads to, for the mover, scaled to a
  // small positive integer (docs/rules/kcell.md, "Move ordering").
  [[nodiscard]] int order_hint(const Move& m) const noexcept;

  // Step 3. Text.
  [[nodiscard]] std::string move_text(const Move& m) const;
  [[nodiscard]] Result<Move> parse_move(std::string_view text) const;
  [[nodiscard]] std::string render() const;
  // Why the game is over, in the words of its rules; empty while it goes on.
  [[nodiscard]] std::string end_cause() const;
  [[nodiscard]] std::string to_text() const;  // "[_oox_x_] o"
  [[nodiscard]] Result<State> from_text(std::string_view text) const;

  // Step 4. Queries for heuristics, tables and tests. Cells are 1..k; masks
  // hold cell c in bit c-1.
  [[nodiscard]] int n() const noexcept { return m_n; }
  [[nodiscard]] int k() const noexcept { return m_k; }
  [[nodiscard]] std::uint64_t pieces(Player p) const noexcept {
    return p == Player::First ? m_o : m_x;
  }
  // 'o', 'x' or '_' for cell 1..k.
  [[nodiscard]] char at(int cell) const noexcept;
  // The pieces of `p` that have a legal step or jump.
  [[nodiscard]] std::uint64_t movable(Player p) const noexcept {
    const std::uint64_t occupied = m_o | m_x;
    const std::uint64_t free = ~occupied & full();
    if (p == Player::First) return m_o & ((free >> 1) | ((occupied >> 1) & (free >> 2)));
    return m_x & ((free << 1) | ((occupied << 1) & (free << 2)));
  }
  // The n far cells of `p` (P1: k-n+1..k, P2: 1..n).
  [[nodiscard]] std::uint64_t home(Player p) const noexcept {
    const std::uint64_t low = (std::uint64_t{1} << m_n) - 1;
    return p == Player::First ? low << (m_k - m_n) : low;
  }
  [[nodiscard]] bool is_home(Player p) const noexcept { return pieces(p) == home(p); }
  // Pieces of `p` in an unbroken run from its far edge (P1: from cell k down).
  [[nodiscard]] int run(Player p) const noexcept {
    if (p == Player::Second) return std::countr_one(m_x);
    return std::countl_one(m_o << (kMaxCells - m_k));
  }
  // Cells the pieces of `p` still have to travel to fill its far cells.
  [[nodiscard]] int distance(Player p) const noexcept;
  // The cell the piece on `cell` (which must hold one) would reach, or `cell`
  // itself if it cannot move.
  [[nodiscard]] int destination(int cell) const noexcept;
  // The same position seen from the other side: the board mirrored, o and x
  // swapped, the other player to move. Values and utilities change sign.
  [[nodiscard]] State flipped() const noexcept;

  friend bool operator==(const State&, const State&) = default;

 private:
  [[nodiscard]] std::uint64_t full() const noexcept {
    return m_k == kMaxCells ? ~std::uint64_t{0} : (std::uint64_t{1} << m_k) - 1;
  }
  [[nodiscard]] bool occupied(int bit) const noexcept { return ((m_o | m_x) >> bit) & 1U; }

  std::uint64_t m_o = 0;  // P1's pieces, bit c-1 for cell c
  std::uint64_t m_x = 0;  // P2's pieces
  std::uint8_t m_n = kDefaultN;
  std::uint8_t m_k = kDefaultK;
  Player m_to_move = Player::First;
};

// Heuristic `tempo` (the default). What exactly solved boards (n = 2..5,
// k = 9..17) show about KCell:
// - Once every o stands right of every x the sides never meet again: a pure
//   race, won by the side with less distance to go (the mover wins a tie).
// - Once a frozen block forms (an o pair facing an x pair: nothing in it can
//   ever move) the game will end blocked, and only the pieces already beyond
//   that block can still join a far-edge run: compare those.
// - Before that, KCell is a zugzwang fight, not a race: the side that runs out
//   of harmless moves must step next to an enemy and be jumped. Being ahead in
//   distance or having pieces through the enemy counts *against* a side (those
//   pieces have few moves left); what wins is mobility and room to move behind
//   one's own pieces. The weights of that phase were fitted on exactly solved
//   boards to minimise wrong moves of a depth-6 search (docs/rules/kcell.md).
struct Tempo {
  static constexpr std::string_view kName = "tempo";
  static constexpr std::string_view kAbout =
      "race once the sides have passed, far-edge runs once locked, and in the fight the tempo "
      "reserve: mobility and free room count, pieces already through count against";
  explicit Tempo(std::uint64_t /*seed*/ = 0) noexcept {}
  [[nodiscard]] Value operator()(const State& s) const noexcept;
};

// Heuristic `progress`: the obvious idea, kept as a baseline for the tables —
// the difference of the distances still to travel, plus half a move for the
// side to move. It plays well once the sides have passed each other but badly
// in the fight (see `tempo`).
struct Progress {
  static constexpr std::string_view kName = "progress";
  static constexpr std::string_view kAbout =
      "distance race: cells each side still has to travel, plus half a move for the mover";
  explicit Progress(std::uint64_t /*seed*/ = 0) noexcept {}
  [[nodiscard]] Value operator()(const State& s) const noexcept;
};

// Heuristic `random`: a seeded uniformly random estimate, the seed's
// RandomKCellHeuristic (the opponent the default heuristic must beat).
struct RandomHeuristic {
  static constexpr std::string_view kName = "random";
  static constexpr std::string_view kAbout =
      "a uniformly random estimate, seeded (the seed's RandomKCellHeuristic)";
  explicit RandomHeuristic(std::uint64_t seed = 0) noexcept : m_rng(seed) {}
  [[nodiscard]] Value operator()(const State& /*s*/) noexcept {
    return static_cast<Value>(m_rng.between(-kUnit / 2, kUnit / 2));
  }

 private:
  Rng m_rng;
};

// ---------------------------------------------------------------------------
// Hot-path definitions (inline: the searches call these at every node).

inline void State::actions(Moves& out) const noexcept {
  out.clear();
  if (is_home(Player::First) || is_home(Player::Second)) return;
  std::uint64_t mine = movable(m_to_move);
  if (mine == 0) {
    if (movable(other(m_to_move)) != 0) out.push_back(kPass);  // RULES.md §4: forced pass
    return;                                                    // neither can move: game over
  }
  while (mine != 0) {
    out.push_back(static_cast<Move>(std::countr_zero(mine) + 1));
    mine &= mine - 1;
  }
}

inline int State::destination(int cell) const noexcept {
  const int from = cell - 1;
  if (((m_o >> from) & 1U) != 0) {                               // o moves right
    if (from + 1 < m_k && !occupied(from + 1)) return cell + 1;  // step
    int at = from;
    while (at + 2 < m_k && occupied(at + 1) && !occupied(at + 2)) at += 2;  // chain of jumps
    return at + 1;
  }
  if (from - 1 >= 0 && !occupied(from - 1)) return cell - 1;  // x moves left
  int at = from;
  while (at - 2 >= 0 && occupied(at - 1) && !occupied(at - 2)) at -= 2;
  return at + 1;
}

inline State State::result(const Move& m) const noexcept {
  State next = *this;
  next.m_to_move = other(m_to_move);
  if (m == kPass) return next;
  assert(m >= 1 && m <= m_k && ((pieces(m_to_move) >> (m - 1)) & 1U) != 0);
  const int to = destination(m);
  assert(to != m);
  const std::uint64_t change = (std::uint64_t{1} << (m - 1)) | (std::uint64_t{1} << (to - 1));
  if (m_to_move == Player::First) {
    next.m_o ^= change;
  } else {
    next.m_x ^= change;
  }
  return next;
}

inline Value State::utility() const noexcept {
  assert(is_terminal());
  if (is_home(Player::First)) return 1;  // RULES.md §4: all n on the far cells wins
  if (is_home(Player::Second)) return -1;
  const int o = run(Player::First);  // RULES.md §4: neither can move, longer run wins
  const int x = run(Player::Second);
  return o > x ? 1 : (o < x ? -1 : 0);
}

inline std::uint64_t State::key() const noexcept {
  // Three rounds of a 64-bit bijective mix over (k, side), x's mask and o's
  // mask: a random-looking word for each position, with no table to keep in
  // step with `result()`.
  std::uint64_t h = mix64((std::uint64_t{m_k} << 1) | static_cast<std::uint64_t>(index(m_to_move)));
  h = mix64(h ^ m_x);
  return mix64(h + m_o);
}

inline int State::distance(Player p) const noexcept {
  // The sum of the far cells' positions minus the sum of the pieces' positions:
  // which piece ends on which far cell does not change the total.
  int sum = 0;
  for (std::uint64_t b = pieces(p); b != 0; b &= b - 1) sum += std::countr_zero(b);
  const int low = m_n * (m_n - 1) / 2;  // 0 + 1 + ... + (n-1): P2's far bits
  if (p == Player::Second) return sum - low;
  return m_n * (m_k - m_n) + low - sum;  // P1's far bits k-n .. k-1
}

static_assert(sizeof(State) == 24, "a KCell position is two masks and three bytes");
static_assert(PlayableGame<State>);
static_assert(NamedHeuristic<Tempo, State>);
static_assert(NamedHeuristic<Progress, State>);
static_assert(NamedHeuristic<RandomHeuristic, State>);
static_assert(search::HasOrderHint<State>);

}  // namespace duel::games::kcell
