#include "duel/games/kcell/kcell.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace duel::games::kcell {
namespace {

[[nodiscard]] char symbol(Player p) noexcept {
  return p == Player::First ? 'o' : 'x';
}

[[nodiscard]] std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() &&
         (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

// Bit c-1 of `mask` moved to bit k-c: the board read from the other end.
[[nodiscard]] std::uint64_t mirror(std::uint64_t mask, int k) noexcept {
  std::uint64_t out = 0;
  for (; mask != 0; mask &= mask - 1) out |= std::uint64_t{1} << (k - 1 - std::countr_zero(mask));
  return out;
}

// order_hint's scale: `tempo`'s estimates lie strictly inside +-kScale
// (below), so a hint is 2000 + estimate / 64, between 734 and 3266.
constexpr int kHintOffset = 2000;
constexpr int kHintStep = 64;

}  // namespace

State::State(int n, int k) : m_n(static_cast<std::uint8_t>(n)), m_k(static_cast<std::uint8_t>(k)) {
  assert(n >= 1 && 2 * n + 1 <= k && k <= kMaxCells);
  m_o = (std::uint64_t{1} << n) - 1;  // RULES.md §4: o on cells 1..n
  m_x = home(Player::First);          // x on cells k-n+1..k
}

Result<State> State::make(int n, int k) {
  if (n < 1 || n > kMaxPieces) {
    return fail(fmt::format("kcell: n={} is out of range 1..{}", n, kMaxPieces));
  }
  if (k > kMaxCells) return fail(fmt::format("kcell: k={} is out of range 3..{}", k, kMaxCells));
  if (k < 2 * n + 1) {
    // With k = 2n the rows touch and nobody can ever move; fewer cells overlap.
    return fail(
        fmt::format("kcell: k={} is too small for n={}: the players need k >= 2n+1 = {} cells so "
                    "there is a first move",
                    k, n, 2 * n + 1));
  }
  return State(n, k);
}

Result<State> State::from_spec(const Spec& spec) {
  if (spec.name() != kName) {
    return fail(fmt::format("kcell: spec '{}' names the game '{}'", spec.text(), spec.name()));
  }
  if (auto error = spec.reject_unknown({"n", "k"})) return *error;
  const auto n = spec.integer("n", kDefaultN, 1, kMaxPieces);
  if (!n) return fail(n.error());
  const auto k = spec.integer("k", kDefaultK, 3, kMaxCells);
  if (!k) return fail(k.error());
  return make(static_cast<int>(*n), static_cast<int>(*k));
}

std::string State::spec() const {
  return fmt::format("kcell:n={},k={}", m_n, m_k);
}

char State::at(int cell) const noexcept {
  const int bit = cell - 1;
  if (((m_o >> bit) & 1U) != 0) return 'o';
  if (((m_x >> bit) & 1U) != 0) return 'x';
  return '_';
}

int State::order_hint(const Move& m) const noexcept {
  // Cells gained ordered well only while the sides are apart: in the fight
  // the move that gains most walks into the enemy and hands over the tempo,
  // and deep searches spend most of their nodes there (their first-move
  // cut-offs fell from 99% at depth 12 to 79% at 22). The fight is what
  // `tempo` scores, so the hint is its estimate of the position the move
  // leads to, from the mover's side, in steps of 64 (positive, so a lone
  // pass at 0 stays apart, and small enough that the engine's hint scale
  // stays below the table move's).
  if (m == kPass) return 0;
  const Value v = Tempo{}(result(m));
  return kHintOffset + (m_to_move == Player::First ? v : -v) / kHintStep;
}

State State::flipped() const noexcept {
  State out = *this;
  out.m_o = mirror(m_x, m_k);
  out.m_x = mirror(m_o, m_k);
  out.m_to_move = other(m_to_move);
  return out;
}

std::string State::move_text(const Move& m) const {
  return std::to_string(static_cast<int>(m));
}

Result<Move> State::parse_move(std::string_view text) const {
  // Step 1. The text must be a cell number, -1 or "pass".
  const std::string_view t = trim(text);
  if (is_terminal()) return fail(fmt::format("the game is over; '{}' is not a legal move", t));
  const char me = symbol(m_to_move);
  const auto value = t == "pass" ? std::optional<long long>(kPass) : parse_integer(t);
  if (!value) {
    return fail(
        fmt::format("'{}' is not a move: give the cell (1..{}) of one of {}'s pieces, "
                    "or -1 to pass",
                    t, m_k, me));
  }

  // Step 2. A pass is legal only when the mover has no other move.
  const std::uint64_t can_move = movable(m_to_move);
  if (*value == kPass) {
    if (can_move != 0) {
      return fail(fmt::format("{} cannot pass: the {} on cell {} can move", me, me,
                              std::countr_zero(can_move) + 1));
    }
    return kPass;
  }

  // Step 3. A cell on the board holding one of the mover's pieces.
  if (*value < 1 || *value > m_k) {
    return fail(fmt::format("cell {} is off the board (cells are 1..{}; -1 passes)", *value, m_k));
  }
  const int cell = static_cast<int>(*value);
  if (can_move == 0) {
    return fail(fmt::format("{} has no legal move and must pass (-1)", me));
  }
  const char here = at(cell);
  if (here == '_') return fail(fmt::format("cell {} is empty; it is {}'s turn", cell, me));
  if (here != me) {
    return fail(fmt::format("cell {} holds {}'s piece; it is {}'s turn", cell, here, me));
  }

  // Step 4. That piece must be able to step or jump.
  if (((can_move >> (cell - 1)) & 1U) == 0) {
    const int dir = m_to_move == Player::First ? 1 : -1;
    const int front = cell + dir;
    const int beyond = cell + 2 * dir;
    if (front < 1 || front > m_k) {
      return fail(fmt::format("the {} on cell {} cannot move: it is on the last cell", me, cell));
    }
    if (beyond < 1 || beyond > m_k) {
      return fail(fmt::format(
          "the {} on cell {} cannot move: cell {} is taken and there is no cell to jump to", me,
          cell, front));
    }
    return fail(fmt::format("the {} on cell {} cannot move: cells {} and {} are both taken", me,
                            cell, front, beyond));
  }
  return static_cast<Move>(cell);
}

std::string State::to_text() const {
  std::string out = "[";
  for (int c = 1; c <= m_k; ++c) out += at(c);
  out += "] ";
  out += symbol(m_to_move);
  return out;
}

std::string State::end_cause() const {
  if (is_home(Player::First) || is_home(Player::Second)) {
    return fmt::format("all {}'s pieces on the far cells", is_home(Player::First) ? 'o' : 'x');
  }
  if (!is_terminal()) return {};
  return fmt::format("neither can move; runs from the far edge o {} x {}", run(Player::First),
                     run(Player::Second));
}

std::string State::render() const {
  // Step 1. The board and, under it, the cell numbers (a tens row when k >= 10).
  std::string out = "[";
  for (int c = 1; c <= m_k; ++c) out += at(c);
  out += "]\n";
  if (m_k >= 10) {
    out += ' ';
    for (int c = 1; c <= m_k; ++c) out += c >= 10 ? static_cast<char>('0' + c / 10) : ' ';
    out += '\n';
  }
  out += ' ';
  for (int c = 1; c <= m_k; ++c) out += static_cast<char>('0' + c % 10);
  out += '\n';

  // Step 2. Whose turn it is, or how the game ended.
  if (is_home(Player::First) || is_home(Player::Second)) {
    const char w = is_home(Player::First) ? 'o' : 'x';
    out += fmt::format("game over: {} wins ({})\n", w, end_cause());
  } else if (is_terminal()) {
    const int o = run(Player::First);
    const int x = run(Player::Second);
    const std::string verdict = o == x ? "draw" : fmt::format("{} wins", o > x ? 'o' : 'x');
    out += fmt::format("game over: {}: {}\n", end_cause(), verdict);
  } else {
    const char me = symbol(m_to_move);
    const bool stuck = movable(m_to_move) == 0;
    out += fmt::format("{} (player {}) to move{}\n", me, number(m_to_move),
                       stuck ? ", no move: must pass (-1)" : "");
  }
  return out;
}

Result<State> State::from_text(std::string_view text) const {
  // Step 1. The shape: "[" k cells "]" " " side.
  const std::string_view t = trim(text);
  const auto close = t.find(']');
  if (t.empty() || t.front() != '[' || close == std::string_view::npos) {
    return fail(
        fmt::format("position '{}' is not like '[oo___xx] o' (board in brackets, then the "
                    "side to move)",
                    text));
  }
  const std::string_view board = t.substr(1, close - 1);
  const std::string_view rest = t.substr(close + 1);
  if (board.size() != m_k) {
    return fail(
        fmt::format("position '{}' has {} cells; this game has k={}", text, board.size(), m_k));
  }
  if (rest.size() != 2 || rest[0] != ' ' || (rest[1] != 'o' && rest[1] != 'x')) {
    return fail(
        fmt::format("position '{}' must end with a space and the side to move, o or x", text));
  }

  // Step 2. The cells and the piece counts.
  State out = *this;
  out.m_o = out.m_x = 0;
  for (std::size_t i = 0; i < board.size(); ++i) {
    const char c = board[i];
    if (c == 'o') {
      out.m_o |= std::uint64_t{1} << i;
    } else if (c == 'x') {
      out.m_x |= std::uint64_t{1} << i;
    } else if (c != '_') {
      return fail(fmt::format("cell {} of '{}' is '{}'; cells are o, x or _", i + 1, text, c));
    }
  }
  const int count_o = std::popcount(out.m_o);
  const int count_x = std::popcount(out.m_x);
  if (count_o != m_n || count_x != m_n) {
    return fail(fmt::format("position '{}' has {} o and {} x; this game has n={} each", text,
                            count_o, count_x, m_n));
  }
  out.m_to_move = rest[1] == 'o' ? Player::First : Player::Second;

  // Step 3. A game ends when the first player gets home, so both home never happens.
  if (out.is_home(Player::First) && out.is_home(Player::Second)) {
    return fail(fmt::format("position '{}' has both players home; no game reaches it", text));
  }
  return out;
}

namespace {

// An odd, monotone squash of num/den into (-kScale, kScale): a heuristic's
// estimate must stay clear of proven values (core/types.hpp). Integer-only, so
// every platform computes the same estimate and searches are reproducible.
constexpr long long kScale = 81'000;
static_assert(kScale < kUnit - kMaxPly);
// Every move's hint stays above the lone pass's 0 (State::order_hint).
static_assert(kHintOffset - kScale / kHintStep > 0);

[[nodiscard]] Value squash(long long num, long long den) noexcept {
  const long long mag = num < 0 ? -num : num;
  return static_cast<Value>(kScale * num / (den + mag));
}

// Mixed blocks of adjacent pieces in which no piece can ever move again: the
// two left-most cells hold no x (or the block starts on cell 1) and the two
// right-most hold no o (or it ends on cell k). Pieces only join such a block,
// so it stays frozen. Returns the lowest and highest bit of all such blocks.
struct Frozen {
  int low = 64;
  int high = -1;
};

[[nodiscard]] Frozen frozen_blocks(std::uint64_t o, std::uint64_t x, int k) noexcept {
  Frozen f;
  for (std::uint64_t rest = o | x; rest != 0;) {
    const int a = std::countr_zero(rest);
    const int len = std::countr_one(rest >> a);
    const int b = a + len - 1;
    const std::uint64_t block = (len == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << len) - 1)
                                << a;
    rest &= ~block;
    if ((o & block) == 0 || (x & block) == 0) continue;
    const std::uint64_t left_two = block & (std::uint64_t{3} << a);
    const std::uint64_t right_two =
        block & (b >= 1 ? std::uint64_t{3} << (b - 1) : std::uint64_t{1});
    const bool x_moves = a > 0 && (x & left_two) != 0;
    const bool o_moves = b < k - 1 && (o & right_two) != 0;
    if (x_moves || o_moves) continue;
    f.low = std::min(f.low, a);
    f.high = std::max(f.high, b);
  }
  return f;
}

}  // namespace

