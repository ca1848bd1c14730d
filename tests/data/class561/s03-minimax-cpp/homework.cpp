// s03-minimax-cpp -- class561 fixture: plain minimax, depth 3 (C++).
//
// Why it exists: a correct C++ agent of middle strength, compiled by the
// grader from homework.cpp.  It searches every line 3 plies deep (minimax
// in negamax form, NO pruning) and scores the leaves by material: men 1,
// kings 1.5 (counted as 2 and 3), its own minus the opponent's; a side with
// no legal move has lost.  Ties go to the first move in the move
// generator's fixed order (a8 to h1), so it is deterministic.  No time
// guard: depth 3 takes a millisecond or so.
// Expected: beats s01, s02, s05 and s06; loses to s04.  Many of its games
// against the Python and Java agents end by the draw rules (repetition,
// 50 plies), which it wins on time left: it uses far less CPU.
//
// Compile: g++ -std=c++17 -O2 -o homework homework.cpp   (C++11 is enough)
// Run:     ./homework   (in a folder holding input.txt; writes output.txt)
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

// ---- checkers move generation (shared by this class's C++ agents) ----
// Board: b[r][c], r = 0 is the top line of input.txt (rank 8), c = 0 is file
// a.  'b'/'w' men, 'B'/'W' kings, '.' empty.  Black men move down (r + 1),
// White men up (r - 1).  A move is the list of squares visited (r * 8 + c)
// and, for a jump, the list of squares jumped.  Captured pieces
// stay on the board until the move ends (a piece is never jumped twice); a
// man that reaches the far row is crowned and the move ends there.
struct Board {
  char sq[8][8];
};

struct Move {
  int n = 0;       // squares visited: path[0] is the start
  int path[13];    // a move captures at most 12 pieces
  int caps[12];    // the squares jumped: n - 1 of them for a jump, 0 for a step
  bool jump = false;
};

static const int kDirs[4][2] = {{-1, -1}, {-1, 1}, {1, -1}, {1, 1}};

static char lower(char p) { return static_cast<char>(std::tolower(static_cast<unsigned char>(p))); }
static bool is_king(char p) { return p == 'B' || p == 'W'; }
static char other(char side) { return side == 'b' ? 'w' : 'b'; }
static int crown_row(char p) { return lower(p) == 'b' ? 7 : 0; }
static void dir_range(char p, int& lo, int& hi) {
  if (is_king(p)) { lo = 0; hi = 4; }
  else if (p == 'b') { lo = 2; hi = 4; }
  else { lo = 0; hi = 2; }
}
static bool on_board(int r, int c) { return r >= 0 && r < 8 && c >= 0 && c < 8; }

static void find_jumps(Board& b, int r, int c, char p, Move& m, std::vector<Move>& out) {
  const char enemy = other(lower(p));
  bool more = false;
  int lo, hi;
  dir_range(p, lo, hi);
  for (int d = lo; d < hi; ++d) {
    const int mr = r + kDirs[d][0], mc = c + kDirs[d][1];
    const int tr = r + 2 * kDirs[d][0], tc = c + 2 * kDirs[d][1];
    if (!on_board(tr, tc) || lower(b.sq[mr][mc]) != enemy || b.sq[tr][tc] != '.') continue;
    if (std::find(m.caps, m.caps + m.n - 1, mr * 8 + mc) != m.caps + m.n - 1) continue;
    more = true;
    m.caps[m.n - 1] = mr * 8 + mc;
    m.path[m.n++] = tr * 8 + tc;
    if (!is_king(p) && tr == crown_row(p)) out.push_back(m);  // crowned: ends
    else find_jumps(b, tr, tc, p, m, out);
    --m.n;
  }
  if (!more && m.n > 1) out.push_back(m);
}

