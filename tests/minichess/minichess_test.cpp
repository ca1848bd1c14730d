// 5x5 chess (RULES.md §1–2): perft from the start positions against the
// numbers RULES.md quotes from Fairy-Stockfish, every end rule on a position
// drawn here as FEN, text round trips and errors, and incremental keys over
// seeded random playouts.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "duel/core/rng.hpp"
#include "duel/core/spec.hpp"
#include "duel/games/minichess/minichess.hpp"

namespace duel::games::minichess {
namespace {

template <class S>
S at(std::string_view fen) {
  const auto s = S::from_fen(fen);
  EXPECT_TRUE(s.ok()) << s.error();
  return s.ok() ? *s : S();
}

template <class S>
std::vector<std::string> actions_text(const S& s) {
  Moves moves;
  s.actions(moves);
  std::vector<std::string> out;
  for (const Move m : moves) out.push_back(s.move_text(m));
  return out;
}

template <class S>
S play(S s, std::initializer_list<std::string_view> moves) {
  for (const auto text : moves) {
    const auto m = s.parse_move(text);
    EXPECT_TRUE(m.ok()) << text << ": " << m.error();
    if (!m.ok()) return s;
    s = s.result(*m);
  }
  return s;
}

bool has(const std::vector<std::string>& list, std::string_view x) {
  return std::find(list.begin(), list.end(), x) != list.end();
}

template <class S>
Result<S> from_spec_text(std::string_view text) {
  const auto spec = Spec::parse(text);
  if (!spec) return fail(spec.error());
  return S::from_spec(*spec);
}

// ---------------------------------------------------------------------------
// Slider tables (board.hpp) against a walk one square at a time, written here
// on file and rank numbers: every square, every occupancy of the squares the
// piece could reach on an empty board, each with the rest of the board empty
// and full (what lies off the piece's lines must not matter).

Bitboard walk(int sq, Bitboard occupied, bool diagonal) {
  static constexpr int kStraight[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};
  static constexpr int kDiagonal[4][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
  Bitboard out = 0;
  for (const auto& d : diagonal ? kDiagonal : kStraight) {
    for (int f = sq % 5 + d[0], r = sq / 5 + d[1]; f >= 0 && f < 5 && r >= 0 && r < 5;
         f += d[0], r += d[1]) {
      out |= Bitboard{1} << (r * 5 + f);
      if ((occupied >> (r * 5 + f) & 1) != 0) break;
    }
  }
  return out;
}

TEST(MinichessBoard, SliderTablesMatchAWalk) {
  for (int sq = 0; sq < kSquares; ++sq) {
    for (const bool diagonal : {false, true}) {
      const Bitboard reach = walk(sq, 0, diagonal);
      const Bitboard rest = kAll & ~reach;  // the piece's own square too
      // Every subset of `reach` (Carry-Rippler enumeration).
      Bitboard subset = 0;
      do {
        for (const Bitboard outside : {Bitboard{0}, rest}) {
          const Bitboard occupied = subset | outside;
          const Bitboard got = diagonal ? bishop_attacks(sq, occupied) : rook_attacks(sq, occupied);
          ASSERT_EQ(got, walk(sq, occupied, diagonal))
              << "square " << sq << (diagonal ? " bishop" : " rook") << " occupied " << occupied;
        }
        subset = (subset - reach) & reach;
      } while (subset != 0);
    }
  }
}

// ---------------------------------------------------------------------------
// Perft: Fairy-Stockfish via RULES.md §1a/§1b/§2.

TEST(MinichessPerft, GardnerStart) {
  // Fairy-Stockfish via RULES.md §1a (UCI_Variant gardner).
  const GardnerState s;
  const std::vector<std::uint64_t> expected = {7, 53, 506, 4775, 52512, 572874};
  for (std::size_t d = 0; d < expected.size(); ++d) {
    EXPECT_EQ(perft(s, static_cast<int>(d) + 1), expected[d]) << "depth " << d + 1;
  }
}

TEST(MinichessPerft, Cs3243Start) {
  // Fairy-Stockfish via RULES.md §1b (variants.ini section cs3243).
  const Cs3243State s;
  const std::vector<std::uint64_t> expected = {7, 53, 506, 4775, 51528, 550474};
  for (std::size_t d = 0; d < expected.size(); ++d) {
    EXPECT_EQ(perft(s, static_cast<int>(d) + 1), expected[d]) << "depth " << d + 1;
  }
}

TEST(MinichessPerft, Comp472Start) {
  // Fairy-Stockfish via RULES.md §2 (variants.ini section comp472).
  const Comp472State s;
  const std::vector<std::uint64_t> expected = {13, 170, 2452, 34813, 532546};
  for (std::size_t d = 0; d < expected.size(); ++d) {
    EXPECT_EQ(perft(s, static_cast<int>(d) + 1), expected[d]) << "depth " << d + 1;
  }
}

TEST(MinichessPerft, DivideSumsToPerft) {
  const GardnerState s;
  std::uint64_t total = 0;
  for (const auto& [m, n] : divide(s, 4)) total += n;
  EXPECT_EQ(total, 4775U);
}

// ---------------------------------------------------------------------------
// Rules on drawn positions.

TEST(MinichessRules, StartPositions) {
  EXPECT_EQ(GardnerState().to_text(), "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1");
  EXPECT_EQ(Cs3243State().to_text(), "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1");
  EXPECT_EQ(Comp472State().to_text(), "kqbn1/2pp1/5/1PP2/1NBQK w - - 0 1");
  EXPECT_FALSE(GardnerState().is_terminal());
  EXPECT_EQ(GardnerState().spec(), "gardner:draw-plies=100");
  EXPECT_EQ(Cs3243State().spec(), "gardner-cs3243:draw-plies=50");
  EXPECT_EQ(Comp472State().spec(), "minichess-comp472:max-turns=100,draw-turns=10");
}

TEST(MinichessRules, PromotionByRuleSet) {
  // RULES.md §1a: Q, R, B or N; §2: Q only; §1b: none.
  const std::string_view fen = "k4/2P2/5/5/4K w - - 0 1";
  const auto g = actions_text(at<GardnerState>(fen));
  for (const auto* m : {"c4c5q", "c4c5r", "c4c5b", "c4c5n"}) EXPECT_TRUE(has(g, m)) << m;
  EXPECT_FALSE(has(g, "c4c5"));
  const auto c = actions_text(at<Comp472State>(fen));
  EXPECT_TRUE(has(c, "c4c5q"));
  EXPECT_FALSE(has(c, "c4c5r"));
  EXPECT_FALSE(has(c, "c4c5n"));
  const auto n = actions_text(at<Cs3243State>(fen));
  EXPECT_TRUE(has(n, "c4c5"));
  EXPECT_FALSE(has(n, "c4c5q"));
  // The promoted piece is a queen; COMP 472's "B4 B5" needs no suffix.
  const auto after = play(at<Comp472State>(fen), {"C4 C5"});
  EXPECT_EQ(after.to_text(), "k1Q2/5/5/5/4K b - - 1 1");  // RULES.md §2: pawn moves do not reset
  EXPECT_EQ(play(at<GardnerState>(fen), {"c4c5n"}).to_text(), "k1N2/5/5/5/4K b - - 0 1");
  // CS3243: a pawn on the last rank stays a pawn and has no moves.
  const auto stuck = play(at<Cs3243State>(fen), {"c4c5", "a5a4"});
  EXPECT_EQ(stuck.to_text(), "2P2/k4/5/5/4K w - - 2 2");
  for (const auto& m : actions_text(stuck)) EXPECT_NE(m.substr(0, 2), "c5") << m;
}

TEST(MinichessRules, Checkmate) {
  // Black king a5, White queen b4 guarded by the king on c3: mate.
  const std::string_view fen = "k4/1Q3/2K2/5/5 b - - 0 1";
  const auto g = at<GardnerState>(fen);
  EXPECT_EQ(g.ending(), Ending::Checkmate);
  EXPECT_EQ(g.utility(), 1);
  EXPECT_TRUE(actions_text(g).empty());
  // RULES.md §1b: pseudo-legal moves exist but none keeps the king safe: lost.
  const auto c = at<Cs3243State>(fen);
  EXPECT_EQ(c.ending(), Ending::NoSafeMove);
  EXPECT_EQ(c.utility(), 1);
  // RULES.md §2: no check rule; the king may walk into attack.
  const auto k = at<Comp472State>(fen);
  EXPECT_FALSE(k.is_terminal());
  EXPECT_TRUE(has(actions_text(k), "a5b4"));
}

TEST(MinichessRules, Stalemate) {
  // Black king a5, White queen b3: no legal move, not in check.
  const std::string_view fen = "k4/5/1Q3/5/4K b - - 0 1";
  const auto g = at<GardnerState>(fen);
  EXPECT_EQ(g.ending(), Ending::Stalemate);  // RULES.md §1a: a draw
  EXPECT_EQ(g.utility(), 0);
  const auto c = at<Cs3243State>(fen);
  EXPECT_EQ(c.ending(), Ending::NoSafeMove);  // RULES.md §1b: loses at once
  EXPECT_EQ(c.utility(), 1);
  // RULES.md §1b: no pseudo-legal move at all is a draw (pawns stuck on the
  // last rank and behind their own pieces).
  const auto none = at<Cs3243State>("4K/5/5/pp3/kp3 b - - 0 1");
  EXPECT_EQ(none.ending(), Ending::NoMoves);
  EXPECT_EQ(none.utility(), 0);
}

TEST(MinichessRules, Comp472KingCapture) {
  const auto s = at<Comp472State>("k4/1Q3/5/5/4K w - - 0 1");
  EXPECT_TRUE(has(actions_text(s), "b4a5"));
  const auto after = play(s, {"b4a5"});
  EXPECT_EQ(after.ending(), Ending::KingCaptured);
  EXPECT_EQ(after.utility(), 1);
  EXPECT_TRUE(actions_text(after).empty());
  EXPECT_EQ(after.to_text(), "Q4/5/5/5/4K b - - 0 1");
  EXPECT_TRUE(after.from_text(after.to_text()).ok());
  EXPECT_EQ(perft(after, 1), 0U);  // RULES.md §2: a king capture is a leaf
}

TEST(MinichessRules, Cs3243SelfCheckLoses) {
  // White king a1, Black rook b2: Ka1-a2 walks into the rook.
  const std::string_view fen = "k4/5/5/1r3/K4 w - - 0 1";
  const auto c = at<Cs3243State>(fen);
  EXPECT_TRUE(has(actions_text(c), "a1a2"));
  const auto after = play(c, {"a1a2"});
  EXPECT_EQ(after.ending(), Ending::ExposedKing);
  EXPECT_EQ(after.utility(), -1);
  EXPECT_TRUE(actions_text(after).empty());
  EXPECT_EQ(perft(c, 1), 1U);  // perft counts safe moves only: a1xb2
  // Gardner: the move is illegal and its parse says why.
  const auto g = at<GardnerState>(fen);
  EXPECT_FALSE(has(actions_text(g), "a1a2"));
  const auto bad = g.parse_move("a1a2");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("check"), std::string::npos) << bad.error();
}

TEST(MinichessRules, GardnerFiftyMoves) {
  const auto s = at<GardnerState>("k4/5/5/5/3NK w - - 99 40");
  EXPECT_FALSE(s.is_terminal());
  const auto after = play(s, {"e1e2"});
  EXPECT_EQ(after.ending(), Ending::DrawClock);
  EXPECT_EQ(after.utility(), 0);
  // A capture or a pawn move resets the clock.
  EXPECT_EQ(play(at<GardnerState>("k4/5/5/P4/3NK w - - 99 40"), {"a2a3"}).position().clock(), 0);
}

TEST(MinichessRules, GardnerThreefold) {
  const auto s = at<GardnerState>("k4/5/5/5/3NK w - - 0 1");
  const auto twice = play(s, {"e1e2", "a5b5", "e2e1", "b5a5"});
  EXPECT_EQ(twice.repetitions(), 1);
  EXPECT_EQ(twice.repetition_distance(), 4);  // the start, four plies back
  EXPECT_FALSE(twice.is_terminal());
  EXPECT_EQ(play(twice, {"d1c3"}).repetition_distance(), 0);  // a new position
  EXPECT_EQ(play(twice, {"e1e2"}).repetition_distance(), 4);
  const auto thrice = play(twice, {"e1e2", "a5b5", "e2e1", "b5a5"});
  EXPECT_EQ(thrice.repetitions(), 2);
  EXPECT_EQ(thrice.repetition_distance(), 4);  // the latest occurrence, not the first (8)
  EXPECT_EQ(thrice.ending(), Ending::Repetition);
  EXPECT_EQ(thrice.utility(), 0);
  EXPECT_TRUE(actions_text(thrice).empty());
}

// RULES.md §2 (seed 004): end-of-game rules are checked when a turn is
// complete (after Black's move), a king capture ends the game at once.
TEST(MinichessRules, Comp472DrawsAtTheEndOfATurn) {
  // "a capture on White's move in turn 7 makes the game a draw after Black's
  // move in turn 17 if nothing is captured in turns 8-17": at White's move
  // in turn 17, plies 14 to 32 were quiet (19 on the clock).
  const auto w7 = at<Comp472State>("k4/5/5/5/4K w - - 19 17");
  const auto after_white = play(w7, {"e1d1"});
  EXPECT_EQ(after_white.position().clock(), 20);
  EXPECT_EQ(after_white.ending(), Ending::None) << "White's move does not complete the turn";
  EXPECT_FALSE(actions_text(after_white).empty());
  EXPECT_EQ(play(w7, {"e1d1", "a5b5"}).ending(), Ending::DrawClock);
  // A capture on Black's move in turn 7: the same turn ends the game.
  const auto b7 = at<Comp472State>("k4/5/5/5/4K w - - 18 17");
  EXPECT_EQ(play(b7, {"e1d1"}).ending(), Ending::None);
  EXPECT_EQ(play(b7, {"e1d1", "a5b5"}).ending(), Ending::DrawClock);
  // One turn earlier it goes on.
  EXPECT_EQ(play(at<Comp472State>("k4/5/5/5/4K w - - 17 17"), {"e1d1", "a5b5"}).ending(),
            Ending::None);
  // The 10 is an option of its own (draw-turns): with 1, two quiet plies
  // from the start draw, one does not.
  const auto one = from_spec_text<Comp472State>("minichess-comp472:draw-turns=1");
  ASSERT_TRUE(one.ok()) << one.error();
  EXPECT_EQ(play(*one, {"b1a3"}).ending(), Ending::None);
  EXPECT_EQ(play(*one, {"b1a3", "d5e3"}).ending(), Ending::DrawClock);
  // A pawn move does not reset COMP 472's clock; a capture does.
  EXPECT_EQ(play(*one, {"b2b3"}).position().clock(), 1);
}

TEST(MinichessRules, Comp472MaxTurnsCapsTheGame) {
  // m = max-turns: "when turn m is complete and no one has won, the game is
  // a draw" (default 100: "the game ends after at most 100 turns").
  EXPECT_EQ(Comp472State().max_turns(), 100);
  const auto capped = from_spec_text<Comp472State>("minichess-comp472:max-turns=2");
  ASSERT_TRUE(capped.ok()) << capped.error();
  EXPECT_EQ(capped->spec(), "minichess-comp472:max-turns=2,draw-turns=10");
  EXPECT_EQ(play(*capped, {"b1a3", "d5e3", "a3b5"}).ending(), Ending::None);
  const auto two_turns = play(*capped, {"b1a3", "d5e3", "a3b5", "a5a4"});
  EXPECT_EQ(two_turns.ending(), Ending::TurnCap);
  EXPECT_EQ(two_turns.utility(), 0);
  EXPECT_TRUE(actions_text(two_turns).empty());
  // The cap survives the position's text; turn numbers are the FEN's.
  const auto late = capped->from_text("k4/5/5/5/4K w - - 0 2");
  ASSERT_TRUE(late.ok()) << late.error();
  EXPECT_EQ(late->max_turns(), 2);
  EXPECT_EQ(play(*late, {"e1d1", "a5b5"}).ending(), Ending::TurnCap);
  // A king capture in the last turn ends the game at once, a win.
  const auto take = from_spec_text<Comp472State>("minichess-comp472:max-turns=1");
  ASSERT_TRUE(take.ok());
  const auto king = take->from_text("k4/5/5/5/Q3K w - - 0 1");
  ASSERT_TRUE(king.ok()) << king.error();
  const auto won = play(*king, {"a1a5"});
  EXPECT_EQ(won.ending(), Ending::KingCaptured);
  EXPECT_GT(won.utility(), 0);
  // 0: no cap; out of range is refused.
  const auto none = from_spec_text<Comp472State>("minichess-comp472:max-turns=0");
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(play(*none->from_text("k4/5/5/5/4K w - - 0 5000"), {"e1d1", "a5b5"}).ending(),
            Ending::None);
  EXPECT_FALSE(from_spec_text<Comp472State>("minichess-comp472:max-turns=-1").ok());
  EXPECT_FALSE(from_spec_text<Comp472State>("minichess-comp472:max-turns=10001").ok());
}

TEST(MinichessRules, Cs3243DrawPlies) {
  const auto s = from_spec_text<Cs3243State>("gardner-cs3243:draw-plies=2");
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(play(*s, {"b1c3", "b5c3"}).position().clock(), 0);  // a capture resets
  EXPECT_EQ(play(*s, {"a2a3", "b4a3"}).ending(), Ending::None);
  EXPECT_EQ(play(*s, {"b1a3", "b5a3"}).ending(), Ending::None);
  // RULES.md §1b counts pieces only: two pawn moves are no progress.
  EXPECT_EQ(play(*s, {"a2a3", "e4e3"}).ending(), Ending::DrawClock);
  EXPECT_EQ(play(*s, {"b1a3", "b5c3"}).ending(), Ending::DrawClock);
}

// ---------------------------------------------------------------------------
// Text.

TEST(MinichessText, FenErrors) {
  const std::vector<std::pair<std::string_view, std::string_view>> cases = {
      {"", "fields"},
      {"rnbqk/ppppp/5/PPPPP/RNBQK", "fields"},
      {"rnbqk/ppppp/5/PPPPP w", "ranks"},
      {"rnbqk/ppppp/5/PPPPP/RNBQK/5 w", "more than 5 ranks"},
      {"rnbqkp/ppppp/5/PPPPP/RNBQK w", "more than 5 files"},
      {"rnbq/ppppp/5/PPPPP/RNBQK w", "4 files"},
      {"rnbqk/ppppp/6/PPPPP/RNBQK w", "more than 5 files"},
      {"rnbqx/ppppp/5/PPPPP/RNBQK w", "not a piece"},
      {"rnbqk/ppppp/5/PPPPP/RNBQK x", "side to move"},
      {"rnbqk/ppppp/5/PPPPP/RNBQK w KQ", "castling"},
      {"rnbqk/ppppp/5/PPPPP/RNBQK w - a3", "en passant"},
      {"rnbqk/ppppp/5/PPPPP/RNBQK w - - x 1", "halfmove"},
      {"rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 0", "move number"},
      {"rnbqq/ppppp/5/PPPPP/RNBQK w", "Black has 0 kings"},
      {"rnbkk/ppppp/5/PPPPP/RNBQK w", "Black has 2 kings"},
      {"rnbqk/ppppp/5/PPPPP/PNBQK w", "first rank"},
      {"Pnbqk/ppppp/5/1PPPP/RNBQK w", "last rank"},
      {"k4/5/5/5/R3K w", "not to move is in check"},
  };
  for (const auto& [fen, why] : cases) {
    const auto s = GardnerState::from_fen(fen);
    ASSERT_FALSE(s.ok()) << fen;
    EXPECT_NE(s.error().find(why), std::string::npos) << fen << " -> " << s.error();
    EXPECT_EQ(s.error().find('\n'), std::string::npos);
  }
  // Rule-set differences: CS3243 pawns may stand on the last rank, COMP 472
  // has no rooks and allows the side to move to have lost its king.
  EXPECT_TRUE(Cs3243State::from_fen("Pnbqk/ppppp/5/1PPPP/RNBQK w").ok());
  EXPECT_FALSE(Comp472State::from_fen("kqbr1/2pp1/5/1PP2/1NBQK w").ok());
  EXPECT_TRUE(Comp472State::from_fen("Q4/5/5/5/4K b").ok());
  EXPECT_FALSE(Comp472State::from_fen("Q4/5/5/5/4K w").ok());
}

TEST(MinichessText, FenRoundTrip) {
  for (const auto* fen : {"rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1", "k4/2P2/5/5/4K w - - 7 31",
                          "r1b1k/p1p1p/1n1q1/1P1PP/RNBQK b - - 3 12"}) {
    EXPECT_EQ(at<GardnerState>(fen).to_text(), fen);
  }
  // Short forms get the default fields.
  EXPECT_EQ(at<GardnerState>("rnbqk/ppppp/5/PPPPP/RNBQK b").to_text(),
            "rnbqk/ppppp/5/PPPPP/RNBQK b - - 0 1");
}

TEST(MinichessText, MoveParsing) {
  const GardnerState s;
  for (const auto* text : {"b1c3", "B1C3", "  b1 c3 ", "B1 C3", "b1   C3"}) {
    const auto m = s.parse_move(text);
    ASSERT_TRUE(m.ok()) << text << ": " << m.error();
    EXPECT_EQ(s.move_text(*m), "b1c3");
  }
  const std::vector<std::pair<std::string_view, std::string_view>> bad = {
      {"hello", "not like"},         {"b1", "not like"},
      {"f1f2", "leaves the board"},  {"a6a5", "leaves the board"},
      {"b3b4", "no piece of yours"}, {"b4b3", "no piece of yours"},
      {"a1b1", "own piece"},         {"b1b3", "knight on b1 cannot"},
      {"a2a3q", "not a promotion"},  {"a2a3x", "promotion piece"}};
  for (const auto& [text, why] : bad) {
    const auto m = s.parse_move(text);
    ASSERT_FALSE(m.ok()) << text;
    EXPECT_NE(m.error().find(why), std::string::npos) << text << " -> " << m.error();
  }
  const auto promo = at<GardnerState>("k4/2P2/5/5/4K w - - 0 1");
  EXPECT_NE(promo.parse_move("c4c5").error().find("promotes"), std::string::npos);
  EXPECT_EQ(promo.move_text(*promo.parse_move("C4C5R")), "c4c5r");
  EXPECT_FALSE(at<Comp472State>("k4/2P2/5/5/4K w - - 0 1").parse_move("c4c5n").ok());
}

TEST(MinichessText, Render) {
  const std::string r = GardnerState().render();
  EXPECT_NE(r.find("5 | r n b q k |"), std::string::npos) << r;
  EXPECT_NE(r.find("1 | R N B Q K |"), std::string::npos) << r;
  EXPECT_NE(r.find("a b c d e"), std::string::npos) << r;
  EXPECT_NE(r.find("White to move"), std::string::npos) << r;
}

TEST(MinichessText, Specs) {
  EXPECT_TRUE(from_spec_text<GardnerState>("gardner").ok());
  EXPECT_FALSE(from_spec_text<GardnerState>("gardner:draw-plies=101").ok());
  EXPECT_FALSE(from_spec_text<GardnerState>("gardner:n=3").ok());
  EXPECT_FALSE(from_spec_text<GardnerState>("kcell").ok());
  const auto c = from_spec_text<Cs3243State>("gardner-cs3243:draw-plies=70");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->spec(), "gardner-cs3243:draw-plies=70");
  EXPECT_EQ(c->from_text(c->to_text())->spec(), "gardner-cs3243:draw-plies=70");
}

// ---------------------------------------------------------------------------
// Random playouts: keys, text and moves stay consistent.

template <class S>
void random_playouts(std::uint64_t seed, int games) {
  Rng rng(seed);
  for (int g = 0; g < games; ++g) {
    S s;
    for (int ply = 0; ply < 200 && !s.is_terminal(); ++ply) {
      ASSERT_EQ(s.key(), s.compute_key()) << s.to_text();
      const auto back = s.from_text(s.to_text());
      ASSERT_TRUE(back.ok()) << s.to_text() << ": " << back.error();
      EXPECT_EQ(back->to_text(), s.to_text());
      EXPECT_EQ(back->key(), s.key());
      Moves moves;
      s.actions(moves);
      ASSERT_FALSE(moves.empty()) << s.to_text();
      for (const Move m : moves) {
        const auto parsed = s.parse_move(s.move_text(m));
        ASSERT_TRUE(parsed.ok()) << s.move_text(m) << " in " << s.to_text() << ": "
                                 << parsed.error();
        EXPECT_EQ(*parsed, m);
      }
      const std::string before = s.to_text();
      const S next = s.result(moves[rng.below(moves.size())]);
      EXPECT_EQ(s.to_text(), before);
      s = next;
    }
    ASSERT_EQ(s.key(), s.compute_key());
  }
}

TEST(MinichessPlayouts, Gardner) {
  random_playouts<GardnerState>(1, 30);
}
TEST(MinichessPlayouts, Cs3243) {
  random_playouts<Cs3243State>(2, 30);
}
TEST(MinichessPlayouts, Comp472) {
  random_playouts<Comp472State>(3, 30);
}

// Calls fn(s, moves) at every position of `games` seeded random games (at
// most `plies` plies each), the moves being s's actions.
template <class S, class Fn>
void each_random_position(std::uint64_t seed, int games, int plies, Fn fn) {
  Rng rng(seed);
  for (int game = 0; game < games; ++game) {
    S s;
    for (int ply = 0; ply < plies && !s.is_terminal(); ++ply) {
      Moves moves;
      s.actions(moves);
      fn(s, moves);
      s = s.result(moves[rng.below(moves.size())]);
    }
  }
}

// Legal moves skip the king-safety test for pieces that are not pinned when
// the king is not in check: the same moves, in the same order, as testing
// every pseudo-legal move, and has_safe_move agrees (random games walk into
// checks and pins often on 5x5).
TEST(MinichessLegality, SafeMovesAreThePseudoLegalMovesThatKeepTheKingSafe) {
  int pinned_seen = 0;
  each_random_position<GardnerState>(17, 60, 120, [&](const GardnerState& s, const Moves& moves) {
    const auto& p = s.position();
    Moves pseudo;
    p.pseudo_moves(pseudo);
    Moves expected;
    for (const Move m : pseudo) {
      if (p.is_safe(m)) expected.push_back(m);
    }
    Moves safe;
    p.safe_moves(safe);
    ASSERT_EQ(std::vector<Move>(safe.begin(), safe.end()),
              std::vector<Move>(expected.begin(), expected.end()))
        << s.to_text();
    EXPECT_EQ(p.has_safe_move(), !expected.empty()) << s.to_text();
    if (!s.is_terminal()) {
      EXPECT_EQ(moves.size(), expected.size()) << s.to_text();
    }
    const auto king = p.pieces(s.to_move(), Piece::King);
    if (king != 0 && p.pinned(lowest(king)) != 0) ++pinned_seen;
  });
  EXPECT_GT(pinned_seen, 50);  // the walk reaches pins, so the shortcut is tested
}

// Quiescence standing pat asks only for the tactical moves
// (search::HasTacticalActions): exactly actions() filtered by is_tactical, in
// actions' order, in every rule set (promotions, captures of the king in
// COMP 472, self-check and pawns on the last rank in CS3243 all come up in
// random games).
template <class S>
void expect_tactical_actions_filter_actions(std::uint64_t seed, int min_captures,
                                            int min_promotions) {
  int captures = 0;
  int promotions = 0;
  each_random_position<S>(seed, 60, 120, [&](const S& s, const Moves& moves) {
    Moves expected;
    for (const Move m : moves) {
      if (s.is_tactical(m)) expected.push_back(m);
      if (m.promotion() != Piece::None) ++promotions;
    }
    Moves tactical;
    s.tactical_actions(tactical);
    ASSERT_EQ(std::vector<Move>(tactical.begin(), tactical.end()),
              std::vector<Move>(expected.begin(), expected.end()))
        << s.to_text();
    captures += static_cast<int>(expected.size());
  });
  EXPECT_GE(captures, min_captures);
  EXPECT_GE(promotions, min_promotions);
}

TEST(MinichessLegality, TacticalActionsAreTheTacticalMovesOfActions) {
  // The walks list 9,562, 3,307 and 4,594 captures and 1,500, 0 and 115
  // promotions (CS3243 has none: a pawn's step to the last rank is quiet).
  expect_tactical_actions_filter_actions<GardnerState>(18, 5000, 500);
  expect_tactical_actions_filter_actions<Cs3243State>(19, 1500, 0);
  expect_tactical_actions_filter_actions<Comp472State>(20, 2000, 50);
}

TEST(MinichessLegality, APinnedRookMovesOnlyAlongThePin) {
  // The white rook on e2 stands between its king on e1 and the black rook
  // on e5: it may go up the file (e3, e4, take on e5), not across it.
  const GardnerState s = at<GardnerState>("k3r/5/5/4R/4K w - - 0 1");
  EXPECT_EQ(s.position().pinned(square(4, 0)), bit(square(4, 1)));
  Moves moves;
  s.actions(moves);
  std::vector<std::string> got;
  for (const Move m : moves) got.push_back(s.move_text(m));
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::string>{"e1d1", "e1d2", "e2e3", "e2e4", "e2e5"}));
}

