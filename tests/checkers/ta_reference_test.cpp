// The course's reference agent, `csci561-ta` (RULES.md §6a), against a small
// implementation of §6a written here from the course's facts alone: its own
// 8x8 board of characters, its own move generator in the course's order,
// the course's walk of a tree of jump paths (Step.toLongestStepSequence),
// the course's depth counter (Move.calculateValue) and its own copy of the
// tie-break's coin. The facts are those of the TA's program,
// akkkkka/CSCI561_HW2_21Spr@5bb41ac:referenceAI_TA/src/main/{Board,Move,Step,
// Game}.java, read for what they do; ta_reference.hpp states each in words.
// Every expected move and value below is this implementation's.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../support/cli_run.hpp"
#include "duel/core/rng.hpp"
#include "duel/games/checkers/checkers.hpp"
#include "duel/games/checkers/protocol.hpp"
#include "duel/games/checkers/ta_reference.hpp"
#include "duel/play/homework.hpp"
#include "duel/registry/agents.hpp"

namespace duel {
namespace {

using games::checkers::State;
namespace protocol = games::checkers::protocol;
namespace ta = games::checkers::ta;

// ---------------------------------------------------------------------------
// The independent implementation.

struct Board {
  std::array<std::array<char, 8>, 8> at{};  // at[y][x]: y the row from the top, x the column
  char side = 'b';                          // 'b': Black to move, 'w': White
};

Board board_of(const std::string& lines, char side) {
  Board b;
  std::size_t k = 0;
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 8; ++x) {
      while (lines[k] == '\n') ++k;
      b.at[y][x] = lines[k++];
    }
  }
  b.side = side;
  return b;
}

bool black(char c) {
  return c == 'b' || c == 'B';
}
bool white(char c) {
  return c == 'w' || c == 'W';
}
bool owned(char c, char side) {
  return side == 'b' ? black(c) : white(c);
}
bool on_board(int x, int y) {
  return x >= 0 && x < 8 && y >= 0 && y < 8;
}

// A piece's directions in the course's order: left (-1) before right, and
// for a king the top (-1) before the bottom; a man only forward (Black down).
std::vector<std::pair<int, int>> directions(char piece) {
  std::vector<std::pair<int, int>> out;
  for (const int dx : {-1, 1}) {
    if (piece == 'B' || piece == 'W') {
      out.emplace_back(dx, -1);
      out.emplace_back(dx, 1);
    } else {
      out.emplace_back(dx, piece == 'b' ? 1 : -1);
    }
  }
  return out;
}

// One step of a move, crowning a man on the far row.
void play_step(Board& b, int x0, int y0, int x1, int y1) {
  char piece = b.at[y0][x0];
  b.at[y0][x0] = '.';
  if (x1 - x0 == 2 || x0 - x1 == 2) b.at[(y0 + y1) / 2][(x0 + x1) / 2] = '.';
  if (piece == 'b' && y1 == 7) piece = 'B';
  if (piece == 'w' && y1 == 0) piece = 'W';
  b.at[y1][x1] = piece;
}

struct Path {
  std::vector<std::pair<int, int>> squares;  // (x, y), the start first
  bool jump = false;
  bool complete = true;
};

// A jump and the jumps that may follow it, with the original piece's
// directions (a man crowned on the way keeps a man's: the course's
// checkJumpStep passes the piece it started with).
struct Node {
  int x = 0;
  int y = 0;
  bool leaf = true;
  std::vector<Node> children;
};

std::optional<Node> jump_from(const Board& b, char piece, int x, int y, int dx, int dy) {
  const int tx = x + 2 * dx;
  const int ty = y + 2 * dy;
  if (!on_board(tx, ty) || b.at[ty][tx] != '.') return std::nullopt;
  const char mid = b.at[y + dy][x + dx];
  if (mid == '.' || owned(mid, b.side)) return std::nullopt;
  Node n{tx, ty, true, {}};
  Board after = b;
  play_step(after, x, y, tx, ty);
  for (const auto& [ex, ey] : directions(piece)) {
    if (auto c = jump_from(after, piece, tx, ty, ex, ey)) n.children.push_back(std::move(*c));
  }
  n.leaf = n.children.empty();
  return n;
}

