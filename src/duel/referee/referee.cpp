// The checkers referee: turns, games and matches (referee.hpp).
#include "duel/referee/referee.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "duel/box/keeper.hpp"
#include "duel/core/file.hpp"
#include "duel/core/text.hpp"
#include "duel/games/checkers/protocol.hpp"
#include "duel/referee/spawn.hpp"

namespace duel::referee {
namespace fs = std::filesystem;
namespace protocol = games::checkers::protocol;

namespace {

constexpr std::size_t kMaxOutputBytes = 64 * 1024;

[[nodiscard]] std::string colour_name(Player p) {
  return std::string(games::checkers::State::kSideNames[index(p)]);
}

// Replaces `name` in `dir` by `text`, never following a link the agent left.
[[nodiscard]] std::optional<std::string> write_file(const fs::path& dir, const char* name,
                                                    const std::string& text) {
  std::error_code ec;
  fs::remove_all(dir / name, ec);
  const int fd =
      ::open((dir / name).c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0)
    return fmt::format("cannot write {}: {}", (dir / name).string(), std::strerror(errno));
  const ssize_t n = ::write(fd, text.data(), text.size());
  ::close(fd);
  if (n != static_cast<ssize_t>(text.size())) return fmt::format("cannot write {}", name);
  return std::nullopt;
}

// output.txt as the agent left it: no file (nullopt, empty error), or its
// text, or why it cannot be read (a link, a pipe, a directory, too big).
struct OutputFile {
  bool exists = false;
  std::string text;
  std::string error;
};

[[nodiscard]] OutputFile read_output(const fs::path& dir) {
  OutputFile out;
  const fs::path path = dir / "output.txt";
  // O_NONBLOCK: a FIFO named output.txt must not block the referee.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return out;
    out.exists = true;
    out.error = errno == ELOOP ? "output.txt is a symbolic link"
                               : fmt::format("cannot read output.txt: {}", std::strerror(errno));
    return out;
  }
  out.exists = true;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    out.error = "output.txt is not a regular file";
  } else if (static_cast<std::size_t>(st.st_size) > kMaxOutputBytes) {
    out.error = fmt::format("output.txt has {} bytes (at most {})", st.st_size, kMaxOutputBytes);
  } else {
    char buf[4096];
    ssize_t n = 0;
    while ((n = ::read(fd, buf, sizeof buf)) > 0 && out.text.size() <= kMaxOutputBytes) {
      out.text.append(buf, static_cast<std::size_t>(n));
    }
    if (out.text.size() > kMaxOutputBytes) out.error = "output.txt is too big";
  }
  ::close(fd);
  return out;
}

void append_header(const fs::path& path, const std::string& header) {
  if (header.empty()) return;
  (void)append_own_file(path, header + '\n');
}

// The last non-empty line a program wrote to `path` from byte `from` on
// (this run's part of its stderr log), cut to 160 characters; empty if none.
[[nodiscard]] std::string last_line_from(const fs::path& path, std::uintmax_t from) {
  const auto text = read_own_file(path, from);
  if (!text) return {};
  std::istringstream in(*text);
  std::string line;
  std::string last;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) last = line;
  }
  if (last.size() > 160) last = last.substr(0, 157) + "...";
  return last;
}

[[nodiscard]] std::string seconds_text(double s) {
  return fmt::format("{:.3f} s", s);
}

}  // namespace

std::string_view reason_text(Reason r) noexcept {
  switch (r) {
    case Reason::NoMoves: return "no-moves";
    case Reason::DrawClock: return "draw-clock";
    case Reason::Repetition: return "repetition";
    case Reason::Time: return "time";
    case Reason::Crash: return "crash";
    case Reason::NoOutput: return "no-output";
    case Reason::BadOutput: return "bad-output";
    case Reason::IllegalMove: return "illegal-move";
    case Reason::Killed: return "killed";
    case Reason::DiskLimit: return "disk-limit";
    case Reason::OutputLimit: return "output-limit";
    case Reason::MemoryLimit: return "memory-limit";
    case Reason::ProcessLimit: return "process-limit";
    case Reason::Cancelled: return "cancelled";
  }
  return "unknown";
}

