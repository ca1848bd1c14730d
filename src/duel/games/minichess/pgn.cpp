// PGN out and in (see pgn.hpp).
#include "duel/games/minichess/pgn.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>

#include <fmt/format.h>

#include "duel/core/text.hpp"
#include "duel/games/minichess/san.hpp"

namespace duel::games::minichess {
namespace {

// PGN §8.1.1: the seven-tag roster, in this order, with the values for
// "unknown".
constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kRoster = {{
    {"Event", "?"},
    {"Site", "?"},
    {"Date", "????.??.??"},
    {"Round", "?"},
    {"White", "?"},
    {"Black", "?"},
}};
// Tags the writer computes itself, whatever the caller passes.
constexpr std::array<std::string_view, 4> kComputed = {"Result", "Variant", "SetUp", "FEN"};

[[nodiscard]] bool is_result(std::string_view t) noexcept {
  return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*";
}

[[nodiscard]] std::string lower(std::string_view s) {
  std::string out;
  for (const char c : s) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

[[nodiscard]] const std::string* find_tag(const PgnTags& tags, std::string_view key) {
  for (const auto& [k, v] : tags) {
    if (k == key) return &v;
  }
  return nullptr;
}

// Step 1 of reading: a game's tags and move tokens, before any rule applies.
struct RawGame {
  PgnTags tags;
  std::vector<std::string> moves;
  std::string result;
};

class Splitter {
 public:
  explicit Splitter(std::string_view text) : m_text(text) {}

  Result<std::vector<RawGame>> run() {
    bool line_start = true;
    while (m_at < m_text.size()) {
      const char c = m_text[m_at];
      if (c == '\n') {
        line_start = true;
        ++m_at;
        continue;
      }
      if (std::isspace(static_cast<unsigned char>(c)) != 0) {
        ++m_at;
        continue;
      }
      // PGN §6: a '%' in the first column escapes the whole line.
      if (c == '%' && line_start) {
        skip_line();
        continue;
      }
      line_start = false;
      if (c == '[') {
        if (m_in_moves) finish();  // a game without a result token ends at the next tags
        m_open = true;
        if (auto error = tag()) return *error;
      } else if (c == '{') {
        if (auto error = comment()) return *error;
      } else if (c == ';') {
        skip_line();
      } else if (c == '(') {
        if (auto error = variation()) return *error;
      } else if (c == ')' || c == '}' || c == ']') {
        const char opening = c == ')' ? '(' : c == '}' ? '{' : '[';
        return bad(fmt::format("'{}' without a '{}' before it", c, opening));
      } else {
        token();
      }
    }
    finish();
    if (m_games.empty()) return fail("PGN: no game in the text");
    return std::move(m_games);
  }

 private:
  [[nodiscard]] Error bad(std::string_view why) const {
    return fail(fmt::format("game {}: {}", m_games.size() + 1, why));
  }

  void finish() {
    if (m_open) {
      if (m_game.result.empty()) m_game.result = "*";
      m_games.push_back(std::move(m_game));
    }
    m_game = {};
    m_open = false;
    m_in_moves = false;
  }

  void skip_line() {
    while (m_at < m_text.size() && m_text[m_at] != '\n') ++m_at;
  }

  void skip_spaces() {
    while (m_at < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_at])) != 0) {
      ++m_at;
    }
  }

  // `[Name "value"]`, with \" and \\ escapes in the value (PGN §8.1).
  std::optional<Error> tag() {
    const std::size_t begin = m_at++;
    const auto shape = [&] {
      const auto end = m_text.find_first_of("]\n", begin);
      return bad(
          fmt::format("tag '{}' is not like [Name \"value\"]",
                      m_text.substr(begin, end == std::string_view::npos ? 40 : end - begin + 1)));
    };
    skip_spaces();
    std::string name;
    while (m_at < m_text.size() &&
           (std::isalnum(static_cast<unsigned char>(m_text[m_at])) != 0 || m_text[m_at] == '_')) {
      name += m_text[m_at++];
    }
    skip_spaces();
    if (name.empty() || m_at >= m_text.size() || m_text[m_at] != '"') return shape();
    ++m_at;
    std::string value;
    while (true) {
      if (m_at >= m_text.size() || m_text[m_at] == '\n') return shape();
      const char c = m_text[m_at++];
      if (c == '"') break;
      if (c == '\\' && m_at < m_text.size()) {
        value += m_text[m_at++];
      } else {
        value += c;
      }
    }
    skip_spaces();
    if (m_at >= m_text.size() || m_text[m_at] != ']') return shape();
    ++m_at;
    m_game.tags.emplace_back(std::move(name), std::move(value));
    return std::nullopt;
  }

  std::optional<Error> comment() {
    const auto end = m_text.find('}', m_at);
    if (end == std::string_view::npos) return bad("a comment '{' is never closed");
    m_at = end + 1;
    return std::nullopt;
  }