// The course's walk of a jump's tree: follow first children to a node with
// none, emit the path there, remove that node from its parent; again while
// the first jump has children.
void walk(Node root, std::pair<int, int> from, std::vector<Path>& out) {
  do {
    std::vector<Node*> chain{&root};
    while (!chain.back()->children.empty()) chain.push_back(&chain.back()->children.front());
    Path p;
    p.squares.push_back(from);
    for (const Node* n : chain) p.squares.emplace_back(n->x, n->y);
    p.jump = true;
    p.complete = chain.back()->leaf;
    out.push_back(p);
    if (chain.size() >= 2) {
      Node* parent = chain[chain.size() - 2];
      parent->children.erase(parent->children.begin());
    }
  } while (!root.children.empty());
}

// The course's move list: rows from the top, squares left to right, each
// piece's directions in order, a direction's simple move then its jumps;
// the jumps alone if there are any.
std::vector<Path> generate(const Board& b) {
  std::vector<Path> simple;
  std::vector<Path> jumps;
  for (int y = 0; y < 8; ++y) {
    for (int x = y % 2 == 0 ? 1 : 0; x < 8; x += 2) {
      const char c = b.at[y][x];
      if (!owned(c, b.side)) continue;
      for (const auto& [dx, dy] : directions(c)) {
        if (on_board(x + dx, y + dy) && b.at[y + dy][x + dx] == '.') {
          simple.push_back({{{x, y}, {x + dx, y + dy}}, false, true});
        }
        if (auto n = jump_from(b, c, x, y, dx, dy)) walk(std::move(*n), {x, y}, jumps);
      }
    }
  }
  return jumps.empty() ? simple : jumps;
}

Board apply(const Board& b, const Path& m) {
  Board next = b;
  for (std::size_t i = 1; i < m.squares.size(); ++i) {
    play_step(next, m.squares[i - 1].first, m.squares[i - 1].second, m.squares[i].first,
              m.squares[i].second);
  }
  next.side = b.side == 'b' ? 'w' : 'b';
  return next;
}

// RULES.md §6a's leaf value, White maximising.
int evaluate(const Board& b) {
  bool any_black = false;
  bool any_white = false;
  int v = 0;
  for (int y = 0; y < 8; ++y) {
    for (int i = 0; i < 4; ++i) {
      const int x = 2 * i + (y % 2 == 0 ? 1 : 0);
      const int xc = (3 - i) * i;
      const int yc = (7 - y) * y / 2;
      const char c = b.at[y][x];
      any_white = any_white || white(c);
      any_black = any_black || black(c);
      if (c == 'w') v += 17 - y + xc;
      if (c == 'b') v -= 10 + y + xc;
      if (c == 'W') v += 50 + xc + yc;
      if (c == 'B') v -= 50 + xc + yc;
    }
  }
  if (!any_black) return INT_MAX;
  if (!any_white) return INT_MIN;
  return v;
}

// The course's counter (Move.calculateValue): the root's moves carry 20
// (its maxDepth), each ply one less; the position after a move is searched
// on when the counter is above 20 - minDepth or the move was a jump, else
// judged by evaluate(). That looks minDepth + 1 plies ahead, so a lookahead
// of `plies` is minDepth = plies - 1.
int value_of(const Board& b, const Path& m, int counter, int plies) {
  const Board next = apply(b, m);
  const int min_depth = plies - 1;
  if (!(counter > 20 - min_depth || m.jump)) return evaluate(next);
  const auto moves = generate(next);
  if (moves.empty()) return next.side == 'b' ? INT_MAX : INT_MIN;
  int best = next.side == 'w' ? INT_MIN : INT_MAX;
  for (const Path& c : moves) {
    const int v = value_of(next, c, counter - 1, plies);
    best = next.side == 'w' ? std::max(best, v) : std::min(best, v);
  }
  return best;
}

std::uint64_t fnv1a(const Board& b) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  const auto add = [&h](char c) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  };
  for (const auto& row : b.at) {
    for (const char c : row) add(c);
  }
  add(b.side == 'b' ? 'B' : 'W');
  return h;
}