std::string resolve_command(const std::string& command, const fs::path& cwd, Role role) {
  if (command.rfind("duel:", 0) == 0) {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    const std::string rest = command.substr(5);
    const std::string exe = shell_quote(ec ? std::string("duel") : self.string());
    if (role == Role::Calibrate) return exe + " calibrate" + (rest.empty() ? "" : " " + rest);
    return exe + " homework" + (rest.empty() ? "" : " --agent " + shell_quote(rest));
  }
  // A plain first word naming a program by a relative path.
  const std::string_view text = trim(command);
  const auto words = split(text);
  if (words.empty()) return command;
  const std::string first(words[0]);
  if (first.find('/') == std::string::npos || first[0] == '/' ||
      first.find_first_of("'\"\\$`;&|<>(){}*?[]~=") != std::string::npos) {
    return command;
  }
  std::error_code ec;
  if (!fs::exists(cwd / first, ec)) return command;
  const std::string rest(text.substr(words[0].size()));
  return shell_quote((cwd / first).lexically_normal().string()) + rest;
}

std::optional<box::Policy> agent_box(const std::string& command, const fs::path& cwd, bool sandbox,
                                     const box::Limits& limits) {
  if (!sandbox || command.rfind("duel:", 0) == 0) return std::nullopt;
  (void)box::check();  // once a process (cached): not on the first move's clock
  box::Policy policy;
  policy.limits = limits;
  std::vector<std::string> words = detail::direct_words(resolve_command(command, cwd));
  if (words.empty()) {
    for (const auto w : split(trim(command))) words.emplace_back(w);
  }
  std::error_code ec;
  for (const auto& w : words) {
    if (w.empty() || w.find('/') == std::string::npos) continue;
    const fs::path p = fs::weakly_canonical(w.front() == '/' ? fs::path(w) : cwd / w, ec);
    if (ec || !fs::exists(p, ec)) continue;
    const fs::path shown = fs::is_directory(p, ec) ? p : p.parent_path();
    const std::string text = shown.string();
    const bool system = text == "/" || text.starts_with("/usr/") || text.starts_with("/bin") ||
                        text.starts_with("/lib") || text.starts_with("/sbin");
    if (!system) policy.read_only.push_back(shown);
  }
  return policy;
}

