// The course's reference search (ta_reference.hpp, RULES.md §6a).
#include "duel/games/checkers/ta_reference.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <string>
#include <utility>

#include "duel/core/rng.hpp"

namespace duel::games::checkers::ta {
namespace {

// A piece's directions in the course's order (board.hpp: 0 up-left,
// 1 up-right, 2 down-left, 3 down-right; "up" is towards the top row).
struct Directions {
  std::array<int, kDirections> d{};
  int n = 0;
};
[[nodiscard]] constexpr Directions directions(Player side, bool king) noexcept {
  if (king) return {{0, 2, 1, 3}, 4};  // left before right, the top before the bottom
  return side == Player::First ? Directions{{2, 3, 0, 0}, 2} : Directions{{0, 1, 0, 0}, 2};
}

// The jump paths of the piece that left `from`, as the course walks its tree
// of paths: each square's continuations first, then the path ending there if
// it cannot go on (complete) or, from the second jump on, as a path cut short.
class JumpTree {
 public:
  JumpTree(std::vector<CourseMove>& out, int from, Directions dirs) noexcept
      : m_out(out), m_from(from), m_dirs(dirs) {}

  // The piece stands on `at` after `jumps` jumps in directions `path`;
  // `theirs` no longer holds the captured pieces, `empty` includes `from`.
  void grow(int at, Bitboard theirs, Bitboard empty, Bitboard captured, std::uint32_t path,
            int jumps) {
    bool extended = false;
    for (int k = 0; k < m_dirs.n; ++k) {
      const int d = m_dirs.d[static_cast<std::size_t>(k)];
      const int land = kJump[d][at];
      if (land < 0) continue;
      const Bitboard mid = bit(kStep[d][at]);
      if ((theirs & mid) == 0 || (empty & bit(land)) == 0) continue;
      extended = true;
      // A man crowned here has no forward jump left: its tree ends by itself.
      grow(land, theirs & ~mid, empty, captured | mid,
           path | (static_cast<std::uint32_t>(d) << (2 * jumps)), jumps + 1);
    }
    if (!extended && jumps > 0) {
      m_out.push_back({Move::jump(m_from, at, captured, path, jumps), true});
    } else if (extended && jumps >= 2) {
      m_out.push_back({Move::jump(m_from, at, captured, path, jumps), false});
    }
  }

 private:
  std::vector<CourseMove>& m_out;
  int m_from;
  Directions m_dirs;
};

// Minimax over the course's lists, one move buffer a ply.
class Searcher {
 public:
  explicit Searcher(int plies) : m_plies(plies) {}

  // The value of `p`, reached by a move at `ply` (a jump or not).
  CourseValue value(const Position& p, int ply, bool jumped) {
    if (m_nodes.size() <= static_cast<std::size_t>(ply)) m_nodes.resize(ply + 1);
    ++m_nodes[static_cast<std::size_t>(ply)];
    if (ply >= m_plies && !jumped) return evaluate(p);
    if (m_buffers.size() <= static_cast<std::size_t>(ply)) m_buffers.resize(ply + 1);
    course_moves(p, m_buffers[static_cast<std::size_t>(ply)]);
    const std::size_t n = m_buffers[static_cast<std::size_t>(ply)].size();
    const bool white = p.to_move() == Player::Second;
    if (n == 0) return white ? kBlackWins : kWhiteWins;
    CourseValue best = white ? kBlackWins : kWhiteWins;
    for (std::size_t i = 0; i < n; ++i) {
      // Indexed again after each child: a deeper ply may grow m_buffers.
      const Move m = m_buffers[static_cast<std::size_t>(ply)][i].move;
      const CourseValue v = value(p.play(m), ply + 1, m.is_jump());
      best = white ? std::max(best, v) : std::min(best, v);
    }
    return best;
  }
  [[nodiscard]] std::vector<std::uint64_t> nodes_by_ply() && { return std::move(m_nodes); }

