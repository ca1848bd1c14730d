// Text for the 5x5 chess games: FEN in and out (as Fairy-Stockfish writes it),
// UCI and COMP 472 move text, specs and the board for people.
#include "duel/games/minichess/minichess.hpp"

#include <cassert>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "duel/core/text.hpp"

namespace duel::games::minichess {
namespace {

constexpr std::string_view kLetters = "pnbrqk";

[[nodiscard]] std::string square_name(int sq) {
  return {static_cast<char>('a' + file_of(sq)), static_cast<char>('1' + rank_of(sq))};
}

[[nodiscard]] char piece_letter(Player side, Piece type) noexcept {
  const char c = kLetters[type_index(type)];
  return side == Player::First ? static_cast<char>(std::toupper(c)) : c;
}

[[nodiscard]] std::string_view piece_name(Piece type) noexcept {
  static constexpr std::array<std::string_view, kPieceTypes + 1> kNames = {
      "pawn", "knight", "bishop", "rook", "queen", "king", "nothing"};
  return kNames[type_index(type)];
}

// A square from two lower-case characters: its index, -1 if the text is not
// a square at all, -2 if it is a square name off the 5x5 board.
[[nodiscard]] int parse_square(std::string_view s) noexcept {
  if (s.size() != 2 || s[0] < 'a' || s[0] > 'z' || s[1] < '0' || s[1] > '9') return -1;
  const int f = s[0] - 'a';
  const int r = s[1] - '1';
  return on_board(f, r) ? square(f, r) : -2;
}

[[nodiscard]] std::optional<int> parse_count(std::string_view s, int lo, int hi) {
  const auto v = parse_integer(s);
  if (!v || *v < lo || *v > hi) return std::nullopt;
  return static_cast<int>(*v);
}

}  // namespace

std::string_view ending_text(Ending e) noexcept {
  switch (e) {
    case Ending::None: return "game on";
    case Ending::Checkmate: return "checkmate";
    case Ending::Stalemate: return "stalemate";
    case Ending::NoSafeMove: return "no move keeps the king safe";
    case Ending::ExposedKing: return "the last move left its own king attacked";
    case Ending::KingCaptured: return "king captured";
    case Ending::NoMoves: return "no pseudo-legal move";
    case Ending::DrawClock: return "no progress for the draw limit";
    case Ending::TurnCap: return "the maximum number of turns";
    case Ending::Repetition: return "threefold repetition";
  }
  return "?";
}

template <class Rules>
State<Rules>::State() {
  auto start = from_fen(Rules::kStartFen);
  assert(start.ok());
  *this = *start;
}

template <class Rules>
Result<State<Rules>> State<Rules>::from_spec(const Spec& spec) {
  if (spec.name() != kName) {
    return fail(fmt::format("{}: spec '{}' names the game '{}'", kName, spec.text(), spec.name()));
  }
  if constexpr (Rules::kTurnCapKey.empty()) {
    if (auto error = spec.reject_unknown({Rules::kLimitKey})) return *error;
  } else {
    if (auto error = spec.reject_unknown({Rules::kTurnCapKey, Rules::kLimitKey})) return *error;
  }
  const auto limit = spec.integer(Rules::kLimitKey, Rules::kLimitDefault, 1, Rules::kLimitMax);
  if (!limit) return fail(limit.error());
  int max_turns = 0;
  if constexpr (!Rules::kTurnCapKey.empty()) {
    const auto cap = spec.integer(Rules::kTurnCapKey, Rules::kTurnCapDefault, 0, kMaxTurnCap);
    if (!cap) return fail(cap.error());
    max_turns = static_cast<int>(*cap);
  }
  return from_fen(Rules::kStartFen, static_cast<int>(*limit), max_turns);
}

template <class Rules>
std::string State<Rules>::spec() const {
  if constexpr (!Rules::kTurnCapKey.empty()) {
    return fmt::format("{}:{}={},{}={}", kName, Rules::kTurnCapKey, m_max_turns, Rules::kLimitKey,
                       m_limit / Rules::kPliesPerLimitUnit);
  }
  return fmt::format("{}:{}={}", kName, Rules::kLimitKey, m_limit / Rules::kPliesPerLimitUnit);
}

template <class Rules>
Result<State<Rules>> State<Rules>::from_fen(std::string_view fen, int limit, int max_turns) {
  const auto bad = [&](std::string_view why) {
    return fail(fmt::format("{}: FEN '{}': {}", kName, fen, why));
  };
  // Step 1. Fields: board, side, then optional castling, en passant, clocks.
  const auto fields = split(fen);
  if (fields.size() < 2 || fields.size() > 6) {
    return bad("expected 2 to 6 fields like 'rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1'");
  }
  if (limit < 1 || limit > Rules::kLimitMax) return bad("draw limit out of range");
  if (max_turns < 0 || max_turns > kMaxTurnCap) return bad("maximum number of turns out of range");
  State out{Blank{}};
  out.m_limit = static_cast<std::uint8_t>(limit * Rules::kPliesPerLimitUnit);
  out.m_max_turns = static_cast<std::uint16_t>(Rules::kTurnCapKey.empty() ? 0 : max_turns);
  out.m_history_len = 0;
  out.m_repetitions = 0;
  out.m_repetition_distance = 0;

  // Step 2. The board: 5 ranks from rank 5 down, each exactly 5 files.
  int rank = kRanks - 1;
  int file = 0;
  for (const char c : fields[0]) {
    if (c == '/') {
      if (file != kFiles) return bad(fmt::format("rank {} has {} files, not 5", rank + 1, file));
      if (--rank < 0) return bad("more than 5 ranks");
      file = 0;
    } else if (c >= '1' && c <= '9') {
      file += c - '0';
      if (file > kFiles) return bad(fmt::format("rank {} has more than 5 files", rank + 1));
    } else {
      const auto at = kLetters.find(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
      if (at == std::string_view::npos) {
        return bad(fmt::format("'{}' is not a piece (pnbrqk, upper case for White)", c));
      }
      if (file >= kFiles) return bad(fmt::format("rank {} has more than 5 files", rank + 1));
      const auto type = static_cast<Piece>(at);
      if (!Rules::kRooks && type == Piece::Rook) return bad("this rule set has no rooks");
      const Player side =
          std::isupper(static_cast<unsigned char>(c)) ? Player::First : Player::Second;
      out.m_pos.put(side, type, square(file, rank));
      ++file;
    }
  }
  if (rank != 0) return bad(fmt::format("{} ranks, not 5", kRanks - rank));
  if (file != kFiles) return bad(fmt::format("rank 1 has {} files, not 5", file));

  // Step 3. Side to move, castling and en passant (none exist), clocks.
  if (fields[1] != "w" && fields[1] != "b") return bad("the side to move must be w or b");
  out.m_pos.set_to_move(fields[1] == "w" ? Player::First : Player::Second);
  if (fields.size() > 2 && fields[2] != "-") return bad("no castling in minichess: use '-'");
  if (fields.size() > 3 && fields[3] != "-") return bad("no en passant in minichess: use '-'");
  if (fields.size() > 4) {
    const auto clock = parse_count(fields[4], 0, 255);
    if (!clock) return bad("the halfmove clock must be a whole number 0..255");
    out.m_pos.set_clock(*clock);
  }
  if (fields.size() > 5) {
    const auto move = parse_count(fields[5], 1, 65535);
    if (!move) return bad("the move number must be a whole number 1..65535");
    out.m_pos.set_fullmove(*move);
  }

  // Step 4. Kings and pawns where a game can have them.
  const auto& p = out.m_pos;
  const Player mover = p.to_move();
  for (const Player side : {Player::First, Player::Second}) {
    const int kings = std::popcount(p.pieces(side, Piece::King));
    const bool may_lack = Rules::kMoveRule == MoveRule::KingCapture && side == mover;
    if (kings > 1 || (kings == 0 && !may_lack)) {
      return bad(fmt::format("{} has {} kings; exactly one each", kSideNames[index(side)], kings));
    }
  }
  if (!p.has_king(Player::First) && !p.has_king(Player::Second)) return bad("no kings");
  const Bitboard white_pawns = p.pieces(Player::First, Piece::Pawn);
  const Bitboard black_pawns = p.pieces(Player::Second, Piece::Pawn);
  if ((white_pawns & rank_mask(0)) != 0 || (black_pawns & rank_mask(kRanks - 1)) != 0) {
    return bad("a pawn stands on its own first rank");
  }
  if (Rules::kPromotions != 0 &&
      ((white_pawns & rank_mask(kRanks - 1)) != 0 || (black_pawns & rank_mask(0)) != 0)) {
    return bad("a pawn stands on its last rank; it must have promoted");
  }
  if (Rules::kMoveRule == MoveRule::Legal && p.exposed()) {
    return bad("the side not to move is in check");
  }
  return out;
}

template <class Rules>
std::string State<Rules>::to_text() const {
  std::string out;
  for (int rank = kRanks - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < kFiles; ++file) {
      const int sq = square(file, rank);
      const Piece type = m_pos.piece_on(sq);
      if (type == Piece::None) {
        ++empty;
        continue;
      }
      if (empty > 0) out += static_cast<char>('0' + empty);
      empty = 0;
      const Player side =
          (m_pos.pieces(Player::First) & bit(sq)) != 0 ? Player::First : Player::Second;
      out += piece_letter(side, type);
    }
    if (empty > 0) out += static_cast<char>('0' + empty);
    if (rank > 0) out += '/';
  }
  return fmt::format("{} {} - - {} {}", out, m_pos.to_move() == Player::First ? 'w' : 'b',
                     m_pos.clock(), m_pos.fullmove());
}

template <class Rules>
Result<State<Rules>> State<Rules>::from_text(std::string_view text) const {
  return from_fen(text, m_limit / Rules::kPliesPerLimitUnit, m_max_turns);
}

std::string tuple_text(const Move& m) {
  return fmt::format("(('{}', {}), ('{}', {}))", static_cast<char>('a' + file_of(m.from())),
                     rank_of(m.from()), static_cast<char>('a' + file_of(m.to())), rank_of(m.to()));
}

template <class Rules>
std::string State<Rules>::move_text(const Move& m) const {
  std::string out = square_name(m.from()) + square_name(m.to());
  if (m.promotion() != Piece::None) out += kLetters[type_index(m.promotion())];
  return out;
}

template <class Rules>
Result<Move> State<Rules>::parse_move(std::string_view text) const {
  // Step 1. Syntax: `b1c3`, `a4a5q` or `B2 B3`, any case, or seed 000's
  // tuple `(('a', 0), ('b', 1))` with rows counted from 0.
  std::string lower;
  for (const char c : trim(text)) {
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  const auto tokens = split(lower);
  std::string_view from_text;
  std::string_view to_text;
  std::string_view promo_text;
  std::string tuple_squares;
  if (!lower.empty() && lower.front() == '(') {
    // Without spaces and quotes it must read ((a,0),(b,1)); rows move up by one.
    std::string compact;
    for (const char c : lower) {
      if (std::isspace(static_cast<unsigned char>(c)) == 0 && c != '\'' && c != '"') compact += c;
    }
    constexpr std::string_view kShape = "((x,0),(x,0))";
    bool ok = compact.size() == kShape.size();
    for (std::size_t i = 0; ok && i < kShape.size(); ++i) {
      const auto c = static_cast<unsigned char>(compact[i]);
      ok = kShape[i] == 'x' ? std::isalpha(c) != 0
                            : (kShape[i] == '0' ? std::isdigit(c) != 0 : compact[i] == kShape[i]);
    }
    if (!ok) return fail(fmt::format("move '{}' is not like (('a', 0), ('b', 1))", text));
    tuple_squares = {compact[2], compact[4], compact[8], compact[10]};
    tuple_squares[1] = static_cast<char>(tuple_squares[1] + 1);
    tuple_squares[3] = static_cast<char>(tuple_squares[3] + 1);
    from_text = std::string_view(tuple_squares).substr(0, 2);
    to_text = std::string_view(tuple_squares).substr(2, 2);
  } else if (tokens.size() == 1 && (tokens[0].size() == 4 || tokens[0].size() == 5)) {
    from_text = tokens[0].substr(0, 2);
    to_text = tokens[0].substr(2, 2);
    promo_text = tokens[0].substr(4);
  } else if ((tokens.size() == 2 || tokens.size() == 3) && tokens[0].size() == 2 &&
             tokens[1].size() == 2 && (tokens.size() == 2 || tokens[2].size() == 1)) {
    from_text = tokens[0];
    to_text = tokens[1];
    if (tokens.size() == 3) promo_text = tokens[2];
  } else {
    return fail(fmt::format("move '{}' is not like b1c3, a4a5q or B2 B3", text));
  }
  const int from = parse_square(from_text);
  const int to = parse_square(to_text);
  if (from == -1 || to == -1) {
    return fail(fmt::format("move '{}' is not like b1c3, a4a5q or B2 B3", text));
  }
  if (from == -2 || to == -2) {
    return fail(fmt::format("move '{}' leaves the board: squares are a1 to e5", text));
  }
  Piece promo = Piece::None;
  if (!promo_text.empty()) {
    const auto at = kLetters.find(promo_text[0]);
    if (at == std::string_view::npos || at == 0 || at == 5) {
      return fail(
          fmt::format("move '{}': '{}' is not a promotion piece (q, r, b, n)", text, promo_text));
    }
    promo = static_cast<Piece>(at);
  }

  // Step 2. The game must be on, and the squares must suit the mover.
  Moves legal;
  actions(legal);
  if (legal.empty()) {
    return fail(fmt::format("move '{}': the game is over ({})", text, ending_text(ending())));
  }
  const Player me = m_pos.to_move();
  if ((m_pos.pieces(me) & bit(from)) == 0) {
    const Piece there = m_pos.piece_on(from);
    return fail(fmt::format(
        "move '{}': there is no piece of yours on {} ({})", text, square_name(from),
        there == Piece::None ? std::string("the square is empty")
                             : fmt::format("the {} there is your opponent's", piece_name(there))));
  }
  if ((m_pos.pieces(me) & bit(to)) != 0) {
    return fail(fmt::format("move '{}': your own piece stands on {}", text, square_name(to)));
  }

  // Step 3. The piece must move so; then promotion and king safety.
  Moves pseudo;
  m_pos.pseudo_moves(pseudo);
  std::vector<Move> matching;
  for (const Move m : pseudo) {
    if (m.from() == from && m.to() == to) matching.push_back(m);
  }
  const Piece type = m_pos.piece_on(from);
  if (matching.empty()) {
    return fail(fmt::format("move '{}': a {} on {} cannot move to {}", text, piece_name(type),
                            square_name(from), square_name(to)));
  }
  Move chosen = matching.front();
  if (matching.front().promotion() == Piece::None) {
    if (promo != Piece::None) return fail(fmt::format("move '{}' is not a promotion", text));
  } else if (promo == Piece::None) {
    if (matching.size() > 1) {
      return fail(fmt::format("move '{}' promotes: add the piece, e.g. {}q", text,
                              square_name(from) + square_name(to)));
    }
  } else {
    bool found = false;
    for (const Move m : matching) {
      if (m.promotion() == promo) {
        chosen = m;
        found = true;
      }
    }
    if (!found) {
      return fail(
          fmt::format("move '{}': a pawn may not promote to a {} here", text, piece_name(promo)));
    }
  }
  if (Rules::kMoveRule == MoveRule::Legal && !m_pos.is_safe(chosen)) {
    return fail(fmt::format("move '{}' would leave your king in check", text));
  }
  for (const Move m : legal) {
    if (m == chosen) return chosen;
  }
  return fail(fmt::format("move '{}' is not legal here", text));
}

template <class Rules>
std::string State<Rules>::render() const {
  std::string out = "  +-----------+\n";
  for (int rank = kRanks - 1; rank >= 0; --rank) {
    out += fmt::format("{} |", rank + 1);
    for (int file = 0; file < kFiles; ++file) {
      const int sq = square(file, rank);
      const Piece type = m_pos.piece_on(sq);
      const Player side =
          (m_pos.pieces(Player::First) & bit(sq)) != 0 ? Player::First : Player::Second;
      out += ' ';
      out += type == Piece::None ? '.' : piece_letter(side, type);
    }
    out += " |\n";
  }
  out += "  +-----------+\n    a b c d e\n";
  const std::string_view mover = kSideNames[index(m_pos.to_move())];
  const Ending e = ending();
  if (e == Ending::None && Rules::kTurnEndRules) {
    // COMP 472 counts turns, and has no check rule.
    const std::string cap = m_max_turns > 0 ? fmt::format(" of {}", m_max_turns) : "";
    out += fmt::format("{} to move (turn {}{}, {} of {} turns without a capture)\n", mover,
                       m_pos.fullmove(), cap, m_pos.clock() / 2, m_limit / 2);
  } else if (e == Ending::None) {
    out +=
        fmt::format("{} to move (move {}, {} of {} plies without progress){}\n", mover,
                    m_pos.fullmove(), m_pos.clock(), m_limit, m_pos.in_check() ? ", in check" : "");
  } else {
    const Value u = utility();
    const std::string verdict = u == 0 ? "draw" : (u > 0 ? "White wins" : "Black wins");
    out += fmt::format("game over: {} ({} to move): {}\n", end_cause(), mover, verdict);
  }
  return out;
}

template <class Rules>
std::string State<Rules>::end_cause() const {
  const std::string_view mover = kSideNames[index(m_pos.to_move())];
  const std::string_view last = kSideNames[index(other(m_pos.to_move()))];
  switch (ending()) {
    case Ending::None: return {};
    case Ending::NoSafeMove: return fmt::format("{} has no move that keeps its king safe", mover);
    case Ending::ExposedKing: return fmt::format("{} left its own king attacked", last);
    case Ending::KingCaptured: return fmt::format("{}'s king captured", mover);
    case Ending::NoMoves: return fmt::format("{} has no move", mover);
    case Ending::DrawClock:
      if constexpr (Rules::kPliesPerLimitUnit == 2) {
        return fmt::format("{} turns without a capture", m_limit / 2);
      } else if constexpr (Rules::kPawnMoveResetsClock) {
        if (m_limit % 2 == 0) return fmt::format("{}-move rule", m_limit / 2);
        return fmt::format("{} plies without a capture or pawn move", m_limit);
      } else {
        return fmt::format("{} plies without a capture", m_limit);
      }
    case Ending::TurnCap: return fmt::format("the maximum of {} turns", m_max_turns);
    default: return std::string(ending_text(ending()));
  }
}

template class State<Gardner>;
template class State<Cs3243>;
template class State<Comp472>;

}  // namespace duel::games::minichess