// ---------------------------------------------------------------------------
// Moves that lose by force (search::HasForcedLoss): loss_plies(m) names them
// before they are made, and playing them out agrees. In cs3243 a move that
// leaves the mover's king attacked ends the game lost (1 ply); in comp472 the
// opponent can then take the king (2 plies). Random games reach many such
// moves (a random mover leaves its king en prise often).

// The truth by playing: 1 when the move ends the game lost for the mover, 2
// when it does not but some reply does, else 0.
template <class S>
int loss_by_play(const S& s, const Move m) {
  const Value mover_lost = s.to_move() == Player::First ? -1 : 1;
  const S child = s.result(m);
  if (child.is_terminal()) return child.utility() == mover_lost ? 1 : 0;
  Moves replies;
  child.actions(replies);
  for (const Move r : replies) {
    const S after = child.result(r);
    if (after.is_terminal() && after.utility() == mover_lost) return 2;
  }
  return 0;
}

template <class S>
void expect_loss_plies_agree(std::uint64_t seed, int claimed) {
  int seen = 0;
  int moves_seen = 0;
  each_random_position<S>(seed, 40, 120, [&](const S& s, const Moves& moves) {
    for (const Move m : moves) {
      const int truth = loss_by_play(s, m);
      const int said = s.loss_plies(m);
      // A claim is always true; the only losses it may leave unnamed are
      // the ones its rule set does not look for (a mate in one in cs3243).
      if (said != 0) {
        EXPECT_EQ(said, truth) << s.to_text() << " " << s.move_text(m);
      }
      if (truth == claimed) {
        EXPECT_EQ(said, claimed) << s.to_text() << " " << s.move_text(m);
      }
      seen += said != 0 ? 1 : 0;
      ++moves_seen;
    }
  });
  // Random games meet such moves all the time: the test saw some.
  EXPECT_GT(seen, moves_seen / 50) << seen << " of " << moves_seen;
}