TurnResult play_turn(const TurnSetup& setup, const State& state) {
  TurnResult t;
  // Step 1. input.txt (input_text writes a sliver of time so that it still
  // reads as > 0; never more than the agent has) and no old output.txt.
  const double shown = setup.time_left;
  std::error_code ec;
  fs::remove_all(setup.dir / "output.txt", ec);
  if (auto error =
          write_file(setup.dir, "input.txt", protocol::input_text(setup.mode, shown, state))) {
    t.loss = Reason::Crash;
    t.detail = *error;
    return t;
  }

  // Step 2. Run it.
  RunSpec run;
  run.command = setup.command;
  run.dir = setup.dir;
  run.out_log = setup.dir / "stdout.log";
  run.err_log = setup.dir / "stderr.log";
  append_header(run.out_log, setup.log_header);
  append_header(run.err_log, setup.log_header);
  run.cpu_limit = setup.time_left;
  run.wall_limit = setup.time_left * setup.wall_factor + setup.wall_slack;
  run.poll_seconds = setup.poll_seconds;
  run.charge = setup.charge;
  run.adopt_strays = setup.adopt_strays;
  run.cancel = setup.cancel;
  run.disk_limit = setup.disk_limit;
  run.output_limit = setup.output_limit;
  run.log_limit = setup.output_limit;
  run.box = setup.box;
  run.keeper = setup.keeper;
  std::error_code size_ec;
  const std::uintmax_t err_from = fs::file_size(run.err_log, size_ec);
  t.run = run_agent(run);
  const double used = t.run.cpu_seconds;
  // A move boxed on its own: its wall time (what a 0-tick move is charged)
  // without the box's own making and ending, which the course's runs did
  // not have. A kept box was made before the move.
  const double wall = setup.box && !t.run.kept
                          ? std::max(0.0, t.run.wall_seconds - box::startup_seconds())
                          : t.run.wall_seconds;
  t.cpu = charged_seconds(setup, used, wall);
  const std::string leftovers =
      t.run.leftovers > 0 ? fmt::format("; killed {} leftover process(es)", t.run.leftovers) : "";

  // Step 3. How the run went, worst first.
  switch (t.run.stop) {
    case Stop::SpawnFailed:
      t.loss = Reason::Crash;
      t.detail = t.run.error;
      return t;
    case Stop::Cancelled: t.loss = Reason::Cancelled; return t;
    default: break;
  }
  if (t.run.stop == Stop::MemoryLimit || t.run.stop == Stop::ProcessLimit) {
    t.loss = t.run.stop == Stop::MemoryLimit ? Reason::MemoryLimit : Reason::ProcessLimit;
    t.detail = t.run.limit + "; killed";
    return t;
  }
  if (t.run.stop == Stop::SystemCpuLimit) {
    // Time the kernel spent for it is not charged, but may not pass its clock.
    t.loss = Reason::Time;
    t.detail = fmt::format("used {} of system CPU with {} left; killed",
                           seconds_text(t.run.cpu.system), seconds_text(setup.time_left));
    return t;
  }
  if (t.run.stop == Stop::CpuLimit || used >= setup.time_left) {
    // What it really used is charged, so its time left goes below 0.
    t.cpu = used;
    t.loss = Reason::Time;
    t.detail =
        fmt::format("used {} with {} left", seconds_text(used), seconds_text(setup.time_left));
    return t;
  }
  if (t.run.stop == Stop::DiskLimit) {
    t.loss = Reason::DiskLimit;
    t.detail = fmt::format("its folder holds more than {} MiB (files and logs); killed",
                           setup.disk_limit >> 20);
    return t;
  }
  if (t.run.stop == Stop::OutputLimit) {
    t.loss = Reason::OutputLimit;
    t.detail = fmt::format("wrote more than {} MiB to stdout and stderr in one move; killed",
                           setup.output_limit >> 20);
    return t;
  }
  if (t.run.stop == Stop::WallLimit) {
    t.loss = Reason::Killed;
    t.detail = fmt::format("wall-clock limit {} passed (CPU {}); killed",
                           seconds_text(run.wall_limit), seconds_text(used));
    return t;
  }
  if (!t.run.clean_exit()) {
    t.loss = Reason::Crash;
    t.detail = t.run.describe() + leftovers;
    // What the program said last on stderr usually says why.
    if (const std::string said = last_line_from(run.err_log, size_ec ? 0 : err_from);
        !said.empty()) {
      t.detail += fmt::format(" (stderr: {})", said);
    }
    return t;
  }

  // Step 4. Its move.
  const OutputFile out = read_output(setup.dir);
  if (!out.exists) {
    t.loss = Reason::NoOutput;
    t.detail = "no output.txt" + leftovers;
    return t;
  }
  if (!out.error.empty()) {
    t.loss = Reason::BadOutput;
    t.detail = out.error;
    return t;
  }
  auto move = protocol::parse_output(state, out.text, setup.reading);
  if (!move) {
    const bool form_ok = !protocol::format_error(out.text, setup.reading).has_value();
    t.loss = form_ok ? Reason::IllegalMove : Reason::BadOutput;
    t.detail = move.error();
    return t;
  }
  t.move = *move;
  t.detail = leftovers;
  return t;
}

double charged_seconds(const TurnSetup& setup, double cpu, double wall) {
  if (setup.charge_per_move > 0.0) return setup.charge_per_move;
  if (!(setup.tick > 0.0)) return cpu;
  // Whole ticks, rounded down as time(1) prints %U; a hair of slack so that
  // 0.29 measured as 0.28999999 is still 29 ticks.
  const double ticks = std::floor(cpu / setup.tick + 1e-6);
  // The course's logs charge a move of 0 ticks its wall time (a C++ program's
  // "plays [E h6 g5 ] in 0.0139491558074951s", then 299.986050844193 s left:
  // RULES.md §6a's log_2_aa68777_beiyouzh.txt).
  return ticks > 0.0 ? ticks * setup.tick : wall;
}

bool close_call(double a, double b) {
  return std::fabs(a - b) < kCloseCall;
}

