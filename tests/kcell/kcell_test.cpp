// KCell (RULES.md §4, seed 002): rules on positions drawn as text, notation,
// specs, the plain searches on small boards, and the default heuristic against
// the seed's random heuristic.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "../support/limits.hpp"
#include "duel/core/rng.hpp"
#include "duel/core/spec.hpp"
#include "duel/games/engines.hpp"
#include "duel/games/kcell/kcell.hpp"

namespace duel::games::kcell {
namespace {

// A position of the game kcell:n=N,k=K from its text; fails the test if bad.
State at(int n, int k, std::string_view text) {
  const auto made = State::make(n, k);
  EXPECT_TRUE(made.ok()) << made.error();
  const auto s = made->from_text(text);
  EXPECT_TRUE(s.ok()) << s.error();
  return s.ok() ? *s : *made;
}

std::vector<Move> actions_of(const State& s) {
  State::Moves moves;
  s.actions(moves);
  return {moves.begin(), moves.end()};
}

using test_support::depth_limit;

// A small transposition table: these searches are tiny.
search::EngineOptions small_table() {
  search::EngineOptions options;
  options.hash_mb = 1;
  return options;
}

// The game's searches through its factories (games/engines.hpp), as every
// front end makes them.
search::SearchResult<Move> minimax(const State& s) {
  return make_plain<State>("", 0, false).value()->search(s, {});
}
search::SearchResult<Move> alphabeta(const State& s) {
  return make_plain<State>("", 0, true).value()->search(s, {});
}
SearcherPtr<State> engine_with(std::string_view eval, std::uint64_t seed = 0) {
  return make_engine<State>(eval, seed, small_table()).value();
}

Result<State> from_spec_text(std::string_view text) {
  const auto spec = Spec::parse(text);
  if (!spec) return fail(spec.error());
  return State::from_spec(*spec);
}

// ---------------------------------------------------------------------------
// Rules

TEST(KCellRules, StartPosition) {
  // RULES.md §4: o on cells 1..n, x on k-n+1..k, o (player 1) moves first;
  // the seed draws n=2, k=7 as [oo___xx].
  const State s;
  EXPECT_EQ(s.to_text(), "[oo___xx] o");
  EXPECT_EQ(s.to_move(), Player::First);
  EXPECT_FALSE(s.is_terminal());
  EXPECT_EQ(State(3, 15).to_text(), "[ooo_________xxx] o");
  // o on 1 jumps its own piece on 2; o on 2 steps (position drawn here).
  EXPECT_EQ(actions_of(s), (std::vector<Move>{1, 2}));
}

TEST(KCellRules, SeedChainJump) {
  // Seed 002: [_oox_x_] -> [_o_xox_] -> [_o_x_xo], one move of the o on cell 3.
  const State s = at(2, 7, "[_oox_x_] o");
  EXPECT_EQ(s.destination(3), 7);
  EXPECT_EQ(s.result(3).to_text(), "[_o_x_xo] x");
  // The o on cell 2 is blocked by its own piece on 3 with x on 4 behind it.
  EXPECT_EQ(actions_of(s), (std::vector<Move>{3}));
}

TEST(KCellRules, SingleStep) {
  // Seed 002: a single step forward if the next cell is empty.
  EXPECT_EQ(State().result(2).to_text(), "[o_o__xx] x");
  // x moves left: the x on cell 6 steps to 5 (position drawn here).
  EXPECT_EQ(at(2, 7, "[oo___xx] x").result(6).to_text(), "[oo__x_x] o");
}

TEST(KCellRules, JumpOverOwnPiece) {
  // Seed 002: jump over a single piece, own or opposing. o on 1 over o on 2.
  EXPECT_EQ(State().result(1).to_text(), "[_oo__xx] x");
  // x on 7 over x on 6 lands on 5 (position drawn here).
  EXPECT_EQ(at(2, 7, "[oo___xx] x").result(7).to_text(), "[oo__xx_] o");
}

TEST(KCellRules, JumpOverEnemyPiece) {
  // o on 2 jumps x on 3 to 4; the chain stops because cell 5 is empty (only
  // jumps continue, RULES.md §4).
  EXPECT_EQ(at(1, 6, "[_ox___] o").result(2).to_text(), "[__xo__] x");
  // x on 4 jumps o on 3 to 2, then o on 1 cannot be jumped (off the board).
  EXPECT_EQ(at(2, 7, "[o_ox__x] x").result(4).to_text(), "[oxo___x] o");
}

TEST(KCellRules, NoMoveOffTheBoard) {
  // RULES.md §4: a piece cannot leave the board. Positions drawn here.
  // The o on 7 is on the last cell; only the o on 2 can move.
  EXPECT_EQ(actions_of(at(2, 7, "[_o__xxo] o")), (std::vector<Move>{2}));
  // The o on 6 would have to jump x on 7 off the board; the o on 2 jumps to 4.
  const State s = at(2, 7, "[_ox__ox] o");
  EXPECT_EQ(actions_of(s), (std::vector<Move>{2}));
  EXPECT_EQ(s.result(2).to_text(), "[__xo_ox] x");
  // The x on cell 1 cannot move further left.
  EXPECT_EQ(actions_of(at(2, 7, "[x_o_o_x] x")), (std::vector<Move>{7}));
}

TEST(KCellRules, ForcedPass) {
  // o's three pieces face the x pair on 4-5: no o can move, x on 9 can. The
  // pass is o's only action and x moves again (RULES.md §4). Position drawn here.
  const State s = at(3, 9, "[oooxx___x] o");
  EXPECT_FALSE(s.is_terminal());
  EXPECT_EQ(actions_of(s), (std::vector<Move>{kPass}));
  const State after = s.result(kPass);
  EXPECT_EQ(after.to_text(), "[oooxx___x] x");
  EXPECT_EQ(actions_of(after), (std::vector<Move>{9}));
}

TEST(KCellRules, WinByReachingTheFarCells) {
  // RULES.md §4: all n pieces on the far cells win at once. o steps 5 -> 6 and
  // stands on 6, 7 (k-n+1..k for n=2, k=7). Position drawn here.
  const State s = at(2, 7, "[_x_xo_o] o");
  const State won = s.result(5);
  EXPECT_EQ(won.to_text(), "[_x_x_oo] x");
  EXPECT_TRUE(won.is_terminal());
  EXPECT_TRUE(actions_of(won).empty());
  EXPECT_EQ(won.utility(), 1);
  // x steps 3 -> 2 and stands on 1, 2; o's pieces could still move: the game
  // ends at once anyway.
  const State lost = at(2, 7, "[x_x_oo_] x").result(3);
  EXPECT_EQ(lost.to_text(), "[xx__oo_] o");
  EXPECT_TRUE(lost.is_terminal());
  EXPECT_EQ(lost.utility(), -1);
}

TEST(KCellRules, BothBlockedLongerRunWins) {
  // RULES.md §4: neither can move; the longer unbroken run from the far edge
  // wins. o has 1 (cell 8), x has 0 (cell 1 empty). Position drawn here.
  const State s = at(3, 8, "[__ooxxxo] x");
  EXPECT_TRUE(s.is_terminal());
  EXPECT_EQ(s.run(Player::First), 1);
  EXPECT_EQ(s.run(Player::Second), 0);
  EXPECT_EQ(s.utility(), 1);
  // Its mirror image: x's run of 1 from cell 1 wins for x.
  const State m = at(3, 8, "[xoooxx__] o");
  EXPECT_EQ(m, s.flipped());
  EXPECT_TRUE(m.is_terminal());
  EXPECT_EQ(m.utility(), -1);
}

TEST(KCellRules, BothBlockedEqualRunsDraw) {
  // Runs of 1 each (o on 7, x on 1): a draw (RULES.md §4). Position drawn here.
  const State s = at(3, 7, "[x_ooxxo] o");
  EXPECT_TRUE(s.is_terminal());
  EXPECT_EQ(s.utility(), 0);
  // Runs of 0 each: the two walls of three meet in the middle.
  const State t = at(3, 15, "[_____oooxxx____] x");
  EXPECT_TRUE(t.is_terminal());
  EXPECT_EQ(t.utility(), 0);
}

TEST(KCellRules, BlockedMoverWithMovableOpponentIsNotOver) {
  // Only the mover is stuck: not terminal (that would need both stuck).
  EXPECT_FALSE(at(3, 9, "[oooxx___x] o").is_terminal());
  // Both stuck with the other side to move: terminal all the same.
  EXPECT_TRUE(at(3, 7, "[x_ooxxo] x").is_terminal());
}

// ---------------------------------------------------------------------------
// Notation and text

TEST(KCellText, MoveTextRoundTripOverRandomPlayouts) {
  for (const auto& [n, k] : {std::pair{2, 7}, {3, 15}, {4, 12}, {1, 3}, {5, 64}}) {
    Rng rng(static_cast<std::uint64_t>(n * 100 + k));
    for (int game = 0; game < 20; ++game) {
      State s(n, k);
      while (!s.is_terminal()) {
        const auto moves = actions_of(s);
        ASSERT_FALSE(moves.empty()) << s.to_text();
        for (const Move m : moves) {
          const auto parsed = s.parse_move(s.move_text(m));
          ASSERT_TRUE(parsed.ok()) << s.to_text() << " " << parsed.error();
          EXPECT_EQ(*parsed, m);
        }
        const auto back = s.from_text(s.to_text());
        ASSERT_TRUE(back.ok()) << back.error();
        EXPECT_EQ(*back, s);
        EXPECT_EQ(back->key(), s.key());
        const State before = s;
        const State next = s.result(moves[rng.below(moves.size())]);
        EXPECT_EQ(s, before);  // copy-make: result() leaves its input untouched
        s = next;
      }
      const int u = s.utility();
      EXPECT_TRUE(u == -1 || u == 0 || u == 1);
      EXPECT_EQ(s.flipped().utility(), -u);
    }
  }
}

TEST(KCellText, MoveText) {
  const State s;
  EXPECT_EQ(s.move_text(2), "2");
  EXPECT_EQ(s.move_text(kPass), "-1");  // RULES.md §4: a pass is written -1
  const State stuck = at(3, 9, "[oooxx___x] o");
  EXPECT_EQ(*stuck.parse_move("-1"), kPass);
  EXPECT_EQ(*stuck.parse_move("pass"), kPass);
}

TEST(KCellText, ParseMoveErrors) {
  const State s;  // [oo___xx] o
  const auto error = [](const Result<Move>& r) { return r.ok() ? std::string("ok") : r.error(); };
  EXPECT_NE(error(s.parse_move("abc")).find("not a move"), std::string::npos);
  EXPECT_NE(error(s.parse_move("")).find("not a move"), std::string::npos);
  EXPECT_NE(error(s.parse_move("0")).find("off the board"), std::string::npos);
  EXPECT_NE(error(s.parse_move("8")).find("off the board (cells are 1..7"), std::string::npos);
  EXPECT_NE(error(s.parse_move("4")).find("cell 4 is empty"), std::string::npos);
  EXPECT_NE(error(s.parse_move("6")).find("holds x's piece; it is o's turn"), std::string::npos);
  EXPECT_NE(error(s.parse_move("-1")).find("o cannot pass"), std::string::npos);
  const State blocked = at(2, 7, "[_oox_x_] o");
  EXPECT_NE(error(blocked.parse_move("2")).find("cells 3 and 4 are both taken"), std::string::npos);
  const State edge = at(2, 7, "[_o__xxo] o");
  EXPECT_NE(error(edge.parse_move("7")).find("last cell"), std::string::npos);
  const State wall = at(2, 7, "[_ox__ox] o");
  EXPECT_NE(error(wall.parse_move("6")).find("no cell to jump to"), std::string::npos);
  const State stuck = at(3, 9, "[oooxx___x] o");
  EXPECT_NE(error(stuck.parse_move("3")).find("must pass"), std::string::npos);
  const State over = at(3, 15, "[_____oooxxx____] x");
  EXPECT_NE(error(over.parse_move("9")).find("game is over"), std::string::npos);
  // Every message is one line.
  for (const char* text : {"abc", "0", "8", "4", "6", "-1"}) {
    EXPECT_EQ(error(s.parse_move(text)).find('\n'), std::string::npos) << text;
  }
}

TEST(KCellText, FromTextErrors) {
  const State s;  // kcell:n=2,k=7
  const auto error = [&](std::string_view text) {
    const auto r = s.from_text(text);
    return r.ok() ? std::string("ok") : r.error();
  };
  EXPECT_EQ(error("[oo___xx] o"), "ok");
  EXPECT_EQ(error("[oo___xx] x"), "ok");
  EXPECT_NE(error("oo___xx o").find("is not like"), std::string::npos);
  EXPECT_NE(error("[oo__xx] o").find("has 6 cells; this game has k=7"), std::string::npos);
  EXPECT_NE(error("[oo___xx]").find("side to move"), std::string::npos);
  EXPECT_NE(error("[oo___xx] y").find("side to move"), std::string::npos);
  EXPECT_NE(error("[oo_._xx] o").find("cell 4"), std::string::npos);
  EXPECT_NE(error("[ooo__xx] o").find("3 o and 2 x"), std::string::npos);
  EXPECT_NE(error("[xx___oo] o").find("both players home"), std::string::npos);
}

TEST(KCellText, RenderShowsBoardNumbersAndTurn) {
  EXPECT_EQ(State().render(), "[oo___xx]\n 1234567\no (player 1) to move\n");
  const std::string big = State(3, 15).render();
  EXPECT_NE(big.find("[ooo_________xxx]\n          111111\n 123456789012345\n"), std::string::npos);
  EXPECT_NE(at(3, 9, "[oooxx___x] o").render().find("must pass"), std::string::npos);
  EXPECT_NE(at(3, 8, "[__ooxxxo] x").render().find("o wins"), std::string::npos);
}

// ---------------------------------------------------------------------------
// Specs

TEST(KCellSpec, DefaultsAndCanonicalSpec) {
  const auto d = from_spec_text("kcell");
  ASSERT_TRUE(d.ok()) << d.error();
  EXPECT_EQ(d->spec(), "kcell:n=2,k=7");  // defaults: the seed's n=2, k=7
  EXPECT_EQ(*d, State());
  const auto s = from_spec_text("kcell:k=15,n=3");
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->spec(), "kcell:n=3,k=15");
  EXPECT_EQ(s->n(), 3);
  EXPECT_EQ(s->k(), 15);
  EXPECT_TRUE(from_spec_text("kcell:n=31,k=64").ok());  // the largest board
  EXPECT_TRUE(from_spec_text("kcell:n=1,k=3").ok());    // the smallest
}

TEST(KCellSpec, Errors) {
  const auto error = [](std::string_view text) {
    const auto r = from_spec_text(text);
    return r.ok() ? std::string("ok") : r.error();
  };
  EXPECT_EQ(error("kcell:n=0"), "kcell: n=0 is out of range 1..31");
  EXPECT_EQ(error("kcell:n=abc"), "kcell: n=abc is not a whole number");
  EXPECT_EQ(error("kcell:k=65"), "kcell: k=65 is out of range 3..64");
  EXPECT_NE(error("kcell:n=4").find("k=7 is too small for n=4"), std::string::npos);
  EXPECT_NE(error("kcell:n=3,k=6").find("k >= 2n+1 = 7"), std::string::npos);
  EXPECT_EQ(error("kcell:cells=9"), "kcell: unknown option 'cells' (known: n, k)");
  EXPECT_NE(error("nqueens:n=3").find("names the game 'nqueens'"), std::string::npos);
}

// ---------------------------------------------------------------------------
// Keys and symmetry

TEST(KCellKey, DependsOnBoardAndSideToMove) {
  const State s;
  EXPECT_NE(s.key(), at(2, 7, "[oo___xx] x").key());
  EXPECT_NE(s.key(), s.result(1).key());
  EXPECT_NE(s.result(1).key(), s.result(2).key());
  // The same pieces on a longer board is another game.
  EXPECT_NE(at(1, 3, "[o_x] o").key(), at(1, 4, "[o_x_] o").key());
  EXPECT_EQ(s.flipped().flipped(), s);
}

TEST(KCellHeuristics, AntisymmetricAndInsideTheEstimateRange) {
  Tempo tempo;
  Progress progress;
  RandomHeuristic random(7);
  for (const auto& [n, k] : {std::pair{2, 7}, {3, 15}, {5, 30}, {31, 64}}) {
    Rng rng(static_cast<std::uint64_t>(k));
    for (int game = 0; game < 20; ++game) {
      State s(n, k);
      while (!s.is_terminal()) {
        for (const Value v : {tempo(s), progress(s), random(s)}) {
          EXPECT_LT(v < 0 ? -v : v, kUnit - kMaxPly) << s.to_text();
        }
        // Seen from the other side, the same position is worth minus as much.
        EXPECT_EQ(tempo(s.flipped()), -tempo(s)) << s.to_text();
        EXPECT_EQ(progress(s.flipped()), -progress(s)) << s.to_text();
        const auto moves = actions_of(s);
        s = s.result(moves[rng.below(moves.size())]);
      }
    }
  }
  EXPECT_EQ(heuristic_names<State>(), "tempo, progress, random");
  EXPECT_EQ(default_heuristic<State>(), "tempo");
}

// ---------------------------------------------------------------------------
// Searches

TEST(KCellSearch, HandSolvedSmallBoards) {
  // n=1, k=3: [o_x] -> [_ox] -> x jumps to cell 1, home: x wins at ply 2.
  EXPECT_EQ(minimax(State(1, 3)).value, loss_in(2));
  // n=1, k=4: [o__x] -> [_o_x] -> [_ox_] -> o jumps to cell 4: o wins at ply 3.
  EXPECT_EQ(minimax(State(1, 4)).value, win_in(3));
  // n=2, k=5: 1 (jump to 3) gives [_ooxx], all blocked, runs 0-0: a draw.
  // 2 gives [o_oxx]; then every move is forced: x 4 jumps to 2 [oxo_x], o 3-4
  // [ox_ox], x 5 jumps to 3 [oxxo_], o 4-5 [oxx_o]: all blocked, o's run 1
  // against x's 0. So o wins at ply 5.
  const auto r = minimax(State(2, 5));
  EXPECT_EQ(r.value, win_in(5));
  ASSERT_FALSE(r.pv.empty());
  EXPECT_EQ(r.pv.front(), 2);
}

TEST(KCellSearch, AlphaBetaAgreesWithMinimaxAndVisitsFewerNodes) {
  for (const auto& [n, k] : {std::pair{1, 3}, {1, 5}, {2, 5}, {2, 6}, {2, 7}, {2, 8}, {3, 9}}) {
    const State s(n, k);
    const auto mm = minimax(s);
    const auto ab = alphabeta(s);
    EXPECT_TRUE(mm.exact && ab.exact);
    EXPECT_EQ(ab.value, mm.value) << s.spec();
    EXPECT_LE(ab.stats.nodes(), mm.stats.nodes()) << s.spec();
    // The engine (iterative deepening, TT) proves the same value.
    const auto e = engine_with("tempo")->search(s, search::Limits());
    EXPECT_TRUE(e.exact) << s.spec();
    EXPECT_EQ(e.value, mm.value) << s.spec();
  }
  // On the seed's board n=2, k=7 there is a real choice and pruning pays.
  const auto mm = minimax(State());
  const auto ab = alphabeta(State());
  EXPECT_LT(ab.stats.nodes(), mm.stats.nodes());
  EXPECT_LT(alphabeta(State(3, 9)).stats.nodes(), minimax(State(3, 9)).stats.nodes());
}

// The seed's bar (RULES.md §4): the heuristic agent beats random at
// k = 15, n = 3 as both players. Depth-6 engines, eight seeded games a side.
int play(const SearcherPtr<State>& a, const SearcherPtr<State>& b, int depth) {
  State s(3, 15);
  while (!s.is_terminal()) {
    const auto r = s.to_move() == Player::First ? a->search(s, depth_limit(depth))
                                                : b->search(s, depth_limit(depth));
    EXPECT_TRUE(r.best.has_value());
    s = s.result(*r.best);
  }
  return s.utility();
}

TEST(KCellAgents, TempoBeatsRandomHeuristicAsBothPlayers) {
  constexpr int kGames = 8;
  int wins_first = 0, losses_first = 0, wins_second = 0, losses_second = 0;
  for (int g = 0; g < kGames; ++g) {
    const auto seed = static_cast<std::uint64_t>(g);
    const int as_first = play(engine_with("tempo"), engine_with("random", seed), 6);
    wins_first += as_first > 0;
    losses_first += as_first < 0;
    const int as_second = play(engine_with("random", seed + 1000), engine_with("tempo"), 6);
    wins_second += as_second < 0;
    losses_second += as_second > 0;
  }
  // Over 100 games each way the margin is about 80 points (docs/rules/kcell.md);
  // eight games must at least show a clear majority of wins.
  EXPECT_GE(wins_first, kGames / 2 + 1) << "losses " << losses_first;
  EXPECT_GE(wins_second, kGames / 2 + 1) << "losses " << losses_second;
  EXPECT_GT(wins_first, losses_first);
  EXPECT_GT(wins_second, losses_second);
}

}  // namespace
}  // namespace duel::games::kcell
