#pragma once
// The Game concept: what a search needs from a game, with the AIMA names the
// seeds use (to_move/is_maxs_turn, actions, result, is_terminal, utility).
//
// Why: search templates know nothing of any game; a game is a small value type
// that satisfies this concept, and every search works on it unchanged.
#include <concepts>
#include <cstdint>
#include <optional>

#include "duel/core/move_list.hpp"
#include "duel/core/types.hpp"

namespace duel::search {

template <class S>
concept GameState = std::copyable<S> &&
    requires(const S& s, const typename S::Move& m, typename S::Moves& out) {
  typename S::Move;
  typename S::Moves;  // a MoveList<Move, bound> sized for the game
  requires std::equality_comparable<typename S::Move>;
  { s.to_move() } -> std::same_as<Player>;  // Player::First (MAX) moves first
  s.actions(out);                           // legal moves; none only when terminal
  { s.result(m) } -> std::same_as<S>;       // the state after m (copy-make)
  { s.is_terminal() } -> std::convertible_to<bool>;
  { s.utility() } -> std::same_as<Value>;      // terminal only: payoff in points, First's view
  { s.key() } -> std::same_as<std::uint64_t>;  // hash of everything the future depends on
};

// A heuristic estimates a non-terminal state's value from Player::First's view
// on the Value scale (core/types.hpp), strictly inside ±(kUnit - kMaxPly).
template <class H, class S>
concept Heuristic = requires(H& h, const S& s) {
  { h(s) } -> std::convertible_to<Value>;
};

// Optional: a game may say a position is not quiet (checkers: a capture is
// compulsory), so the engine searches on past its depth until it is, rather
// than trust the heuristic in the middle of an exchange (quiescence).
template <class S>
concept HasQuietness = requires(const S& s) {
  { s.is_quiet() } -> std::convertible_to<bool>;
};

// Optional: a game may name its tactical moves (the chess family: captures
// and promotions) and say when the side to move may "stand pat" (not in
// check). Past its depth the engine then searches only tactical moves, with
// the heuristic as a floor the mover can always keep (capture quiescence),
// and every move when standing pat is not safe.
template <class S>
concept HasTactics = requires(const S& s, const typename S::Move& m) {
  { s.is_tactical(m) } -> std::convertible_to<bool>;
  { s.may_stand_pat() } -> std::convertible_to<bool>;
};

// Optional (with HasTactics): the tactical actions alone, in the order
// actions() lists them (the list actions() gives, filtered by is_tactical),
// for a position that has not ended. Quiescence standing pat generates no
// more.
template <class S>
concept HasTacticalActions = HasTactics<S> && requires(const S& s, typename S::Moves& out) {
  s.tactical_actions(out);
};

// Optional (with HasTactics): a static exchange evaluation, whether the
// exchange a capture starts wins the mover at least `threshold` (pawn = 100).
template <class S>
concept HasExchange = requires(const S& s, const typename S::Move& m) {
  { s.see_ge(m, 0) } -> std::convertible_to<bool>;
};

// Optional: a game with a repetition rule may say how many times the
// current position occurred before in the game (since the last irreversible
// move); the engine may then score a repetition inside its tree as a draw.
template <class S>
concept HasRepetition = requires(const S& s) {
  { s.repetitions() } -> std::convertible_to<int>;
};

// Optional: a game whose rules look back (a repetition, a draw clock),
// so that one position may have different futures by the way the game came
// to it (the table's key holds the position only), says when they cannot:
// `memoryless()` when no earlier position can recur and the clock stands
// at zero, as just after a capture. Only there does the engine keep an exact
// result as one for every depth, and take one as exact: elsewhere a stored
// result, right for the line that found it, is a result of the search's
// depth like any other.
template <class S>
concept HasMemory = requires(const S& s) {
  { s.memoryless() } -> std::convertible_to<bool>;
};

// Optional, with HasRepetition: how many plies back the latest earlier
// occurrence of the current position was (0 for none). The engine then
// scores only a repetition inside its own tree as a draw (Stockfish's rule):
// there the side that repeated could repeat again, while a position of the
// game met a second time is no draw until its third occurrence.
template <class S>
concept HasRepetitionDistance = HasRepetition<S> && requires(const S& s) {
  { s.repetition_distance() } -> std::convertible_to<int>;
};

// Optional: a game whose action list holds moves that lose by force can
// name them before they are made: s.loss_plies(m) is 0 for a move that does
// not, else the plies after which the mover has lost whatever follows (1:
// the move itself loses, as seed 000's moves that leave the king attacked;
// 2: the opponent's next move takes the king, as in seed 004's game). The
// engine does not search such a move: its value, a loss that near, is below
// every other move's but a faster loss, so it counts only where nothing
// better is left (the legality check Stockfish makes on a pseudo-legal move
// when it comes up, not when the list is made).
template <class S>
concept HasForcedLoss = requires(const S& s, const typename S::Move& m) {
  { s.loss_plies(m) } -> std::convertible_to<int>;
};

// Optional: a game whose payoffs are only a win, a loss or a draw (one
// point) can say so; the engine then prunes lines that cannot beat a
// shorter win already found (mate-distance pruning).
template <class S>
concept WinLossDraw = S::kWinLossDraw;

// Optional: the half-width of the first aspiration window around the last
// iteration's value, in Value units (about half a pawn in chess).
template <class S>
concept HasAspiration = requires {
  { S::kAspiration } -> std::convertible_to<Value>;
};

// Optional: reverse futility pruning's margin per ply of depth left, in
// Value units: a heuristic this far above beta is trusted to stay there.
template <class S>
concept HasFutilityMargin = requires {
  { S::kFutilityMargin } -> std::convertible_to<Value>;
};

// Optional: a game may score moves for ordering (higher first), e.g. captures.
template <class S>
concept HasOrderHint = requires(const S& s, const typename S::Move& m) {
  { s.order_hint(m) } -> std::convertible_to<int>;
};

// Optional: a game may map moves to small indices for the history heuristic.
template <class S>
concept HasHistoryIndex = requires(const typename S::Move& m) {
  { S::kHistorySize } -> std::convertible_to<std::size_t>;
  { S::history_index(m) } -> std::convertible_to<std::size_t>;
};

// Optional: a game may know positions that no sequence of moves can take to
// a win for either side (5x5 chess: a lone king against a king and at most
// one knight or bishop). Their value is a draw, proven by the rules alone:
// the engine answers them as it answers a finished game, without a search.
template <class S>
concept HasDeadDraw = requires(const S& s) {
  { s.dead_draw() } -> std::convertible_to<bool>;
};

// Optional: a heuristic may ask for the memory it will read when it
// evaluates `s` (e.g. a cache slot), so that the search can start the load
// when it makes a child, before the child is evaluated. Changes no value.
template <class H, class S>
concept HasPrefetch = requires(const H& h, const S& s) {
  h.prefetch(s);
};

// A value a heuristic knows rather than estimates (checkers' endgame
// tables), from Player::First's view: `exact` for a draw whatever follows
// (the value is then 0 and the search takes it as proven), else a score the
// search trusts above any estimate but may still improve on (a table's win
// that the game's draw clock could yet spoil).
struct Known {
  Value value = 0;
  bool exact = false;
};

// Optional: a heuristic may know the values of some positions (h.known(s);
// empty where it does not). The engine asks at every node below the root
// before it searches one and takes the answer as the node's value, unless
// the root itself is known (worker.hpp: it is then searched as usual).
template <class H, class S>
concept HasKnownValues = requires(H& h, const S& s) {
  { h.known(s) } -> std::same_as<std::optional<Known>>;
};

// The seed's is_maxs_turn.
template <GameState S>
[[nodiscard]] constexpr bool is_maxs_turn(const S& s) {
  return s.to_move() == Player::First;
}

// Clamp a heuristic's estimate so it can never be mistaken for a proven result.
[[nodiscard]] constexpr Value clamp_estimate(Value v) noexcept {
  constexpr Value kLimit = kUnit - kMaxPly - 1;
  return v > kLimit ? kLimit : (v < -kLimit ? -kLimit : v);
}

}  // namespace duel::search