GameRecord play_game(const MatchOptions& options, const std::array<std::string, 2>& commands,
                     const std::array<fs::path, 2>& dirs, int number, const Observer& observer) {
  // Step 1. A fresh game: no playdata.txt, full clocks.
  GameRecord g;
  g.number = number;
  g.black = number % 2;
  g.time_left = {options.seconds, options.seconds};
  g.start = options.start.to_text();
  for (const auto& dir : dirs) {
    std::error_code ec;
    fs::remove_all(dir / "playdata.txt", ec);
  }
  const auto agent_of = [&](Player p) { return p == Player::First ? g.black : 1 - g.black; };
  State state = options.start;
  std::error_code cwd_ec;
  const fs::path cwd = fs::current_path(cwd_ec);
  const std::array<std::optional<box::Policy>, 2> boxes = {
      agent_box(options.agents[0].command, cwd, options.sandbox, options.limits),
      agent_box(options.agents[1].command, cwd, options.sandbox, options.limits)};
  // A box a game for each boxed agent, made by its first move.
  std::array<std::unique_ptr<box::Keeper>, 2> keepers;
  for (std::size_t i = 0; i < 2; ++i) {
    if (!boxes[i]) continue;
    box::Policy kept = *boxes[i];
    kept.dir = dirs[i];
    keepers[i] = std::make_unique<box::Keeper>(std::move(kept));
  }

  // Step 2. Turns until the rules or an agent end it.
  while (!state.is_terminal()) {
    const int a = agent_of(state.to_move());
    TurnSetup setup;
    setup.command = commands[static_cast<std::size_t>(a)];
    setup.dir = dirs[static_cast<std::size_t>(a)];
    setup.time_left = g.time_left[static_cast<std::size_t>(a)];
    setup.wall_factor = options.wall_factor;
    setup.wall_slack = options.wall_slack;
    setup.poll_seconds = options.poll_seconds;
    setup.charge = options.charge;
    setup.reading = options.reading;
    setup.adopt_strays = options.adopt_strays;
    setup.cancel = options.cancel;
    setup.tick = options.tick;
    setup.charge_per_move = options.charge_per_move[static_cast<std::size_t>(a)];
    setup.box = boxes[static_cast<std::size_t>(a)];
    setup.keeper = keepers[static_cast<std::size_t>(a)].get();
    setup.log_header = fmt::format("--- game {}, ply {}, {}, {:.3f} s left ---", number + 1,
                                   g.plies + 1, colour_name(state.to_move()), setup.time_left);
    const TurnResult t = play_turn(setup, state);
    g.time_left[static_cast<std::size_t>(a)] -= t.cpu;
    if (!t.move) {
      g.reason = t.loss;
      if (t.loss != Reason::Cancelled) g.winner = 1 - a;
      g.detail = fmt::format("agent {} ({}): {}", a, colour_name(state.to_move()),
                             t.detail.empty() ? std::string(reason_text(t.loss)) : t.detail);
      g.end = state.to_text();
      if (observer) observer({Event::Kind::GameOver, a, &g, {}});
      return g;
    }
    g.turns.push_back({a, state.move_text(*t.move), t.cpu, t.run.cpu.user, t.run.cpu.system,
                       g.time_left[static_cast<std::size_t>(a)]});
    state = state.result(*t.move);
    ++g.plies;
    if (observer) observer({Event::Kind::Turn, a, &g, {}});
  }

  // Step 3. The rules ended it: no move loses; a draw goes to more time left.
  g.end = state.to_text();
  const int mover = agent_of(state.to_move());
  const auto ending = state.ending();
  if (ending == games::checkers::Ending::NoMoves) {
    g.reason = Reason::NoMoves;
    g.winner = 1 - mover;
    g.detail = fmt::format("agent {} ({}) has no legal move", mover, colour_name(state.to_move()));
  } else {
    g.reason =
        ending == games::checkers::Ending::DrawClock ? Reason::DrawClock : Reason::Repetition;
    const std::string why =
        ending == games::checkers::Ending::DrawClock
            ? fmt::format("{} plies without a capture or crowning", state.draw_limit_plies())
            : std::string("the same position a third time");
    const double t0 = g.time_left[0];
    const double t1 = g.time_left[1];
    // Compared at the microsecond the report shows: the same 10 ms ticks
    // summed in another order differ in their last bits, not in time.
    const double u0 = std::round(t0 * 1e6);
    const double u1 = std::round(t1 * 1e6);
    if (u0 != u1) g.winner = u0 > u1 ? 0 : 1;
    g.close_call = close_call(t0, t1);
    g.detail = g.winner
                   ? fmt::format("{}; agent {} has more time left ({} vs {})", why, *g.winner,
                                 seconds_text(g.time_left[static_cast<std::size_t>(*g.winner)]),
                                 seconds_text(g.time_left[static_cast<std::size_t>(1 - *g.winner)]))
                   : fmt::format("{}; equal time left: a draw", why);
    if (g.close_call) g.detail += fmt::format(" (a close call: under {:g} s)", kCloseCall);
  }
  if (observer) observer({Event::Kind::GameOver, mover, &g, {}});
  return g;
}