// SplitMix64 (Vigna), written out again here.
std::uint64_t next_draw(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

std::string square(std::pair<int, int> s) {
  return std::string{static_cast<char>('a' + s.first), static_cast<char>('8' - s.second)};
}
std::string text_of(const Path& m) {
  std::string out;
  for (std::size_t i = 1; i < m.squares.size(); ++i) {
    if (!out.empty()) out += '\n';
    out += (m.jump ? "J " : "E ") + square(m.squares[i - 1]) + " " + square(m.squares[i]);
  }
  return out;
}

// The root's complete moves and their values, searched once for all seeds.
struct Root {
  std::vector<Path> moves;
  std::vector<int> values;
};
Root search_root(const Board& b, int plies) {
  Root r;
  for (const Path& m : generate(b)) {
    if (!m.complete) continue;
    r.moves.push_back(m);
    r.values.push_back(value_of(b, m, 20, plies));
  }
  return r;
}

struct Choice {
  std::string move;
  int value = 0;
  int ties = 0;
};
Choice choose(const Board& b, const Root& r, std::uint64_t seed) {
  std::uint64_t stream = seed ^ fnv1a(b);
  std::size_t best = 0;
  int ties = 0;
  for (std::size_t i = 1; i < r.moves.size(); ++i) {
    const bool better = b.side == 'w' ? r.values[i] > r.values[best] : r.values[i] < r.values[best];
    if (better) {
      best = i;
    } else if (r.values[i] == r.values[best]) {
      ++ties;
      if ((next_draw(stream) >> 63) != 0) best = i;
    }
  }
  return {text_of(r.moves[best]), r.values[best], ties};
}

// ---------------------------------------------------------------------------
// The positions.

struct Case {
  std::string name;
  std::string lines;  // 8 rows of `.bBwW`, top row first
  char side;
};

// "r1 r2 ... r8" as input.txt's 8 lines.
std::string rows(const std::string& spaced) {
  std::string out;
  for (const char c : spaced) out += c == ' ' ? '\n' : c;
  return out + "\n";
}

// The start, the course's ten SINGLE inputs (RULES.md §6a,
// courses/csci561/single-inputs.txt, from the course's
// hw2-resubmit-result/single/log_single_mbiyani.txt), and boards with long
// jump trees: cut-short paths, a king's round trip, a man crowned mid-jump.
std::vector<Case> fixed_cases() {
  const std::string start = State().board_lines();
  return {
      {"start", start, 'b'},
      {"single 2", rows("........ ........ ........ ......W. .....B.. ........ .b.B.... ....B..."),
       'b'},
      {"single 3", rows(".....b.b ........ .....b.b b....... ........ b...b... .w.....b B......."),
       'b'},
      {"single 4", rows(".b.b.b.b b....... ...b...b ........ .w...w.w ..w...w. .....b.. ..w.B..."),
       'w'},
      {"single 5", rows(".b.b.b.. b.b.b... .b.b.b.. ........ ...w.... w.w..... .w.w...w w.w...w."),
       'w'},
      {"single 6", rows("........ ........ ...b.b.. ..b..... .......b w....... .w.....w ..w....."),
       'b'},
      {"single 7", rows("........ ....b.W. ...b...b b....... .w...... w.w..... .....B.. ........"),
       'w'},
      {"single 8", rows("........ ..b...W. .....b.. w....... .....b.w w.B..... .....b.. w......."),
       'w'},
      {"single 9", rows("...b.... w.b.b... ...b...b w...b.b. .w...w.. w.....w. .w.w.w.. ........"),
       'b'},
      {"single 10", rows("........ ......b. ...W.... ....W... ...w.b.. ........ ...B.b.B ........"),
       'w'},
      // (single 1 is the start.) A man's tree of two three-jump paths, each
      // also cut short after its second jump.
      {"three-jump tree",
       rows(".b...... ..w..... ........ ..w.w... ........ ..w...w. ........ ......w."), 'b'},
      // A king's round trip around four men, both ways, and its shorter cuts.
      {"king round trip",
       rows("........ ......b. ........ ....w.w. ...B.... ....w.w. ........ w......."), 'b'},
      // A man crowned on its second jump stops there, a king's jump left.
      {"crowned mid-jump",
       rows("........ ..b.b... .......b ..b..... ...w.... ........ .w...... ........"), 'w'},
  };
}

// Positions of random games from the start (Duel's rules, any legal move).
std::vector<Case> playout_cases() {
  std::vector<Case> out;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    Rng rng(seed);
    State s;
    for (int ply = 0; ply < 140 && !s.is_terminal(); ++ply) {
      if (ply % 9 == 4) {
        out.push_back({"playout " + std::to_string(seed) + " ply " + std::to_string(ply),
                       s.board_lines(), s.to_move() == Player::First ? 'b' : 'w'});
      }
      State::Moves moves;
      s.actions(moves);
      s = s.result(moves[rng.below(moves.size())]);
    }
  }
  return out;
}

