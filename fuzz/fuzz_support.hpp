#pragma once
// What every fuzz target checks on a position it managed to parse: the text
// round trip (print, parse, the same state and the same text) and the move
// notation round trip (every legal move's text parses back to that move).
//
// Why abort: a round trip that fails is a bug even when nothing crashed, and
// libFuzzer only reports inputs that crash; the message says which check
// failed and on what text, and the input is saved as crash-<sha1>.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "duel/core/spec.hpp"
#include "duel/games/game.hpp"

namespace duel::fuzz {

[[noreturn]] inline void check_failed(const char* what, const char* file, int line,
                                      std::string_view detail) {
  std::fprintf(stderr, "fuzz check failed: %s (%s:%d)\n  on: %.*s\n", what, file, line,
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

// DUEL_FUZZ_CHECK(condition, text shown on failure)
#define DUEL_FUZZ_CHECK(cond, detail) \
  ((cond) ? (void)0 : ::duel::fuzz::check_failed(#cond, __FILE__, __LINE__, (detail)))

[[nodiscard]] inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// The input's first line and the rest (after the newline; empty if none).
struct SplitLine {
  std::string_view first;
  std::string_view rest;
};
[[nodiscard]] inline SplitLine split_first_line(std::string_view text) {
  const auto nl = text.find('\n');
  if (nl == std::string_view::npos) return {text, {}};
  return {text.substr(0, nl), text.substr(nl + 1)};
}

// Types whose states compare whole (kcell) or through their position (the
// chess games and checkers); others are compared by text and key only.
template <class S>
[[nodiscard]] bool same_state(const S& a, const S& b) {
  if constexpr (requires { a == b; }) {
    return a == b;
  } else if constexpr (requires { a.position() == b.position(); }) {
    return a.position() == b.position() && a.draw_limit_plies() == b.draw_limit_plies();
  } else {
    return a.to_text() == b.to_text() && a.key() == b.key();
  }
}

// to_text -> from_text -> the same state, the same text, the same key; and
// the incremental key equals the key computed from scratch where a game
// keeps one.
template <games::PlayableGame S>
void check_text_round_trip(const S& s) {
  const std::string text = s.to_text();
  const auto again = s.from_text(text);
  DUEL_FUZZ_CHECK(again.ok(), text + " -> " + (again.ok() ? "" : again.error()));
  DUEL_FUZZ_CHECK(same_state(s, *again), text + " -> " + again->to_text());
  DUEL_FUZZ_CHECK(again->to_text() == text, text + " -> " + again->to_text());
  DUEL_FUZZ_CHECK(again->key() == s.key(), text);
  DUEL_FUZZ_CHECK(again->to_move() == s.to_move(), text);
  if constexpr (requires { s.compute_key(); }) {
    DUEL_FUZZ_CHECK(s.compute_key() == s.key(), text);
  }
}

// Every legal move's text parses back to that move; `extra(s, m)` checks a
// game's other notations (SAN, the seeds' forms).
template <games::PlayableGame S, class Extra>
void check_moves(const S& s, Extra&& extra) {
  typename S::Moves moves;
  s.actions(moves);
  for (const auto& m : moves) {
    const std::string text = s.move_text(m);
    const auto back = s.parse_move(text);
    DUEL_FUZZ_CHECK(back.ok(), s.to_text() + " move " + text + ": " +
                                   (back.ok() ? std::string() : back.error()));
    DUEL_FUZZ_CHECK(*back == m, s.to_text() + " move " + text);
    extra(s, m);
  }
}

template <games::PlayableGame S>
void check_moves(const S& s) {
  check_moves(s, [](const S&, const typename S::Move&) {});
}

// A parsed position and its successors one ply on: each passes both round
// trips (a successor is a state no text produced, so its text is new).
template <games::PlayableGame S, class Extra>
void check_state(const S& s, Extra&& extra) {
  check_text_round_trip(s);
  check_moves(s, extra);
  typename S::Moves moves;
  s.actions(moves);
  for (const auto& m : moves) check_text_round_trip(s.result(m));
}

template <games::PlayableGame S>
void check_state(const S& s) {
  check_state(s, [](const S&, const typename S::Move&) {});
}

// A move parse_move accepted must be one of actions() (it promises legal
// moves only).
template <games::PlayableGame S>
void check_legal(const S& s, const typename S::Move& m, std::string_view text) {
  typename S::Moves moves;
  s.actions(moves);
  bool found = false;
  for (const auto& legal : moves) found = found || legal == m;
  DUEL_FUZZ_CHECK(found, s.to_text() + " accepted '" + std::string(text) + "'");
}

// Plays the moves of `lines` (one a line) from `s` while they parse, each
// new position checked as `check_state` does; returns the last position.
template <games::PlayableGame S, class Extra>
S play_lines(S s, std::string_view lines, Extra&& extra) {
  while (!lines.empty()) {
    const auto [line, after] = split_first_line(lines);
    lines = after;
    const auto m = s.parse_move(line);
    if (!m) break;
    check_legal(s, *m, line);
    s = s.result(*m);
    check_state(s, extra);
  }
  return s;
}

// The position text before a line `--` and the move lines after it (the
// checkers board takes several lines; the other games' texts take one).
[[nodiscard]] inline SplitLine split_at_dashes(std::string_view text) {
  if (text.substr(0, 3) == "--\n") return {{}, text.substr(3)};
  const auto at = text.find("\n--\n");
  if (at == std::string_view::npos) return {text, {}};
  return {text.substr(0, at), text.substr(at + 4)};
}

// One game's spec and position text. Input: the spec's options (`n=3,k=15`,
// empty for the defaults) on the first line, a position of that game on the
// second, then moves one a line. Checks the spec round trip (the canonical
// spec makes the same game) and, on a parsed position, check_state and
// play_lines.
template <games::PlayableGame S>
void fuzz_spec_and_text(std::string_view input) {
  const auto [options, rest] = split_first_line(input);
  const std::string spec_text =
      std::string(S::kName) + (options.empty() ? "" : ":" + std::string(options));
  const auto spec = Spec::parse(spec_text);
  if (!spec) return;
  const auto start = S::from_spec(*spec);
  if (!start) return;
  const std::string canonical = start->spec();
  const auto spec_again = Spec::parse(canonical);
  DUEL_FUZZ_CHECK(spec_again.ok(), spec_text + " -> " + canonical);
  const auto start_again = S::from_spec(*spec_again);
  DUEL_FUZZ_CHECK(start_again.ok(), spec_text + " -> " + canonical);
  DUEL_FUZZ_CHECK(start_again->spec() == canonical && same_state(*start, *start_again),
                  spec_text + " -> " + canonical);
  check_state(*start);
  const auto [text, moves] = split_first_line(rest);
  const auto s = start->from_text(text);
  if (!s) return;
  check_state(*s);
  (void)play_lines(*s, moves, [](const S&, const typename S::Move&) {});
}

}  // namespace duel::fuzz
