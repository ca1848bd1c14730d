#pragma once
// 5x5 chess in three rule sets (RULES.md §1–2): `gardner` (standard rules),
// `gardner-cs3243` (seed 000: no promotion, pseudo-legal moves, a move that
// leaves one's king attacked loses) and `minichess-comp472` (seed 004: king
// capture, queen promotion only). One generator, `State<Rules>`, with the rule
// set as a type (rules.hpp).
//
// Why this shape: the state is a `Position` (bitboards, clock, key: 40 bytes)
// plus, for `gardner` only, the keys of the positions since the last capture
// or pawn move, so `is_terminal()` can see a threefold repetition without any
// outside record: copy-make stays the whole story (DESIGN habit 1).
#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "duel/core/result.hpp"
#include "duel/core/rng.hpp"
#include "duel/core/spec.hpp"
#include "duel/core/types.hpp"
#include "duel/games/game.hpp"
#include "duel/games/minichess/position.hpp"

namespace duel::games::minichess {

// How (and whether) a game has ended; the side to move is the one concerned.
// The largest maximum number of turns a comp472 game may be given.
inline constexpr int kMaxTurnCap = 10000;

enum class Ending : std::uint8_t {
  None,
  Checkmate,     // gardner: in check, no legal move: the side to move loses
  Stalemate,     // gardner: not in check, no legal move: Rules::kStalemate
  NoSafeMove,    // cs3243: pseudo-legal moves but none keeps the king safe: loses
  ExposedKing,   // cs3243: the last mover left its king attacked: the side to move wins
  KingCaptured,  // comp472: the side to move has no king: it loses
  NoMoves,       // cs3243, comp472: no pseudo-legal move at all: draw
  DrawClock,     // the progress clock reached the limit: draw
  TurnCap,       // comp472: turn m is complete (the seed's maximum number of turns): draw
  Repetition,    // gardner: the position occurs for the third time: draw
};
[[nodiscard]] std::string_view ending_text(Ending e) noexcept;

struct E0;
struct E1;
struct E2;
struct E3;
struct N1;
struct RandomHeuristic;

template <class Rules>
class State {
 public:
  using Move = minichess::Move;
  using Moves = minichess::Moves;
  // The default (first) heuristic is the one measured strongest for the
  // rule set: n1, a network with weights of its own in Gardner and in
  // CS3243 (docs/net.md), there; e3 in COMP 472, which has no network
  // (SPRTs against e2, docs/tuning.md).
  using Heuristics =
      std::conditional_t<std::is_same_v<Rules, Gardner> || std::is_same_v<Rules, Cs3243>,
                         std::tuple<N1, E3, E2, E1, E0, RandomHeuristic>,
                         std::tuple<E3, E2, E1, E0, RandomHeuristic>>;
  using RuleSet = Rules;
  static constexpr std::string_view kName = Rules::kName;
  static constexpr std::array<std::string_view, 2> kSideNames = {"White", "Black"};
  static constexpr RecordFormat kRecordFormat = RecordFormat::pgn;
  static constexpr std::size_t kHistorySize = kSquares * kSquares;  // from x to
  // Engine hooks (search/concepts.hpp), in Value units where a pawn is
  // kE0Scale = 50: payoffs are win/loss/draw, aspiration windows start half
  // a pawn wide, reverse futility trusts a lead of 1.2 pawns a ply.
  static constexpr bool kWinLossDraw = true;
  static constexpr Value kAspiration = 25;
  static constexpr Value kFutilityMargin = 60;
  // The engine's selective search (search/features.hpp): all of it, with a
  // repetition inside the search's line scored a draw (47.2% against
  // Fairy-Stockfish over 1,200 games, 45.5% without, docs/STRENGTH.md).
  static constexpr search::Features kFeatures = {.repetition_draws = true};