  // A variation (alternative moves) is skipped whole, nested ones and the
  // comments inside included (a ')' in a comment does not close it).
  std::optional<Error> variation() {
    int depth = 0;
    while (m_at < m_text.size()) {
      const char c = m_text[m_at];
      if (c == '{') {
        if (auto error = comment()) return error;
        continue;
      }
      if (c == ';') {
        skip_line();
        continue;
      }
      ++m_at;
      if (c == '(') ++depth;
      if (c == ')' && --depth == 0) return std::nullopt;
    }
    return bad("a variation '(' is never closed");
  }

  // A symbol: a move (after any move number), a result, a NAG or a glyph.
  void token() {
    const std::size_t begin = m_at;
    while (m_at < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_at])) == 0 &&
           std::string_view("[]{}();").find(m_text[m_at]) == std::string_view::npos) {
      ++m_at;
    }
    std::string_view t = m_text.substr(begin, m_at - begin);
    if (is_result(t)) {
      m_open = true;
      m_game.result = std::string(t);
      finish();
      return;
    }
    if (t.front() == '$') return;  // a NAG (PGN §8.2.4)
    // A move number alone (`12.`, `12...`) or glued to its move (`12.Nc3`).
    std::size_t digits = 0;
    while (digits < t.size() && std::isdigit(static_cast<unsigned char>(t[digits])) != 0) ++digits;
    if (digits > 0 && digits < t.size() && t[digits] == '.') {
      t.remove_prefix(digits);
      while (!t.empty() && t.front() == '.') t.remove_prefix(1);
    }
    m_open = true;
    m_in_moves = true;
    if (t.empty() || t.find_first_not_of("!?") == std::string_view::npos) return;
    m_game.moves.emplace_back(t);
  }

  std::string_view m_text;
  std::size_t m_at = 0;
  std::vector<RawGame> m_games;
  RawGame m_game;
  bool m_open = false;      // the current game has a tag or a token
  bool m_in_moves = false;  // ... and its movetext has begun
};

// Step 2 of reading: one game replayed under a rule set.
template <class Rules>
Result<PgnGame<Rules>> replay(RawGame raw, std::size_t number, int limit) {
  PgnGame<Rules> g;
  const int draw_limit = limit > 0 ? limit : Rules::kLimitDefault;
  const std::string* fen = find_tag(raw.tags, "FEN");
  auto start = State<Rules>::from_fen(fen != nullptr ? std::string_view(*fen) : Rules::kStartFen,
                                      draw_limit);
  if (!start) return fail(fmt::format("game {}: [FEN]: {}", number, start.error()));
  g.start = *start;
  State<Rules> s = g.start;
  for (std::size_t i = 0; i < raw.moves.size(); ++i) {
    const auto m = parse_san(s, raw.moves[i]);
    if (!m) return fail(fmt::format("game {}, ply {}: {}", number, i + 1, m.error()));
    g.moves.push_back(*m);
    s = s.result(*m);
  }
  g.tags = std::move(raw.tags);
  g.result = std::move(raw.result);
  return g;
}

// Which alternative of AnyPgnGame a Variant value or game name means.
[[nodiscard]] std::optional<std::size_t> variant_index(std::string_view name) {
  const std::string n = lower(trim(name));
  if (n == pgn_variant<Gardner>() || n == Gardner::kName) return 0;
  if (n == pgn_variant<Cs3243>() || n == Cs3243::kName) return 1;
  if (n == pgn_variant<Comp472>() || n == Comp472::kName) return 2;
  return std::nullopt;
}

[[nodiscard]] std::string unknown_variant(std::string_view name) {
  return fmt::format("[Variant \"{}\"] is not a 5x5 rule set: use gardner, cs3243 or comp472",
                     name);
}

// A comment as the units the line wrapper may not split: the whole `{...}`
// when it fits on a line (a score comment stays readable), else its words.
// A `}` inside would end the comment early (PGN comments have no escape), so
// it goes.
[[nodiscard]] std::vector<std::string> comment_units(std::string_view text) {
  std::string clean;
  for (const char c : text) clean += (c == '}' || c == '{') ? ' ' : c;
  std::vector<std::string> words;
  for (const auto w : split(clean)) words.emplace_back(w);
  if (words.empty()) return words;
  words.front().insert(0, "{");
  words.back() += '}';
  std::string whole;
  for (const auto& w : words) whole += (whole.empty() ? "" : " ") + w;
  if (whole.size() <= 79) return {whole};
  return words;
}

}  // namespace

std::string_view pgn_result(int payoff_for_white) noexcept {
  return payoff_for_white > 0 ? "1-0" : payoff_for_white < 0 ? "0-1" : "1/2-1/2";
}

