#pragma once
// English draughts / American checkers (RULES.md §5, seed 003). Player::First
// is Black: Black moves first (seed 003), so it is the searches' MAX and every
// utility and heuristic is from Black's view.
//
// Why this shape: the state is a `Position` (bitboards, clock, key) plus the
// placement keys since the last irreversible move (a capture or a man's
// move: men never move back, so no earlier placement can recur), so
// `is_terminal()` sees the third repetition without any outside record:
// copy-make stays the whole story (DESIGN habit 1).
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "duel/core/result.hpp"
#include "duel/core/rng.hpp"
#include "duel/core/spec.hpp"
#include "duel/core/types.hpp"
#include "duel/games/checkers/position.hpp"
#include "duel/games/game.hpp"

namespace duel::games::checkers {

// How (and whether) a game has ended; the side to move is the one concerned.
enum class Ending : std::uint8_t {
  None,
  NoMoves,     // no pieces or all blocked: the side to move loses
  DrawClock,   // draw-plies plies without a capture or a crowning: draw
  Repetition,  // the same placement for the third time: draw
};
[[nodiscard]] std::string_view ending_text(Ending e) noexcept;

struct Positional;
struct Material;
struct RandomHeuristic;
struct Tuned;  // linear_eval.hpp
struct N1;     // net_eval.hpp

class State {
 public:
  using Move = checkers::Move;
  using Moves = checkers::Moves;
  using Heuristics = std::tuple<N1, Tuned, Positional, Material, RandomHeuristic>;
  static constexpr std::string_view kName = "checkers";
  static constexpr std::array<std::string_view, 2> kSideNames = {"Black", "White"};  // seed 003
  static constexpr RecordFormat kRecordFormat = RecordFormat::pdn;
  static constexpr std::string_view kLimitKey = "draw-plies";
  static constexpr int kLimitDefault = 50;  // RULES.md §5, seed 003: 50 turns
  static constexpr int kLimitMax = 100;     // the history holds this many keys
  static constexpr std::size_t kHistorySize = kSquares * kSquares;  // from x to
  // The engine's search (search/features.hpp): quiescence plays out the
  // compulsory captures; aspiration windows at the root, and late move
  // reductions and reverse futility where no capture is pending (measured,
  // docs/engine.md, "Checkers' search"); no repetition inside the line is
  // scored a draw (measured without it). The other forward pruning is the
  // chess family's (HasTactics), which checkers does not have.
  static constexpr search::Features kFeatures = {.repetition_draws = false};
  // The first aspiration window's half-width: a seventh of a man (`n1` and
  // `tuned` count a man about 170).
  static constexpr Value kAspiration = 25;
  // Reverse futility's margin a ply of depth: about a third of a man.
  static constexpr Value kFutilityMargin = 60;

  // The start position with the default draw limit.
  State();
  [[nodiscard]] static Result<State> from_spec(const Spec& spec);
  [[nodiscard]] std::string spec() const;
  // A position in either text form (docs/rules/checkers.md) with draw limit `limit`.
  [[nodiscard]] static Result<State> parse(std::string_view text, int limit = kLimitDefault);

  // Step 1. The Game concept (AIMA names).
  [[nodiscard]] Player to_move() const noexcept { return m_pos.to_move(); }
  void actions(Moves& out) const noexcept;
  [[nodiscard]] State result(const Move& m) const noexcept;
  [[nodiscard]] bool is_terminal() const noexcept { return ending() != Ending::None; }
  // No earlier placement can recur and the draw clock is at zero: the future
  // depends on the position alone (search::HasMemory).
  [[nodiscard]] bool memoryless() const noexcept {
    return m_history_len == 0 && m_pos.clock() == 0;
  }
  [[nodiscard]] Value utility() const noexcept;  // terminal only: ±1 or 0, Black's view
  [[nodiscard]] std::uint64_t key() const noexcept { return m_pos.key(); }
  [[nodiscard]] Ending ending() const noexcept;

  // Step 2. Hooks for the engine. Not quiet: a capture is compulsory, so the
  // heuristic would judge a position in the middle of an exchange.
  [[nodiscard]] bool is_quiet() const noexcept { return !m_pos.can_jump(); }
  // Longer captures first, then crowning.
  [[nodiscard]] int order_hint(const Move& m) const noexcept {
    return 16 * std::popcount(m.captured()) + (m_pos.crowns(m) ? 8 : 0);
  }
  [[nodiscard]] static std::size_t history_index(const Move& m) noexcept {
    return static_cast<std::size_t>(m.from()) * kSquares + m.to();
  }

  // Step 3. Text: standard square numbers for moves (`11-15`, `22x15x6`),
  // PDN FEN for positions (the seed's 8 board lines are read too).
  [[nodiscard]] std::string move_text(const Move& m) const;
  // Standard numbers, algebraic squares (`c3-d4`, `c3xe5xg7`) or the seed's
  // `E c3 d4` / `J c3 e5 J e5 g7` (one `J from to` per jump, newlines or
  // spaces between); any case. Only moves in `actions()`; errors say why.
  [[nodiscard]] Result<Move> parse_move(std::string_view text) const;
  // The seed's form of a move: `E c3 d4`, or one `J from to` line per jump.
  [[nodiscard]] std::string seed_text(const Move& m) const;
  [[nodiscard]] std::string render() const;
  // Why the game is over, in the words of its rules; empty while it goes on.
  [[nodiscard]] std::string end_cause() const;
  [[nodiscard]] std::string to_text() const;  // PDN FEN, then the clock when not 0
  [[nodiscard]] Result<State> from_text(std::string_view text) const;
  // The seed's 8 lines of `.bBwW`, top row first.
  [[nodiscard]] std::string board_lines() const;

