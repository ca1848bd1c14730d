#pragma once
// How the terminal writes a move for people: SAN in the chess games
// (`Nc3`, `bxc3`), the standard square numbers in checkers (`11-15`,
// `6x15x22`), `pass` for KCell's pass; and a person's own move in the
// notation they typed it in (`b1c3` stays UCI, `B1 C3` the COMP 472 seed's
// form, `c3-d4` algebraic in checkers).
//
// Why apart from `move_text`: that is the game's record text (JSON, traces,
// the referee), fixed for tools; these are words for people, which need the
// position before the move (SAN) or the text the person typed. The web page
// writes moves with people_text too (serve/notation.hpp).
#include <cctype>
#include <string>
#include <string_view>
#include <type_traits>

#include <fmt/format.h>

#include "duel/games/checkers/checkers.hpp"
#include "duel/games/kcell/kcell.hpp"
#include "duel/games/minichess/minichess.hpp"
#include "duel/games/minichess/san.hpp"
#include "duel/games/score.hpp"

namespace duel::games {

// The move `m` of `s` as people write it, by default.
template <class S>
[[nodiscard]] std::string people_text(const S& s, const typename S::Move& m) {
  if constexpr (kIsMinichess<S>) {
    return minichess::san(s, m);
  } else if constexpr (std::is_same_v<S, kcell::State>) {
    return m == kcell::kPass ? "pass" : s.move_text(m);
  } else {
    return s.move_text(m);
  }
}

namespace detail {

// `text` without spaces around it, runs of spaces made one, lower case.
[[nodiscard]] inline std::string folded(std::string_view text) {
  std::string out;
  bool space = false;
  for (const char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) != 0) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

// A checkers move's standard numbers (`6x15x22`) with each square written
// algebraically (`b6xd4xf2`), the separators kept.
[[nodiscard]] inline std::string checkers_algebraic(std::string_view numbers) {
  std::string out;
  int n = 0;
  const auto flush = [&] {
    if (n == 0) return;
    const int sq = n - 1;
    out += static_cast<char>('a' + checkers::file_of(sq));
    out += static_cast<char>('0' + checkers::rank_of(sq));
    n = 0;
  };
  for (const char c : numbers) {
    if (std::isdigit(static_cast<unsigned char>(c)) != 0) {
      n = 10 * n + (c - '0');
    } else {
      flush();
      out += c;
    }
  }
  flush();
  return out;
}

}  // namespace detail

// The legal move `m`, which a person typed as `typed` (any form
// `read_move` takes), written back in that form: what they typed, made
// canonical. A form the game has no writer for reads as `people_text`.
template <class S>
[[nodiscard]] std::string typed_text(const S& s, const typename S::Move& m,
                                     std::string_view typed) {
  const std::string t = detail::folded(typed);
  if constexpr (kIsMinichess<S>) {
    // Step 1. UCI (`b1c3`, `a4a5q`) as the game writes it.
    std::string uci = s.move_text(m);
    if (t == uci) return uci;
    // Step 2. The seed's `B2 B3`: two squares with a space, upper case.
    if (t.size() == 5 && t[2] == ' ' && t.substr(0, 2) + t.substr(3) == uci.substr(0, 4)) {
      std::string seed = uci.substr(0, 2) + ' ' + uci.substr(2, 2);
      for (char& c : seed) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      return seed;
    }
    // Step 3. Anything else read as SAN.
    return minichess::san(s, m);
  } else if constexpr (std::is_same_v<S, checkers::State>) {
    // Standard numbers (`11-15`) as the game writes them; algebraic squares
    // (`c3-d4`) and the seed's `E c3 d4` / `J c3 e5 J e5 g7` as such.
    if (t.empty() || std::isdigit(static_cast<unsigned char>(t[0])) != 0) return s.move_text(m);
    if (t[0] == 'e' || t[0] == 'j') {
      std::string seed = s.seed_text(m);
      for (char& c : seed) c = c == '\n' ? ' ' : c;
      return seed;
    }
    return detail::checkers_algebraic(s.move_text(m));
  } else {
    return people_text(s, m);
  }
}

}  // namespace duel::games