 private:
  int m_plies;
  std::vector<std::uint64_t> m_nodes{1};  // the root
  std::vector<std::vector<CourseMove>> m_buffers;
};

[[nodiscard]] char piece_char(const Position& p, int sq) noexcept {
  const bool king = (p.kings() & bit(sq)) != 0;
  if ((p.pieces(Player::First) & bit(sq)) != 0) return king ? 'B' : 'b';
  if ((p.pieces(Player::Second) & bit(sq)) != 0) return king ? 'W' : 'w';
  return '.';
}

}  // namespace

int course_depth(bool single, double seconds_left) noexcept {
  if (single) return 1;
  int depth = 4;
  if (seconds_left < 100) --depth;
  if (seconds_left < 10) --depth;
  if (seconds_left < 2) --depth;
  return depth;
}

int lookahead(int course_depth) noexcept {
  return std::max(1, course_depth - 1);
}

CourseValue evaluate(const Position& p) noexcept {
  if (p.pieces(Player::First) == 0) return kWhiteWins;
  if (p.pieces(Player::Second) == 0) return kBlackWins;
  CourseValue v = 0;
  for (Bitboard b = p.occupied(); b != 0; b &= b - 1) {
    const int sq = lowest(b);
    const int y = row_of(sq);
    const int i = sq % 4;
    const int xc = (3 - i) * i;
    const int yc = (7 - y) * y / 2;
    const bool white = (p.pieces(Player::Second) & bit(sq)) != 0;
    if ((p.kings() & bit(sq)) != 0) {
      v += white ? 50 + xc + yc : -(50 + xc + yc);
    } else {
      v += white ? 17 - y + xc : -(10 + y + xc);
    }
  }
  return v;
}

void course_moves(const Position& p, std::vector<CourseMove>& out) {
  out.clear();
  const Player us = p.to_move();
  const Bitboard own = p.pieces(us);
  const Bitboard theirs = p.pieces(other(us));
  const Bitboard empty = ~p.occupied();
  const bool jumping = p.can_jump();
  // Square order is the course's: rows from the top, left to right.
  for (Bitboard b = own; b != 0; b &= b - 1) {
    const int sq = lowest(b);
    const Directions dirs = directions(us, (p.kings() & bit(sq)) != 0);
    if (jumping) {
      JumpTree(out, sq, dirs).grow(sq, theirs, empty | bit(sq), 0, 0, 0);
      continue;
    }
    for (int k = 0; k < dirs.n; ++k) {
      const int to = kStep[dirs.d[static_cast<std::size_t>(k)]][sq];
      if (to >= 0 && (empty & bit(to)) != 0) out.push_back({Move::step(sq, to), true});
    }
  }
}

std::uint64_t position_hash(const Position& p) noexcept {
  std::string text;
  text.reserve(65);
  for (int row = 0; row < 8; ++row) {
    for (int file = 0; file < 8; ++file) {
      const int sq = square_at(row, file);
      text += sq < 0 ? '.' : piece_char(p, sq);
    }
  }
  text += p.to_move() == Player::First ? 'B' : 'W';
  return fnv1a(text);
}

Answer search(const Query& q) {
  assert(q.plies > 0);
  Answer a;
  std::vector<CourseMove> root;
  course_moves(q.position, root);
  const bool white = q.position.to_move() == Player::Second;
  a.value = white ? kBlackWins : kWhiteWins;
  Searcher searcher(q.plies);
  std::uint64_t stream = q.seed ^ position_hash(q.position);
  // Step 1. The root's complete moves in list order; a tie tosses the coin.
  for (const CourseMove& m : root) {
    if (!m.complete) continue;
    const CourseValue v = searcher.value(q.position.play(m.move), 1, m.move.is_jump());
    if (!a.move || (white ? v > a.value : v < a.value)) {
      a.move = m.move;
      a.value = v;
    } else if (v == a.value) {
      ++a.ties;
      if ((splitmix64(stream) >> 63) != 0) a.move = m.move;
    }
  }
  a.nodes_by_ply = std::move(searcher).nodes_by_ply();
  return a;
}

}  // namespace duel::games::checkers::ta
