#pragma once
// A person at the terminal: reads a move per line, explains a bad one and
// asks again; `?` lists the legal moves (SAN in the chess games); end of
// input or `quit` gives up. `typed()` is the last move in the notation the
// person typed it in, for the screen to echo.
#include <istream>
#include <ostream>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "duel/agents/agent.hpp"
#include "duel/games/game.hpp"
#include "duel/games/notation.hpp"

namespace duel::agents {

template <class S>
class HumanAgent final : public Agent<S> {
 public:
  HumanAgent(std::istream& in, std::ostream& out) : m_in(in), m_out(out) {}

  std::optional<typename S::Move> choose(const S& state, const MoveClock&) override {
    while (true) {
      // The side as the game names it: White, Black; Player 1, Player 2.
      const std::string_view side = S::kSideNames[index(state.to_move())];
      m_out << fmt::format("{} to move (? lists moves, quit or exit gives up)> ", side)
            << std::flush;
      std::string line;
      if (!std::getline(m_in, line)) {
        m_out << "\nend of input: " << side << " gives up\n";
        return std::nullopt;
      }
      if (!line.empty() && line.back() == '\r') line.pop_back();  // typed on Windows
      if (line == "quit" || line == "exit" || line == "resign") return std::nullopt;
      if (line == "?" || line == "help") {
        typename S::Moves moves;
        state.actions(moves);
        std::string list;
        for (const auto& m : moves) {
          list += (list.empty() ? "" : " ") + games::people_text(state, m);
        }
        m_out << "legal moves: " << list << '\n';
        continue;
      }
      auto move = games::read_move(state, line);
      if (move) {
        m_typed = games::typed_text(state, *move, line);
        return *move;
      }
      m_out << "illegal move: " << move.error() << '\n';
    }
  }
  [[nodiscard]] std::string name() const override { return "human"; }
  [[nodiscard]] bool is_human() const override { return true; }
  // The last move chosen, as the person wrote it (`Nc3`, `b1c3`, `B1 C3`).
  [[nodiscard]] const std::string& typed() const noexcept { return m_typed; }

 private:
  std::istream& m_in;
  std::ostream& m_out;
  std::string m_typed;
};

}  // namespace duel::agents