State state_of(const Case& c) {
  const auto in = protocol::parse_input(std::string("GAME\n") +
                                        (c.side == 'b' ? "BLACK" : "WHITE") + "\n300\n" + c.lines);
  EXPECT_TRUE(in.ok()) << c.name << ": " << in.error();
  return in->state;
}

std::string text_of(const games::checkers::Move& m) {
  const auto sq = [](int s) {
    return std::string{static_cast<char>('a' + games::checkers::file_of(s)),
                       static_cast<char>('0' + games::checkers::rank_of(s))};
  };
  if (!m.is_jump()) return "E " + sq(m.from()) + " " + sq(m.to());
  std::string out;
  int at = m.from();
  for (int i = 0; i < m.jumps(); ++i) {
    if (!out.empty()) out += '\n';
    out += "J " + sq(at) + " " + sq(m.landing(i));
    at = m.landing(i);
  }
  return out;
}

constexpr std::array<std::uint64_t, 4> kSeeds = {0, 1, 2, 99};

// ---------------------------------------------------------------------------
// The tests.

TEST(Csci561Ta, MoveListsAreTheCourses) {
  auto cases = fixed_cases();
  for (auto& c : playout_cases()) cases.push_back(std::move(c));
  int cut_short = 0;
  for (const Case& c : cases) {
    const Board b = board_of(c.lines, c.side);
    const auto expected = generate(b);
    std::vector<ta::CourseMove> got;
    ta::course_moves(state_of(c).position(), got);
    ASSERT_EQ(got.size(), expected.size()) << c.name;
    for (std::size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(text_of(got[i].move), text_of(expected[i])) << c.name << " move " << i;
      EXPECT_EQ(got[i].complete, expected[i].complete) << c.name << " move " << i;
      cut_short += expected[i].complete ? 0 : 1;
    }
  }
  // The three-jump tree and the round trip have the course's cut-short paths.
  EXPECT_GE(cut_short, 4);
}

TEST(Csci561Ta, FixedPositionsMatchAtEveryDepth) {
  int ties = 0;
  for (const Case& c : fixed_cases()) {
    const Board b = board_of(c.lines, c.side);
    const State s = state_of(c);
    for (int plies = 1; plies <= 4; ++plies) {
      const Root root = search_root(b, plies);
      for (const std::uint64_t seed : kSeeds) {
        const Choice want = choose(b, root, seed);
        const ta::Answer got = ta::search({s.position(), plies, seed});
        ASSERT_TRUE(got.move.has_value()) << c.name;
        EXPECT_EQ(text_of(*got.move), want.move)
            << c.name << " plies " << plies << " seed " << seed;
        EXPECT_EQ(got.value, want.value) << c.name << " plies " << plies;
        EXPECT_EQ(got.ties, want.ties) << c.name << " plies " << plies;
        ties += want.ties;
      }
    }
  }
  EXPECT_GT(ties, 0) << "the coin was never tossed: the tie-break went untested";
}