  // Step 4. Queries for heuristics, perft and tests.
  [[nodiscard]] const Position& position() const noexcept { return m_pos; }
  [[nodiscard]] int draw_limit_plies() const noexcept { return m_limit; }
  // How many times the current placement occurred before since the last
  // irreversible move (either side to move, as seed 003 counts).
  [[nodiscard]] int repetitions() const noexcept;
  [[nodiscard]] std::uint64_t compute_key() const noexcept { return m_pos.compute_key(); }
  // Turned 180 degrees with colours swapped (no history): heuristics negate.
  [[nodiscard]] State flipped() const noexcept {
    State f = *this;
    f.m_pos = m_pos.flipped();
    f.m_history_len = 0;
    return f;
  }

 private:
  struct Blank {};
  explicit State(Blank) noexcept {}

  Position m_pos;
  std::uint8_t m_limit = kLimitDefault;
  std::uint8_t m_history_len = 0;
  std::array<std::uint64_t, kLimitMax> m_history{};  // placement keys, oldest first
};

// Heuristic `material`: men 100, kings 150, Black minus White.
struct Material {
  static constexpr std::string_view kName = "material";
  static constexpr std::string_view kAbout = "men 100, kings 150, Black minus White";
  explicit Material(std::uint64_t /*seed*/ = 0) noexcept {}
  [[nodiscard]] Value operator()(const State& s) const noexcept {
    const Position& p = s.position();
    const int score =
        100 * (std::popcount(p.men(Player::First)) - std::popcount(p.men(Player::Second))) +
        150 * (std::popcount(p.kings(Player::First)) - std::popcount(p.kings(Player::Second)));
    return search::clamp_estimate(score);
  }
};

// Heuristic `positional` is `tuned`'s features with their starting weights
// (linear_eval.hpp).

// Heuristic `random`: a seeded uniformly random estimate.
struct RandomHeuristic {
  static constexpr std::string_view kName = "random";
  static constexpr std::string_view kAbout = "a uniformly random estimate, seeded";
  explicit RandomHeuristic(std::uint64_t seed = 0) noexcept : m_rng(seed) {}
  [[nodiscard]] Value operator()(const State& /*s*/) noexcept {
    return static_cast<Value>(m_rng.between(-kUnit / 2, kUnit / 2));
  }

 private:
  Rng m_rng;
};

// Perft (OEIS A133046; see position.hpp), found by `duel perft` through ADL.
[[nodiscard]] inline std::uint64_t perft(const State& s, int depth) noexcept {
  return perft(s.position(), depth);
}
[[nodiscard]] inline std::uint64_t perft_dedupe(const State& s, int depth) noexcept {
  return perft_dedupe(s.position(), depth);
}
// Perft split by first move, in generation order.
[[nodiscard]] std::vector<std::pair<Move, std::uint64_t>> divide(const State& s, int depth);
[[nodiscard]] std::vector<std::pair<Move, std::uint64_t>> divide_dedupe(const State& s, int depth);

// ---------------------------------------------------------------------------
// Hot-path definitions.

inline int State::repetitions() const noexcept {
  const std::uint64_t k = m_pos.placement_key();
  int count = 0;
  for (int i = 0; i < m_history_len; ++i)
    count += m_history[static_cast<std::size_t>(i)] == k ? 1 : 0;
  return count;
}

inline Ending State::ending() const noexcept {
  // A side without a move loses even on the last ply of the clock.
  if (!m_pos.has_move()) return Ending::NoMoves;
  if (m_pos.clock() >= m_limit) return Ending::DrawClock;
  if (repetitions() >= 2) return Ending::Repetition;
  return Ending::None;
}

inline void State::actions(Moves& out) const noexcept {
  out.clear();
  if (m_pos.clock() >= m_limit || repetitions() >= 2) return;
  m_pos.moves(out);
}

inline State State::result(const Move& m) const noexcept {
  State next = *this;
  next.m_pos = m_pos.play(m);
  const bool man = (m_pos.kings() & bit(m.from())) == 0;
  if (man || m.is_jump()) {
    next.m_history_len = 0;  // irreversible: no earlier placement can recur
  } else if (m_history_len < kLimitMax) {
    next.m_history[m_history_len] = m_pos.placement_key();
    ++next.m_history_len;
  }
  return next;
}

inline Value State::utility() const noexcept {
  if (ending() != Ending::NoMoves) return 0;
  return m_pos.to_move() == Player::First ? -1 : 1;
}

static_assert(PlayableGame<State>);
static_assert(NamedHeuristic<Material, State>);
static_assert(NamedHeuristic<RandomHeuristic, State>);
static_assert(search::HasOrderHint<State>);
static_assert(search::HasHistoryIndex<State>);

}  // namespace duel::games::checkers

// Heuristic `tuned` (a linear evaluation with fitted weights) completes the list.
#include "duel/games/checkers/linear_eval.hpp"  // IWYU pragma: export
// Heuristic `n1` (a small network).
#include "duel/games/checkers/net_eval.hpp"  // IWYU pragma: export