  // The start position with the default limits.
  State();
  // A copy takes the repetition history's used entries only: entries from
  // m_history_len on are never read, so they are left unset. A search
  // copies a state at every node, and the whole array is 800 bytes: copying
  // it all took a twentieth of the search's time.
  State(const State& other) noexcept { copy_from(other); }
  State& operator=(const State& other) noexcept {
    if (this != &other) copy_from(other);
    return *this;
  }
  ~State() = default;
  [[nodiscard]] static Result<State> from_spec(const Spec& spec);
  [[nodiscard]] std::string spec() const;
  // A position from FEN with the draw limit `limit` in the spec's unit and,
  // in comp472, the game's length capped at `max_turns` turns (0: no cap).
  [[nodiscard]] static Result<State> from_fen(std::string_view fen,
                                              int limit = Rules::kLimitDefault,
                                              int max_turns = Rules::kTurnCapDefault);

  // Step 1. The Game concept (AIMA names).
  [[nodiscard]] Player to_move() const noexcept { return m_pos.to_move(); }
  void actions(Moves& out) const noexcept;
  [[nodiscard]] State result(const Move& m) const noexcept;
  [[nodiscard]] bool is_terminal() const noexcept { return ending() != Ending::None; }
  // No earlier position can recur, the draw clock is at zero and no turn cap
  // counts down: the future depends on the position alone (search::HasMemory).
  [[nodiscard]] bool memoryless() const noexcept {
    return m_history_len == 0 && m_pos.clock() == 0 && m_max_turns == 0;
  }
  [[nodiscard]] Value utility() const noexcept;  // terminal only: ±1 or 0, White's view
  // No sequence of moves can end in a win for either side
  // (search::HasDeadDraw): no pawns, and a king alone against a king with at
  // most one knight or bishop. Such material cannot mate, and nothing can
  // be added to it, so every way the game can end is a draw. Gardner's
  // rules only: under CS3243's a side with no safe move loses, under COMP
  // 472's a king with nothing else to move must step into capture.
  [[nodiscard]] bool dead_draw() const noexcept {
    if constexpr (Rules::kMoveRule == MoveRule::Legal && Rules::kStalemate == Outcome::Draw) {
      const Bitboard occ = m_pos.occupied();
      const Bitboard kings_and_minors =
          m_pos.pieces(Piece::King) | m_pos.pieces(Piece::Bishop) | m_pos.pieces(Piece::Knight);
      return std::popcount(occ) <= 3 && (occ & ~kings_and_minors) == 0;
    }
    return false;
  }
  [[nodiscard]] std::uint64_t key() const noexcept { return m_pos.key(); }
  [[nodiscard]] Ending ending() const noexcept;

  // Step 2. Ordering hooks for the engine: captures by victim, then attacker.
  [[nodiscard]] int order_hint(const Move& m) const noexcept;
  // Capture quiescence (search::HasTactics): captures and promotions are
  // tactical; the side to move may stand pat unless its king is attacked
  // (in check in gardner and cs3243; about to be taken in comp472).
  [[nodiscard]] bool is_tactical(const Move& m) const noexcept {
    return m.promotion() != Piece::None || (m_pos.occupied() & bit(m.to())) != 0;
  }
  [[nodiscard]] bool may_stand_pat() const noexcept { return !m_pos.in_check(); }
  // actions' tactical moves alone, in actions' order (search::HasTacticalActions):
  // quiescence standing pat searches nothing else.
  void tactical_actions(Moves& out) const noexcept;
  // Moves that lose by force (search::HasForcedLoss): in cs3243 a move that
  // leaves the mover's king attacked loses at once (ExposedKing); in comp472
  // the opponent takes that king on the next ply (KingCaptured), unless the
  // move takes the enemy king first or the draw clock ends the game before.
  [[nodiscard]] int loss_plies(const Move& m) const noexcept
      requires(Rules::kMoveRule != MoveRule::Legal) {
    if (m_pos.is_safe(m)) return 0;
    if constexpr (Rules::kMoveRule == MoveRule::SelfCheckLoses) {
      return 1;
    } else {
      if (m_pos.piece_on(m.to()) == Piece::King) return 0;
      return counted_out(m_pos.play(m)) != Ending::None ? 0 : 2;
    }
  }
  // Static exchange evaluation of a capture (search::HasExchange).
  [[nodiscard]] bool see_ge(const Move& m, int threshold) const noexcept {
    return m_pos.see_ge(m, threshold);
  }
  [[nodiscard]] static std::size_t history_index(const Move& m) noexcept {
    return static_cast<std::size_t>(m.from()) * kSquares + m.to();
  }

