// pyspiel-style integer actions and observation tensors (docs/python.md,
// "Actions and observations"): Game.num_distinct_actions and
// observation_shape, State.action_id, move_of, legal_action_ids and
// observation.
//
// Why here, one overload set per game: a learner's policy head needs every
// move of a game as a fixed integer and every position as a fixed-shape
// tensor. Both come from the games' own accessors (as src/duel/serve/view.hpp
// reads boards); no rule is repeated. Every id names exactly one move: the
// chess, N-Queens and KCell ids are injective by construction, checkers'
// enumerates every jump path there is (Step 4).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "bindings.hpp"
#include "duel/games/checkers/checkers.hpp"
#include "duel/games/kcell/kcell.hpp"
#include "duel/games/minichess/minichess.hpp"
#include "duel/games/nqueens/nqueens.hpp"
#include "moves.hpp"

namespace duel::python {
namespace {

namespace ck = games::checkers;
namespace kc = games::kcell;
namespace mc = games::minichess;
namespace nq = games::nqueens;

using Shape = std::array<int, 3>;  // planes, rows, columns

// A C-contiguous float32 tensor being filled: plane, row, column.
class Planes {
 public:
  explicit Planes(const Shape& shape)
      : m_shape(shape), m_array(std::vector<py::ssize_t>{shape[0], shape[1], shape[2]}) {
    std::fill_n(m_array.mutable_data(), m_array.size(), 0.0F);
  }
  void set(int plane, int row, int col, float v = 1.0F) {
    m_array.mutable_data()[(plane * m_shape[1] + row) * m_shape[2] + col] = v;
  }
  void fill(int plane, float v) {
    std::fill_n(m_array.mutable_data() + plane * m_shape[1] * m_shape[2], m_shape[1] * m_shape[2],
                v);
  }
  [[nodiscard]] py::array_t<float> release() { return std::move(m_array); }

