#include "duel/games/nqueens/nqueens.hpp"

#include <algorithm>
#include <bit>
#include <cctype>

#include <fmt/format.h>

#include "duel/core/rng.hpp"

namespace duel::games::nqueens {
namespace {

[[nodiscard]] std::uint32_t reverse_bits(std::uint32_t x, int n) noexcept {
  x = ((x >> 1) & 0x55555555U) | ((x & 0x55555555U) << 1);
  x = ((x >> 2) & 0x33333333U) | ((x & 0x33333333U) << 2);
  x = ((x >> 4) & 0x0F0F0F0FU) | ((x & 0x0F0F0F0FU) << 4);
  x = ((x >> 8) & 0x00FF00FFU) | ((x & 0x00FF00FFU) << 8);
  x = (x >> 16) | (x << 16);
  return x >> (32 - n);
}

using Rows = std::array<std::uint32_t, kMaxN>;

// Hash of n row masks in order (forward) or bottom-up (backward).
[[nodiscard]] std::uint64_t hash_rows(const Rows& f, int n, bool backward,
                                      std::uint64_t salt) noexcept {
  std::uint64_t h = salt;
  for (int i = 0; i < n; ++i) {
    const std::uint32_t w = f[static_cast<std::size_t>(backward ? n - 1 - i : i)];
    h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 29;
  }
  return mix64(h);
}

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

}  // namespace

std::string_view variant_name(Variant v) noexcept {
  switch (v) {
    case Variant::V1a: return "1a";
    case Variant::V1b: return "1b";
    case Variant::V2: return "2";
  }
  return "?";
}

State::State(int n, Variant variant) : m_n(static_cast<std::uint8_t>(n)), m_variant(variant) {
  m_row_of_col.fill(-1);
}

Result<State> State::from_spec(const Spec& spec) {
  if (auto e = spec.reject_unknown({"n", "variant"})) return *e;
  const auto n = spec.integer("n", 8, 1, kMaxN);
  if (!n) return fail(n.error());
  const auto v = spec.choice("variant", "1a", {"1a", "1b", "2"});
  if (!v) return fail(v.error());
  const Variant variant = *v == "1a" ? Variant::V1a : (*v == "1b" ? Variant::V1b : Variant::V2);
  return State(static_cast<int>(*n), variant);
}

std::string State::spec() const {
  return fmt::format("nqueens:n={},variant={}", m_n, variant_name(m_variant));
}

std::uint32_t State::free_in_row(int row) const noexcept {
  if (((m_rows >> row) & 1U) != 0) return 0;
  const auto diag = static_cast<std::uint32_t>(m_diag >> row);
  const auto anti = static_cast<std::uint32_t>(m_anti >> (m_n - 1 - row));
  return full() & ~m_cols & ~diag & ~anti;
}

bool State::is_legal(const Move& m) const noexcept {
  if (m.row >= m_n || m.col >= m_n) return false;
  if (m_variant != Variant::V2 && m.col != m_placed) return false;
  return is_free(m.row, m.col);
}

void State::actions(Moves& out) const {
  out.clear();
  if (m_variant != Variant::V2) {
    if (m_placed >= m_n) return;
    for (int r = 0; r < m_n; ++r) {
      if (is_free(r, m_placed)) out.push_back(Move{static_cast<std::uint8_t>(r), m_placed});
    }
    return;
  }
  for (int r = 0; r < m_n; ++r) {
    for (std::uint32_t f = free_in_row(r); f != 0; f &= f - 1) {
      out.push_back(
          Move{static_cast<std::uint8_t>(r), static_cast<std::uint8_t>(std::countr_zero(f))});
    }
  }
}

void State::place(int row, int col) {
  m_rows |= 1U << row;
  m_cols |= 1U << col;
  m_diag |= 1ULL << (row + col);
  m_anti |= 1ULL << (col - row + m_n - 1);
  m_row_of_col[static_cast<std::size_t>(col)] = static_cast<std::int8_t>(row);
  if (to_move() == Player::Second) m_second_cols |= 1U << col;
  ++m_placed;
}

State State::result(const Move& m) const {
  State next = *this;
  next.place(m.row, m.col);
  return next;
}

bool State::is_terminal() const {
  if (m_variant != Variant::V2) {
    if (m_placed >= m_n) return true;
    for (int r = 0; r < m_n; ++r) {
      if (is_free(r, m_placed)) return false;
    }
    return true;
  }
  for (int r = 0; r < m_n; ++r) {
    if (free_in_row(r) != 0) return false;
  }
  return true;
}

Value State::utility() const {
  // The side to move has no square: the last player to place a queen wins.
  const Value points = m_variant == Variant::V1b ? m_placed : 1;
  return other(to_move()) == Player::First ? points : -points;
}

std::uint64_t State::key() const {
  // Step 1. The free squares that can still be played.
  Rows f{};
  std::uint32_t playable = full();
  if (m_variant != Variant::V2) playable &= m_placed >= 32 ? 0U : ~((1U << m_placed) - 1U);
  for (int r = 0; r < m_n; ++r) f[static_cast<std::size_t>(r)] = free_in_row(r) & playable;

  // Step 2. 1a/1b: the game is the same upside down; the count matters.
  if (m_variant != Variant::V2) {
    const std::uint64_t salt = 0x51ED2701ULL + (static_cast<std::uint64_t>(m_variant) << 40) +
                               (static_cast<std::uint64_t>(m_placed) << 48);
    return std::min(hash_rows(f, m_n, false, salt), hash_rows(f, m_n, true, salt));
  }

  // Step 3. Variant 2: all eight symmetries of the square; only the free set
  // matters (the value is relative to the side to move).
  Rows mirrored{};
  Rows transposed{};
  Rows transposed_mirrored{};
  for (int r = 0; r < m_n; ++r) {
    mirrored[static_cast<std::size_t>(r)] = reverse_bits(f[static_cast<std::size_t>(r)], m_n);
    for (std::uint32_t w = f[static_cast<std::size_t>(r)]; w != 0; w &= w - 1) {
      transposed[static_cast<std::size_t>(std::countr_zero(w))] |= 1U << r;
    }
  }
  for (int r = 0; r < m_n; ++r) {
    transposed_mirrored[static_cast<std::size_t>(r)] =
        reverse_bits(transposed[static_cast<std::size_t>(r)], m_n);
  }
  constexpr std::uint64_t kSalt = 0x2A2A5EEDULL;
  std::uint64_t best = ~0ULL;
  for (const Rows* rows : {&f, &mirrored, &transposed, &transposed_mirrored}) {
    best = std::min(best, hash_rows(*rows, m_n, false, kSalt));
    best = std::min(best, hash_rows(*rows, m_n, true, kSalt));
  }
  return best;
}

int State::order_hint(const Move& m) const {
  // 1a/1b: the column is forced and the count below did not pay for its cost
  // there (docs/BENCHMARKS.md); killers and history order those moves.
  if (m_variant != Variant::V2) return 0;
  // Prefer the placement that takes the most free squares away: it shortens
  // the game and leaves the opponent the fewest replies (docs/BENCHMARKS.md
  // measures the solver with and without it).
  const int r0 = m.row;
  const int c0 = m.col;
  int removed = 0;
  for (int r = 0; r < m_n; ++r) {
    const std::uint32_t fr = free_in_row(r);
    if (fr == 0) continue;
    if (r == r0) {
      removed += std::popcount(fr);
      continue;
    }
    std::uint32_t hit = 1U << c0;
    const int d = r - r0;
    if (c0 + d >= 0 && c0 + d < m_n) hit |= 1U << (c0 + d);
    if (c0 - d >= 0 && c0 - d < m_n) hit |= 1U << (c0 - d);
    removed += std::popcount(fr & hit);
  }
  return removed;
}

std::string State::move_text(const Move& m) const {
  return fmt::format("{},{}", m.row + 1, m.col + 1);
}

Result<Move> State::parse_move(std::string_view text) const {
  const std::string t = trim(text);
  const std::string usage = m_variant == Variant::V2 ? fmt::format("ROW,COL with each 1..{}", m_n)
                                                     : fmt::format("ROW (1..{}) or ROW,COL", m_n);
  if (t.empty()) return fail("empty move: type " + usage);
  const auto sep = t.find_first_of(", ");
  const std::string row_text = trim(std::string_view(t).substr(0, sep));
  const auto row = parse_integer(row_text);
  long long col = m_placed + 1;
  if (sep == std::string::npos) {
    if (m_variant == Variant::V2) {
      return fail(fmt::format("'{}' is not a move: type {}", t, usage));
    }
  } else {
    const auto c = parse_integer(trim(std::string_view(t).substr(sep + 1)));
    if (!c) return fail(fmt::format("'{}' is not a move: type {}", t, usage));
    col = *c;
  }
  if (!row) return fail(fmt::format("'{}' is not a move: type {}", t, usage));
  if (*row < 1 || *row > m_n || col < 1 || col > m_n) {
    return fail(fmt::format("{} is off the board: rows and columns are 1..{}", t, m_n));
  }
  const Move m{static_cast<std::uint8_t>(*row - 1), static_cast<std::uint8_t>(col - 1)};
  if (is_terminal()) return fail("the game is over");
  if (m_variant != Variant::V2 && m.col != m_placed) {
    return fail(fmt::format("in variant {} the queen must go in column {}", variant_name(m_variant),
                            m_placed + 1));
  }
  if (m_row_of_col[m.col] == m.row) {
    return fail(fmt::format("row {}, column {} already holds a queen", m.row + 1, m.col + 1));
  }
  if (!is_free(m.row, m.col)) {
    return fail(fmt::format("row {}, column {} is attacked by a queen", m.row + 1, m.col + 1));
  }
  return m;
}

std::string State::end_cause() const {
  if (!is_terminal()) return {};
  const std::string_view mover = kSideNames[index(to_move())];
  if (m_variant == Variant::V1b) {
    return fmt::format("{} has no square; {} queen{} placed", mover, m_placed,
                       m_placed == 1 ? "" : "s");
  }
  return fmt::format("{} has no square for a queen", mover);
}

std::string State::render() const {
  // X = Player 1's queens, O = Player 2's, . = free square, - = attacked.
  std::string out = "    ";
  for (int c = 0; c < m_n; ++c) out += fmt::format("{:>3}", c + 1);
  out += '\n';
  for (int r = 0; r < m_n; ++r) {
    out += fmt::format("{:>4}", r + 1);
    const std::uint32_t fr = free_in_row(r);
    for (int c = 0; c < m_n; ++c) {
      char ch = ((fr >> c) & 1U) != 0 ? '.' : '-';
      if (m_row_of_col[static_cast<std::size_t>(c)] == r) {
        ch = placed_by(c) == Player::First ? 'X' : 'O';
      }
      out += fmt::format("{:>3}", ch);
    }
    out += '\n';
  }
  if (is_terminal()) {
    const Value u = utility();
    out += fmt::format("game over: {}: {} wins\n", end_cause(), kSideNames[u > 0 ? 0 : 1]);
  }
  return out;
}

std::string State::to_text() const {
  std::string out;
  for (int r = 0; r < m_n; ++r) {
    if (r > 0) out += '/';
    for (int c = 0; c < m_n; ++c) {
      char ch = '.';
      if (m_row_of_col[static_cast<std::size_t>(c)] == r) {
        ch = placed_by(c) == Player::First ? 'X' : 'O';
      }
      out += ch;
    }
  }
  return out;
}

Result<State> State::from_text(std::string_view text) const {
  // Step 1. Read the grid: n rows of n characters X, O or '.', joined by '/'.
  const std::string t = trim(text);
  std::vector<std::string> rows;
  std::size_t start = 0;
  while (true) {
    const auto slash = t.find('/', start);
    rows.push_back(t.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  if (static_cast<int>(rows.size()) != m_n) {
    return fail(fmt::format("position has {} rows, expected {} joined by '/'", rows.size(), m_n));
  }
  std::array<int, kMaxN> first_row{};
  std::array<int, kMaxN> second_row{};
  first_row.fill(-1);
  second_row.fill(-1);
  int firsts = 0;
  int seconds = 0;
  for (int r = 0; r < m_n; ++r) {
    const std::string& row = rows[static_cast<std::size_t>(r)];
    if (static_cast<int>(row.size()) != m_n) {
      return fail(fmt::format("row {} has {} squares, expected {}", r + 1, row.size(), m_n));
    }
    for (int c = 0; c < m_n; ++c) {
      const char ch = row[static_cast<std::size_t>(c)];
      if (ch == '.') continue;
      if (ch != 'X' && ch != 'O') {
        return fail(fmt::format("bad square '{}' in row {}: use X, O or .", ch, r + 1));
      }
      if (first_row[static_cast<std::size_t>(c)] >= 0 ||
          second_row[static_cast<std::size_t>(c)] >= 0) {
        return fail(fmt::format("two queens in column {}", c + 1));
      }
      (ch == 'X' ? first_row : second_row)[static_cast<std::size_t>(c)] = r;
      (ch == 'X' ? firsts : seconds) += 1;
    }
  }
  if (firsts != seconds && firsts != seconds + 1) {
    return fail(
        fmt::format("{} X and {} O queens: X moves first, so X = O or O + 1", firsts, seconds));
  }
  // Step 2. Replay the placements, X and O alternately, checking each.
  State s(m_n, m_variant);
  int next_first = 0;
  int next_second = 0;
  const auto next_of = [&](const std::array<int, kMaxN>& rows_of, int& from) {
    while (from < m_n && rows_of[static_cast<std::size_t>(from)] < 0) ++from;
    return from;
  };
  for (int i = 0; i < firsts + seconds; ++i) {
    const bool first = (i % 2) == 0;
    const auto& rows_of = first ? first_row : second_row;
    int& from = first ? next_first : next_second;
    const int c = next_of(rows_of, from);
    const int r = rows_of[static_cast<std::size_t>(c)];
    ++from;
    if (m_variant != Variant::V2 && c != i) {
      return fail(
          fmt::format("variant {}: queens must fill columns from the left, X in odd columns",
                      variant_name(m_variant)));
    }
    if (!s.is_free(r, c)) {
      return fail(fmt::format("the queen at row {}, column {} is attacked", r + 1, c + 1));
    }
    s.place(r, c);
  }
  return s;
}

Value Mobility::operator()(const State& s) const {
  constexpr double kUnitD = kUnit;
  if (s.variant() == Variant::V2) {
    std::uint32_t any_col = 0;
    int rows = 0;
    for (int r = 0; r < s.n(); ++r) {
      const std::uint32_t f = s.free_in_row(r);
      rows += f != 0 ? 1 : 0;
      any_col |= f;
    }
    const int left = std::min(rows, std::popcount(any_col));
    const Value mover_view = static_cast<Value>(((left & 1) != 0 ? 0.3 : -0.3) * kUnitD);
    return for_player(mover_view, s.to_move());
  }
  // 1a/1b: find the first column ahead with no free square.
  for (int c = s.column(); c < s.n(); ++c) {
    bool any = false;
    for (int r = 0; r < s.n() && !any; ++r) any = s.is_free(r, c);
    if (!any) {
      // The player due to play column c (P1 on even 0-based columns) loses.
      const Player loser = (c % 2) == 0 ? Player::First : Player::Second;
      const double sureness = std::max(0.1, 0.9 - 0.1 * (c - s.column()));
      const double k = s.variant() == Variant::V1b ? std::min(1.0, 0.5 + c / (2.0 * s.n())) : 1.0;
      const auto v = static_cast<Value>(sureness * k * kUnitD);
      return loser == Player::First ? -v : v;
    }
  }
  // No dead column in sight: if all queens fit, the last placer wins.
  const auto v = static_cast<Value>(0.2 * kUnitD);
  return (s.n() % 2) == 1 ? v : -v;
}

Value RandomHeuristic::operator()(const State& s) {
  // A function of (seed, position), so every search sees the same estimate.
  const std::uint64_t h = mix64(m_state ^ s.key() ^ static_cast<std::uint64_t>(s.placed()));
  const double u = unit_interval(h) - 0.5;  // [-0.5, 0.5)
  return static_cast<Value>(u * kUnit);
}

}  // namespace duel::games::nqueens