  // Step 3. Text: FEN as Fairy-Stockfish writes it, UCI moves.
  [[nodiscard]] std::string move_text(const Move& m) const;
  // UCI (`b1c3`, `a4a5q`, any case) or the COMP 472 form (`B2 B3`); only
  // moves in `actions()`; errors say why the move is not one.
  [[nodiscard]] Result<Move> parse_move(std::string_view text) const;
  // What a person or a script may write: SAN (`Nc3`) as well as every form
  // parse_move reads (`games::read_move`; defined in san.cpp).
  [[nodiscard]] Result<Move> read_move(std::string_view text) const;
  [[nodiscard]] std::string render() const;
  // Why the game is over, in the words of its rules; empty while it goes on.
  [[nodiscard]] std::string end_cause() const;
  [[nodiscard]] std::string to_text() const;  // FEN
  [[nodiscard]] Result<State> from_text(std::string_view text) const;

  // Step 4. Queries for heuristics, perft and tests.
  [[nodiscard]] const Position<Rules>& position() const noexcept { return m_pos; }
  [[nodiscard]] int draw_limit_plies() const noexcept { return m_limit; }
  [[nodiscard]] int max_turns() const noexcept { return m_max_turns; }  // 0: no cap
  // The same position with the game's length capped at `turns` (comp472's m;
  // 0..kMaxTurnCap, 0 = none).
  [[nodiscard]] State with_max_turns(int turns) const noexcept
      requires(!Rules::kTurnCapKey.empty()) {
    assert(turns >= 0 && turns <= kMaxTurnCap);
    State out = *this;
    out.m_max_turns = static_cast<std::uint16_t>(turns);
    return out;
  }
  // The draw clock on a heuristic's score (e2, e3, n1): the nearer the
  // limit, the less a lead is worth, so the side ahead makes progress (a
  // capture resets the clock). Division truncates towards zero: symmetric
  // about zero.
  template <class Int>
  [[nodiscard]] Int scaled_by_draw_clock(Int score) const noexcept {
    if (m_limit <= 0) return score;
    return score * (2 * m_limit - m_pos.clock()) / (2 * m_limit);
  }
  // How many times the current position occurred before (same side to move)
  // since the last capture or pawn move.
  [[nodiscard]] int repetitions() const noexcept;
  // Plies back to the latest earlier occurrence of the current position (0
  // when it has none): the engine tells a repetition inside its own tree
  // from one of a position played before the search began.
  [[nodiscard]] int repetition_distance() const noexcept { return m_repetition_distance; }
  [[nodiscard]] std::uint64_t compute_key() const noexcept { return m_pos.compute_key(); }

 private:
  struct Blank {};
  explicit State(Blank) noexcept {}
  // The draws that count (the progress clock, comp472's turn cap) in `p`:
  // after every ply, or in comp472 only when a turn is complete (White to
  // move). None when neither has run out.
  [[nodiscard]] Ending counted_out(const Position<Rules>& p) const noexcept {
    if constexpr (Rules::kTurnEndRules) {
      if (p.to_move() != Player::First) return Ending::None;
      if (p.clock() >= m_limit) return Ending::DrawClock;
      if (m_max_turns > 0 && p.fullmove() > m_max_turns) return Ending::TurnCap;
      return Ending::None;
    } else {
      return p.clock() >= m_limit ? Ending::DrawClock : Ending::None;
    }
  }
  void copy_from(const State& other) noexcept {
    m_pos = other.m_pos;
    m_limit = other.m_limit;
    m_max_turns = other.m_max_turns;
    m_history_len = other.m_history_len;
    m_repetitions = other.m_repetitions;
    m_repetition_distance = other.m_repetition_distance;
    std::copy_n(other.m_history.begin(), other.m_history_len, m_history.begin());
  }