TEST(Csci561Ta, PlayoutPositionsMatch) {
  for (const Case& c : playout_cases()) {
    const Board b = board_of(c.lines, c.side);
    const State s = state_of(c);
    if (s.is_terminal()) continue;
    for (int plies = 1; plies <= 3; ++plies) {
      const Root root = search_root(b, plies);
      for (const std::uint64_t seed : kSeeds) {
        const Choice want = choose(b, root, seed);
        const ta::Answer got = ta::search({s.position(), plies, seed});
        ASSERT_TRUE(got.move.has_value()) << c.name;
        EXPECT_EQ(text_of(*got.move), want.move)
            << c.name << " plies " << plies << " seed " << seed;
        EXPECT_EQ(got.value, want.value) << c.name << " plies " << plies;
      }
    }
  }
}

// The agent as the registry makes it plays the same move as the search.
TEST(Csci561Ta, TheAgentPlaysTheSearchesMove) {
  for (const Case& c : fixed_cases()) {
    const Board b = board_of(c.lines, c.side);
    const State s = state_of(c);
    const Root root = search_root(b, 2);
    for (const std::uint64_t seed : kSeeds) {
      auto agent =
          registry::make_agent<State>("csci561-ta:seed=" + std::to_string(seed) + ",depth=2");
      ASSERT_TRUE(agent.ok()) << agent.error();
      const auto m = (*agent)->choose(s, {});
      ASSERT_TRUE(m.has_value()) << c.name;
      EXPECT_EQ(s.seed_text(*m), choose(b, root, seed).move) << c.name << " seed " << seed;
    }
  }
}

// §6a: depth 4; 3 under 100 s left; 2 under 10 s; 1 under 2 s; 1 in SINGLE.
// Depth d looks d - 1 plies ahead, at least 1 (the logs, below).
TEST(Csci561Ta, DepthByModeAndTimeLeft) {
  EXPECT_EQ(ta::course_depth(true, 300.0), 1);
  EXPECT_EQ(ta::course_depth(false, 300.0), 4);
  EXPECT_EQ(ta::course_depth(false, 100.0), 4);
  EXPECT_EQ(ta::course_depth(false, 99.99), 3);
  EXPECT_EQ(ta::course_depth(false, 10.0), 3);
  EXPECT_EQ(ta::course_depth(false, 9.99), 2);
  EXPECT_EQ(ta::course_depth(false, 2.0), 2);
  EXPECT_EQ(ta::course_depth(false, 1.99), 1);
  EXPECT_EQ(ta::course_depth(false, 0.01), 1);
  EXPECT_EQ(ta::lookahead(4), 3);
  EXPECT_EQ(ta::lookahead(3), 2);
  EXPECT_EQ(ta::lookahead(2), 1);
  EXPECT_EQ(ta::lookahead(1), 1);
  const std::vector<std::pair<std::string, int>> specs = {{"mode=single,left=300", 1},
                                                          {"left=300", 3},
                                                          {"left=100", 3},
                                                          {"left=50", 2},
                                                          {"left=5", 1},
                                                          {"left=1.5", 1},
                                                          {"left=50,depth=5", 5}};
  for (const auto& [keys, plies] : specs) {
    auto agent = registry::make_agent<State>("csci561-ta:" + keys);
    ASSERT_TRUE(agent.ok()) << agent.error();
    ASSERT_TRUE((*agent)->choose(State(), {}).has_value());
    EXPECT_EQ((*agent)->last_report()->depth, plies) << keys;
  }
  EXPECT_FALSE(registry::make_agent<State>("csci561-ta:mode=self").ok());
  EXPECT_FALSE(registry::make_agent<State>("csci561-ta:depth=0").ok());
}