TEST(MinichessForcedLoss, Cs3243MovesThatLeaveTheKingAttackedLoseAtOnce) {
  expect_loss_plies_agree<Cs3243State>(31, 1);
}

TEST(MinichessForcedLoss, Comp472MovesThatLeaveTheKingEnPriseLoseOnTheNextPly) {
  expect_loss_plies_agree<Comp472State>(32, 2);
}

// Comp472's ten-turn clock ends the game, when a turn is complete (RULES.md
// §2), before the king can be taken: Black's move that leaves its king en
// prise and completes the tenth quiet turn is a draw, not a loss. White's
// move completes no turn, so the king is taken.
TEST(MinichessForcedLoss, Comp472ClockEndsTheGameBeforeTheKingIsTaken) {
  const auto s = Comp472State{}.from_text("k3Q/5/5/5/4K b - - 18 10");
  ASSERT_TRUE(s.ok()) << s.error();
  const auto m = s->parse_move("A5 B5");
  ASSERT_TRUE(m.ok()) << m.error();
  EXPECT_EQ(s->loss_plies(*m), 2) << "nine quiet turns: the queen takes the king";
  EXPECT_EQ(loss_by_play(*s, *m), 2);
  const auto late = Comp472State{}.from_text("k3Q/5/5/5/4K b - - 19 10");
  ASSERT_TRUE(late.ok()) << late.error();
  EXPECT_EQ(late->loss_plies(*m), 0) << "the move completes the tenth quiet turn: a draw";
  EXPECT_EQ(loss_by_play(*late, *m), 0);
  const auto white = Comp472State{}.from_text("k3q/5/5/5/4K w - - 19 10");
  ASSERT_TRUE(white.ok()) << white.error();
  const auto w = white->parse_move("E1 E2");
  ASSERT_TRUE(w.ok()) << w.error();
  EXPECT_EQ(white->loss_plies(*w), 2) << "White's move completes no turn";
  EXPECT_EQ(loss_by_play(*white, *w), 2);
}