  Position<Rules> m_pos;
  std::uint8_t m_limit = Rules::kLimitDefault * Rules::kPliesPerLimitUnit;
  std::uint16_t m_max_turns = Rules::kTurnCapDefault;
  std::uint8_t m_history_len = 0;
  // repetitions(), counted once when the position is made: the end test and
  // the engine both ask at every node.
  std::uint8_t m_repetitions = 0;
  std::uint8_t m_repetition_distance = 0;  // repetition_distance(), made with it
  // Oldest first; entries from m_history_len on are not set (see the copy
  // constructor).
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-member-init)
  std::array<std::uint64_t, Rules::kHistory> m_history;
};

// Seed 000's move form (RULES.md §1b, "an agent returns ((x1, y1), (x2,
// y2))"): `(('b', 0), ('c', 2))` for b1c3, rows counted from 0. parse_move
// reads it back in every rule set.
[[nodiscard]] std::string tuple_text(const Move& m);

using GardnerState = State<Gardner>;
using Cs3243State = State<Cs3243>;
using Comp472State = State<Comp472>;

// Piece values of seed 004's e0 (RULES.md §2), with the usual 5 for a rook
// (seed 004 has no rooks).
inline constexpr std::array<int, kPieceTypes> kE0Values = {1, 3, 3, 5, 9, 999};
// Value per e0 point (a pawn): 999 + 90 stays far below kUnit. e1 and e2 use
// the same scale, so the scores of all three print alike (in pawns).
inline constexpr Value kE0Scale = 50;

// The scale in the units people read: a centipawn is kE0Scale / 100
// Values. Every boundary that prints or reads centipawns or pawns (UCI
// scores both ways, PGN comments, the tuner's reported scores) converts
// here, so the scale is written once. Values come in as double: records
// hold them as fractions of a point.
[[nodiscard]] constexpr double to_centipawns(double values) noexcept {
  return values * 100.0 / kE0Scale;
}
[[nodiscard]] constexpr double to_pawns(double values) noexcept {
  return values / kE0Scale;
}
// Rounded to the nearest Value (halves away from zero); the caller clamps.
[[nodiscard]] constexpr Value from_centipawns(double cp) noexcept {
  const double v = cp * kE0Scale / 100.0;
  return static_cast<Value>(v < 0 ? v - 0.5 : v + 0.5);
}

// Heuristic `e0`: seed 004's material count (#P + 3#B + 3#N + 9#Q + 999#K)
// for White minus the same for Black, times kE0Scale.
struct E0 {
  static constexpr std::string_view kName = "e0";
  static constexpr std::string_view kAbout =
      "seed 004's material: P 1, N 3, B 3, R 5, Q 9, K 999, White minus Black";
  explicit E0(std::uint64_t /*seed*/ = 0) noexcept {}
  template <class Rules>
  [[nodiscard]] Value operator()(const State<Rules>& s) const noexcept {
    const auto& p = s.position();
    int score = 0;
    for (int t = 0; t < kPieceTypes; ++t) {
      const auto type = static_cast<Piece>(t);
      score += kE0Values[t] * (std::popcount(p.pieces(Player::First, type)) -
                               std::popcount(p.pieces(Player::Second, type)));
    }
    return search::clamp_estimate(score * kE0Scale);
  }
};

// Heuristic `random`: a seeded uniformly random estimate.
struct RandomHeuristic {
  static constexpr std::string_view kName = "random";
  static constexpr std::string_view kAbout = "a uniformly random estimate, seeded";
  explicit RandomHeuristic(std::uint64_t seed = 0) noexcept : m_rng(seed) {}
  template <class Rules>
  [[nodiscard]] Value operator()(const State<Rules>& /*s*/) noexcept {
    return static_cast<Value>(m_rng.between(-kUnit / 2, kUnit / 2));
  }