template <class Rules>
std::string pgn_text(const State<Rules>& start, const std::vector<Move>& moves,
                     std::string_view result, const PgnTags& tags, const PgnNotes& notes) {
  // Step 1. Tags: the roster, the rule set and start, the caller's others.
  std::string out;
  for (const auto& [key, unknown] : kRoster) {
    const std::string* given = find_tag(tags, key);
    out += fmt::format("[{} \"{}\"]\n", key, tag_value(given != nullptr ? *given : unknown));
  }
  out += fmt::format("[Result \"{}\"]\n[Variant \"{}\"]\n", result, pgn_variant<Rules>());
  if (start.to_text() != State<Rules>().to_text()) {
    out += fmt::format("[SetUp \"1\"]\n[FEN \"{}\"]\n", start.to_text());
  }
  for (const auto& [key, value] : tags) {
    // A copy for the lambda: clang before 16 cannot capture a structured
    // binding (the fuzz tree builds with clang 14).
    const std::string_view name = key;
    const auto is = [name](std::string_view k) { return k == name; };
    if (std::ranges::any_of(kComputed, is) ||
        std::ranges::any_of(kRoster, [&](const auto& r) { return is(r.first); })) {
      continue;
    }
    out += fmt::format("[{} \"{}\"]\n", key, tag_value(value));
  }
  out += '\n';

  // Step 2. Movetext: a number before White's move (`N...` before a first
  // move by Black), words never split, lines within 79 characters.
  std::string line;
  const auto put = [&](const std::string& word) {
    if (!line.empty() && line.size() + 1 + word.size() > 79) {
      out += line + '\n';
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  };
  State<Rules> s = start;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const std::string text = san(s, moves[i]);
    const int number = s.position().fullmove();
    if (s.to_move() == Player::First) {
      put(fmt::format("{}. {}", number, text));
    } else if (i == 0) {
      put(fmt::format("{}... {}", number, text));
    } else {
      put(text);
    }
    if (i < notes.after_move.size()) {
      for (const auto& w : comment_units(notes.after_move[i])) put(w);
    }
    s = s.result(moves[i]);
  }
  for (const auto& w : comment_units(notes.before_result)) put(w);
  put(std::string(result));
  out += line + "\n";
  return out;
}

Result<std::vector<AnyPgnGame>> parse_pgn(std::string_view text, const PgnReadOptions& options) {
  const auto fallback = variant_index(options.default_variant);
  if (!fallback) return fail("PGN: default " + unknown_variant(options.default_variant));
  auto raw = Splitter(text).run();
  if (!raw) return fail(raw.error());
  std::vector<AnyPgnGame> games;
  for (std::size_t i = 0; i < raw->size(); ++i) {
    RawGame& game = (*raw)[i];
    const std::string* named = find_tag(game.tags, "Variant");
    const auto which = named != nullptr ? variant_index(*named) : fallback;
    if (!which) return fail(fmt::format("game {}: {}", i + 1, unknown_variant(*named)));
    const auto add = [&](auto replayed) -> std::optional<Error> {
      if (!replayed) return fail(replayed.error());
      games.emplace_back(std::move(*replayed));
      return std::nullopt;
    };
    std::optional<Error> error;
    switch (*which) {
      case 0: error = add(replay<Gardner>(std::move(game), i + 1, options.limit)); break;
      case 1: error = add(replay<Cs3243>(std::move(game), i + 1, options.limit)); break;
      default: error = add(replay<Comp472>(std::move(game), i + 1, options.limit)); break;
    }
    if (error) return *error;
  }
  return games;
}

template <class Rules>
Result<std::vector<PgnGame<Rules>>> parse_pgn_as(std::string_view text, int limit) {
  auto raw = Splitter(text).run();
  if (!raw) return fail(raw.error());
  std::vector<PgnGame<Rules>> games;
  for (std::size_t i = 0; i < raw->size(); ++i) {
    RawGame& game = (*raw)[i];
    if (const std::string* named = find_tag(game.tags, "Variant")) {
      const auto which = variant_index(*named);
      if (!which) return fail(fmt::format("game {}: {}", i + 1, unknown_variant(*named)));
      if (*which != variant_index(Rules::kName)) {
        return fail(fmt::format("game {}: [Variant \"{}\"] is not {}", i + 1, *named,
                                pgn_variant<Rules>()));
      }
    }
    auto g = replay<Rules>(std::move(game), i + 1, limit);
    if (!g) return fail(g.error());
    games.push_back(std::move(*g));
  }
  return games;
}

template std::string pgn_text(const State<Gardner>&, const std::vector<Move>&, std::string_view,
                              const PgnTags&, const PgnNotes&);
template std::string pgn_text(const State<Cs3243>&, const std::vector<Move>&, std::string_view,
                              const PgnTags&, const PgnNotes&);
template std::string pgn_text(const State<Comp472>&, const std::vector<Move>&, std::string_view,
                              const PgnTags&, const PgnNotes&);
template Result<std::vector<PgnGame<Gardner>>> parse_pgn_as(std::string_view, int);
template Result<std::vector<PgnGame<Cs3243>>> parse_pgn_as(std::string_view, int);
template Result<std::vector<PgnGame<Comp472>>> parse_pgn_as(std::string_view, int);

}  // namespace duel::games::minichess
