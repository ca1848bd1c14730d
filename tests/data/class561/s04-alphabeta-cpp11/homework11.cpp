// s04-alphabeta-cpp11 -- class561 fixture: alpha-beta, depth 6 (C++11).
//
// Why it exists: the strongest agent of the fixture class, and a C++11
// submission (homework11.cpp).  Iterative deepening alpha-beta (negamax) to
// depth 6.  Evaluation, its own minus the opponent's: men 100 plus 3 per row
// advanced, kings 150; the side ahead in material also gains for trading
// down, for kings close to the enemy's pieces and, with 10 pieces or fewer
// left, for leaving the other side few moves (so it hunts down what is left
// instead of shuffling).  A side with no legal move has lost.  Ties go to
// the first move in the move generator's fixed order.
// Endgame: with 12 pieces or fewer it deepens past 6 (up to 12) while the
// nodes searched so far are under 5000 -- a node count, not a clock, so
// the move stays deterministic.
// Repetitions: in GAME mode it keeps the placements of this game in
// playdata.txt (one 64-character line per ply) and scores a third
// occurrence within the next two plies as a draw (0): ahead, it avoids
// repeating; behind, it seeks it.
// Time guard: the search may use min(time left / 20, time left / 2) of CPU
// time (std::clock, start-up included).  When that runs out it stops and
// plays the best move of the last depth it finished (depth 1 always
// finishes).  A move takes at most about 0.1 s here, so with 5 s or more
// per game the guard does not fire and the agent is deterministic.
// Expected: beats every other agent of the class, as both colours.
//
// Compile: g++ -std=c++11 -O2 -o homework homework11.cpp
// Run:     ./homework   (in a folder holding input.txt; writes output.txt)
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
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

static const int kDepth = 6;
// Endgame (kEndgamePieces pieces or fewer): deepen further, up to
// kEndgameDepth, while the nodes searched so far are under kEndgameNodes.
// A node count, not a clock, so the choice stays deterministic.
static const int kEndgamePieces = 12;
static const int kEndgameDepth = 12;
static const long kEndgameNodes = 5000;
static const int kLoss = 100000;

static double g_deadline = 0;  // CPU seconds since the process started
static long g_nodes = 0;
static bool g_stop = false;
static bool g_guard = false;  // off for depth 1, which always finishes
static std::map<std::string, int> g_seen;  // placements of this game so far

static double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

static std::string placement(const Board& b) { return std::string(&b.sq[0][0], 64); }

static int evaluate(const Board& b, char side) {
  int mat[2] = {0, 0}, adv[2] = {0, 0}, pieces = 0;
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) {
      const char p = b.sq[r][c];
      if (p == '.') continue;
      const int s = lower(p) == side ? 0 : 1;
      ++pieces;
      if (is_king(p)) {
        mat[s] += 150;
      } else {
        mat[s] += 100;
        adv[s] += 3 * (p == 'b' ? r : 7 - r);  // rows advanced
      }
    }
  int score = mat[0] - mat[1] + adv[0] - adv[1];
  if (mat[0] == mat[1]) return score;
  // The side ahead: trade down, and bring its kings to the enemy's pieces.
  const int lead = mat[0] > mat[1] ? 0 : 1;
  const char leader = lead == 0 ? side : other(side);
  int bonus = std::abs(mat[0] - mat[1]) * (24 - pieces) / 12;  // trade down
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) {
      if (b.sq[r][c] != static_cast<char>(std::toupper(static_cast<unsigned char>(leader)))) continue;
      int nearest = 8;
      for (int r2 = 0; r2 < 8; ++r2)
        for (int c2 = 0; c2 < 8; ++c2)
          if (b.sq[r2][c2] != '.' && lower(b.sq[r2][c2]) != leader)
            nearest = std::min(nearest, std::max(std::abs(r - r2), std::abs(c - c2)));
      bonus += 2 * (8 - nearest);
    }
  if (pieces <= 10) {  // endgame: hem in the side behind
    Board copy = b;
    bonus -= 5 * static_cast<int>(legal_moves(copy, other(leader)).size());
  }
  return lead == 0 ? score + bonus : score - bonus;
}

static int count_pieces(const Board& b) {
  int n = 0;
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) n += b.sq[r][c] != '.';
  return n;
}

static int alphabeta(Board& b, char side, int depth, int ply, int alpha, int beta) {
  ++g_nodes;
  if (g_guard && (g_nodes & 255) == 0 && cpu_seconds() > g_deadline) g_stop = true;
  if (g_stop) return 0;
  if (ply <= 2 && !g_seen.empty()) {  // the next two plies: enough to dodge it
    std::map<std::string, int>::const_iterator it = g_seen.find(placement(b));
    if (it != g_seen.end() && it->second >= 2) return 0;  // third time: a draw
  }
  const std::vector<Move> moves = legal_moves(b, side);
  if (moves.empty()) return -kLoss - depth;  // lost; a later loss is better
  if (depth == 0) return evaluate(b, side);
  int best = -10 * kLoss;
  for (size_t i = 0; i < moves.size(); ++i) {
    Board n = apply_move(b, moves[i]);
    const int v = -alphabeta(n, other(side), depth - 1, ply + 1, -beta, -alpha);
    if (v > best) best = v;
    if (best > alpha) alpha = best;
    if (alpha >= beta) break;
  }
  return best;
}

int main() {
  Input in;
  if (!read_input(in)) return 2;
  const std::vector<Move> moves = legal_moves(in.board, in.side);
  if (moves.empty()) return 1;  // no legal move: the game is lost
  const bool game = in.mode == "GAME" || in.mode == "game";
  std::vector<std::string> history;
  if (game) {
    std::ifstream f("playdata.txt");
    std::string line;
    while (std::getline(f, line))
      if (line.size() == 64) history.push_back(line);
    history.push_back(placement(in.board));
    for (size_t i = 0; i < history.size(); ++i) ++g_seen[history[i]];
  }
  const double budget = std::min(in.seconds / 20.0, in.seconds / 2.0);
  g_deadline = budget;  // std::clock counts from the process start
  size_t best = 0;
  const bool endgame = count_pieces(in.board) <= kEndgamePieces;
  for (int depth = 1; moves.size() > 1; ++depth) {
    if (depth > kDepth && !(endgame && depth <= kEndgameDepth && g_nodes < kEndgameNodes)) break;
    size_t depth_best = 0;
    g_guard = depth > 1;
    int alpha = -10 * kLoss;
    for (size_t i = 0; i < moves.size(); ++i) {
      Board n = apply_move(in.board, moves[i]);
      const int v = -alphabeta(n, other(in.side), depth - 1, 1, -10 * kLoss, -alpha);
      if (v > alpha) { alpha = v; depth_best = i; }
      if (g_stop) break;
    }
    if (g_stop) break;  // unfinished depth: keep the last one
    best = depth_best;
  }
  write_output(move_text(moves[best]));
  if (game) {
    history.push_back(placement(apply_move(in.board, moves[best])));
    std::ofstream f("playdata.txt");
    for (size_t i = 0; i < history.size(); ++i) f << history[i] << "\n";
  }
  return 0;
}