 private:
  Rng m_rng;
};

// Perft as RULES.md §1a/§1b/§2 defines it (see position.hpp): draw rules and
// the game's own end rules are ignored, as in Fairy-Stockfish.
template <class Rules>
[[nodiscard]] std::uint64_t perft(const State<Rules>& s, int depth) noexcept {
  return perft(s.position(), depth);
}
// Perft split by first move, in generation order.
template <class Rules>
[[nodiscard]] std::vector<std::pair<Move, std::uint64_t>> divide(const State<Rules>& s, int depth) {
  std::vector<std::pair<Move, std::uint64_t>> out;
  Moves moves;
  perft_moves(s.position(), moves);
  for (const Move m : moves) out.emplace_back(m, perft(s.position().play(m), depth - 1));
  return out;
}

// ---------------------------------------------------------------------------
// Hot-path definitions.

template <class Rules>
int State<Rules>::repetitions() const noexcept {
  return m_repetitions;
}

template <class Rules>
Ending State<Rules>::ending() const noexcept {
  const Ending counted = counted_out(m_pos);
  if constexpr (Rules::kMoveRule == MoveRule::Legal) {
    if (!m_pos.has_safe_move()) return m_pos.in_check() ? Ending::Checkmate : Ending::Stalemate;
    if (counted != Ending::None) return counted;
    if (repetitions() >= 2) return Ending::Repetition;
  } else if constexpr (Rules::kMoveRule == MoveRule::SelfCheckLoses) {
    if (m_pos.exposed()) return Ending::ExposedKing;
    bool any = false;
    const bool safe = m_pos.visit_pseudo_moves([&](Move m) {
      any = true;
      return m_pos.is_safe(m);
    });
    if (!any) return Ending::NoMoves;
    if (!safe) return Ending::NoSafeMove;
    if (counted != Ending::None) return counted;
  } else {
    if (!m_pos.has_king(m_pos.to_move())) return Ending::KingCaptured;
    if (!m_pos.has_pseudo_move()) return Ending::NoMoves;
    if (counted != Ending::None) return counted;
  }
  return Ending::None;
}

template <class Rules>
void State<Rules>::tactical_actions(Moves& out) const noexcept {
  out.clear();
  if (counted_out(m_pos) != Ending::None) return;
  if constexpr (Rules::kMoveRule == MoveRule::Legal) {
    if (repetitions() >= 2) return;
    m_pos.template safe_moves<true>(out);
  } else if constexpr (Rules::kMoveRule == MoveRule::SelfCheckLoses) {
    // actions' list is empty when no move keeps the king safe, but such a
    // position has ended (NoSafeMove) and is never asked.
    if (m_pos.exposed()) return;
    m_pos.pseudo_tactical_moves(out);
  } else {
    if (!m_pos.has_king(m_pos.to_move())) return;
    m_pos.pseudo_tactical_moves(out);
  }
}

template <class Rules>
void State<Rules>::actions(Moves& out) const noexcept {
  out.clear();
  if (counted_out(m_pos) != Ending::None) {
    // Only a mate on the last ply of the clock still counts; there are then
    // no moves either way.
    return;
  }
  if constexpr (Rules::kMoveRule == MoveRule::Legal) {
    if (repetitions() >= 2) return;
    m_pos.safe_moves(out);
  } else if constexpr (Rules::kMoveRule == MoveRule::SelfCheckLoses) {
    if (m_pos.exposed()) return;
    m_pos.pseudo_moves(out);
    for (const Move m : out) {
      if (m_pos.is_safe(m)) return;
    }
    out.clear();  // no move keeps the king safe: lost
  } else {
    if (!m_pos.has_king(m_pos.to_move())) return;
    m_pos.pseudo_moves(out);
  }
}

