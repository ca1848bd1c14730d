// Checkers (RULES.md §5): perft from the start against OEIS A133046, every
// jump rule on a position drawn here in the seed's board form (rows 8 to 1,
// files a to h; b/w men, B/W kings), the draw rules, text round trips and
// errors, and incremental keys over seeded random games.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "duel/core/rng.hpp"
#include "duel/core/spec.hpp"
#include "duel/games/checkers/checkers.hpp"

namespace duel::games::checkers {
namespace {

State at(std::string_view text, int limit = State::kLimitDefault) {
  const auto s = State::parse(text, limit);
  EXPECT_TRUE(s.ok()) << s.error();
  return s.ok() ? *s : State();
}

// The moves in the seed's form, one line each: "J b6 d4 J d4 f2".
std::set<std::string> seed_moves(const State& s) {
  Moves moves;
  s.actions(moves);
  std::set<std::string> out;
  for (const Move& m : moves) {
    std::string t = s.seed_text(m);
    std::replace(t.begin(), t.end(), '\n', ' ');
    out.insert(t);
  }
  return out;
}

State play(State s, std::initializer_list<std::string_view> moves) {
  for (const auto text : moves) {
    const auto m = s.parse_move(text);
    EXPECT_TRUE(m.ok()) << text << ": " << m.error();
    if (!m.ok()) return s;
    s = s.result(*m);
  }
  return s;
}

std::string error_of(const State& s, std::string_view move) {
  const auto m = s.parse_move(move);
  EXPECT_FALSE(m.ok()) << move << " parsed";
  return m.ok() ? std::string() : m.error();
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

// ---------------------------------------------------------------------------
// Perft.

TEST(CheckersPerft, StartMatchesOeisA133046) {
  // OEIS A133046 (duplicate captures counted separately), depths 1-9.
  const State s;
  const std::vector<std::uint64_t> expected = {7,     49,     302,    1469,   7361,
                                               36768, 179740, 845931, 3963680};
  for (std::size_t d = 0; d < expected.size(); ++d) {
    EXPECT_EQ(perft(s, static_cast<int>(d) + 1), expected[d]) << "depth " << d + 1;
  }
}

#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__)
TEST(CheckersPerft, StartDepths10And11) {
  // OEIS A133046 a(10), a(11) (about 0.4 s in a Release build; skipped
  // under sanitizers). Depths 12 and 13 are benchmarks (docs/BENCHMARKS.md).
  EXPECT_EQ(perft(State(), 10), 18391564U);
  EXPECT_EQ(perft(State(), 11), 85242128U);
}
#endif

TEST(CheckersPerft, DivideSumsToPerft) {
  const State s;
  std::uint64_t total = 0;
  std::vector<std::string> firsts;
  for (const auto& [m, n] : divide(s, 4)) {
    total += n;
    firsts.push_back(s.move_text(m));
  }
  EXPECT_EQ(total, 1469U);
  EXPECT_EQ(firsts, (std::vector<std::string>{"9-13", "9-14", "10-14", "10-15", "11-15", "11-16",
                                              "12-16"}));
  EXPECT_EQ(perft_dedupe(s, 5), 7361U);  // no duplicate paths this early
}

// Perft as the game plays: the move list and copy-make, `merge` for --dedupe.
std::uint64_t list_perft(const Position& p, int depth, bool merge) {
  if (depth == 0) return 1;
  Moves moves;
  p.moves(moves);
  if (merge) dedupe(moves);
  std::uint64_t n = 0;
  for (const Move& m : moves) n += list_perft(p.play(m), depth - 1, merge);
  return n;
}

// Perft counts on sets (whole-set steps, men's jumps without path state, the
// last ply counted); the start position has few kings by depth 12, so random
// games, where kings and long jumps abound, check it against the move list.
TEST(CheckersPerft, CountsMatchTheMoveListOverRandomGames) {
  Rng rng(133046);
  int with_kings = 0;
  for (int game = 0; game < 40; ++game) {
    State s;
    for (int ply = 0; ply < 200 && !s.is_terminal(); ++ply) {
      const Position& p = s.position();
      with_kings += p.kings() != 0 ? 1 : 0;
      for (int depth = 1; depth <= 3; ++depth) {
        ASSERT_EQ(perft(p, depth), list_perft(p, depth, false)) << s.to_text() << " d" << depth;
        ASSERT_EQ(perft_dedupe(p, depth), list_perft(p, depth, true))
            << s.to_text() << " d" << depth;
      }
      ASSERT_EQ(p.count_moves(), list_perft(p, 1, false)) << s.to_text();
      Moves moves;
      s.actions(moves);
      s = s.result(moves[rng.below(moves.size())]);
    }
  }
  EXPECT_GT(with_kings, 1000);
}

// The move bound of position.hpp: maximal jump paths of one piece are
// distinct trails in its jump graph; on the full graph no square has more
// than 51 non-empty trails.
TEST(CheckersBounds, TrailsPerSquare) {
  std::function<int(int, Bitboard)> trails = [&](int sq, Bitboard used) {
    int n = 1;
    for (int d = 0; d < kDirections; ++d) {
      if (kJump[d][sq] < 0 || (used & bit(kStep[d][sq])) != 0) continue;
      n += trails(kJump[d][sq], used | bit(kStep[d][sq]));
    }
    return n;
  };
  int most = 0;
  for (int sq = 0; sq < kSquares; ++sq) most = std::max(most, trails(sq, 0) - 1);
  EXPECT_EQ(most, kMaxTrailsPerSquare);
}

// ---------------------------------------------------------------------------
// Jump rules.

TEST(CheckersRules, StartPosition) {
  const State s;
  EXPECT_EQ(s.to_move(), Player::First);  // Black moves first
  EXPECT_EQ(s.to_text(), "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
  EXPECT_EQ(s.board_lines(),
            ".b.b.b.b\nb.b.b.b.\n.b.b.b.b\n........\n........\nw.w.w.w.\n.w.w.w.w\nw.w.w.w.\n");
  const State from_board = at(s.board_lines() + "BLACK");
  EXPECT_EQ(from_board.to_text(), s.to_text());
  EXPECT_EQ(from_board.key(), s.key());
}

TEST(CheckersRules, CaptureIsCompulsory) {
  const State s = at(R"(
    .b......
    ........
    ...b....
    ....w...
    ........
    ........
    ........
    w.......  BLACK)");
  // b8 could step, but d6 can jump e5: only the jump is legal.
  EXPECT_EQ(seed_moves(s), (std::set<std::string>{"J d6 f4"}));
  EXPECT_TRUE(contains(error_of(s, "E b8 a7"), "a capture is compulsory"));
  EXPECT_TRUE(contains(error_of(s, "1-5"), "a capture is compulsory (e.g. 10x19)"));
  EXPECT_TRUE(s.parse_move("10x19").ok());
}

TEST(CheckersRules, MultiJumpMustContinue) {
  const State s = at(R"(
    ........
    ........
    .b......
    ..w.....
    ........
    ....w...
    ........
    ........  BLACK)");
  EXPECT_EQ(seed_moves(s), (std::set<std::string>{"J b6 d4 J d4 f2"}));
  EXPECT_EQ(error_of(s, "J b6 d4"), "move 'J b6 d4': the jump must continue: d4 can jump again");
  EXPECT_TRUE(contains(error_of(s, "9x18"), "the jump must continue: 18 can jump again"));
  EXPECT_TRUE(contains(error_of(s, "J b6 d4 J e5 f2"), "not where jump 1 landed (d4)"));
  // The seed's multi-line form, any case, extra spaces; numbers; short form.
  const auto m = s.parse_move("j B6 d4\n  J d4   F2\n");
  ASSERT_TRUE(m.ok()) << m.error();
  EXPECT_EQ(s.move_text(*m), "9x18x27");
  EXPECT_EQ(*s.parse_move("9x18x27"), *m);
  EXPECT_EQ(*s.parse_move("b6xd4xf2"), *m);
  EXPECT_EQ(*s.parse_move("9x27"), *m);  // from and end only: unique here
  // White has no pieces left: the side to move without a move loses.
  const State after = s.result(*m);
  EXPECT_TRUE(after.is_terminal());
  EXPECT_EQ(after.ending(), Ending::NoMoves);
  EXPECT_EQ(after.utility(), 1);  // Black (Player::First) wins
}

TEST(CheckersRules, AnySequenceMayBeChosen) {
  // d6 can take one piece (e5) or two (c5, c3): no majority rule.
  const State s = at(R"(
    ........
    ........
    ...b....
    ..w.w...
    ........
    ..w.....
    ........
    ........  BLACK)");
  EXPECT_EQ(seed_moves(s), (std::set<std::string>{"J d6 b4 J b4 d2", "J d6 f4"}));
}

TEST(CheckersRules, CrowningEndsTheMove) {
  // c3 jumps d2 and is crowned on e1; as a king it could jump f2, but the
  // move ends on crowning.
  const State s = at(R"(
    ........
    ........
    ........
    ........
    ........
    ..b.....
    ...w.w..
    ........  BLACK 7)");
  EXPECT_EQ(seed_moves(s), (std::set<std::string>{"J c3 e1"}));
  const State after = play(s, {"J c3 e1"});
  EXPECT_EQ(after.board_lines().substr(6 * 9), ".....w..\n....B...\n");
  EXPECT_EQ(after.position().clock(), 0);
}

TEST(CheckersRules, CrowningByStepResetsTheClock) {
  const State s = at("W:W5:BK30 9");
  const State after = play(s, {"5-1"});
  EXPECT_NE(after.position().kings() & bit(0), 0U);
  EXPECT_EQ(after.position().clock(), 0);
  EXPECT_EQ(play(after, {"30-26"}).position().clock(), 1);
}

TEST(CheckersRules, KingJumpsBackwards) {
  // A black king on d4 jumps c5 towards Black's own side; a man could not.
  const std::string_view board = R"(
    ........
    ........
    ........
    ..w.....
    ...{}....
    ........
    ........
    ........  BLACK)";
  std::string king(board);
  king.replace(king.find("{}"), 2, "B");
  std::string man(board);
  man.replace(man.find("{}"), 2, "b");
  EXPECT_EQ(seed_moves(at(king)), (std::set<std::string>{"J d4 b6"}));
  EXPECT_EQ(seed_moves(at(man)), (std::set<std::string>{"E d4 c3", "E d4 e3"}));
  EXPECT_TRUE(contains(error_of(at(man), "E d4 c5"), "c5 is occupied"));
}

TEST(CheckersRules, KingPathEndsOnItsStartSquare) {
  // The king on d4 goes round e5, e7, c7, c5 either way and lands on d4
  // again: two moves with the same start, end and captures. Perft counts
  // both (A133046); --dedupe merges them.
  const State s = at(R"(
    ........
    ..w.w...
    ........
    ..w.w...
    ...B....
    ........
    ........
    ........  BLACK)");
  EXPECT_EQ(seed_moves(s), (std::set<std::string>{"J d4 b6 J b6 d8 J d8 f6 J f6 d4",
                                                  "J d4 f6 J f6 d8 J d8 b6 J b6 d4"}));
  EXPECT_EQ(perft(s, 1), 2U);
  EXPECT_EQ(perft_dedupe(s, 1), 1U);
  EXPECT_EQ(divide_dedupe(s, 1).size(), 1U);
  EXPECT_TRUE(contains(error_of(s, "18x18"), "is ambiguous"));
  const State after = play(s, {"18x11x2x9x18"});
  EXPECT_EQ(after.position().pieces(Player::Second), 0U);
  EXPECT_EQ(after.position().kings(Player::First), bit(17));
  EXPECT_EQ(after.key(), after.compute_key());
}

TEST(CheckersRules, KingPathPassesOverItsStartSquare) {
  // As above, with c3 as well: both loops pass d4 and go on over c3 to b2;
  // taking c3 first ends on b2 (nothing more to jump from there).
  const State s = at(R"(
    ........
    ..w.w...
    ........
    ..w.w...
    ...B....
    ..w.....
    ........
    ........  BLACK)");
  EXPECT_EQ(seed_moves(s), (std::set<std::string>{
                               "J d4 b2",
                               "J d4 b6 J b6 d8 J d8 f6 J f6 d4 J d4 b2",
                               "J d4 f6 J f6 d8 J d8 b6 J b6 d4 J d4 b2",
                           }));
  EXPECT_EQ(perft(s, 1), 3U);
  EXPECT_EQ(perft_dedupe(s, 1), 2U);
}

TEST(CheckersRules, BlockedSideLoses) {
  // White's only man, a1, is blocked by b2 (and c3 stops the jump).
  const State s = at(R"(
    ........
    ........
    ........
    ........
    ........
    ..b.....
    .b......
    w.......  WHITE)");
  EXPECT_TRUE(s.is_terminal());
  EXPECT_EQ(s.ending(), Ending::NoMoves);
  EXPECT_EQ(s.utility(), 1);
  EXPECT_TRUE(contains(error_of(s, "29-25"), "the game is over"));
  // The same with Black to move: Black has moves.
  EXPECT_FALSE(at("B:W29:B22,25").is_terminal());
  // No pieces at all for Black: White wins.
  const State none = at("B:WK18:B");
  EXPECT_EQ(none.utility(), -1);
}

// ---------------------------------------------------------------------------
// Draws.

TEST(CheckersDraws, NoCaptureClock) {
  // Clock 49 of 50: one more quiet ply draws; a capture would reset it.
  const State s = at("W:WK32:BK1 49");
  EXPECT_FALSE(s.is_terminal());
  const State after = play(s, {"32-28"});
  EXPECT_TRUE(after.is_terminal());
  EXPECT_EQ(after.ending(), Ending::DrawClock);
  EXPECT_EQ(after.utility(), 0);
  Moves none;
  after.actions(none);
  EXPECT_TRUE(none.empty());
  const State capture = at("B:WK14:BK10 49");
  EXPECT_EQ(play(capture, {"10x17"}).position().clock(), 0);
  // The limit comes from the spec.
  const auto spec = Spec::parse("checkers:draw-plies=4");
  ASSERT_TRUE(spec.ok());
  auto game = State::from_spec(*spec);
  ASSERT_TRUE(game.ok()) << game.error();
  EXPECT_EQ(game->spec(), "checkers:draw-plies=4");
  const State kings = *game->from_text("B:WK32:BK1");
  EXPECT_TRUE(play(kings, {"1-6", "32-27", "6-10", "27-23"}).is_terminal());
  EXPECT_FALSE(State::from_spec(*Spec::parse("checkers:draw-plies=0")).ok());
  EXPECT_FALSE(State::from_spec(*Spec::parse("checkers:moves=3")).ok());
}

TEST(CheckersDraws, ThirdRepetition) {
  State s = at("B:WK32:BK1");
  s = play(s, {"1-5", "32-28", "5-1", "28-32"});
  EXPECT_EQ(s.repetitions(), 1);
  EXPECT_FALSE(s.is_terminal());
  s = play(s, {"1-5", "32-28", "5-1"});
  EXPECT_FALSE(s.is_terminal());
  s = play(s, {"28-32"});
  EXPECT_EQ(s.repetitions(), 2);
  EXPECT_TRUE(s.is_terminal());
  EXPECT_EQ(s.ending(), Ending::Repetition);
  EXPECT_EQ(s.utility(), 0);
  // A man's move is irreversible: the history starts again.
  State m = at("B:WK32,21:BK1");
  m = play(m, {"1-5", "32-28", "5-1", "28-32", "1-5", "21-17", "5-1", "32-28"});
  EXPECT_FALSE(m.is_terminal());
}

// ---------------------------------------------------------------------------
// Text.

TEST(CheckersText, PositionErrors) {
  for (const char* bad : {"", "B:W21", "X:W1:B2", "B:W1,1:B2", "B:W1:B33", "B:W4:B2", "B:W1:B2 51",
                          "........", "B:W21,22:B3 0 extra",
                          "bbbbbbbb\n........\n........\n........\n........\n........\n........\n"
                          "........"}) {
    const auto s = State::parse(bad);
    ASSERT_FALSE(s.ok()) << bad;
    EXPECT_EQ(s.error().find('\n'), std::string::npos);
  }
  // A White man on row 8 would have been crowned.
  EXPECT_TRUE(contains(State::parse("B:W1:B5").error(), "would have been crowned"));
  EXPECT_TRUE(contains(State::parse("B:WK1-13:B20").error(), "more than 12 pieces"));
  EXPECT_TRUE(State::parse("w:bK1-3:w30").ok());  // any case, ranges
}

TEST(CheckersText, MoveErrors) {
  const State s;
  EXPECT_TRUE(contains(error_of(s, "z9-d4"), "is not a square"));
  EXPECT_TRUE(contains(error_of(s, "c4-d5"), "c4 is a light square"));
  EXPECT_TRUE(contains(error_of(s, "33-29"), "numbers run 1 to 32"));
  EXPECT_TRUE(contains(error_of(s, "13-17"), "no piece of yours"));
  EXPECT_TRUE(contains(error_of(s, "21-17"), "it is your opponent's"));
  EXPECT_TRUE(contains(error_of(s, "9-18"), "not a diagonal neighbour"));
  EXPECT_TRUE(contains(error_of(s, "9x18"), "no capture to make"));
  EXPECT_TRUE(contains(error_of(s, "E c3"), "is not like E c3 d4"));
  EXPECT_TRUE(contains(error_of(s, "hello"), "is not like 11-15"));
  EXPECT_TRUE(contains(error_of(s, "E a7 b6 E b6 c5"), "one step on its own"));
  EXPECT_TRUE(contains(error_of(s, "5-1"), "occupied"));
  EXPECT_EQ(s.move_text(*s.parse_move("E d6 c5")), "10-14");
  EXPECT_EQ(s.move_text(*s.parse_move(" 11 15 ")), "11-15");
  EXPECT_EQ(s.seed_text(*s.parse_move("11-15")), "E f6 e5");
}

// Every legal move's text (numbers and the seed's form) parses back to it,
// and the incremental key equals the key from scratch, over random games.
TEST(CheckersText, RandomGamesRoundTripAndKeys) {
  Rng rng(561);
  for (int game = 0; game < 60; ++game) {
    State s;
    for (int ply = 0; ply < 300 && !s.is_terminal(); ++ply) {
      ASSERT_EQ(s.key(), s.compute_key()) << s.to_text();
      Moves moves;
      s.actions(moves);
      for (const Move& m : moves) {
        const auto a = s.parse_move(s.move_text(m));
        ASSERT_TRUE(a.ok()) << s.move_text(m) << ": " << a.error();
        EXPECT_EQ(*a, m);
        const auto b = s.parse_move(s.seed_text(m));
        ASSERT_TRUE(b.ok()) << s.seed_text(m) << ": " << b.error();
        EXPECT_EQ(*b, m);
      }
      const auto back = s.from_text(s.to_text());
      ASSERT_TRUE(back.ok()) << back.error();
      EXPECT_EQ(back->key(), s.key());
      s = s.result(moves[rng.below(moves.size())]);
    }
  }
}

TEST(CheckersEval, SymmetricAndOrdered) {
  const State s;
  EXPECT_EQ(Positional{}(s), 0);
  EXPECT_EQ(Material{}(s), 0);
  const State up = at("B:W21,22:B1,2,3");  // Black a man up
  EXPECT_EQ(Material{}(up), 100);
  EXPECT_GT(Positional{}(up), 0);
  EXPECT_EQ(Positional{}(up.flipped()), -Positional{}(up));
}

}  // namespace
}  // namespace duel::games::checkers
