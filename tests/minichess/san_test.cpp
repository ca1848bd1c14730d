// SAN for the three 5x5 rule sets (san.hpp). Every expected string follows
// the PGN standard's SAN rules (PGN §8.2.3: piece letters, `x`, the pawn's
// file on captures, disambiguation by file, then rank, then both, among legal
// moves; `=Q`; `+`, `#`) applied by hand to a position drawn here as FEN,
// with the rule-set marks of san.hpp (cs3243: `#` for "no safe move";
// comp472: no marks, its king being Fairy-Stockfish's non-royal commoner,
// tests/data/fairy-stockfish/variants.ini). Then round trips over seeded
// random games and the reader's errors.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "duel/core/rng.hpp"
#include "duel/core/text.hpp"
#include "duel/games/minichess/san.hpp"

namespace duel::games::minichess {
namespace {

template <class S>
S at(std::string_view fen) {
  const auto s = S::from_fen(fen);
  EXPECT_TRUE(s.ok()) << fen << ": " << (s ? "" : s.error());
  return s ? *s : S();
}

// The SAN of the move given in UCI.
template <class S>
std::string san_of(const S& s, std::string_view uci) {
  const auto m = s.parse_move(uci);
  EXPECT_TRUE(m.ok()) << uci << ": " << (m ? "" : m.error());
  return m ? san(s, *m) : "";
}

// The UCI of the move the SAN names, or the reader's error.
template <class S>
std::string read(const S& s, std::string_view text) {
  const auto m = parse_san(s, text);
  return m ? s.move_text(*m) : "error: " + m.error();
}

TEST(MinichessSan, PawnsAndPieces) {
  const GardnerState start;  // rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1 (RULES.md §1)
  EXPECT_EQ(san_of(start, "a2a3"), "a3");
  EXPECT_EQ(san_of(start, "b1c3"), "Nc3");
  EXPECT_EQ(san_of(start, "b1a3"), "Na3");
  // A pawn capture names its file; Black to move here.
  const auto black = at<GardnerState>("4k/1p3/P4/5/K4 b - - 0 1");
  EXPECT_EQ(san_of(black, "b4a3"), "bxa3");
  EXPECT_EQ(san_of(black, "b4b3"), "b3");
  EXPECT_EQ(san_of(black, "e5d4"), "Kd4");
}

TEST(MinichessSan, Promotion) {
  // b4 takes the rook on c5 or steps to b5; a queen on c5 checks e5 along
  // rank 5, a knight on c5 attacks a4 b3 d3 e4 only.
  const auto s = at<GardnerState>("2r1k/1P3/5/5/K4 w - - 0 1");
  EXPECT_EQ(san_of(s, "b4c5q"), "bxc5=Q+");
  EXPECT_EQ(san_of(s, "b4c5n"), "bxc5=N");
  EXPECT_EQ(san_of(s, "b4c5r"), "bxc5=R+");
  EXPECT_EQ(san_of(s, "b4b5q"), "b5=Q");  // the rook on c5 blocks rank 5
  EXPECT_EQ(san_of(s, "b4b5b"), "b5=B");
  // COMP 472 promotes to a queen only; its king is never "in check".
  const auto comp = at<Comp472State>("4k/P4/5/5/K4 w - - 0 1");
  EXPECT_EQ(san_of(comp, "a4a5q"), "a5=Q");
  // CS3243 never promotes: the pawn steps onto rank 5 and stays a pawn.
  const auto cs = at<Cs3243State>("4k/P4/5/5/K4 w - - 0 1");
  EXPECT_EQ(san_of(cs, "a4a5"), "a5");
}

TEST(MinichessSan, Disambiguation) {
  // Knights a1 and c1 both reach b3: they differ by file.
  const auto files = at<GardnerState>("4k/5/5/5/N1N1K w - - 0 1");
  EXPECT_EQ(san_of(files, "a1b3"), "Nab3");
  EXPECT_EQ(san_of(files, "c1b3"), "Ncb3");
  EXPECT_EQ(san_of(files, "c1d3"), "Nd3+");  // only c1 reaches d3, and checks e5 from it
  // Rooks a5 and a1 on one file reach a3 and a2: by rank; on a3 the rook
  // checks c3 along rank 3.
  const auto ranks = at<GardnerState>("R4/5/2k2/5/R3K w - - 0 1");
  EXPECT_EQ(san_of(ranks, "a5a3"), "R5a3+");
  EXPECT_EQ(san_of(ranks, "a1a3"), "R1a3+");
  EXPECT_EQ(san_of(ranks, "a1a2"), "R1a2");
  EXPECT_EQ(san_of(ranks, "a5b5"), "Rb5");
  // Knights a2, a4, e2 all reach c3: a2 shares its file with a4 and its rank
  // with e2, so it needs both; a4 its rank; e2 its file.
  const auto both = at<GardnerState>("4k/N4/5/N3N/4K w - - 0 1");
  EXPECT_EQ(san_of(both, "a2c3"), "Na2c3");
  EXPECT_EQ(san_of(both, "a4c3"), "N4c3");
  EXPECT_EQ(san_of(both, "e2c3"), "Nec3");
}

TEST(MinichessSan, DisambiguationAmongTheRuleSetsMoves) {
  // The knight on e2 is pinned by the rook on e5. In gardner its moves are
  // illegal, so b1's needs no file; in cs3243 they are actions (and lose),
  // so it does.
  constexpr std::string_view kPinned = "k3r/5/5/4N/1N2K w - - 0 1";
  EXPECT_EQ(san_of(at<GardnerState>(kPinned), "b1c3"), "Nc3");
  EXPECT_EQ(san_of(at<Cs3243State>(kPinned), "b1c3"), "Nbc3");
  EXPECT_EQ(san_of(at<Cs3243State>(kPinned), "e2c3"), "Nec3");
  EXPECT_EQ(read(at<GardnerState>(kPinned), "Nec3"), "error: Nec3 would leave your king in check");
}

TEST(MinichessSan, ChecksAndMates) {
  // Rook e1-e5 checks a5 along rank 5. With the white king on a3 (covering
  // a4, b4) and b5 on the rook's rank it is mate; with the king on a1 the
  // black king escapes to a4 or b4.
  constexpr std::string_view kMate = "k4/5/K4/5/4R w - - 0 1";
  constexpr std::string_view kCheck = "k4/5/5/5/K3R w - - 0 1";
  EXPECT_EQ(san_of(at<GardnerState>(kMate), "e1e5"), "Re5#");
  EXPECT_EQ(san_of(at<GardnerState>(kCheck), "e1e5"), "Re5+");
  EXPECT_EQ(at<GardnerState>(kMate).result(*at<GardnerState>(kMate).parse_move("e1e5")).ending(),
            Ending::Checkmate);
  // Rook to b1: a4, b4, b5 all attacked, a5 not: stalemate, a draw in
  // gardner (no mark) but a loss in cs3243 (RULES.md §1b), marked `#`.
  EXPECT_EQ(san_of(at<GardnerState>(kMate), "e1b1"), "Rb1");
  EXPECT_EQ(san_of(at<Cs3243State>(kMate), "e1b1"), "Rb1#");
  EXPECT_EQ(san_of(at<Cs3243State>(kMate), "e1e5"), "Re5#");
  EXPECT_EQ(san_of(at<Cs3243State>(kCheck), "e1e5"), "Re5+");
  // COMP 472 has no check: the same geometry with a queen gets no marks,
  // and taking the king is a plain capture.
  EXPECT_EQ(san_of(at<Comp472State>("k4/5/K4/5/4Q w - - 0 1"), "e1e5"), "Qe5");
  EXPECT_EQ(san_of(at<Comp472State>("4k/5/5/5/K3Q w - - 0 1"), "e1e5"), "Qxe5");
}

TEST(MinichessSan, ReaderForms) {
  const GardnerState start;
  EXPECT_EQ(read(start, "Nc3"), "b1c3");
  EXPECT_EQ(read(start, "Nbc3"), "b1c3");  // more origin than needed is fine
  EXPECT_EQ(read(start, "N1c3"), "b1c3");
  EXPECT_EQ(read(start, "Nb1c3"), "b1c3");
  EXPECT_EQ(read(start, "b1c3"), "b1c3");   // UCI
  EXPECT_EQ(read(start, "B2 B3"), "b2b3");  // COMP 472's form, via parse_move
  EXPECT_EQ(read(start, "  a3!? "), "a2a3");
  EXPECT_EQ(read(start, "Pa3"), "a2a3");
  const auto promo = at<GardnerState>("2r1k/1P3/5/5/K4 w - - 0 1");
  EXPECT_EQ(read(promo, "bxc5=Q+"), "b4c5q");
  EXPECT_EQ(read(promo, "bxc5Q"), "b4c5q");
  EXPECT_EQ(read(promo, "bc5n"), "b4c5n");  // `x` left out
  EXPECT_EQ(read(promo, "b5=R"), "b4b5r");
  // COMP 472: the queen is the only choice, so it may be left out.
  EXPECT_EQ(read(at<Comp472State>("4k/P4/5/5/K4 w - - 0 1"), "a5"), "a4a5q");
  EXPECT_EQ(read(at<Comp472State>("4k/5/5/5/K3Q w - - 0 1"), "Qxe5#"), "e1e5");
  // A capital B is the bishop: `B1b3` is SAN's bishop from rank 1, although
  // parse_move, which reads any case, takes it for the b-file (a finding of
  // fuzz/fen_fuzz.cpp; PGN §8.2.3 gives piece letters in upper case).
  const auto both = at<Comp472State>("kqb1n/2pq1/5/3QP/1QKBN w - - 0 1");
  EXPECT_EQ(read(both, "B1b3"), "d1b3");
  EXPECT_EQ(read(both, "b1b3"), "b1b3");
  const auto b_file = both.parse_move("B1b3");
  ASSERT_TRUE(b_file.ok()) << b_file.error();
  EXPECT_EQ(both.move_text(*b_file), "b1b3");
}

TEST(MinichessSan, ReaderErrors) {
  const GardnerState start;
  EXPECT_EQ(read(start, "Nd3"), "error: Nd3 is not legal here: no knight of yours can move to d3");
  EXPECT_EQ(read(start, "Nxc3"), "error: Nxc3: there is nothing to capture on c3");
  EXPECT_EQ(read(start, "Nf3"), "error: Nf3 leaves the board: squares are a1 to e5");
  EXPECT_EQ(read(start, "O-O"), "error: O-O: there is no castling in 5x5 chess");
  EXPECT_EQ(read(start, "hello"),
            "error: 'hello' is not a move in SAN (e.g. Nc3, bxc4, e5=Q) or UCI (b1c3)");
  EXPECT_EQ(read(start, ""), "error: '' is not a move");
  EXPECT_EQ(read(start, "a2a4"), "error: move 'a2a4': a pawn on a2 cannot move to a4");
  const auto files = at<GardnerState>("4k/5/5/5/N1N1K w - - 0 1");
  EXPECT_EQ(read(files, "Nb3"), "error: Nb3 is ambiguous: a1b3, c1b3");
  const auto promo = at<GardnerState>("2r1k/1P3/5/5/K4 w - - 0 1");
  EXPECT_EQ(read(promo, "b5"), "error: b5 promotes: add the piece, e.g. b5=Q");
  EXPECT_EQ(read(promo, "bxc5=K"),
            "error: 'bxc5=K' is not a move in SAN (e.g. Nc3, bxc4, e5=Q) or UCI (b1c3)");
  EXPECT_EQ(read(at<Comp472State>("4k/P4/5/5/K4 w - - 0 1"), "a5=N"),
            "error: a5=N: a pawn may not promote to a knight here");
  EXPECT_EQ(read(at<Cs3243State>("4k/P4/5/5/K4 w - - 0 1"), "a5=Q"),
            "error: a5=Q: the move to a5 is not a promotion");
  const auto mate = at<GardnerState>("k4/5/K4/5/4R w - - 0 1");
  const auto over = mate.result(*mate.parse_move("e1e5"));
  EXPECT_EQ(read(over, "Kb5"), "error: Kb5: the game is over (checkmate)");
}

// Every action's SAN is unique in its position and reads back to it, over
// seeded random games (the notation round trip of DESIGN habit 8).
template <class S>
void round_trip(std::uint64_t seed, int games) {
  Rng rng(seed);
  int checked = 0;
  for (int g = 0; g < games; ++g) {
    S s;
    while (!s.is_terminal()) {
      Moves moves;
      s.actions(moves);
      std::set<std::string> seen;
      for (const Move m : moves) {
        const std::string text = san(s, m);
        EXPECT_TRUE(seen.insert(text).second) << s.to_text() << ": " << text << " twice";
        const auto back = parse_san(s, text);
        ASSERT_TRUE(back.ok()) << s.to_text() << ": " << text << ": " << back.error();
        EXPECT_EQ(*back, m) << s.to_text() << ": " << text;
        ++checked;
      }
      s = s.result(moves[rng.below(moves.size())]);
    }
  }
  EXPECT_GT(checked, 1000);
}

TEST(MinichessSan, RoundTripGardner) {
  round_trip<GardnerState>(1, 60);
}
TEST(MinichessSan, RoundTripCs3243) {
  round_trip<Cs3243State>(2, 60);
}
TEST(MinichessSan, RoundTripComp472) {
  round_trip<Comp472State>(3, 60);
}

// Check marks against Fairy-Stockfish: after each king-safe move of seeded
// random games, its `d` command lists "Checkers:" (the pieces giving check);
// our SAN must end in `+` or `#` exactly when that list is not empty.
// Skipped when /usr/games/fairy-stockfish is absent.
template <class S>
void marks_match_fairy(std::string_view variant, std::uint64_t seed) {
  constexpr const char* kFairy = "/usr/games/fairy-stockfish";
  if (!std::filesystem::exists(kFairy)) GTEST_SKIP() << kFairy << " is absent";
  Rng rng(seed);
  std::vector<bool> marked;
  const auto dir = std::filesystem::temp_directory_path();
  const auto stamp = std::string(variant) + "-" + std::to_string(seed);
  const auto in_path = dir / ("duel-san-fairy-in-" + stamp + ".txt");
  const auto out_path = dir / ("duel-san-fairy-out-" + stamp + ".txt");
  {
    std::ofstream in(in_path);
    in << "uci\nsetoption name VariantPath value " << DUEL_SOURCE_DIR
       << "/tests/data/fairy-stockfish/variants.ini\nsetoption name UCI_Variant value " << variant
       << "\n";
    for (int g = 0; g < 20; ++g) {
      S s;
      while (!s.is_terminal()) {
        Moves moves;
        s.position().safe_moves(moves);
        if (moves.empty()) break;
        const Move m = moves[rng.below(moves.size())];
        const std::string text = san(s, m);
        const S after = s.result(m);
        // cs3243's `#` without check (no safe move, RULES.md §1b) has no
        // Fairy-Stockfish counterpart to compare with.
        if (text.back() != '#' || after.position().in_check()) {
          marked.push_back(text.back() == '+' || text.back() == '#');
          in << "position fen " << s.to_text() << " moves " << s.move_text(m) << "\nd\n";
        }
        s = after;
      }
    }
    in << "quit\n";
  }
  const std::string cmd =
      std::string(kFairy) + " < " + in_path.string() + " > " + out_path.string() + " 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  std::vector<bool> checks;
  std::ifstream out(out_path);
  for (std::string line; std::getline(out, line);) {
    if (line.rfind("Checkers:", 0) == 0) checks.push_back(trim(line.substr(9)).size() > 0);
  }
  std::filesystem::remove(in_path);
  std::filesystem::remove(out_path);
  ASSERT_EQ(checks.size(), marked.size());
  int with_check = 0;
  for (std::size_t i = 0; i < marked.size(); ++i) {
    EXPECT_EQ(marked[i], checks[i]) << "move " << i;
    with_check += checks[i] ? 1 : 0;
  }
  EXPECT_GT(with_check, 10);
}

TEST(MinichessSan, GardnerMarksMatchFairyStockfish) {
  marks_match_fairy<GardnerState>("gardner", 21);
}
TEST(MinichessSan, Cs3243MarksMatchFairyStockfish) {
  marks_match_fairy<Cs3243State>("cs3243", 22);
}

}  // namespace
}  // namespace duel::games::minichess