template <class Rules>
State<Rules> State<Rules>::result(const Move& m) const noexcept {
  State next{Blank{}};
  next.m_pos = m_pos.play(m);
  next.m_limit = m_limit;
  next.m_max_turns = m_max_turns;
  if constexpr (Rules::kRepetition) {
    // After an irreversible move (the clock back at zero) no earlier
    // position can recur: the history stays empty.
    if (next.m_pos.clock() != 0) {
      next.m_history_len = m_history_len;
      std::copy_n(m_history.begin(), m_history_len, next.m_history.begin());
      if (m_history_len < Rules::kHistory) next.m_history[next.m_history_len++] = m_pos.key();
    }
    // The same side to move: every second position back.
    // m_history[len - j] is the position j plies back.
    const std::uint64_t k = next.m_pos.key();
    const int len = next.m_history_len;
    int count = 0;
    int distance = 0;
    for (int i = len - 2; i >= 0; i -= 2) {
      if (next.m_history[i] != k) continue;
      if (count++ == 0) distance = len - i;
    }
    next.m_repetitions = static_cast<std::uint8_t>(count);
    next.m_repetition_distance = static_cast<std::uint8_t>(distance);
  }
  return next;
}

template <class Rules>
Value State<Rules>::utility() const noexcept {
  const Value mover_loses = m_pos.to_move() == Player::First ? -1 : 1;
  switch (ending()) {
    case Ending::Checkmate:
    case Ending::NoSafeMove:
    case Ending::KingCaptured: return mover_loses;
    case Ending::ExposedKing: return -mover_loses;
    case Ending::Stalemate: return Rules::kStalemate == Outcome::Loss ? mover_loses : 0;
    default: return 0;
  }
}

template <class Rules>
int State<Rules>::order_hint(const Move& m) const noexcept {
  static constexpr std::array<int, kPieceTypes + 1> kValue = {1, 3, 3, 5, 9, 100, 0};
  // The attacker breaks ties between victims of one value, the cheapest
  // first. The king counts as the cheapest: a king's capture the engine
  // searches takes an undefended piece (Gardner's legal moves; the others'
  // king captures of a defended piece lose by force and are skipped,
  // search::HasForcedLoss). At its value of 100 it put every such capture
  // but a queen's below the quiet moves.
  static constexpr std::array<int, kPieceTypes + 1> kAttacker = {1, 3, 3, 5, 9, 0, 0};
  const Piece victim = m_pos.piece_on(m.to());
  int hint = 0;
  if (victim != Piece::None) {
    hint += 16 * kValue[type_index(victim)] - kAttacker[type_index(m_pos.piece_on(m.from()))];
  }
  if (m.promotion() != Piece::None) hint += 8 * kValue[type_index(m.promotion())];
  return hint;
}

static_assert(PlayableGame<GardnerState>);
static_assert(PlayableGame<Cs3243State>);
static_assert(PlayableGame<Comp472State>);
static_assert(NamedHeuristic<E0, GardnerState>);
static_assert(NamedHeuristic<RandomHeuristic, Comp472State>);
static_assert(search::HasOrderHint<GardnerState>);
static_assert(search::HasHistoryIndex<GardnerState>);
static_assert(search::HasTactics<GardnerState>);
static_assert(search::HasExchange<GardnerState>);
static_assert(search::HasDeadDraw<GardnerState>);
static_assert(search::WinLossDraw<GardnerState>);
static_assert(search::HasForcedLoss<Cs3243State> && search::HasForcedLoss<Comp472State> &&
              !search::HasForcedLoss<GardnerState>);

}  // namespace duel::games::minichess

#include "duel/games/minichess/eval.hpp"         // IWYU pragma: export (e1, e2)
#include "duel/games/minichess/linear_eval.hpp"  // IWYU pragma: export (e3)
#include "duel/games/minichess/net_eval.hpp"     // IWYU pragma: export (n1)