Value Tempo::operator()(const State& s) const noexcept {
  // Step 1. Where the sides stand relative to each other.
  const long long n = s.n();
  const long long k = s.k();
  const std::uint64_t o = s.pieces(Player::First);
  const std::uint64_t x = s.pieces(Player::Second);
  const std::uint64_t occupied = o | x;
  const int top_x = 63 - std::countl_zero(x);  // x's rear-most piece (bit)
  const int low_o = std::countr_zero(o);       // o's rear-most piece (bit)
  const int tempo = s.to_move() == Player::First ? 1 : -1;
  const int race = s.distance(Player::Second) - s.distance(Player::First);

  // Step 2. Separated: a pure race; the mover wins a tie (half a move).
  if (top_x < low_o) return squash(2LL * race + tempo, 2);

  // Step 3. Pieces through the enemy: o beyond every x, x beyond every o.
  const int through =
      std::popcount(o >> top_x >> 1) - std::popcount(x & ((std::uint64_t{1} << low_o) - 1));

  // Step 4. Locked: only pieces beyond every frozen block can still join a run.
  if (const Frozen f = frozen_blocks(o, x, s.k()); f.high >= 0) {
    const int reach =
        std::popcount(o >> f.high >> 1) - std::popcount(x & ((std::uint64_t{1} << f.low) - 1));
    return squash(10LL * reach + 3LL * through, 5);
  }

  // Step 5. The fight. Free room: empty cells in front of each piece up to the
  // next piece when that is one's own (or the board's end) — moves that cannot
  // walk into the enemy. Exposed: pieces the enemy could jump right now.
  int room = 0;
  for (std::uint64_t b = o; b != 0; b &= b - 1) {
    const int c = std::countr_zero(b);
    const std::uint64_t ahead = c + 1 < 64 ? occupied >> (c + 1) : 0;
    const int next = ahead == 0 ? static_cast<int>(k) : c + 1 + std::countr_zero(ahead);
    if (next == k || ((o >> next) & 1U) != 0) room += next - c - 1;
  }
  for (std::uint64_t b = x; b != 0; b &= b - 1) {
    const int c = std::countr_zero(b);
    const std::uint64_t behind = occupied & ((std::uint64_t{1} << c) - 1);
    const int next = behind == 0 ? -1 : 63 - std::countl_zero(behind);
    if (next < 0 || ((x >> next) & 1U) != 0) room -= c - next - 1;
  }
  const std::uint64_t empty =
      ~occupied & (s.k() == kMaxCells ? ~std::uint64_t{0} : (std::uint64_t{1} << s.k()) - 1);
  const int exposed =
      std::popcount(o & (x >> 1) & (empty << 1)) - std::popcount(x & (o << 1) & (empty >> 1));
  const int mobility =
      std::popcount(s.movable(Player::First)) - std::popcount(s.movable(Player::Second));

  // Weights (per n or per k, as fitted; docs/rules/kcell.md): tempo 0.10,
  // mobility 1.0/n, through -0.5/n, room 0.25/k, race 0.15/k, exposed -0.2/n.
  const long long num = 10 * tempo * n * k + 100 * mobility * k - 50 * through * k + 25 * room * n +
                        15 * race * n - 20 * exposed * k;
  return squash(num, 100 * n * k);
}

Value Progress::operator()(const State& s) const noexcept {
  const int race = s.distance(Player::Second) - s.distance(Player::First);
  const int tempo = s.to_move() == Player::First ? 1 : -1;
  return squash(2LL * race + tempo, 2LL * s.n() * (s.k() - s.n()));
}

}  // namespace duel::games::kcell
