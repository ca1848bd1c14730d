#pragma once
// Who plays a game of `duel serve` and who may act for them (docs/serve.md
// § Seats): each side is a person's seat or a program the server runs, and
// each side has a token; the page that made the game holds both, a play
// link gives one. Everyone else watches.
//
// Why tokens per side, not per game: a person can hand one seat of a game
// between two people to a friend (the play link) and keep the other.
#include <sodium.h>

#include <array>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace duel::serve {

// 128 random bits as 32 hex digits (libsodium's randombytes_buf).
[[nodiscard]] inline std::string random_token() {
  static const int ready = sodium_init();  // once; thread-safe
  if (ready < 0) throw std::runtime_error("libsodium cannot start: no system randomness");
  std::array<unsigned char, 16> bytes{};
  randombytes_buf(bytes.data(), bytes.size());
  std::array<char, 2 * 16 + 1> hex{};
  sodium_bin2hex(hex.data(), hex.size(), bytes.data(), bytes.size());
  return std::string(hex.data(), 2 * bytes.size());
}

// Equal strings, in a time that does not depend on where they differ
// (libsodium's sodium_memcmp; the lengths are not secret).
[[nodiscard]] inline bool same_token(std::string_view a, std::string_view b) {
  return a.size() == b.size() && sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

struct Seats {
  // A game made without players (the API before seats): anyone may move
  // and the caller starts each program's move; no token is asked for.
  bool seated = false;
  std::array<std::string, 2> players = {"human", "human"};  // "human" or an agent spec
  std::array<std::string, 2> tokens;
  int delay_ms = 0;  // before each move of a program playing a program

  [[nodiscard]] bool human(std::size_t side) const { return players[side] == "human"; }
  [[nodiscard]] bool program(std::size_t side) const { return !human(side); }
  // The side a token holds, or nullopt.
  [[nodiscard]] std::optional<std::size_t> side_of(std::string_view token) const {
    std::optional<std::size_t> out;
    for (std::size_t s = 0; s < 2; ++s) {
      if (seated && !token.empty() && same_token(token, tokens[s])) out = s;
    }
    return out;
  }
};

}  // namespace duel::serve
