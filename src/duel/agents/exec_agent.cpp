#include "duel/agents/exec_agent.hpp"

#include <stdlib.h>  // mkdtemp

#include <cerrno>
#include <cstring>
#include <system_error>

#include <fmt/format.h>

#include "duel/referee/referee.hpp"

namespace duel::agents {

namespace fs = std::filesystem;

Result<ExecSettings> ExecAgent::parse(ExecSettings settings) {
  const std::string& command = settings.command;
  if (command.find_first_not_of(" \t") == std::string::npos) {
    return fail("exec: cmd= is empty");
  }
  if (!(settings.seconds > 0.0)) return fail("exec: time= must be more than 0 seconds");
  if (!settings.source.empty()) {
    std::error_code ec;
    if (!fs::is_directory(settings.source, ec)) {
      return fail(fmt::format("exec: dir={} is not a folder", settings.source.string()));
    }
    settings.source = fs::absolute(settings.source, ec);
  }
  // A program named by path must exist now, so a typo fails before any game
  // (a shell command line is only checked when it runs).
  // A relative path is the submission folder's (dir=) when there is one.
  const auto first = command.substr(0, command.find(' '));
  if (command.rfind("duel:", 0) != 0 && first.find('/') != std::string::npos) {
    std::error_code ec;
    const fs::path program =
        settings.source.empty() || first.front() == '/' ? fs::path(first) : settings.source / first;
    if (!fs::exists(program, ec)) return fail(fmt::format("exec: no program '{}'", first));
  }
  return settings;
}

ExecAgent::ExecAgent(ExecSettings settings)
    : m_settings(std::move(settings)), m_time_left(m_settings.seconds) {
  std::error_code ec;
  // A submission's relative program (`./homework`) is its folder's.
  const fs::path from = m_settings.source.empty() ? fs::current_path(ec) : m_settings.source;
  m_resolved = referee::resolve_command(m_settings.command, from);
  m_box = referee::agent_box(m_settings.command, from, m_settings.sandbox, m_settings.limits);
  if (m_box && !m_settings.source.empty()) m_box->read_only.push_back(m_settings.source);
}

ExecAgent::~ExecAgent() {
  m_keeper.reset();  // its box ends before its folder goes
  if (!m_dir.empty() && m_settings.home.empty()) {
    std::error_code ec;
    fs::remove_all(m_dir, ec);
  }
}

void ExecAgent::new_game() {
  m_keeper.reset();  // a box a game
  m_time_left = m_settings.seconds;
  m_failure.clear();
  if (!m_dir.empty()) {
    std::error_code ec;
    fs::remove(m_dir / "playdata.txt", ec);  // seed 003: a new game starts without it
  }
}

std::optional<ExecAgent::Move> ExecAgent::choose(const games::checkers::State& state,
                                                 const MoveClock& clock) {
  m_failure.clear();
  if (m_dir.empty()) {
    std::error_code ec;
    if (!m_settings.home.empty()) {
      fs::create_directories(m_settings.home, ec);
      if (ec) {
        m_failure = fmt::format("cannot make {}: {}", m_settings.home.string(), ec.message());
        return std::nullopt;
      }
      m_dir = m_settings.home;
    } else {
      std::string pattern = (fs::temp_directory_path(ec) / "duel-exec-XXXXXX").string();
      if (::mkdtemp(pattern.data()) == nullptr) {
        m_failure =
            fmt::format("cannot make a directory for the program: {}", std::strerror(errno));
        return std::nullopt;
      }
      m_dir = pattern;
    }
    if (!m_settings.source.empty()) {
      // The submission as it came (its calibration.txt too), never its own
      // playdata.txt from an earlier game.
      std::error_code copy_ec;
      fs::copy(m_settings.source, m_dir,
               fs::copy_options::recursive | fs::copy_options::skip_symlinks, copy_ec);
      if (copy_ec) {
        m_failure =
            fmt::format("cannot copy {}: {}", m_settings.source.string(), copy_ec.message());
        return std::nullopt;
      }
      fs::remove(m_dir / "playdata.txt", copy_ec);
    }
  }
  if (m_time_left <= 0.0) {
    m_failure = "its time for the game is used up";
    return std::nullopt;
  }
  referee::TurnSetup setup;
  setup.command = m_resolved;
  setup.dir = m_dir;
  // The program sees the smaller of its game clock and the arena's move
  // limit, and is killed at that much CPU.
  setup.time_left = clock.limit > 0.0 ? std::min(m_time_left, clock.limit) : m_time_left;
  setup.charge = m_settings.charge;
  setup.cancel = m_settings.cancel;
  setup.reading = m_settings.reading;
  setup.disk_limit = m_settings.disk_limit;
  setup.wall_factor = m_settings.wall_factor;
  setup.tick = m_settings.tick;
  setup.charge_per_move = m_settings.charge_per_move;
  setup.box = m_box;
  if (m_box && !m_keeper) {
    box::Policy kept = *m_box;
    kept.dir = m_dir;
    m_keeper = std::make_unique<box::Keeper>(std::move(kept));
  }
  setup.keeper = m_keeper.get();
  // Threads of the arena run programs at once: never adopt strays here.
  setup.adopt_strays = false;
  const referee::TurnResult turn = referee::play_turn(setup, state);
  m_time_left -= turn.cpu;
  if (!turn.move) {
    m_failure = fmt::format("{}{}", referee::reason_text(turn.loss),
                            turn.detail.empty() ? "" : ": " + turn.detail);
    return std::nullopt;
  }
  return turn.move;
}

}  // namespace duel::agents
