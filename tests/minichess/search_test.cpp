// The engine on the 5x5 chess rule sets: as it plays, and with one of its
// features (search/features.hpp) turned off to show what it does.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <utility>

#include "../support/limits.hpp"
#include "duel/games/minichess/linear_eval.hpp"
#include "duel/games/minichess/minichess.hpp"
#include "duel/games/minichess/net_eval.hpp"
#include "duel/search/engine.hpp"
#include "duel/search/plain.hpp"

namespace duel::games::minichess {
namespace {

constexpr search::EngineOptions kPlay{.hash_mb = 4};

// The 5x5 chess games' features (the same in the three rule sets) with
// `field` set to `on`.
constexpr search::Features kChess = search::features_of<GardnerState>();
template <bool search::Features::*field, bool on>
constexpr search::Features with() {
  search::Features f = kChess;
  f.*field = on;
  return f;
}
static_assert(kChess == search::features_of<Cs3243State>() &&
              kChess == search::features_of<Comp472State>());

// A fixed-depth search must end long before this many nodes: each of these
// takes well under a million.
constexpr std::uint64_t kNodeCap = 20'000'000;

template <class S>
void expect_depth_search_ends(const std::string& fen, int depth) {
  SCOPED_TRACE(fen);
  const auto root = S{}.from_text(fen);
  ASSERT_TRUE(root.ok()) << root.error();
  search::Engine<S, E2> engine(E2{}, kPlay);
  search::Limits limits = test_support::depth_limit(depth);
  limits.nodes = kNodeCap;
  const auto out = engine.search(*root, limits);
  EXPECT_TRUE(out.complete) << "stopped by the node cap after " << out.stats.nodes() << " nodes";
  EXPECT_LT(out.stats.nodes(), kNodeCap);
  ASSERT_TRUE(out.best.has_value());
}

// Under king capture every pseudo-legal move answers a check, so checks
// answered by checks in quiescence once ran to the ply limit: this COMP 472
// search at depth 7 with null move and LMR ran for minutes (found in a
// gauntlet). Quiescence now answers checks only near the horizon.
TEST(MinichessSearch, Comp472QuiescenceChecksEnd) {
  expect_depth_search_ends<Comp472State>("k1bn1/1qpp1/5/1PPQ1/1NB1K w - - 6 4", 7);
}

// Moves that lose by force (search::HasForcedLoss) are not searched. CS3243,
// White in check from the rook on e5: of its nine pseudo-legal moves only
// Kd1 and Kd2 keep the king safe (Ke2 stays on the file; the rook on a1
// cannot block), the other seven lose at once. A depth-1 search without
// quiescence or table visits the root and those two children only; its
// value and move are minimax's, which visits all nine.
TEST(MinichessSearch, MovesThatLoseAtOnceAreNotSearched) {
  const auto s = Cs3243State{}.from_text("k3r/p4/5/5/R3K w - - 0 1");
  ASSERT_TRUE(s.ok()) << s.error();
  Moves moves;
  s->actions(moves);
  ASSERT_EQ(moves.size(), 9U);
  EXPECT_EQ(std::count_if(moves.begin(), moves.end(),
                          [&](const Move m) { return s->loss_plies(m) == 0; }),
            2);
  search::EngineOptions options;
  options.hash_mb = 0;
  search::Engine<Cs3243State, E2, with<&search::Features::quiescence, false>()> engine(E2{},
                                                                                       options);
  const auto out = engine.search(*s, test_support::depth_limit(1));
  EXPECT_EQ(out.stats.nodes(), 3U) << "the root and the two safe moves";
  ASSERT_TRUE(out.best.has_value());
  EXPECT_EQ(s->loss_plies(*out.best), 0) << s->move_text(*out.best);
  const auto plain = search::minimax(*s, 1, E2{});
  EXPECT_EQ(out.value, plain.value);
}

TEST(MinichessSearch, EveryRuleSetEndsAtDepthSeven) {
  expect_depth_search_ends<Comp472State>(std::string(Comp472::kStartFen), 7);
  expect_depth_search_ends<Cs3243State>(std::string(Cs3243::kStartFen), 7);
  expect_depth_search_ends<GardnerState>(std::string(Gardner::kStartFen), 7);
}

// `repetition_draws`: a position met again inside the search's own line is
// scored a draw (Stockfish's rule). White, a queen and a rook down, checks
// from d4, c4 and d3 while Black's king can only walk d1-e2-d1-c1: the
// perpetual check repeats a position of the line five plies in, where the
// rule's draw needs nine (a third occurrence). Fairy-Stockfish scores the
// position 0.00 at depth 18 (`go depth 18`, pv e5d4 d1e2 d4c4 e2d1 c4d3).
TEST(MinichessSearch, RepetitionInTheLineScoresADraw) {
  const auto s = GardnerState{}.from_text("r3Q/1K3/5/1p3/q2k1 w - - 0 1");
  ASSERT_TRUE(s.ok()) << s.error();
  const auto run = [&]<bool on>() {
    search::Engine<GardnerState, E2, with<&search::Features::repetition_draws, on>()> engine(E2{},
                                                                                             kPlay);
    const auto out = engine.search(*s, test_support::depth_limit(6));
    ASSERT_TRUE(out.best.has_value());
    if (on) {
      EXPECT_EQ(out.value, kDraw);
      EXPECT_EQ(s->move_text(*out.best), "e5d4");
    } else {
      // E2 at depth 6 scores it -119 (the checks keep the loss of
      // material beyond the horizon), but no draw.
      EXPECT_LT(out.value, -100) << "a queen and a rook down, and no draw in sight";
    }
  };
  run.template operator()<true>();
  run.template operator()<false>();
}

// `repetition_draws` and a position of the game: a second occurrence is no
// draw, since the opponent need not repeat it a third time. White, a queen
// down, has shuffled its knight out and back while Black's king did the
// same, so Nb1-a3 now repeats a position of the game; at depth 3 the rule's
// draw (the third occurrence) is out of reach. Until 2026-11-26 the switch
// scored any repetition below the root a draw, and Nb1-a3 a draw with it.
TEST(MinichessSearch, RepetitionOfTheGameIsNoDrawYet) {
  auto state = GardnerState{}.from_text("3qk/5/5/5/KN3 w - - 0 1");
  ASSERT_TRUE(state.ok()) << state.error();
  GardnerState s = *state;
  for (const char* text : {"b1a3", "e5e4", "a3b1", "e4e5"}) {
    const auto m = s.parse_move(text);
    ASSERT_TRUE(m.ok()) << text << ": " << m.error();
    s = s.result(*m);
  }
  ASSERT_EQ(s.repetitions(), 1);
  ASSERT_FALSE(s.is_terminal());
  const auto run = [&]<bool on>() {
    search::Engine<GardnerState, E2, with<&search::Features::repetition_draws, on>()> engine(E2{},
                                                                                             kPlay);
    const auto out = engine.search(s, test_support::depth_limit(3));
    ASSERT_TRUE(out.best.has_value());
    EXPECT_LT(out.value, -200) << "a queen against a knight, and no draw in reach";
  };
  run.template operator()<true>();
  run.template operator()<false>();
}

// A repeated position takes no value from the table. The game is one the
// engine drew against Fairy-Stockfish (docs/STRENGTH.md, "Repetitions"):
// Duel, White and four pawns ahead by its own count, shuffled its
// queen a5-c3-a5-c3 while Black's queen did d4-d5-d4, and Black's last d5d4
// made the threefold repetition (RULES.md 1a). Searching each of White's
// positions in turn with one table, as in play, the engine at the last
// decision took the table's entry for the position after a5c3, written by an
// earlier search when d5d4 was no draw yet, and played a5c3 again at +4 pawns.
// Searched instead, that position shows the draw, and the engine avoids it.
TEST(MinichessSearch, ARepeatedPositionTakesNoStoredValue) {
  const auto start = GardnerState{}.from_text("r1bqk/pp1pp/n2pP/PPP2/RNBQK w - - 0 3");
  ASSERT_TRUE(start.ok()) << start.error();
  GardnerState s = *start;
  search::EngineOptions options;
  options.hash_mb = 4;
  search::Engine<GardnerState, N1> engine(N1{}, options);
  const char* game[] = {"b2a3", "d4e3", "c1e3", "a5b5", "a3b4", "b5b4", "d1d2", "b4b2", "d2c3",
                        "c5d4", "e3d4", "d5d4", "c3a5", "d4d5", "a5c3", "d5d4", "c3a5", "d4d5"};
  for (const char* text : game) {
    if (s.to_move() == Player::First) (void)engine.search(s, test_support::depth_limit(6));
    const auto m = s.parse_move(text);
    ASSERT_TRUE(m.ok()) << text << ": " << m.error();
    s = s.result(*m);
  }
  // a5c3 d5d4 would end the game: the third occurrence of the position.
  const auto again = s.parse_move("a5c3");
  ASSERT_TRUE(again.ok()) << again.error();
  const auto back = s.result(*again).parse_move("d5d4");
  ASSERT_TRUE(back.ok()) << back.error();
  ASSERT_EQ(s.result(*again).result(*back).ending(), Ending::Repetition);
  const auto out = engine.search(s, test_support::depth_limit(6));
  ASSERT_TRUE(out.best.has_value());
  EXPECT_NE(s.move_text(*out.best), "a5c3") << "walked into the threefold repetition";
  EXPECT_GT(out.value, kDraw) << "White is ahead and should play on";
}

TEST(MinichessSearch, QuiescenceLineEndsWhereTheSideToMoveStandsPat) {
  // The tuner's --select (docs/tuning.md): a rook takes a queen a pawn
  // defends, the pawn takes back, and White has no capture left.
  const auto exchange = GardnerState{}.from_text("4k/1p3/2q2/4K/2R2 w - - 0 1");
  ASSERT_TRUE(exchange.ok()) << exchange.error();
  search::Engine<GardnerState, E3> engine(E3{});
  const auto line = engine.quiescence_line(*exchange);
  ASSERT_EQ(line.size(), 2U);
  EXPECT_EQ(exchange->move_text(line[0]), "c1c3");
  EXPECT_EQ(exchange->result(line[0]).move_text(line[1]), "b4c3");
  // Nothing to capture at the start: the position is its own end.
  EXPECT_TRUE(engine.quiescence_line(GardnerState{}).empty());
}

// The nodes of a complete depth-10 search of each of two Gardner positions
// (the start and a middle game) with the features F, each ending on a legal
// move.
template <class H, search::Features F>
std::array<std::uint64_t, 2> nodes_to_depth_10(const search::EngineOptions& options) {
  const std::string fens[] = {std::string(Gardner::kStartFen),
                              "rnb1k/1pp1p/pP2p/2qPQ/RNB1K w - - 0 7"};
  std::array<std::uint64_t, 2> nodes{};
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    SCOPED_TRACE(fens[i]);
    const auto root = GardnerState{}.from_text(fens[i]);
    EXPECT_TRUE(root.ok()) << root.error();
    if (!root.ok()) return nodes;
    search::Engine<GardnerState, H, F> engine(H{}, options);
    const auto out = engine.search(*root, test_support::depth_limit(10));
    EXPECT_TRUE(out.complete);
    EXPECT_TRUE(out.best.has_value());
    typename GardnerState::Moves legal;
    root->actions(legal);
    if (out.best) {
      EXPECT_NE(std::find(legal.begin(), legal.end(), *out.best), legal.end());
    }
    nodes[i] = out.stats.nodes();
  }
  return nodes;
}

// The value the features F find at depth `depth` where White's only move is
// Ka1-b1 and then Re5-e1 mates: two plies from there.
template <search::Features F>
Value mate_in_two_value(const search::EngineOptions& options, int depth) {
  const auto mated = GardnerState{}.from_text("4r/5/p2k1/P4/K4 w - - 0 1");
  EXPECT_TRUE(mated.ok()) << mated.error();
  if (!mated.ok()) return 0;
  search::Engine<GardnerState, N1, F> engine(N1{}, options);
  return engine.search(*mated, test_support::depth_limit(depth)).value;
}

// `probcut` (on in the chess games): the captures' reduced searches cut
// nodes, so the tree to a depth changes (and shrinks from the start); a
// proven result does not change.
TEST(MinichessSearch, ProbCutChangesTheTreeButNotAMate) {
  constexpr auto kOff = with<&search::Features::probcut, false>();
  static_assert(kChess.probcut);
  const auto off = nodes_to_depth_10<N1, kOff>(kPlay);
  const auto on = nodes_to_depth_10<N1, kChess>(kPlay);
  for (std::size_t i = 0; i < off.size(); ++i) {
    EXPECT_NE(off[i], on[i]) << i << ": no ProbCut changed the tree";
  }
  EXPECT_LT(on[0], off[0]) << "ProbCut cut no nodes from the start";
  EXPECT_EQ(mate_in_two_value<kChess>(kPlay, 6), loss_in(2));
  EXPECT_EQ(mate_in_two_value<kOff>(kPlay, 6), loss_in(2));
}

// Dead draws (search::HasDeadDraw): no pawns, and a lone king against a
// king with at most one knight or bishop. Gardner only: the same material
// can still be won under CS3243's rules (a side with no safe move loses)
// and COMP 472's (a king with nothing else to move steps into capture).
TEST(MinichessSearch, DeadDrawsAreKnownInGardnerOnly) {
  const std::array<std::pair<const char*, bool>, 9> gardner = {{
      {"5/2k2/5/2K2/5 w - - 0 40", true},     // the kings alone
      {"5/2k2/5/1BK2/5 b - - 10 82", true},   // a bishop
      {"5/K1N1k/5/5/5 b - - 0 83", true},     // a knight
      {"5/2k1n/5/2K2/5 w - - 0 40", true},    // Black's knight
      {"5/2k2/5/1BK1N/5 w - - 0 40", false},  // two minors
      // A minor each: a king hemmed in by its own piece can be mated.
      {"5/2kb1/5/1BK2/5 w - - 0 40", false},
      {"5/2k2/5/1RK2/5 w - - 0 40", false},  // a rook mates
      {"5/2k2/P4/2K2/5 w - - 0 40", false},  // a pawn may promote
      {"5/2k2/5/1QK2/5 w - - 0 40", false},  // a queen mates
  }};
  for (const auto& [fen, dead] : gardner) {
    const auto s = GardnerState{}.from_text(fen);
    ASSERT_TRUE(s.ok()) << fen << ": " << s.error();
    EXPECT_EQ(s->dead_draw(), dead) << fen;
  }
  const auto cs3243 = Cs3243State{}.from_text("5/2k2/5/1BK2/5 b - - 0 40");
  ASSERT_TRUE(cs3243.ok()) << cs3243.error();
  EXPECT_FALSE(cs3243->dead_draw());
  const auto comp472 = Comp472State{}.from_text("5/2k2/5/1BK2/5 b - - 0 40");
  ASSERT_TRUE(comp472.ok()) << comp472.error();
  EXPECT_FALSE(comp472->dead_draw());
}

// `dead_draws` (on by default): in a dead draw every child of the root is
// answered as a draw without a search, so the first iteration proves the
// root's draw and names a legal move. Without it the heuristic sees a
// bishop's worth for White and proves nothing. A king and a bishop cannot
// mate, so no search of this ending can prove anything but a draw.
TEST(MinichessSearch, ADeadDrawIsProvenAtOnce) {
  const auto root = GardnerState{}.from_text("5/2k2/5/1BK2/5 b - - 10 82");
  ASSERT_TRUE(root.ok()) << root.error();
  typename GardnerState::Moves moves;
  root->actions(moves);
  const auto run = [&]<bool on>() {
    SCOPED_TRACE(on ? "dead_draws on" : "dead_draws off");
    search::Engine<GardnerState, N1, with<&search::Features::dead_draws, on>()> engine(N1{}, kPlay);
    const auto out = engine.search(*root, test_support::depth_limit(8));
    ASSERT_TRUE(out.best.has_value());
    EXPECT_NE(std::find(moves.begin(), moves.end(), *out.best), moves.end());
    EXPECT_EQ(out.exact, on);
    if (on) {
      EXPECT_EQ(out.value, kDraw);
      EXPECT_EQ(out.depth, 1);
      EXPECT_EQ(out.stats.nodes(), 1 + moves.size());
    } else {
      EXPECT_EQ(out.depth, 8);
    }
  };
  run.template operator()<true>();
  run.template operator()<false>();
}

// The cut-off statistics by depth left add up to the totals, with the
// ordering on and off.
TEST(MinichessSearch, CutoffsByDepthAddUp) {
  const auto root = GardnerState{}.from_text(std::string(Gardner::kStartFen));
  ASSERT_TRUE(root.ok()) << root.error();
  for (const bool ordering : {true, false}) {
    SCOPED_TRACE(ordering);
    search::EngineOptions options = kPlay;
    options.ordering = ordering;
    search::Engine<GardnerState, N1> engine(N1{}, options);
    const auto out = engine.search(*root, test_support::depth_limit(8));
    ASSERT_TRUE(out.complete);
    ASSERT_TRUE(out.best.has_value());
    const auto& st = out.stats;
    const auto all = st.cutoff_depth_counts(false);
    const auto first = st.cutoff_depth_counts(true);
    ASSERT_EQ(all.size(), first.size());
    ASSERT_FALSE(all.empty());
    std::uint64_t sum = 0;
    std::uint64_t sum_first = 0;
    for (std::size_t d = 0; d < all.size(); ++d) {
      EXPECT_LE(first[d], all[d]) << d;
      sum += all[d];
      sum_first += first[d];
    }
    EXPECT_EQ(sum, st.cutoffs);
    EXPECT_EQ(sum_first, st.first_cutoffs);
    EXPECT_EQ(all[0], 0U) << "quiescence's cut-offs are not the engine's count";
    EXPECT_GT(all[1], 0U);
    EXPECT_LE(all.size(), 9U) << "no node is searched deeper than the root's 8 plies and checks";
    EXPECT_LE(st.table_move_first_cutoffs, st.table_move_cutoffs);
    EXPECT_LE(st.table_move_cutoffs, st.cutoffs);
    EXPECT_GT(st.table_move_cutoffs, 0U);
  }
}

}  // namespace
}  // namespace duel::games::minichess