Result<MatchResult> play_match(const MatchOptions& options, const Observer& observer) {
  // Step 1. Check the options and make the agents' homes.
  if (options.games < 1) return fail("referee: --games must be at least 1");
  if (!(options.seconds > 0.0)) return fail("referee: --time must be more than 0 seconds");
  if (!(options.wall_factor >= 1.0) || !(options.wall_slack >= 0.0)) {
    return fail("referee: the wall-clock limit must be at least the time left");
  }
  MatchResult m;
  m.sandbox = options.sandbox;
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  fs::path root = options.workdir;
  const bool temporary = root.empty();
  if (temporary) {
    std::string pattern = (fs::temp_directory_path(ec) / "duel-referee-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      return fail(
          fmt::format("referee: cannot make a temporary directory: {}", std::strerror(errno)));
    }
    root = pattern;
  }
  root = fs::absolute(root, ec);
  std::array<fs::path, 2> dirs;
  std::array<std::string, 2> commands;
  for (std::size_t i = 0; i < 2; ++i) {
    dirs[i] = root / fmt::format("agent{}", i);
    fs::create_directories(dirs[i], ec);
    if (ec || !fs::is_directory(dirs[i])) {
      return fail(fmt::format("referee: cannot make the directory {}: {}", dirs[i].string(),
                              ec ? ec.message() : "not a directory"));
    }
    commands[i] = resolve_command(options.agents[i].command, cwd);
    m.agents[i].command = options.agents[i].command;
  }

  // Step 2. Calibration, once per agent, not charged.
  for (std::size_t i = 0; i < 2; ++i) {
    const std::string& cal = options.agents[i].calibrate;
    if (cal.empty()) continue;
    RunSpec run;
    run.command = resolve_command(cal, cwd, Role::Calibrate);
    run.dir = dirs[i];
    run.out_log = dirs[i] / "calibrate.out.log";
    run.err_log = dirs[i] / "calibrate.err.log";
    run.wall_limit = options.calibrate_seconds;
    run.box = agent_box(options.agents[i].command, cwd, options.sandbox, options.limits);
    run.poll_seconds = options.poll_seconds;
    run.adopt_strays = options.adopt_strays;
    run.cancel = options.cancel;
    const RunResult r = run_agent(run);
    m.agents[i].calibration = r.clean_exit() ? fmt::format("ok (CPU {:.3f} s)", r.cpu_seconds)
                                             : "failed: " + r.describe();
    if (observer)
      observer({Event::Kind::Calibrated, static_cast<int>(i), nullptr, m.agents[i].calibration});
  }

  // Step 3. The games, colours alternating.
  for (int n = 0; n < options.games; ++n) {
    if (options.cancel != nullptr && options.cancel->load()) break;
    GameRecord g = play_game(options, commands, dirs, n, observer);
    if (g.reason == Reason::Cancelled) {
      m.games.push_back(std::move(g));
      break;
    }
    for (int i = 0; i < 2; ++i) {
      auto& s = m.agents[static_cast<std::size_t>(i)];
      if (!g.winner) {
        ++s.draws;
      } else if (*g.winner == i) {
        ++s.wins;
      } else {
        ++s.losses;
      }
    }
    m.games.push_back(std::move(g));
  }
  m.cancelled = options.cancel != nullptr && options.cancel->load();

  // Step 4. A temporary home goes unless asked to keep it.
  if (temporary && !options.keep) {
    fs::remove_all(root, ec);
  } else {
    m.workdir = root;
  }
  return m;
}

}  // namespace duel::referee
