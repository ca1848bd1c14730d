#pragma once
// The search of the CSCI-561 course's reference agent (RULES.md §6a): the TA's
// "HW2 Reference Solution" (akkkkka/CSCI561_HW2_21Spr@5bb41ac,
// referenceAI_TA/src/main/), which the students' programs played in the
// course's grading. Plain minimax, no pruning, the course's evaluation, the
// course's move order and its random tie-break, so that Duel's reference
// plays the games the course's did (the agent `csci561-ta`, docs/referee.md).
//
// Why a search of its own and not `minimax` with a heuristic: what makes the
// course's games is its details, and the generic search has none of them:
// - The depth. §6a's rule gives the course's depth number d: 4; 3 when the
//   time left is under 100 s; 2 under 10 s; 1 under 2 s; 1 in SINGLE mode
//   (course_depth). The course's graded program looked d - 1 plies ahead
//   (at least 1): each of its first 31 logged replies in two round-1 games
//   (hw2-resubmit-result/round1/log_1_reference_aa68777.txt, 20, and
//   log_1_reference_bodala.txt, 11) is among the best moves at 3 plies,
//   while 4 are not at 4 plies and 6 not at 5 (ta_reference_test.cpp).
//   The published source counts differently (its counter would look d + 1
//   plies ahead) and is not the program the course ran: the logs run
//   `java homework`, a class the source (package `main`) does not have.
// - Captures are searched on: a position reached by a jump is always
//   expanded, however deep. The source's "20" is only where its counter
//   starts and caps nothing; each jump takes a piece, so a line of jumps ends.
// - The move list is the course's: pieces by rows from the top, left to
//   right; a man's two directions left then right, a king's four as left
//   towards the top, left towards the bottom, right towards the top, right
//   towards the bottom; a simple move before the jump in each direction, and
//   all simple moves dropped once any piece can jump. A piece's jumps are
//   the course's post-order walk of its tree of jump paths: the paths
//   through a square, then, for a path of three or more jumps, the path cut
//   short after its second, third... jump. Those cut-short paths are in the
//   course's list (its referee accepted them), not in Duel's rules (RULES.md
//   §5): the search meets them as the course's did, below the root, and
//   plays only complete paths.
// - A side to move with no move, in an expanded position, has lost; a leaf
//   is judged by the heuristic alone (pieces blocked or not).
// - Ties: the root's complete moves are walked in list order and a move of
//   the best value so far replaces the best with probability 1/2. The coin
//   is reproducible: the bits come from SplitMix64 (core/rng.hpp) started at
//   seed XOR the position's hash (position_hash), one draw per tie, the top
//   bit of the draw deciding (1: replace). Ties below the root change no
//   value, so only the root draws.
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "duel/games/checkers/position.hpp"

namespace duel::games::checkers::ta {

// The course's values are White's: White maximises, Black minimises.
using CourseValue = std::int32_t;
inline constexpr CourseValue kWhiteWins = std::numeric_limits<CourseValue>::max();
inline constexpr CourseValue kBlackWins = std::numeric_limits<CourseValue>::min();

// §6a's depth number by the mode and the play time left, as input.txt gives them.
[[nodiscard]] int course_depth(bool single, double seconds_left) noexcept;
// The plies the course's program looked ahead at depth number d (above).
[[nodiscard]] int lookahead(int course_depth) noexcept;

// The leaf value (§6a): y the row from the top, i the dark square's index in
// its row from the left, xc = (3 - i) i, yc = floor((7 - y) y / 2); a white man
// +(17 - y + xc), a black man -(10 + y + xc), a white king +(50 + xc + yc), a
// black king -(50 + xc + yc); no black piece kWhiteWins, no white one kBlackWins.
[[nodiscard]] CourseValue evaluate(const Position& p) noexcept;

// One move of the course's list; `complete` is false for a jump path cut short.
struct CourseMove {
  Move move;
  bool complete = true;
};
// The course's move list of the side to move, in its order (above).
void course_moves(const Position& p, std::vector<CourseMove>& out);

// FNV-1a (64 bits) of the board as input.txt writes it, the 8 rows of
// `.bBwW` top row first without line ends (64 bytes), then `B` or `W` for the
// side to move.
[[nodiscard]] std::uint64_t position_hash(const Position& p) noexcept;

struct Query {
  Position position;
  int plies = 3;           // positions fewer plies down are expanded (> 0)
  std::uint64_t seed = 0;  // the tie-break's stream, with the position's hash
};

struct Answer {
  std::optional<Move> move;  // a complete move; none when the side to move has none
  CourseValue value = 0;     // the move's minimax value (White's view)
  // Positions visited by ply, the root's at 0.
  std::vector<std::uint64_t> nodes_by_ply;
  int ties = 0;  // coins tossed at the root
};

[[nodiscard]] Answer search(const Query& q);

}  // namespace duel::games::checkers::ta
