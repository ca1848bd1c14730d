// The two-player N-Queens game (RULES.md §3, seed 001).
#include <gtest/gtest.h>

#include "duel/games/engines.hpp"
#include "duel/games/nqueens/nqueens.hpp"
#include "duel/search/solve.hpp"

namespace duel::games::nqueens {
namespace {

State start(int n, Variant v) {
  return State(n, v);
}

// The game's searches through its factories (games/engines.hpp), as every
// front end makes them: plain minimax or alpha-beta to the end, the solver.
search::SearchResult<Move> minimax(const State& s) {
  return make_plain<State>("", 0, false).value()->search(s, {});
}
search::SearchResult<Move> alphabeta(const State& s) {
  return make_plain<State>("", 0, true).value()->search(s, {});
}

Value solve_points(const State& s) {
  search::EngineOptions options;
  options.hash_mb = 64;
  options.first_depth = kMaxPly;
  const auto r = make_solver<State>(options)->search(s, {});
  EXPECT_TRUE(r.exact);
  return proven_payoff(r.value);
}

TEST(NQueens, SpecDefaultsAndErrors) {
  auto s = State::from_spec(*Spec::parse("nqueens"));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->spec(), "nqueens:n=8,variant=1a");
  EXPECT_FALSE(State::from_spec(*Spec::parse("nqueens:n=0")).ok());
  EXPECT_FALSE(State::from_spec(*Spec::parse("nqueens:n=33")).ok());
  EXPECT_FALSE(State::from_spec(*Spec::parse("nqueens:variant=3")).ok());
  const auto bad = State::from_spec(*Spec::parse("nqueens:size=4"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("unknown option 'size'"), std::string::npos);
}

TEST(NQueens, ForcedColumnRules) {
  // RULES.md §3 1a: Player 1 plays column 1, Player 2 column 2, ...
  State s = start(4, Variant::V1a);
  State::Moves moves;
  s.actions(moves);
  ASSERT_EQ(moves.size(), 4U);  // every row of column 1 is free on an empty board
  for (const auto& m : moves) EXPECT_EQ(m.col, 0);
  s = s.result(Move{0, 0});  // queen at row 1, column 1
  s.actions(moves);
  // Column 2: rows 1 (same row) and 2 (diagonal) are attacked, rows 3 and 4 free.
  ASSERT_EQ(moves.size(), 2U);
  EXPECT_EQ(moves[0], (Move{2, 1}));
  EXPECT_EQ(moves[1], (Move{3, 1}));
  EXPECT_EQ(s.to_move(), Player::Second);
}

TEST(NQueens, DeadColumnEndsTheGame) {
  // Drawn position, N=4, variant 1a: X at (1,1), O at (3,2): column 3 is fully
  // attacked (row 1 by X's row, row 2 and 4 by O's diagonals, row 3 by O's row),
  // so Player 1 cannot move and Player 2, the last to place, wins: -1.
  auto s = start(4, Variant::V1a).from_text("X.../..../.O../....");
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_TRUE(s->is_terminal());
  EXPECT_EQ(s->utility(), -1);
  // Variant 1b scores the queens on the board: Player 2 wins with k = 2.
  auto b = start(4, Variant::V1b).from_text("X.../..../.O../....");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->utility(), -2);
}

TEST(NQueens, AllQueensPlacedLastMoverWins) {
  // Seed 001: with all N queens placed the last mover wins; N = 1: Player 1.
  State s = start(1, Variant::V1b).result(Move{0, 0});
  EXPECT_TRUE(s.is_terminal());
  EXPECT_EQ(s.utility(), 1);
  // N = 4 (a full solution 2,4,1,3 in rows per column): Player 2 placed last, -4 in 1b.
  auto full = start(4, Variant::V1b).from_text("..X./X.../...O/.O..");
  ASSERT_TRUE(full.ok()) << full.error();
  EXPECT_TRUE(full->is_terminal());
  EXPECT_EQ(full->utility(), -4);
}

TEST(NQueens, FreePlacementRules) {
  State s = start(3, Variant::V2);
  State::Moves moves;
  s.actions(moves);
  EXPECT_EQ(moves.size(), 9U);
  s = s.result(Move{1, 1});  // the centre of 3x3 attacks every other square
  EXPECT_TRUE(s.is_terminal());
  EXPECT_EQ(s.utility(), 1);
}

TEST(NQueens, MoveTextRoundTripAndErrors) {
  State s = start(5, Variant::V1a);
  EXPECT_EQ(s.move_text(Move{2, 0}), "3,1");
  EXPECT_EQ(*s.parse_move("3"), (Move{2, 0}));
  EXPECT_EQ(*s.parse_move(" 3,1 "), (Move{2, 0}));
  EXPECT_FALSE(s.parse_move("").ok());
  EXPECT_FALSE(s.parse_move("x").ok());
  EXPECT_FALSE(s.parse_move("6").ok());
  EXPECT_FALSE(s.parse_move("0").ok());
  const auto wrong_col = s.parse_move("3,2");
  ASSERT_FALSE(wrong_col.ok());
  EXPECT_NE(wrong_col.error().find("column 1"), std::string::npos);
  s = s.result(Move{0, 0});
  const auto attacked = s.parse_move("2");
  ASSERT_FALSE(attacked.ok());
  EXPECT_NE(attacked.error().find("attacked"), std::string::npos);
  State v2 = start(5, Variant::V2).result(Move{0, 0});
  EXPECT_FALSE(v2.parse_move("3").ok());  // variant 2 needs ROW,COL
  const auto occupied = v2.parse_move("1,1");
  ASSERT_FALSE(occupied.ok());
  EXPECT_NE(occupied.error().find("already holds"), std::string::npos);
}

TEST(NQueens, TextRejectsImpossiblePositions) {
  const State s = start(4, Variant::V2);
  EXPECT_FALSE(s.from_text("XX../..../..../....").ok());   // attacking queens
  EXPECT_FALSE(s.from_text("X.../..../..X./....").ok());   // two X, no O
  EXPECT_FALSE(s.from_text("..../..../....").ok());        // three rows
  EXPECT_FALSE(s.from_text("...../..../..../....").ok());  // a long row
  EXPECT_FALSE(s.from_text("Q.../..../..../....").ok());   // unknown piece
  EXPECT_TRUE(start(4, Variant::V1a).from_text("..../X.../..../....").ok());
  EXPECT_FALSE(start(4, Variant::V1a).from_text(".X../..../..../....").ok());  // not column 1
}

TEST(NQueens, KeyMergesSymmetricPositions) {
  // Variant 2: a position and its mirror images play the same game.
  const State s = start(6, Variant::V2);
  const State a = s.result(Move{0, 1});
  const State b = s.result(Move{1, 0});  // transpose
  const State c = s.result(Move{5, 4});  // rotation by 180 degrees
  const State d = s.result(Move{0, 2});
  EXPECT_EQ(a.key(), b.key());
  EXPECT_EQ(a.key(), c.key());
  EXPECT_NE(a.key(), d.key());
  // 1a: upside down is the same game; a different column count is not.
  const State e = start(6, Variant::V1a);
  EXPECT_EQ(e.result(Move{0, 0}).key(), e.result(Move{5, 0}).key());
  EXPECT_NE(e.result(Move{0, 0}).key(), e.result(Move{1, 0}).key());
}

TEST(NQueens, AlphaBetaAgreesWithMinimaxAndEngine) {
  for (const Variant v : {Variant::V1a, Variant::V1b}) {
    for (int n = 1; n <= 8; ++n) {
      const State s = start(n, v);
      const auto mm = minimax(s);
      const auto ab = alphabeta(s);
      EXPECT_EQ(mm.value, ab.value) << "n=" << n;
      EXPECT_LE(ab.stats.nodes(), mm.stats.nodes());
      EXPECT_EQ(proven_payoff(mm.value), solve_points(s)) << "n=" << n;
    }
  }
  for (int n = 1; n <= 5; ++n) {
    const State s = start(n, Variant::V2);
    EXPECT_EQ(minimax(s).value, alphabeta(s).value);
    EXPECT_EQ(proven_payoff(alphabeta(s).value), solve_points(s));
  }
}

TEST(NQueens, FreePlacementMatchesOeisA344227) {
  // OEIS A344227: in the free-placement game the first player wins for
  // n = 1..9 and 11, the second player for n = 10 (and 12).
  for (int n = 1; n <= 11; ++n) {
    const Value expected = n == 10 ? -1 : 1;
    EXPECT_EQ(solve_points(start(n, Variant::V2)), expected) << "n=" << n;
  }
}

// With one search thread and with two (lazy SMP: the line is rebuilt from a
// table both threads wrote).
TEST(NQueens, SolvedLineReplaysToTheValue) {
  for (const int threads : {1, 2}) {
    SCOPED_TRACE(threads);
    search::EngineOptions options;
    options.first_depth = kMaxPly;
    options.threads = threads;
    const auto engine = make_solver<State>(options);
    const State s0 = start(9, Variant::V1b);
    const auto r = search::solve(s0, *engine, {});
    ASSERT_TRUE(r.exact);
    State s = s0;
    for (const auto& m : r.pv) {
      ASSERT_TRUE(s.is_legal(m));
      s = s.result(m);
    }
    ASSERT_TRUE(s.is_terminal());
    EXPECT_EQ(s.utility(), proven_payoff(r.value));
    EXPECT_EQ(static_cast<int>(r.pv.size()), plies_to_end(r.value));
  }
}

TEST(NQueens, HeuristicsStayEstimates) {
  Mobility mobility;
  RandomHeuristic random(7);
  for (const Variant v : {Variant::V1a, Variant::V1b, Variant::V2}) {
    State s = start(10, v);
    State::Moves moves;
    while (!s.is_terminal()) {
      EXPECT_FALSE(is_proven(mobility(s)));
      EXPECT_FALSE(is_proven(random(s)));
      EXPECT_EQ(random(s), RandomHeuristic(7)(s));  // a function of (seed, position)
      s.actions(moves);
      s = s.result(moves[moves.size() / 2]);
    }
  }
}

}  // namespace
}  // namespace duel::games::nqueens
