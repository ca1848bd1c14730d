#pragma once
// The three 5x5 chess rule sets as types (DESIGN habit 2): one move generator,
// `State<Rules>`, reads these `static constexpr` fields, never a run-time
// `if (variant == X)`. Every field cites RULES.md.
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "duel/games/minichess/board.hpp"

namespace duel::games::minichess {

// What the action list holds and how a king comes to harm.
enum class MoveRule : std::uint8_t {
  Legal,           // only moves that keep the mover's king safe (standard chess)
  SelfCheckLoses,  // every pseudo-legal move; one leaving the king attacked loses
  KingCapture,     // every pseudo-legal move; capturing the king wins
};

// Which game result a stalemated side gets.
enum class Outcome : std::uint8_t { Draw, Loss };

// Bit i set: promotion to Piece(i) is allowed.
[[nodiscard]] constexpr std::uint8_t promotion_mask(std::initializer_list<Piece> pieces) noexcept {
  std::uint8_t m = 0;
  for (const Piece p : pieces) m = static_cast<std::uint8_t>(m | (1U << type_index(p)));
  return m;
}

// `gardner`: Gardner minichess with standard chess rules (RULES.md §1a).
struct Gardner {
  static constexpr std::string_view kName = "gardner";
  // RULES.md §1: "Start (FEN): rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1".
  static constexpr std::string_view kStartFen = "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1";
  // RULES.md §1a: "Promotion on the last rank to Q, R, B or N".
  static constexpr std::uint8_t kPromotions =
      promotion_mask({Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight});
  // RULES.md §1a: "Legal moves are those that do not leave one's own king attacked".
  static constexpr MoveRule kMoveRule = MoveRule::Legal;
  // RULES.md §1a: "Checkmate wins; stalemate is a draw".
  static constexpr Outcome kStalemate = Outcome::Draw;
  // RULES.md §1a: "50-move rule (100 plies without capture or pawn move)".
  static constexpr bool kPawnMoveResetsClock = true;
  // RULES.md §1a: "threefold repetition"; the keys since the last capture or
  // pawn move are kept, at most the 50-move limit of them.
  static constexpr bool kRepetition = true;
  static constexpr int kHistory = 100;
  // RULES.md: "Every numeric limit below is an option with this default".
  static constexpr std::string_view kLimitKey = "draw-plies";
  static constexpr int kLimitDefault = 100;  // plies (the 50-move rule)
  static constexpr int kLimitMax = kHistory;
  static constexpr int kPliesPerLimitUnit = 1;
  static constexpr bool kTurnEndRules = false;         // the end is checked after every ply
  static constexpr std::string_view kTurnCapKey = {};  // no cap on the game's length
  static constexpr int kTurnCapDefault = 0;
  // RULES.md §1: standard pieces, rooks included.
  static constexpr bool kRooks = true;
};

// `gardner-cs3243`: seed 000's rules (RULES.md §1b).
struct Cs3243 {
  static constexpr std::string_view kName = "gardner-cs3243";
  // RULES.md §1b: "Same board and start".
  static constexpr std::string_view kStartFen = Gardner::kStartFen;
  // RULES.md §1b: "NO promotion: a pawn on the last rank stays a pawn and has no moves".
  static constexpr std::uint8_t kPromotions = 0;
  // RULES.md §1b: "the game's action list is every pseudo-legal move; a move
  // that leaves the mover's king attacked ends the game as a loss for the mover".
  static constexpr MoveRule kMoveRule = MoveRule::SelfCheckLoses;
  // RULES.md §1b: "at least one pseudo-legal move but no move that keeps its
  // king safe loses at once"; no pseudo-legal move at all is a draw.
  static constexpr Outcome kStalemate = Outcome::Loss;
  // RULES.md §1b: "Draw after 50 consecutive plies with no change in the number of pieces".
  static constexpr bool kPawnMoveResetsClock = false;
  static constexpr bool kRepetition = false;  // RULES.md §1b names no repetition rule
  static constexpr int kHistory = 0;
  // RULES.md §1b: "option --draw-plies, default 50".
  static constexpr std::string_view kLimitKey = "draw-plies";
  static constexpr int kLimitDefault = 50;
  static constexpr int kLimitMax = 255;
  static constexpr int kPliesPerLimitUnit = 1;
  static constexpr bool kTurnEndRules = false;
  static constexpr std::string_view kTurnCapKey = {};
  static constexpr int kTurnCapDefault = 0;
  static constexpr bool kRooks = true;
};

// `minichess-comp472`: seed 004's rules (RULES.md §2).
struct Comp472 {
  static constexpr std::string_view kName = "minichess-comp472";
  // RULES.md §2: "FEN kqbn1/2pp1/5/1PP2/1NBQK w - - 0 1".
  static constexpr std::string_view kStartFen = "kqbn1/2pp1/5/1PP2/1NBQK w - - 0 1";
  // RULES.md §2: "Pawns promote to a Queen on the last rank".
  static constexpr std::uint8_t kPromotions = promotion_mask({Piece::Queen});
  // RULES.md §2: "No check rule: any pseudo-legal move is allowed; capturing
  // the enemy king wins".
  static constexpr MoveRule kMoveRule = MoveRule::KingCapture;
  // RULES.md §2: "A side with no pseudo-legal move: draw".
  static constexpr Outcome kStalemate = Outcome::Draw;
  // RULES.md §2: "Draw when the number of pieces has not changed for 10
  // complete turns"; "The 10 is the hand-out's fixed rule (a separate option
  // may change it; its default stays 10)": the option is draw-turns.
  static constexpr bool kPawnMoveResetsClock = false;
  static constexpr bool kRepetition = false;  // RULES.md §2 names no repetition rule
  static constexpr int kHistory = 0;
  static constexpr std::string_view kLimitKey = "draw-turns";
  static constexpr int kLimitDefault = 10;
  static constexpr int kLimitMax = 127;
  static constexpr int kPliesPerLimitUnit = 2;
  // RULES.md §2: "End-of-game rules are checked when a turn is complete
  // (after Black's move), except a king capture, which ends the game at once".
  static constexpr bool kTurnEndRules = true;
  // RULES.md §2: "`m`, the seed's maximum number of turns (`--max-turns`),
  // caps the length of the game: when turn m is complete and no one has won,
  // the game is a draw. Default 100."
  static constexpr std::string_view kTurnCapKey = "max-turns";
  static constexpr int kTurnCapDefault = 100;
  // RULES.md §2 lists no rook (and Fairy-Stockfish's `comp472` defines none).
  static constexpr bool kRooks = false;
};

}  // namespace duel::games::minichess
