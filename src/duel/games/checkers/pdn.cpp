// PDN out and in (see pdn.hpp).
#include "duel/games/checkers/pdn.hpp"

#include <cctype>

#include <fmt/format.h>

#include "duel/core/text.hpp"

namespace duel::games::checkers {
namespace {

[[nodiscard]] bool is_result(std::string_view t) {
  return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "2-0" || t == "0-2" || t == "1-1" ||
         t == "*";
}

}  // namespace

std::string_view pdn_result(int payoff_for_black) noexcept {
  return payoff_for_black > 0 ? "1-0" : payoff_for_black < 0 ? "0-1" : "1/2-1/2";
}

std::string pdn_text(const State& start, const std::vector<std::string>& moves,
                     std::string_view result, const PdnTags& tags) {
  std::string out;
  for (const auto& [key, value] : tags) {
    if (key == "GameType" || key == "SetUp" || key == "FEN" || key == "Result") continue;
    out += fmt::format("[{} \"{}\"]\n", key, tag_value(value));
  }
  out += "[GameType \"21\"]\n";
  if (start.to_text() != State().to_text()) {
    out += fmt::format("[SetUp \"1\"]\n[FEN \"{}\"]\n", start.to_text());
  }
  out += fmt::format("[Result \"{}\"]\n", result);

  // Movetext: a number before Black's move (or `N...` when White starts),
  // lines kept under 80 characters as PDN readers expect.
  std::string line;
  const auto put = [&](const std::string& token) {
    if (!line.empty() && line.size() + 1 + token.size() > 79) {
      out += line + '\n';
      line.clear();
    }
    line += (line.empty() ? "" : " ") + token;
  };
  const bool black_first = start.to_move() == Player::First;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const std::size_t ply = i + (black_first ? 0 : 1);
    const std::size_t number = ply / 2 + 1;
    if (ply % 2 == 0) {
      put(fmt::format("{}. {}", number, moves[i]));
    } else if (i == 0) {
      put(fmt::format("{}... {}", number, moves[i]));
    } else {
      put(moves[i]);
    }
  }
  put(std::string(result));
  out += line + "\n";
  return out;
}

Result<PdnGame> parse_pdn(std::string_view text, int draw_limit) {
  PdnGame g;
  std::string fen;
  std::string movetext;
  // Step 1. Tag pairs and comments out, the rest is movetext.
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '[') {
      const auto end = text.find(']', i);
      if (end == std::string_view::npos) return fail("PDN: a tag '[' is never closed");
      const std::string_view tag = trim(text.substr(i + 1, end - i - 1));
      const auto space = tag.find(' ');
      const auto q1 = tag.find('"');
      const auto q2 = tag.rfind('"');
      if (space == std::string_view::npos || q1 == std::string_view::npos || q2 <= q1) {
        return fail(fmt::format("PDN: tag '[{}]' is not like [Key \"value\"]", tag));
      }
      g.tags.emplace_back(std::string(tag.substr(0, space)),
                          std::string(tag.substr(q1 + 1, q2 - q1 - 1)));
      if (g.tags.back().first == "FEN") fen = g.tags.back().second;
      i = end + 1;
    } else if (c == '{') {
      const auto end = text.find('}', i);
      if (end == std::string_view::npos) return fail("PDN: a comment '{' is never closed");
      movetext += ' ';
      i = end + 1;
    } else {
      movetext += c;
      ++i;
    }
  }
  const auto start = State::parse(fen.empty() ? State().to_text() : fen, draw_limit);
  if (!start) return fail(fmt::format("PDN: [FEN]: {}", start.error()));
  g.start = *start;

  // Step 2. The moves, each checked against the position.
  State s = g.start;
  for (auto token : split(movetext)) {
    if (is_result(token)) {
      g.result = std::string(token);
      break;
    }
    // A move number, alone (`12.`, `12...`) or glued to its move (`12.11-15`).
    std::size_t digits = 0;
    while (digits < token.size() && std::isdigit(static_cast<unsigned char>(token[digits])) != 0) {
      ++digits;
    }
    if (digits > 0 && digits < token.size() && token[digits] == '.') {
      token.remove_prefix(digits);
      while (!token.empty() && token.front() == '.') token.remove_prefix(1);
      if (token.empty()) continue;
    }
    const auto m = s.parse_move(token);
    if (!m) {
      return fail(fmt::format("PDN: move {} ('{}'): {}", g.moves.size() + 1, token, m.error()));
    }
    g.moves.push_back(*m);
    s = s.result(*m);
  }
  return g;
}

Result<std::vector<PdnGame>> parse_pdn_games(std::string_view text, int draw_limit) {
  // Step 1. Cut the text into games: after a result token, or before a tag
  // that follows moves. Comments and tags are stepped over whole, so a `[`
  // or a result inside them cuts nothing; an unclosed one is left to
  // parse_pdn to name.
  std::vector<std::string_view> parts;
  std::size_t begin = 0;
  bool open = false;      // the current game has a tag or a token
  bool in_moves = false;  // ... and its moves have begun
  const auto cut = [&](std::size_t end) {
    if (open) parts.push_back(text.substr(begin, end - begin));
    begin = end;
    open = in_moves = false;
  };
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c)) != 0) {
      ++i;
    } else if (c == '{' || c == '[') {
      if (c == '[' && in_moves) cut(i);
      open = open || c == '[';
      const auto end = text.find(c == '{' ? '}' : ']', i);
      i = end == std::string_view::npos ? text.size() : end + 1;
    } else {
      std::size_t end = i;
      while (end < text.size() && std::isspace(static_cast<unsigned char>(text[end])) == 0 &&
             text[end] != '{' && text[end] != '[') {
        ++end;
      }
      open = true;
      if (is_result(text.substr(i, end - i))) {
        cut(end);
      } else {
        in_moves = true;
      }
      i = end;
    }
  }
  cut(text.size());
  if (parts.empty()) return fail("PDN: no game in the text");

  // Step 2. Each game as parse_pdn reads it.
  std::vector<PdnGame> games;
  for (std::size_t n = 0; n < parts.size(); ++n) {
    auto g = parse_pdn(parts[n], draw_limit);
    if (!g) return fail(fmt::format("game {}: {}", n + 1, g.error()));
    games.push_back(std::move(*g));
  }
  return games;
}

}  // namespace duel::games::checkers
