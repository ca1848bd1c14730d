#pragma once
// Positions for the 5x5 chess heuristic tests: colour-flipped FENs and the
// positions of random games.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

#include "duel/core/rng.hpp"

namespace duel::test_support {

// The same position with the colours swapped: ranks mirrored, White's pieces
// Black's and the other side to move.
[[nodiscard]] inline std::string flip_fen(const std::string& fen) {
  const auto space = fen.find(' ');
  std::string board = fen.substr(0, space);
  std::string rest = fen.substr(space + 1);
  std::vector<std::string> ranks;
  for (std::size_t start = 0;;) {
    const auto slash = board.find('/', start);
    ranks.push_back(board.substr(start, slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  std::reverse(ranks.begin(), ranks.end());
  std::string out;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (i > 0) out += '/';
    for (const char c : ranks[i]) {
      const auto u = static_cast<unsigned char>(c);
      out += static_cast<char>(std::isupper(u) != 0 ? std::tolower(u) : std::toupper(u));
    }
  }
  rest[0] = rest[0] == 'w' ? 'b' : 'w';
  return out + " " + rest;
}

// Calls f(s) on the non-terminal positions of `games` random games of at
// most `plies` plies each, from the start; returns how many.
template <class S, class F>
int on_random_positions(std::uint64_t seed, int games, int plies, F&& f) {
  Rng rng(seed);
  int n = 0;
  for (int game = 0; game < games; ++game) {
    S s;
    for (int ply = 0; ply < plies && !s.is_terminal(); ++ply) {
      f(s);
      ++n;
      typename S::Moves moves;
      s.actions(moves);
      s = s.result(moves[rng.below(moves.size())]);
    }
  }
  return n;
}

}  // namespace duel::test_support