// The course's reference as it played: its first replies in round 1 against
// two students (akkkkka/CSCI561_HW2_21Spr@5bb41ac:hw2-resubmit-result/round1/
// log_1_reference_aa68777.txt, the first 20, and log_1_reference_bodala.txt,
// the first 11: the "INPUT for reference" boards, all WHITE with 293-300 s
// left, and "reference plays [...]"). Each played move is one of the best at
// 3 plies, the depth the agent takes with that time; at 2, 4 and 5 plies
// some are not.
TEST(Csci561Ta, TheCoursesLoggedRepliesAreBestAtThreePlies) {
  const std::vector<std::pair<std::string, std::string>> logged = {
      {".b.b.b.b b.b.b.b. .b.b.b.. ......b. ........ w.w.w.w. .w.w.w.w w.w.w.w.", "E g3 f4"},
      {".b.b.b.b b.b.b.b. .b.b.b.. ........ .....w.b w.w.w... .w.w.w.w w.w.w.w.", "E h2 g3"},
      {".b.b.b.b b.b.b.b. .b.b.... ......b. .....w.b w.w.w.w. .w.w.w.. w.w.w.w.", "J f4 h6"},
      {".b.b.b.b b.b.b... .b.b.b.w ........ .......b w.w.w.w. .w.w.w.. w.w.w.w.", "E g1 h2"},
      {".b.b.b.b b.b.b... .b.b...w ......b. .......b w.w.w.w. .w.w.w.w w.w.w...", "E g3 f4"},
      {".b.b.b.b b.b.b... .b.....w ....b.b. .....w.b w.w.w... .w.w.w.w w.w.w...", "J f4 d6"},
      {".b.b.b.b b...b... .b.....w ....b.b. .......b w.w.w... .w.w.w.w w.w.w...", "E c3 d4"},
      {".b.b.b.b b...b... .b.....w ......b. .......b w.b.w... .w.w.w.w w.w.w...", "J d2 b4"},
      {".b.b.b.b b...b... .......w ..b...b. .w.....b w...w... .w...w.w w.w.w...", "J b4 d6"},
      {".b.b.b.b b....... .......w ..b...b. .......b w...w... .w...w.w w.w.w...", "E c1 d2"},
      {".b...b.. b.b...b. .......w ..b...b. .......b w...w.w. .w.w.w.. w...w...", "E b2 c3"},
      {".b...b.. b.b...b. .......w ..b..... .....b.b w.w.w.w. ...w.w.. w...w...", "J g3 e5"},
      {".b...b.. b.....b. ...b...w ..b.w... .......b w.w.w... ...w.w.. w...w...", "J e5 c7"},
      {".....b.. b.....b. ...b...w ..b..... .......b w.w.w... ...w.w.. w...w...", "E e3 f4"},
      {".....b.. b....... ...b.b.w ..b..... .....w.b w.w..... ...w.w.. w...w...", "E a1 b2"},
      {".....b.. b....... ...b...w ..b.b... .....w.b w.w..... .w.w.w.. ....w...", "E f4 g5"},
      {".....b.. ........ .b.b...w ..b.b.w. .......b w.w..... .w.w.w.. ....w...", "E f2 e3"},
      {".....b.. ........ .b.b...w ..b.b.w. ........ w.w.w.b. .w.w.... ....w...", "E g5 f6"},
      {".....b.. ........ ...b.w.w b.b.b... ........ w.w.w.b. .w.w.... ....w...", "E f6 g7"},
      {".....b.. ......w. ...b...w b.b.b... ........ w.w.w... .w.w...b ....w...", "E e3 f4"},
      // log_1_reference_bodala.txt
      {".b.b.b.b b.b.b.b. .b.b...b ....b... ........ w.w.w.w. .w.w.w.w w.w.w.w.", "E g3 f4"},
      {".b.b.b.b b.b.b.b. .b.b...b ........ ........ w.w.w.b. .w.w.w.w w.w.w.w.", "J h2 f4"},
      {".b.b.b.b b.b.b... .b.b.b.b ........ .....w.. w.w.w... .w.w.w.. w.w.w.w.", "E f2 g3"},
      {".b.b.b.b b.b.b... ...b.b.b ..b..... .....w.. w.w.w.w. .w.w.... w.w.w.w.", "E g1 f2"},
      {".b.b.b.b b.b.b... ...b...b ..b...b. .....w.. w.w.w.w. .w.w.w.. w.w.w...", "E c3 d4"},
      {".b.b.b.b b.b.b... ...b...b ..b..... ...w.w.b w...w.w. .w.w.w.. w.w.w...", "J d4 b6"},
      {".b.b.b.b b...b... ...b...b b....... .....w.b w...w.w. .w.w.w.. w.w.w...", "E a3 b4"},
      {".b.b.b.b b...b... ...b...b ........ .....w.b ..b.w.w. .w.w.w.. w.w.w...", "J b2 d4"},
      {".b.b.b.b b...b... .......b ..b..... ...w.w.b ....w.w. ...w.w.. w.w.w...", "J d4 b6"},
      {".b.b.b.b ....b... .......b ..b..... .....w.b ....w.w. ...w.w.. w.w.w...", "E a1 b2"},
      {".b.b.b.b ........ ...b...b ..b..... .....w.b ....w.w. .w.w.w.. ..w.w...", "E b2 c3"},
  };
  EXPECT_EQ(ta::lookahead(ta::course_depth(false, 293.0)), 3);
  std::array<int, 6> best_at{};  // by plies: how many logged replies are best
  for (const auto& [board, played] : logged) {
    const Board b = board_of(rows(board), 'w');
    for (int plies = 2; plies <= 5; ++plies) {
      const Root root = search_root(b, plies);
      const int best = *std::max_element(root.values.begin(), root.values.end());
      for (std::size_t i = 0; i < root.moves.size(); ++i) {
        if (root.values[i] == best && text_of(root.moves[i]) == played) ++best_at[plies];
      }
    }
  }
  EXPECT_EQ(best_at[3], 31);
  EXPECT_EQ(best_at[2], 24);
  EXPECT_EQ(best_at[4], 27);
  EXPECT_EQ(best_at[5], 25);
}

