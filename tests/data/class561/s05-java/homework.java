// s05-java -- class561 fixture: 2-ply minimax on material (Java).
//
// Why it exists: the fixture class's Java submission (homework.java, class
// homework).  It looks 2 plies ahead (its move, the opponent's reply; plain
// minimax in negamax form) and scores by material: men 2, kings 3, its own
// minus the opponent's; a side with no legal move has lost.  Ties go to the
// first move in the move generator's fixed order (a8 to h1), so it is
// deterministic.
// Note: the JVM's start-up costs CPU time on every move (all JVM threads are
// charged: about 20-30 ms here), so give it 10 s or more per game.
// Expected: beats s01; loses to the others, mostly on time left when a game
// ends by the draw rules (repetition, 50 plies), which the JVM's CPU decides.
//
// Compile: javac homework.java
// Run:     java homework   (in a folder holding input.txt; writes output.txt)
import java.io.BufferedReader;
import java.io.FileReader;
import java.io.FileWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

public class homework {
  // ---- checkers move generation ----
  // b[r][c], r = 0 is the top line of input.txt (rank 8), c = 0 is file a.
  // 'b'/'w' men, 'B'/'W' kings, '.' empty.  Black men move down (r + 1),
  // White men up (r - 1).  A move: squares visited (r * 8 + c) and squares
  // jumped.  Captured pieces stay on the board until the move ends; a man
  // that reaches the far row is crowned and the move ends there.
  static final int[][] DIRS = {{-1, -1}, {-1, 1}, {1, -1}, {1, 1}};
  static final int LOSS = 1000;

  static final class Move {
    final List<Integer> path = new ArrayList<>();
    final List<Integer> caps = new ArrayList<>();

    Move copy() {
      Move m = new Move();
      m.path.addAll(path);
      m.caps.addAll(caps);
      return m;
    }
  }

  static boolean isKing(char p) { return p == 'B' || p == 'W'; }
  static char lower(char p) { return Character.toLowerCase(p); }
  static char other(char side) { return side == 'b' ? 'w' : 'b'; }
  static int crownRow(char p) { return lower(p) == 'b' ? 7 : 0; }
  static int dirLo(char p) { return isKing(p) || p == 'w' ? 0 : 2; }
  static int dirHi(char p) { return isKing(p) || p == 'b' ? 4 : 2; }
  static boolean onBoard(int r, int c) { return r >= 0 && r < 8 && c >= 0 && c < 8; }

  static void findJumps(char[][] b, int r, int c, char p, Move m, List<Move> out) {
    char enemy = other(lower(p));
    boolean more = false;
    for (int d = dirLo(p); d < dirHi(p); d++) {
      int mr = r + DIRS[d][0], mc = c + DIRS[d][1];
      int tr = r + 2 * DIRS[d][0], tc = c + 2 * DIRS[d][1];
      if (!onBoard(tr, tc) || lower(b[mr][mc]) != enemy || b[tr][tc] != '.') continue;
      if (m.caps.contains(mr * 8 + mc)) continue;
      more = true;
      m.path.add(tr * 8 + tc);
      m.caps.add(mr * 8 + mc);
      if (!isKing(p) && tr == crownRow(p)) out.add(m.copy());  // crowned: ends
      else findJumps(b, tr, tc, p, m, out);
      m.path.remove(m.path.size() - 1);
      m.caps.remove(m.caps.size() - 1);
    }
    if (!more && !m.caps.isEmpty()) out.add(m.copy());
  }

  // Every legal move in a fixed order: squares a8..h1, directions up-left,
  // up-right, down-left, down-right; jumps only when there is one.
  static List<Move> legalMoves(char[][] b, char side) {
    List<Move> jumps = new ArrayList<>(), steps = new ArrayList<>();
    for (int r = 0; r < 8; r++) {
      for (int c = 0; c < 8; c++) {
        char p = b[r][c];
        if (p == '.' || lower(p) != side) continue;
        Move m = new Move();
        m.path.add(r * 8 + c);
        b[r][c] = '.';  // the piece leaves its square
        findJumps(b, r, c, p, m, jumps);
        b[r][c] = p;
        for (int d = dirLo(p); d < dirHi(p); d++) {
          int tr = r + DIRS[d][0], tc = c + DIRS[d][1];
          if (onBoard(tr, tc) && b[tr][tc] == '.') {
            Move s = new Move();
            s.path.add(r * 8 + c);
            s.path.add(tr * 8 + tc);
            steps.add(s);
          }
        }
      }
    }
    return jumps.isEmpty() ? steps : jumps;
  }

  static char[][] applyMove(char[][] b, Move m) {
    char[][] n = new char[8][];
    for (int r = 0; r < 8; r++) n[r] = b[r].clone();
    int from = m.path.get(0), to = m.path.get(m.path.size() - 1);
    char p = n[from / 8][from % 8];
    n[from / 8][from % 8] = '.';
    for (int s : m.caps) n[s / 8][s % 8] = '.';
    if (!isKing(p) && to / 8 == crownRow(p)) p = Character.toUpperCase(p);
    n[to / 8][to % 8] = p;
    return n;
  }

  static String square(int s) { return "" + (char) ('a' + s % 8) + (8 - s / 8); }

  static String moveText(Move m) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i + 1 < m.path.size(); i++) {
      out.append(m.caps.isEmpty() ? "E " : "J ")
          .append(square(m.path.get(i))).append(' ')
          .append(square(m.path.get(i + 1))).append('\n');
    }
    return out.toString();
  }
  // ---- end of move generation ----

  static int material(char[][] b, char side) {
    int score = 0;
    for (char[] row : b)
      for (char p : row) {
        if (p == '.') continue;
        int v = isKing(p) ? 3 : 2;
        score += lower(p) == side ? v : -v;
      }
    return score;
  }

  static int minimax(char[][] b, char side, int depth) {
    List<Move> moves = legalMoves(b, side);
    if (moves.isEmpty()) return -LOSS - depth;  // lost; a later loss is better
    if (depth == 0) return material(b, side);
    int best = -10 * LOSS;
    for (Move m : moves) best = Math.max(best, -minimax(applyMove(b, m), other(side), depth - 1));
    return best;
  }

  public static void main(String[] args) throws IOException {
    List<String> lines = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new FileReader("input.txt"))) {
      String line;
      while ((line = in.readLine()) != null) {
        line = line.trim();
        if (!line.isEmpty()) lines.add(line);
      }
    }
    char side = lines.get(1).equalsIgnoreCase("BLACK") ? 'b' : 'w';
    char[][] board = new char[8][];
    for (int r = 0; r < 8; r++) board[r] = lines.get(3 + r).toCharArray();
    List<Move> moves = legalMoves(board, side);
    if (moves.isEmpty()) System.exit(1);  // no legal move: the game is lost
    Move best = moves.get(0);
    int bestV = -10 * LOSS;
    for (Move m : moves) {
      int v = -minimax(applyMove(board, m), other(side), 1);
      if (v > bestV) {
        bestV = v;
        best = m;
      }
    }
    try (FileWriter out = new FileWriter("output.txt")) {
      out.write(moveText(best));
    }
  }
}