 private:
  Shape m_shape;
  py::array_t<float> m_array;
};

[[nodiscard]] float to_move_plane(Player p) {
  return p == Player::First ? 1.0F : 0.0F;
}

// Step 1. N-Queens: id (row-1)*n + (col-1) for every variant (1a/1b only
// ever play one column, but the ids are variant 2's). Planes: queens,
// squares still free (empty and unattacked), Player 1 to move; row 1 (the
// top, as the game writes moves) at row index 0.
int num_actions(const nq::State& s) {
  return s.n() * s.n();
}
int action_id(const nq::State& s, const nq::Move& m) {
  return m.row * s.n() + m.col;
}
Shape observation_shape(const nq::State& s) {
  return {3, s.n(), s.n()};
}
void observe(const nq::State& s, Planes& out) {
  for (int c = 0; c < s.n(); ++c) {
    if (s.queen_row(c) >= 0) out.set(0, s.queen_row(c), c);
    for (int r = 0; r < s.n(); ++r) {
      if (s.is_free(r, c)) out.set(1, r, c);
    }
  }
  out.fill(2, to_move_plane(s.to_move()));
}

// Step 2. KCell: id cell-1, the pass k. Planes over a 1 x k line (cell 1
// at column 0): Player 1's pieces, Player 2's, Player 1 to move.
int num_actions(const kc::State& s) {
  return s.k() + 1;
}
int action_id(const kc::State& s, const kc::Move& m) {
  return m == kc::kPass ? s.k() : m - 1;
}
Shape observation_shape(const kc::State& s) {
  return {3, 1, s.k()};
}
void observe(const kc::State& s, Planes& out) {
  for (int cell = 1; cell <= s.k(); ++cell) {
    const char c = s.at(cell);
    if (c == 'o') out.set(0, 0, cell - 1);
    if (c == 'x') out.set(1, 0, cell - 1);
  }
  out.fill(2, to_move_plane(s.to_move()));
}

// Step 3. The 5x5 chess rule sets: squares a1 = 0, b1 = 1, ..., e5 = 24
// (duel's square index: (rank-1)*5 + file); id (from*25 + to)*5 +
// promotion, promotion 0 none, 1 queen, 2 rook, 3 bishop, 4 knight. Planes
// with rank 1 at row index 0 (obs[p].flat[sq] is square sq): 0-5 White's
// (Player 1's) pawns, knights, bishops, rooks, queens, king; 6-11 Black's;
// 12 White to move; 13 the draw clock over its limit; 14 COMP 472's turns
// played over its cap (0 without a cap and in the other rule sets).
constexpr int kChessActions = mc::kSquares * mc::kSquares * 5;

[[nodiscard]] int promotion_index(mc::Piece p) {
  switch (p) {
    case mc::Piece::Queen: return 1;
    case mc::Piece::Rook: return 2;
    case mc::Piece::Bishop: return 3;
    case mc::Piece::Knight: return 4;
    default: return 0;
  }
}
template <class Rules>
int num_actions(const mc::State<Rules>& /*s*/) {
  return kChessActions;
}
template <class Rules>
int action_id(const mc::State<Rules>& /*s*/, const mc::Move& m) {
  return (m.from() * mc::kSquares + m.to()) * 5 + promotion_index(m.promotion());
}
template <class Rules>
Shape observation_shape(const mc::State<Rules>& /*s*/) {
  return {15, mc::kRanks, mc::kFiles};
}
template <class Rules>
void observe(const mc::State<Rules>& s, Planes& out) {
  const auto& pos = s.position();
  for (int sq = 0; sq < mc::kSquares; ++sq) {
    const mc::Piece p = pos.piece_on(sq);
    if (p == mc::Piece::None) continue;
    const int side = (pos.pieces(Player::First) & mc::bit(sq)) != 0 ? 0 : 6;
    out.set(side + mc::type_index(p), mc::rank_of(sq), mc::file_of(sq));
  }
  out.fill(12, to_move_plane(s.to_move()));
  out.fill(13, static_cast<float>(pos.clock()) / static_cast<float>(s.draw_limit_plies()));
  if constexpr (!Rules::kTurnCapKey.empty()) {
    if (s.max_turns() > 0) {
      const float played =
          static_cast<float>(pos.fullmove() - 1) / static_cast<float>(s.max_turns());
      out.fill(14, std::min(1.0F, played));
    }
  }
}

// Step 4. Checkers. A move is a whole path, and two paths may share their
// ends and even their captures, so the id names the path itself: a step is
// from*4 + direction (0..127; directions 0 up-left, 1 up-right, 2
// down-left, 3 down-right, up towards square 1's row), a jump path is 128 +
// its index among every jump path on the board: from square 0..31 in turn,
// depth-first with directions in order 0..3, a path before its extensions,
// each jumped square used once (a piece is captured once). Those are all
// the paths any position can have (1328 of them), so no two moves share an
// id.
using JumpKey = std::uint64_t;  // from, jump count, directions

[[nodiscard]] JumpKey jump_key(int from, const std::vector<int>& dirs) {
  JumpKey k = static_cast<JumpKey>(from) << 40 | static_cast<JumpKey>(dirs.size()) << 32;
  for (std::size_t i = 0; i < dirs.size(); ++i) k |= static_cast<JumpKey>(dirs[i]) << (2 * i);
  return k;
}

// Every jump path of the board and its index, sorted by key for look-up.
class JumpPaths {
 public:
  JumpPaths() {
    std::vector<int> dirs;
    for (int from = 0; from < ck::kSquares; ++from) walk(from, from, 0, dirs);
    std::sort(m_sorted.begin(), m_sorted.end());
  }
  [[nodiscard]] int size() const { return m_count; }
  [[nodiscard]] int index(JumpKey k) const {
    const auto it =
        std::lower_bound(m_sorted.begin(), m_sorted.end(), std::pair<JumpKey, int>{k, -1});
    if (it == m_sorted.end() || it->first != k) {
      throw std::logic_error("checkers: a jump path outside the table of all paths");
    }
    return it->second;
  }