TEST(Csci561Ta, HomeworkPassesTheModeAndTheTimeLeft) {
  EXPECT_EQ(play::agent_for_input("csci561-ta:seed=3", protocol::Mode::Single, 300.0),
            "csci561-ta:seed=3,mode=single,left=300");
  EXPECT_EQ(play::agent_for_input("csci561-ta", protocol::Mode::Game, 293.84),
            "csci561-ta:mode=game,left=293.84");
  EXPECT_EQ(play::agent_for_input("duel:csci561-ta:left=9", protocol::Mode::Game, 300.0),
            "csci561-ta:left=9,mode=game");
  EXPECT_EQ(play::agent_for_input("minimax:depth=4", protocol::Mode::Game, 3.0), "minimax:depth=4");
  // The course's single move 4 looked at 1 ply (SINGLE) and 3 (GAME, 300 s
  // left), where the two choose differently: the program's answer shows
  // which depth it took.
  const Case c = fixed_cases()[3];
  ASSERT_EQ(c.name, "single 4");
  const Board b = board_of(c.lines, c.side);
  const std::string shallow = choose(b, search_root(b, 1), 3).move;
  const std::string deep = choose(b, search_root(b, 3), 3).move;
  ASSERT_NE(shallow, deep);
  for (const auto& [head, want] : {std::pair{std::string("SINGLE\nWHITE\n300\n"), shallow},
                                   std::pair{std::string("GAME\nWHITE\n300\n"), deep}}) {
    const auto r = test_support::duel("homework --agent csci561-ta:seed=3", "",
                                      {{"input.txt", head + c.lines}});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.files.at("output.txt"), want + "\n") << head;
  }
}

// One seed replays the same game; another seed plays another.
TEST(Csci561Ta, SeedsMakeGamesReproducibleAndVaried) {
  const auto game = [](std::uint64_t seed) {
    auto black = registry::make_agent<State>("csci561-ta:depth=1,seed=" + std::to_string(seed));
    auto white = registry::make_agent<State>("csci561-ta:depth=1,seed=" + std::to_string(seed));
    std::string record;
    State s;
    for (int ply = 0; ply < 40 && !s.is_terminal(); ++ply) {
      const auto m = (ply % 2 == 0 ? *black : *white)->choose(s, {});
      record += s.move_text(*m) + " ";
      s = s.result(*m);
    }
    return record;
  };
  EXPECT_EQ(game(5), game(5));
  EXPECT_NE(game(5), game(6));
}

}  // namespace
}  // namespace duel