TEST(MinichessHeuristics, E0) {
  EXPECT_EQ(E0{}(GardnerState()), 0);
  EXPECT_EQ(E0{}(at<Comp472State>("k4/2P2/5/5/4K w - - 0 1")), kE0Scale);
  EXPECT_EQ(E0{}(at<GardnerState>("kq3/5/5/5/4K w - - 0 1")), -9 * kE0Scale);
}

}  // namespace
}  // namespace duel::games::minichess

namespace duel::games::minichess {
namespace {

TEST(MinichessText, Cs3243TupleMovesBothWays) {
  // RULES.md §1b: seed square (x, y) is file x, rank y + 1; an agent returns
  // ((x1, y1), (x2, y2)).
  const Cs3243State s;
  const auto m = s.parse_move("(('b', 0), ('c', 2))");
  ASSERT_TRUE(m.ok()) << m.error();
  EXPECT_EQ(s.move_text(*m), "b1c3");
  EXPECT_EQ(tuple_text(*m), "(('b', 0), ('c', 2))");
  const auto spaced = s.parse_move("  ( ( \"A\" ,1 ) , ( 'a',2 ) ) ");
  ASSERT_TRUE(spaced.ok()) << spaced.error();
  EXPECT_EQ(s.move_text(*spaced), "a2a3");
  // Every legal move survives the round trip.
  Cs3243State::Moves moves;
  s.actions(moves);
  for (const Move mv : moves) {
    const auto back = s.parse_move(tuple_text(mv));
    ASSERT_TRUE(back.ok()) << tuple_text(mv) << ": " << back.error();
    EXPECT_EQ(*back, mv);
  }
  for (const char* bad :
       {"(('b', 0), ('c'))", "(('b', 0) ('c', 2)", "((b0c2))", "(('b', 0), ('c', 7))"}) {
    const auto r = s.parse_move(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace duel::games::minichess

namespace duel::games::minichess {
namespace {

// ---------------------------------------------------------------------------
// Static exchange evaluation (Position::see_ge; pawn 100, minor 300, rook
// 500, queen 900), worked out by hand on each board below.

bool see(std::string_view fen, std::string_view move, int threshold) {
  const GardnerState s = at<GardnerState>(fen);
  const auto m = s.parse_move(move);
  EXPECT_TRUE(m.ok()) << move << ": " << m.error();
  return m.ok() && s.see_ge(*m, threshold);
}

TEST(MinichessSee, AnUndefendedPieceIsWonWhole) {
  // Ra1xa5 takes a knight nothing defends: +300.
  EXPECT_TRUE(see("n3k/5/5/5/R3K w - - 0 1", "a1a5", 300));
  EXPECT_FALSE(see("n3k/5/5/5/R3K w - - 0 1", "a1a5", 301));
}

TEST(MinichessSee, AQueenForAPawnLoses) {
  // Qc1xc3, b4xc3: +100 - 900 = -800.
  EXPECT_FALSE(see("4k/1p3/2p2/5/2Q1K w - - 0 1", "c1c3", 0));
  EXPECT_TRUE(see("4k/1p3/2p2/5/2Q1K w - - 0 1", "c1c3", -800));
  EXPECT_FALSE(see("4k/1p3/2p2/5/2Q1K w - - 0 1", "c1c3", -799));
}

TEST(MinichessSee, ARookBehindTheCapturerJoinsIn) {
  // Ra2xa4 (+300), Ra5xa4 (-500), Ra1xa4 (+500): +300 with the x-ray; a lone
  // rook would end at -200.
  EXPECT_TRUE(see("r3k/n4/5/R4/R3K w - - 0 1", "a2a4", 300));
  EXPECT_FALSE(see("r3k/n4/5/R4/R3K w - - 0 1", "a2a4", 301));
  EXPECT_FALSE(see("r3k/n4/5/R4/4K w - - 0 1", "a2a4", 0));
  EXPECT_TRUE(see("r3k/n4/5/R4/4K w - - 0 1", "a2a4", -200));
}

TEST(MinichessSee, AKingRecapturesOnlyAnUndefendedSquare) {
  // Rc1xc4 next to the black king on d5: with the knight on b2 guarding c4
  // the king cannot take back (+100); without it, it does (-400).
  EXPECT_TRUE(see("3k1/2p2/5/1N3/2R1K w - - 0 1", "c1c4", 100));
  EXPECT_FALSE(see("3k1/2p2/5/5/2R1K w - - 0 1", "c1c4", 0));
  EXPECT_TRUE(see("3k1/2p2/5/5/2R1K w - - 0 1", "c1c4", -400));
}

TEST(MinichessSee, EveryCaptureOfRandomGamesAgreesWithItsOwnThresholds) {
  // see_ge is monotone in the threshold: true at t implies true below t.
  each_random_position<GardnerState>(11, 40, 40, [](const GardnerState& s, const Moves& moves) {
    for (const Move m : moves) {
      if (!s.is_tactical(m)) continue;
      for (int t = -1000; t <= 1000; t += 100) {
        if (s.see_ge(m, t)) {
          EXPECT_TRUE(s.see_ge(m, t - 100)) << s.to_text() << " " << s.move_text(m);
        }
      }
    }
  });
}

}  // namespace
}  // namespace duel::games::minichess
