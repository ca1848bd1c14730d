// Text for checkers: PDN FEN and the seed's board lines in, PDN FEN out;
// standard-number, algebraic and seed (`E c3 d4`, `J c3 e5`) moves; specs,
// the board for people, and perft split by first move.
#include "duel/games/checkers/checkers.hpp"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "duel/core/text.hpp"

namespace duel::games::checkers {
namespace {

[[nodiscard]] std::string lower(std::string_view s) {
  std::string out;
  for (const char c : s) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

[[nodiscard]] std::string algebraic(int sq) {
  return {static_cast<char>('a' + file_of(sq)), static_cast<char>('0' + rank_of(sq))};
}

[[nodiscard]] std::string_view side_name(Player p) noexcept {
  return State::kSideNames[index(p)];
}

// A square from a standard number (1-32) or an algebraic name (c3): its
// index, or an error saying what the text is not.
[[nodiscard]] Result<int> parse_square(std::string_view s) {
  if (!s.empty() && std::isdigit(static_cast<unsigned char>(s[0])) != 0) {
    const auto n = parse_integer(s);
    if (!n || *n < 1 || *n > kSquares) {
      return fail(fmt::format("'{}' is not a square: numbers run 1 to 32", s));
    }
    return static_cast<int>(*n - 1);
  }
  if (s.size() != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8') {
    return fail(fmt::format("'{}' is not a square: use 1 to 32 or a1 to h8", s));
  }
  const int sq = square_at('8' - s[1], s[0] - 'a');
  if (sq < 0)
    return fail(fmt::format("{} is a light square; pieces stand on dark squares only", s));
  return sq;
}

// The squares a move visits: from, then each landing square.
[[nodiscard]] std::vector<int> path_of(const Move& m) {
  std::vector<int> out = {m.from()};
  if (!m.is_jump()) {
    out.push_back(m.to());
    return out;
  }
  for (int i = 0; i < m.jumps(); ++i) out.push_back(m.landing(i));
  return out;
}

[[nodiscard]] std::string number_text(const Move& m) {
  const auto path = path_of(m);
  std::string out = std::to_string(path[0] + 1);
  for (std::size_t i = 1; i < path.size(); ++i) {
    out += m.is_jump() ? 'x' : '-';
    out += std::to_string(path[i] + 1);
  }
  return out;
}

// Squares listed as "1, 2, K3" for the PDN FEN of one side.
[[nodiscard]] std::string fen_side(const Position& p, Player side) {
  std::string out;
  for (Bitboard b = p.pieces(side); b != 0; b &= b - 1) {
    const int sq = lowest(b);
    if (!out.empty()) out += ',';
    if ((p.kings() & bit(sq)) != 0) out += 'K';
    out += std::to_string(sq + 1);
  }
  return out;
}

}  // namespace

std::string_view ending_text(Ending e) noexcept {
  switch (e) {
    case Ending::None: return "game on";
    case Ending::NoMoves: return "no legal move";
    case Ending::DrawClock: return "no capture or crowning for the draw limit";
    case Ending::Repetition: return "the same placement for the third time";
  }
  return "?";
}

State::State() {
  auto start = parse("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
  assert(start.ok());
  *this = *start;
}

Result<State> State::from_spec(const Spec& spec) {
  if (spec.name() != kName) {
    return fail(fmt::format("{}: spec '{}' names the game '{}'", kName, spec.text(), spec.name()));
  }
  if (auto error = spec.reject_unknown({kLimitKey})) return *error;
  const auto limit = spec.integer(kLimitKey, kLimitDefault, 1, kLimitMax);
  if (!limit) return fail(limit.error());
  State s;
  s.m_limit = static_cast<std::uint8_t>(*limit);
  return s;
}

std::string State::spec() const {
  return fmt::format("{}:{}={}", kName, kLimitKey, m_limit);
}

Result<State> State::parse(std::string_view text, int limit) {
  const auto bad = [&](std::string_view why) {
    return fail(fmt::format("{}: position '{}': {}", kName, text, why));
  };
  if (limit < 1 || limit > kLimitMax) return bad("draw limit out of range");
  State out{Blank{}};
  out.m_limit = static_cast<std::uint8_t>(limit);
  Position& p = out.m_pos;
  const auto tokens = split(text);
  if (tokens.empty()) return bad("empty; expected PDN FEN like 'B:W21,22:B1,2' or 8 board lines");
  std::size_t next = 0;

  const auto place = [&](Player side, bool king, int sq) -> std::optional<Error> {
    if ((p.occupied() & bit(sq)) != 0) return bad(fmt::format("two pieces on square {}", sq + 1));
    if (!king && (crown_row(side) & bit(sq)) != 0) {
      return bad(fmt::format("a {} man on {} ({}) would have been crowned", side_name(side), sq + 1,
                             algebraic(sq)));
    }
    p.put(side, king, sq);
    return std::nullopt;
  };

  const std::string first = lower(tokens[0]);
  if (first.size() >= 2 && (first[0] == 'b' || first[0] == 'w') && first[1] == ':') {
    // Step 1a. PDN FEN: `B:W21,22,K30:B1,2,3`, ranges like 1-12 allowed.
    std::vector<std::string_view> fields;
    std::string_view rest = tokens[0];
    for (std::size_t at = rest.find(':'); at != std::string_view::npos; at = rest.find(':')) {
      fields.push_back(rest.substr(0, at));
      rest.remove_prefix(at + 1);
    }
    fields.push_back(rest);
    if (fields.size() != 3) return bad("PDN FEN has three fields, like 'B:W21,22:B1,2'");
    p.set_to_move(first[0] == 'b' ? Player::First : Player::Second);
    bool seen[2] = {false, false};
    for (std::size_t f = 1; f < 3; ++f) {
      const std::string field = lower(fields[f]);
      if (field.empty() || (field[0] != 'b' && field[0] != 'w')) {
        return bad("each side's field starts with W or B, like 'W21,22'");
      }
      const Player side = field[0] == 'b' ? Player::First : Player::Second;
      if (seen[index(side)]) return bad(fmt::format("{} is listed twice", side_name(side)));
      seen[index(side)] = true;
      std::string_view list = std::string_view(field).substr(1);
      while (!list.empty()) {
        const auto comma = list.find(',');
        std::string_view item = list.substr(0, comma);
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
        const bool king = !item.empty() && item[0] == 'k';
        if (king) item.remove_prefix(1);
        const auto dash = item.find('-');
        const auto lo = parse_integer(item.substr(0, dash));
        const auto hi = dash == std::string_view::npos ? lo : parse_integer(item.substr(dash + 1));
        if (!lo || !hi || *lo < 1 || *hi > kSquares || *lo > *hi) {
          return bad(fmt::format("'{}' is not a square 1-32 (or a range like 1-12)", item));
        }
        for (long long sq = *lo; sq <= *hi; ++sq) {
          if (auto e = place(side, king, static_cast<int>(sq - 1))) return *e;
        }
      }
    }
    next = 1;
  } else {
    // Step 1b. The seed's board: 8 lines of 8 `.bBwW`, top row first, then
    // optionally BLACK or WHITE (the side to move; Black if absent).
    if (tokens.size() < 8) return bad("expected PDN FEN like 'B:W21,22:B1,2' or 8 board lines");
    for (int row = 0; row < 8; ++row) {
      const std::string_view line = tokens[static_cast<std::size_t>(row)];
      if (line.size() != 8) {
        return bad(fmt::format("board line {} is '{}', not 8 characters of .bBwW", row + 1, line));
      }
      for (int file = 0; file < 8; ++file) {
        const char c = line[static_cast<std::size_t>(file)];
        if (c == '.') continue;
        if (c != 'b' && c != 'B' && c != 'w' && c != 'W') {
          return bad(fmt::format("'{}' is not one of .bBwW", c));
        }
        const int sq = square_at(row, file);
        if (sq < 0) {
          return bad(fmt::format("a piece on the light square {}{}", static_cast<char>('a' + file),
                                 8 - row));
        }
        const Player side = (c == 'b' || c == 'B') ? Player::First : Player::Second;
        if (auto e = place(side, std::isupper(static_cast<unsigned char>(c)) != 0, sq)) return *e;
      }
    }
    next = 8;
    if (next < tokens.size()) {
      const std::string side = lower(tokens[next]);
      if (side == "black" || side == "b" || side == "white" || side == "w") {
        p.set_to_move(side[0] == 'b' ? Player::First : Player::Second);
        ++next;
      }
    }
  }
  // Step 2. The optional clock: plies without a capture or a crowning.
  if (next < tokens.size()) {
    const auto clock = parse_integer(tokens[next]);
    if (!clock || *clock < 0 || *clock > limit) {
      return bad(fmt::format("'{}' is not a clock 0..{} (plies without capture or crowning)",
                             tokens[next], limit));
    }
    p.set_clock(static_cast<int>(*clock));
    ++next;
  }
  if (next < tokens.size()) return bad(fmt::format("unexpected '{}' at the end", tokens[next]));
  for (const Player side : {Player::First, Player::Second}) {
    if (std::popcount(p.pieces(side)) > kMaxPieces) {
      return bad(fmt::format("{} has more than 12 pieces", side_name(side)));
    }
  }
  return out;
}

std::string State::to_text() const {
  std::string out = fmt::format("{}:W{}:B{}", m_pos.to_move() == Player::First ? 'B' : 'W',
                                fen_side(m_pos, Player::Second), fen_side(m_pos, Player::First));
  if (m_pos.clock() != 0) out += fmt::format(" {}", m_pos.clock());
  return out;
}

Result<State> State::from_text(std::string_view text) const {
  return parse(text, m_limit);
}

std::string State::board_lines() const {
  std::string out;
  for (int row = 0; row < 8; ++row) {
    for (int file = 0; file < 8; ++file) {
      const int sq = square_at(row, file);
      char c = '.';
      if (sq >= 0 && (m_pos.occupied() & bit(sq)) != 0) {
        c = (m_pos.pieces(Player::First) & bit(sq)) != 0 ? 'b' : 'w';
        if ((m_pos.kings() & bit(sq)) != 0) c = static_cast<char>(std::toupper(c));
      }
      out += c;
    }
    out += '\n';
  }
  return out;
}

std::string State::move_text(const Move& m) const {
  return number_text(m);
}

std::string State::seed_text(const Move& m) const {
  const auto path = path_of(m);
  if (!m.is_jump()) return fmt::format("E {} {}", algebraic(path[0]), algebraic(path[1]));
  std::string out;
  for (std::size_t i = 1; i < path.size(); ++i) {
    if (!out.empty()) out += '\n';
    out += fmt::format("J {} {}", algebraic(path[i - 1]), algebraic(path[i]));
  }
  return out;
}

Result<Move> State::parse_move(std::string_view text) const {
  // Step 1. Syntax: `E c3 d4`, `J c3 e5 J e5 g7` (the seed), or squares
  // joined by '-' (a step) or 'x' (a jump), as numbers or algebraic names.
  const std::string low = lower(trim(text));
  const auto tokens = split(low);
  enum class Kind : std::uint8_t { Any, Step, Jump };
  Kind kind = Kind::Any;
  std::vector<std::string_view> square_texts;
  bool algebraic_style = false;
  std::string spaced;
  if (!tokens.empty() && (tokens[0] == "e" || tokens[0] == "j")) {
    if (tokens.size() % 3 != 0) {
      return fail(
          fmt::format("move '{}' is not like E c3 d4 or J c3 e5 (one 'J from to' per jump)", text));
    }
    kind = tokens[0] == "e" ? Kind::Step : Kind::Jump;
    for (std::size_t i = 0; i < tokens.size(); i += 3) {
      if (tokens[i] != "e" && tokens[i] != "j") {
        return fail(fmt::format("move '{}': '{}' should be E or J", text, tokens[i]));
      }
      if (tokens[i] == "e" && tokens.size() > 3) {
        return fail(fmt::format("move '{}': an E move is one step on its own", text));
      }
      if (tokens[i] == "j" && kind == Kind::Step) {
        return fail(fmt::format("move '{}': an E move is one step on its own", text));
      }
      if (i == 0) {
        square_texts.push_back(tokens[i + 1]);
      } else if (tokens[i + 1] != square_texts.back()) {
        return fail(fmt::format("move '{}': jump {} starts on {}, not where jump {} landed ({})",
                                text, i / 3 + 1, tokens[i + 1], i / 3, square_texts.back()));
      }
      square_texts.push_back(tokens[i + 2]);
    }
  } else {
    for (const char c : low) {
      if (c == 'x') kind = Kind::Jump;
      if (c == '-' && kind == Kind::Any) kind = Kind::Step;
      spaced += (c == 'x' || c == '-') ? ' ' : c;
    }
    square_texts = split(spaced);
    if (square_texts.size() < 2) {
      return fail(fmt::format("move '{}' is not like 11-15, 22x15x6, c3-d4 or E c3 d4", text));
    }
  }
  std::vector<int> squares;
  for (const auto s : square_texts) {
    const auto sq = parse_square(s);
    if (!sq) return fail(fmt::format("move '{}': {}", text, sq.error()));
    if (std::isalpha(static_cast<unsigned char>(s[0])) != 0) algebraic_style = true;
    squares.push_back(*sq);
  }
  const auto name = [&](int sq) {
    return algebraic_style ? algebraic(sq) : std::to_string(sq + 1);
  };

  // Step 2. The game must be on and the first square must hold a piece of yours.
  Moves legal;
  actions(legal);
  if (legal.empty()) {
    return fail(fmt::format("move '{}': the game is over ({})", text, ending_text(ending())));
  }
  const Player me = m_pos.to_move();
  const int from = squares.front();
  if ((m_pos.pieces(me) & bit(from)) == 0) {
    return fail(fmt::format("move '{}': there is no piece of yours ({}) on {}{}", text,
                            side_name(me), name(from),
                            (m_pos.occupied() & bit(from)) != 0 ? " (it is your opponent's)" : ""));
  }
  const bool must_jump = legal[0].is_jump();
  const auto example = [&] {
    for (const Move& m : legal) {
      if (m.from() == from) return algebraic_style ? seed_text(m) : number_text(m);
    }
    return algebraic_style ? seed_text(legal[0]) : number_text(legal[0]);
  };

  // Step 3. An exact path, a unique short form (from and end only), or why not.
  const bool adjacent =
      squares.size() == 2 &&
      std::any_of(kStep.begin(), kStep.end(), [&](const auto& t) { return t[from] == squares[1]; });
  if (kind == Kind::Step || (kind == Kind::Any && adjacent)) {
    if (must_jump) {
      std::string e = example();
      std::replace(e.begin(), e.end(), '\n', ' ');
      return fail(fmt::format("move '{}': a capture is compulsory (e.g. {})", text, e));
    }
    if (squares.size() != 2) return fail(fmt::format("move '{}': a step goes to one square", text));
    for (const Move& m : legal) {
      if (m.from() == from && m.to() == squares[1]) return m;
    }
    const bool king = (m_pos.kings() & bit(from)) != 0;
    if (!adjacent) {
      return fail(fmt::format("move '{}': {} is not a diagonal neighbour of {}", text,
                              name(squares[1]), name(from)));
    }
    if ((m_pos.occupied() & bit(squares[1])) != 0) {
      return fail(fmt::format("move '{}': {} is occupied", text, name(squares[1])));
    }
    return fail(fmt::format("move '{}': a {} moves forward only ({} moves {})", text,
                            king ? "king" : "man", side_name(me),
                            me == Player::First ? "down, towards row 1" : "up, towards row 8"));
  }
  if (!must_jump) return fail(fmt::format("move '{}': there is no capture to make here", text));
  std::vector<Move> ends_match;
  for (const Move& m : legal) {
    const auto path = path_of(m);
    if (path == squares) return m;
    if (path.size() > squares.size() && std::equal(squares.begin(), squares.end(), path.begin())) {
      return fail(fmt::format("move '{}': the jump must continue: {} can jump again", text,
                              name(squares.back())));
    }
    if (squares.size() == 2 && m.from() == from && m.to() == squares[1]) ends_match.push_back(m);
  }
  if (ends_match.size() == 1) return ends_match[0];
  if (ends_match.size() > 1) {
    return fail(fmt::format("move '{}' is ambiguous: {} and {} both fit; give every landing square",
                            text, number_text(ends_match[0]), number_text(ends_match[1])));
  }
  std::string e = example();
  std::replace(e.begin(), e.end(), '\n', ' ');
  return fail(fmt::format("move '{}' is not a legal jump here (e.g. {})", text, e));
}

std::string State::render() const {
  std::string out = "    a b c d e f g h\n  +-----------------+\n";
  for (int row = 0; row < 8; ++row) {
    out += fmt::format("{} |", 8 - row);
    for (int file = 0; file < 8; ++file) {
      const int sq = square_at(row, file);
      char c = sq < 0 ? ' ' : '.';
      if (sq >= 0 && (m_pos.occupied() & bit(sq)) != 0) {
        c = (m_pos.pieces(Player::First) & bit(sq)) != 0 ? 'b' : 'w';
        if ((m_pos.kings() & bit(sq)) != 0) c = static_cast<char>(std::toupper(c));
      }
      out += ' ';
      out += c;
    }
    out += fmt::format(" | {}   {:>2}-{}\n", 8 - row, 4 * row + 1, 4 * row + 4);
  }
  out += "  +-----------------+\n    a b c d e f g h\n";
  const std::string_view mover = side_name(m_pos.to_move());
  const Ending e = ending();
  if (e == Ending::None) {
    out += fmt::format("{} to move ({} of {} plies without capture or crowning)\n", mover,
                       m_pos.clock(), m_limit);
  } else {
    const Value u = utility();
    const std::string verdict = u == 0 ? "draw" : (u > 0 ? "Black wins" : "White wins");
    out += fmt::format("game over: {} ({} to move): {}\n", end_cause(), mover, verdict);
  }
  return out;
}

std::string State::end_cause() const {
  switch (ending()) {
    case Ending::None: return {};
    case Ending::NoMoves: return fmt::format("{} has no move", side_name(m_pos.to_move()));
    case Ending::DrawClock:
      return fmt::format("{} plies without a capture or crowning", static_cast<int>(m_limit));
    default: return std::string(ending_text(ending()));
  }
}

std::vector<std::pair<Move, std::uint64_t>> divide(const State& s, int depth) {
  std::vector<std::pair<Move, std::uint64_t>> out;
  Moves moves;
  s.position().moves(moves);
  for (const Move& m : moves) out.emplace_back(m, perft(s.position().play(m), depth - 1));
  return out;
}

std::vector<std::pair<Move, std::uint64_t>> divide_dedupe(const State& s, int depth) {
  std::vector<std::pair<Move, std::uint64_t>> out;
  Moves moves;
  s.position().moves(moves);
  dedupe(moves);
  for (const Move& m : moves) out.emplace_back(m, perft_dedupe(s.position().play(m), depth - 1));
  return out;
}

}  // namespace duel::games::checkers
