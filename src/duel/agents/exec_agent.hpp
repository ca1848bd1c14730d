#pragma once
// `exec:cmd=PATH,protocol=csci561,time=300,dir=FOLDER,cpu=user,reading=course`:
// a checkers agent program run
// through seed 003's file protocol, one run a move, as the referee runs it
// (RULES.md §5). The arena can then hold tournaments between anyone's
// programs and Duel's own agents.
//
// Why through referee::play_turn: one implementation of input.txt, the
// program run (CPU charged for its whole process tree, killed at its limit,
// nothing left running) and the reading of output.txt; this class only
// keeps the game's clock and a home directory for the program.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "duel/agents/agent.hpp"
#include "duel/box/keeper.hpp"
#include "duel/core/result.hpp"
#include "duel/games/checkers/checkers.hpp"
#include "duel/games/checkers/protocol.hpp"
#include "duel/referee/process.hpp"
#include "duel/referee/referee.hpp"

namespace duel::agents {

struct ExecSettings {
  std::string command;     // as given: a shell command (`duel:SPEC` runs this binary's homework)
  double seconds = 300.0;  // CPU seconds for the whole game (seed 003's GAME mode)
  // A submission folder: its files are copied into the program's home before
  // its first move, so `python3 homework.py` finds homework.py. Empty: none.
  std::filesystem::path source;
  std::string name;  // shown for the agent (a student's name); empty: exec:COMMAND
  // Where the program lives for the game, made and kept (its logs, its
  // files); empty: a temporary directory removed with the agent.
  std::filesystem::path home;
  // Set by another thread: the running program is killed and the game ends.
  const std::atomic<bool>* cancel = nullptr;
  referee::Charge charge = referee::Charge::User;
  games::checkers::protocol::Reading reading = games::checkers::protocol::Reading::Course;
  std::uint64_t disk_limit = referee::TurnSetup{}.disk_limit;  // what its folder may hold
  double wall_factor = referee::TurnSetup{}.wall_factor;  // a move's wall limit: this x time left
  double tick = referee::TurnSetup{}.tick;                // how a move is charged (TurnSetup::tick)
  double charge_per_move = 0.0;  // > 0: each move charged exactly this (TurnSetup)
  // The program runs in a box with these limits, `source` shown read-only
  // (referee::agent_box); false: with our rights.
  bool sandbox = true;
  box::Limits limits;
};

class ExecAgent final : public Agent<games::checkers::State> {
 public:
  // Checks the settings; the program is not run until the first move.
  [[nodiscard]] static Result<ExecSettings> parse(ExecSettings settings);
  explicit ExecAgent(ExecSettings settings);
  ~ExecAgent() override;
  ExecAgent(const ExecAgent&) = delete;
  ExecAgent& operator=(const ExecAgent&) = delete;

  std::optional<Move> choose(const games::checkers::State& state, const MoveClock& clock) override;
  [[nodiscard]] std::string name() const override {
    return m_settings.name.empty() ? "exec:" + m_settings.command : m_settings.name;
  }
  [[nodiscard]] std::string failure() const override { return m_failure; }
  void new_game() override;

  [[nodiscard]] std::optional<double> time_left() const override { return m_time_left; }

 private:
  ExecSettings m_settings;
  std::string m_resolved;                 // the command as run (referee::resolve_command)
  std::optional<box::Policy> m_box;       // its box (its dir set per move)
  std::unique_ptr<box::Keeper> m_keeper;  // its box kept for the game
  std::filesystem::path m_dir;            // the program's home: a fresh temporary directory
  double m_time_left = 0.0;
  std::string m_failure;
};

}  // namespace duel::agents