 private:
  void walk(int from, int at, ck::Bitboard jumped, std::vector<int>& dirs) {
    for (int d = 0; d < ck::kDirections; ++d) {
      const int over = ck::kStep[d][at];
      const int land = ck::kJump[d][at];
      if (over < 0 || land < 0 || (jumped & ck::bit(over)) != 0) continue;
      dirs.push_back(d);
      m_sorted.emplace_back(jump_key(from, dirs), m_count++);
      walk(from, land, jumped | ck::bit(over), dirs);
      dirs.pop_back();
    }
  }
  std::vector<std::pair<JumpKey, int>> m_sorted;
  int m_count = 0;
};

const JumpPaths& jump_paths() {
  static const JumpPaths paths;
  return paths;
}

constexpr int kCheckersSteps = ck::kSquares * ck::kDirections;

int num_actions(const ck::State& /*s*/) {
  return kCheckersSteps + jump_paths().size();
}
int action_id(const ck::State& /*s*/, const ck::Move& m) {
  if (!m.is_jump()) {
    for (int d = 0; d < ck::kDirections; ++d) {
      if (ck::kStep[d][m.from()] == m.to()) return m.from() * ck::kDirections + d;
    }
    throw std::logic_error("checkers: a step to no neighbouring square");
  }
  std::vector<int> dirs;
  dirs.reserve(static_cast<std::size_t>(m.jumps()));
  for (int i = 0; i < m.jumps(); ++i) dirs.push_back(m.direction(i));
  return kCheckersSteps + jump_paths().index(jump_key(m.from(), dirs));
}
Shape observation_shape(const ck::State& /*s*/) {
  return {6, 8, 8};
}
// Planes over the 8x8 board as drawn (row 0 rank 8, where square 1 is;
// column 0 file a; light squares stay 0): Black's men, Black's kings,
// White's men, White's kings, Black (Player 1) to move, the draw clock
// over its limit.
void observe(const ck::State& s, Planes& out) {
  const auto& pos = s.position();
  for (int sq = 0; sq < ck::kSquares; ++sq) {
    const ck::Bitboard b = ck::bit(sq);
    if ((pos.occupied() & b) == 0) continue;
    const int side = (pos.pieces(Player::First) & b) != 0 ? 0 : 2;
    const int king = (pos.kings() & b) != 0 ? 1 : 0;
    out.set(side + king, ck::row_of(sq), ck::file_of(sq));
  }
  out.fill(4, to_move_plane(s.to_move()));
  out.fill(5, static_cast<float>(pos.clock()) / static_cast<float>(s.draw_limit_plies()));
}

// Step 5. The methods, one visit each.
using registry::legal_moves;

std::vector<int> legal_action_ids(const State& st) {
  return std::visit(
      [](const auto& s) {
        std::vector<int> ids;
        for (const auto& m : legal_moves(s)) ids.push_back(action_id(s, m));
        std::sort(ids.begin(), ids.end());
        return ids;
      },
      st.state);
}

Move move_of(const State& st, long long id) {
  return std::visit(
      [&](const auto& s) {
        const int n = num_actions(s);
        if (id < 0 || id >= n) {
          throw_bad_input(fmt::format("move_of(): action {} is out of range 0..{}", id, n - 1));
        }
        for (const auto& m : legal_moves(s)) {
          if (action_id(s, m) == id) return describe(s, m);
        }
        throw_bad_input(fmt::format("move_of(): action {} is not a legal move here", id));
      },
      st.state);
}

py::tuple shape_tuple(const Shape& s) {
  return py::make_tuple(s[0], s[1], s[2]);
}

}  // namespace

void bind_actions(py::class_<Game>& game, py::class_<State>& state) {
  game.def_property_readonly(
          "num_distinct_actions",
          [](const Game& g) {
            return std::visit([](const auto& s) { return num_actions(s); }, g.start);
          },
          "How many action ids there are: every State.action_id is in 0..this-1 (pyspiel's\n"
          "num_distinct_actions; the encodings are in docs/python.md).")
      .def_property_readonly(
          "observation_shape",
          [](const Game& g) {
            return std::visit([](const auto& s) { return shape_tuple(observation_shape(s)); },
                              g.start);
          },
          "The shape (planes, rows, columns) of every State.observation() of this game.");

  state
      .def(
          "action_id",
          [](const State& st, const py::object& move) {
            return std::visit(
                [&](const auto& s) {
                  return action_id(s, legal_python_move(s, move, "action_id()"));
                },
                st.state);
          },
          py::arg("move"),
          "The integer id of a legal move (given in any form result() reads), in\n"
          "0..Game.num_distinct_actions-1; the same move has the same id in every position.\n"
          "Raises ValueError when it is not a legal move.")
      .def("move_of", &move_of, py::arg("action_id"),
           "The legal duel.Move whose id is action_id. Raises ValueError when no legal move\n"
           "here has it.")
      .def("legal_action_ids", &legal_action_ids,
           "The ids of the legal moves, sorted (pyspiel's legal_actions()); empty at the end.")
      .def(
          "observation",
          [](const State& st) {
            return std::visit(
                [](const auto& s) {
                  Planes out(observation_shape(s));
                  observe(s, out);
                  return out.release();
                },
                st.state);
          },
          "The position as a float32 NumPy array of Game.observation_shape, planes of 0\n"
          "and 1 (and fractions for clocks), as docs/python.md lists them per game.");
}

}  // namespace duel::python