// Every legal move of `side` ('b' or 'w') in a fixed order: squares a8..h1,
// directions up-left, up-right, down-left, down-right; jumps only when there
// is one (captures are compulsory).
static std::vector<Move> legal_moves(Board& b, char side) {
  std::vector<Move> jumps, steps;
  steps.reserve(16);
  for (int r = 0; r < 8; ++r) {
    for (int c = 0; c < 8; ++c) {
      const char p = b.sq[r][c];
      if (p == '.' || lower(p) != side) continue;
      Move m;
      m.path[m.n++] = r * 8 + c;
      m.jump = true;
      b.sq[r][c] = '.';  // the piece leaves its square
      find_jumps(b, r, c, p, m, jumps);
      b.sq[r][c] = p;
      if (!jumps.empty()) continue;
      int lo, hi;
      dir_range(p, lo, hi);
      for (int d = lo; d < hi; ++d) {
        const int tr = r + kDirs[d][0], tc = c + kDirs[d][1];
        if (on_board(tr, tc) && b.sq[tr][tc] == '.') {
          Move s;
          s.path[s.n++] = r * 8 + c;
          s.path[s.n++] = tr * 8 + tc;
          steps.push_back(s);
        }
      }
    }
  }
  return jumps.empty() ? steps : jumps;
}

static Board apply_move(const Board& b, const Move& m) {
  Board n = b;
  const int from = m.path[0], to = m.path[m.n - 1];
  char p = n.sq[from / 8][from % 8];
  n.sq[from / 8][from % 8] = '.';
  if (m.jump)
    for (int i = 0; i + 1 < m.n; ++i) n.sq[m.caps[i] / 8][m.caps[i] % 8] = '.';
  if (!is_king(p) && to / 8 == crown_row(p)) p = static_cast<char>(std::toupper(static_cast<unsigned char>(p)));
  n.sq[to / 8][to % 8] = p;
  return n;
}

static std::string square_name(int s) {
  std::string out;
  out += static_cast<char>('a' + s % 8);
  out += static_cast<char>('0' + 8 - s / 8);
  return out;
}

static std::string move_text(const Move& m) {
  std::string out;
  for (int i = 0; i + 1 < m.n; ++i) {
    out += m.jump ? "J " : "E ";
    out += square_name(m.path[i]) + " " + square_name(m.path[i + 1]) + "\n";
  }
  return out;
}

struct Input {
  std::string mode;
  char side;
  double seconds;
  Board board;
};

static bool read_input(Input& in) {
  std::ifstream f("input.txt");
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(f, line)) {
    std::string t;
    for (size_t i = 0; i < line.size(); ++i)
      if (!std::isspace(static_cast<unsigned char>(line[i]))) t += line[i];
    if (!t.empty()) lines.push_back(t);
  }
  if (lines.size() < 11) return false;
  in.mode = lines[0];
  in.side = (lines[1] == "BLACK" || lines[1] == "black") ? 'b' : 'w';
  in.seconds = std::strtod(lines[2].c_str(), 0);
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) in.board.sq[r][c] = c < static_cast<int>(lines[3 + r].size()) ? lines[3 + r][c] : '.';
  return true;
}

static void write_output(const std::string& text) {
  std::ofstream f("output.txt");
  f << text;
}
// ---- end of move generation ----

static const int kDepth = 3;
static const int kLoss = 1000;

static int material(const Board& b, char side) {
  int score = 0;
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) {
      const char p = b.sq[r][c];
      if (p == '.') continue;
      const int v = is_king(p) ? 3 : 2;
      score += lower(p) == side ? v : -v;
    }
  return score;
}

static int minimax(Board& b, char side, int depth) {
  const std::vector<Move> moves = legal_moves(b, side);
  if (moves.empty()) return -kLoss - depth;  // lost; a later loss is better
  if (depth == 0) return material(b, side);
  int best = -10 * kLoss;
  for (size_t i = 0; i < moves.size(); ++i) {
    Board n = apply_move(b, moves[i]);
    best = std::max(best, -minimax(n, other(side), depth - 1));
  }
  return best;
}

int main() {
  Input in;
  if (!read_input(in)) return 2;
  const std::vector<Move> moves = legal_moves(in.board, in.side);
  if (moves.empty()) return 1;  // no legal move: the game is lost
  size_t best = 0;
  int best_v = -10 * kLoss;
  for (size_t i = 0; i < moves.size(); ++i) {
    Board n = apply_move(in.board, moves[i]);
    const int v = -minimax(n, other(in.side), kDepth - 1);
    if (v > best_v) { best_v = v; best = i; }
  }
  write_output(move_text(moves[best]));
  return 0;
}
