// duel referee checkers --agent CMD --agent CMD: seed 003's master game
// playing agent. Runs two agent programs through input.txt / output.txt,
// charges their CPU time and prints one line per game and a summary.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "common.hpp"
#include "duel/core/spec.hpp"
#include "duel/core/text.hpp"
#include "duel/games/checkers/pdn.hpp"
#include "duel/referee/referee.hpp"
#include "duel/registry/agents.hpp"

namespace duel::cli {
namespace {

struct RefereeOptions {
  std::string game;
  std::vector<std::string> agents;
  std::vector<std::string> calibrate;
  double time = 300.0;
  int games = 9;
  std::string start;
  std::string workdir;
  bool keep = false;
  double wall_factor = 2.0;
  double wall_slack = 1.0;
  double calibrate_time = 120.0;
  std::string pdnout;
  std::string cpu = "user";
  double cpu_tick = referee::kCourseTick;
  std::vector<double> charge_per_move;
  bool strict = false;
  bool lenient = false;  // deprecated: the course's reading, now the default
  bool json = false;
  bool quiet = false;
  BoxFlags box;
};

std::atomic<bool> g_stop{false};

extern "C" void on_stop_signal(int /*sig*/) {
  g_stop.store(true);
}

// SIGINT / SIGTERM stop the match cleanly: the running agent is killed, no
// process is left behind, and the games so far are printed.
void catch_stop_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a waiting poll wakes up at once
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

double rounded(double s) {
  return std::round(s * 1e6) / 1e6;
}

std::string winner_text(const std::optional<int>& w) {
  return w ? fmt::format("agent {}", *w) : std::string("none (draw)");
}

// A finished game in PDN: the agents' commands as the players, the referee's
// reason as the termination.
std::string game_pdn(const referee::GameRecord& g, const referee::MatchOptions& options) {
  std::vector<std::string> moves;
  for (const auto& t : g.turns) moves.push_back(t.move);
  const int white = 1 - g.black;
  const std::string_view result = !g.winner ? "1/2-1/2" : *g.winner == g.black ? "1-0" : "0-1";
  auto start = referee::State::parse(g.start, options.start.draw_limit_plies());
  return games::checkers::pdn_text(
      start ? *start : options.start, moves, result,
      {{"Event", "duel referee"},
       {"Round", std::to_string(g.number + 1)},
       {"Black", options.agents[static_cast<std::size_t>(g.black)].command},
       {"White", options.agents[static_cast<std::size_t>(white)].command},
       {"Termination", fmt::format("{}: {}", referee::reason_text(g.reason), g.detail)}});
}

nlohmann::json to_json(const referee::MatchResult& m, const std::string& charge) {
  nlohmann::json games = nlohmann::json::array();
  for (const auto& g : m.games) {
    nlohmann::json moves = nlohmann::json::array();
    nlohmann::json cpu = nlohmann::json::array();
    nlohmann::json user = nlohmann::json::array();
    nlohmann::json system = nlohmann::json::array();
    for (const auto& t : g.turns) {
      moves.push_back(t.move);
      cpu.push_back(rounded(t.cpu));
      user.push_back(rounded(t.user));
      system.push_back(rounded(t.system));
    }
    games.push_back({{"game", g.number + 1},
                     {"black", g.black},
                     {"winner", g.winner ? nlohmann::json(*g.winner) : nlohmann::json(nullptr)},
                     {"reason", referee::reason_text(g.reason)},
                     {"detail", g.detail},
                     {"plies", g.plies},
                     {"time_left", {rounded(g.time_left[0]), rounded(g.time_left[1])}},
                     {"start", g.start},
                     {"end", g.end},
                     {"moves", moves},
                     {"cpu", cpu},
                     {"user", user},
                     {"system", system},
                     {"close_call", g.close_call}});
  }
  nlohmann::json agents = nlohmann::json::array();
  for (const auto& a : m.agents) {
    nlohmann::json j = {
        {"cmd", a.command}, {"wins", a.wins}, {"draws", a.draws}, {"losses", a.losses}};
    if (!a.calibration.empty()) j["calibration"] = a.calibration;
    agents.push_back(j);
  }
  nlohmann::json out = {
      {"games", games}, {"agents", agents}, {"cpu", charge}, {"sandbox", m.sandbox}};
  if (!m.workdir.empty()) out["workdir"] = m.workdir.string();
  if (m.cancelled) out["cancelled"] = true;
  return out;
}

// An --agent that names one of Duel's agents (`first`, `random:seed=1`)
// where a program is expected: the referee runs programs, so it is refused
// with the form that means it (`duel:first`), unless a program of that name
// is on PATH.
std::optional<std::string> duel_agent_without_prefix(const std::string& command) {
  const std::string word(split(command).front());
  const std::string kind = word.substr(0, word.find(':'));
  const auto catalogue = registry::agent_catalogue();
  if (std::ranges::find(catalogue, kind, &registry::AgentKind::kind) == catalogue.end()) {
    return std::nullopt;
  }
  const char* path = std::getenv("PATH");
  std::string_view dirs = path != nullptr ? path : "";
  while (!dirs.empty()) {
    const auto colon = dirs.find(':');
    const std::filesystem::path dir(std::string(dirs.substr(0, colon)));
    if (!dir.empty() && ::access((dir / word).c_str(), X_OK) == 0) return std::nullopt;
    dirs.remove_prefix(colon == std::string_view::npos ? dirs.size() : colon + 1);
  }
  return fmt::format(
      "referee: --agent '{}' is Duel's agent, not a program; run it as --agent "
      "duel:{}",
      word, word);
}

int run_referee(const RefereeOptions& o) {
  // Step 1. Check everything before any program runs.
  auto spec = Spec::parse(o.game);
  if (!spec) return bad_input(spec.error());
  if (spec->name() != referee::State::kName) {
    return bad_input(fmt::format("referee: only checkers is refereed, not '{}'", spec->name()));
  }
  auto game = referee::State::from_spec(*spec);
  if (!game) return bad_input(game.error());
  if (o.agents.size() != 2) {
    return bad_input(
        fmt::format("referee: give exactly two --agent commands (got {})", o.agents.size()));
  }
  for (const auto& a : o.agents) {
    if (trim(a).empty()) return bad_input("referee: an --agent command is empty");
    if (auto e = duel_agent_without_prefix(a)) return bad_input(*e);
  }
  if (o.calibrate.size() > 2) {
    return bad_input("referee: at most two --calibrate commands (one per agent, '-' for none)");
  }
  if (o.charge_per_move.size() > 2) {
    return bad_input("referee: at most two --charge-per-move values (one per agent, 0 for none)");
  }
  if (!(o.time > 0.0) || !std::isfinite(o.time)) {
    return bad_input(
        fmt::format("referee: --time must be a number of seconds > 0, not {}", o.time));
  }
  referee::MatchOptions options;
  options.start = *game;
  if (!o.start.empty()) {
    auto start = referee::State::parse(o.start, game->draw_limit_plies());
    if (!start) return bad_input("--fen: " + start.error());
    options.start = *start;
  }
  for (std::size_t i = 0; i < 2; ++i) {
    options.agents[i].command = o.agents[i];
    if (i < o.calibrate.size() && o.calibrate[i] != "-") {
      options.agents[i].calibrate = o.calibrate[i];
    }
    if (i < o.charge_per_move.size()) options.charge_per_move[i] = o.charge_per_move[i];
  }
  options.games = o.games;
  options.seconds = o.time;
  options.wall_factor = o.wall_factor;
  options.wall_slack = o.wall_slack;
  options.calibrate_seconds = o.calibrate_time;
  options.workdir = o.workdir;
  options.keep = o.keep;
  options.charge = o.cpu == "user" ? referee::Charge::User : referee::Charge::UserSystem;
  options.tick = o.cpu_tick;
  if (o.strict && o.lenient) {
    return bad_input(
        "referee: give --strict or --lenient (the default, by its old name), not both");
  }
  options.reading = o.strict ? games::checkers::protocol::Reading::Strict
                             : games::checkers::protocol::Reading::Course;
  std::ofstream pdn;
  if (!o.pdnout.empty()) {
    pdn.open(o.pdnout, std::ios::app);
    if (!pdn) return bad_input("--pdnout: cannot write " + o.pdnout);
  }
  options.sandbox = !o.box.no_sandbox;
  options.limits = o.box.limits();
  if (options.sandbox) {
    if (auto ok = box::check(); !ok) return bad_input("referee: " + ok.error());
  }
  options.adopt_strays = true;  // this process starts nothing else meanwhile
  options.cancel = &g_stop;
  catch_stop_signals();

  // Step 2. The match, with progress on stderr.
  Progress progress(!o.quiet);
  const auto observe = [&](const referee::Event& e) {
    using Kind = referee::Event::Kind;
    if (e.kind == Kind::Calibrated) {
      progress.update(fmt::format("calibrate agent {}: {}", e.agent, e.text));
    } else if (e.kind == Kind::Turn) {
      const auto& t = e.game->turns.back();
      progress.tick(fmt::format("game {}/{}, ply {}: agent {} plays {} ({:.3f} s, {:.3f} s left)",
                                e.game->number + 1, o.games, e.game->plies, t.agent, t.move, t.cpu,
                                t.time_left));
    } else {
      const auto& g = *e.game;
      if (pdn.is_open()) {
        // Each game as soon as it ends: an interrupted match keeps its record.
        pdn << game_pdn(g, options) << '\n' << std::flush;
      }
      progress.update(fmt::format("game {}/{}: winner {} ({}) after {} plies", g.number + 1,
                                  o.games, winner_text(g.winner), referee::reason_text(g.reason),
                                  g.plies));
    }
  };
  auto result = referee::play_match(options, observe);
  progress.done();
  if (!result) return bad_input(result.error());
  const auto& m = *result;

  // Step 3. The results.
  if (o.json) {
    std::cout << to_json(m, o.cpu).dump() << '\n';
  } else {
    for (const auto& g : m.games) {
      std::cout << fmt::format(
          "game {}: black agent {}, winner {}, {}, {} plies, time left {:.3f} / {:.3f} s: {}\n",
          g.number + 1, g.black, winner_text(g.winner), referee::reason_text(g.reason), g.plies,
          g.time_left[0], g.time_left[1], g.detail);
    }
    for (std::size_t i = 0; i < 2; ++i) {
      const auto& a = m.agents[i];
      std::cout << fmt::format("agent {} ({}): wins {}, draws {}, losses {}\n", i, a.command,
                               a.wins, a.draws, a.losses);
    }
    if (!m.workdir.empty()) std::cout << "agents' files kept in " << m.workdir.string() << '\n';
    if (!m.sandbox) std::cout << "the programs ran unboxed, with your rights (--no-sandbox)\n";
  }
  if (m.cancelled) {
    std::cerr << "duel: referee interrupted\n";
    return 130;
  }
  return 0;
}

}  // namespace

Command add_referee(CLI::App& app) {
  auto o = std::make_shared<RefereeOptions>();
  CLI::App* sub = app.add_subcommand(
      "referee", "Referee checkers agent programs (CSCI-561 input.txt / output.txt protocol)");
  sub->add_option("game", o->game, "Game spec (checkers, checkers:draw-plies=N)")->required();
  sub->add_option("--agent", o->agents,
                  "Agent command, run by /bin/sh in its own directory (give two); "
                  "duel:SPEC runs this binary's `homework --agent SPEC`");
  sub->add_option("--calibrate", o->calibrate,
                  "Calibrate command per agent, in agent order ('-' for none); run once, not "
                  "charged; duel:ARGS runs this binary's `calibrate ARGS`");
  sub->add_option("--time", o->time, "CPU seconds per agent per game")->capture_default_str();
  sub->add_option("--games", o->games, "Number of games (game i: agent i % 2 plays Black)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  sub->add_option("--fen,--start", o->start, "Start every game here (PDN FEN, e.g. B:W18,26:B14)");
  sub->add_option("--workdir", o->workdir,
                  "Agents' directories go in DIR/agent0, DIR/agent1 (kept); default a temporary "
                  "directory");
  sub->add_flag("--keep", o->keep, "Keep the temporary directory");
  sub->add_option("--wall-factor", o->wall_factor,
                  "Wall-clock limit of a move: this times the time left, plus --wall-slack")
      ->check(CLI::Range(1.0, 1000.0))
      ->capture_default_str();
  sub->add_option("--wall-slack", o->wall_slack, "Seconds added to the wall-clock limit")
      ->check(CLI::Range(0.0, 3600.0))
      ->capture_default_str();
  sub->add_option("--calibrate-time", o->calibrate_time, "Wall-clock limit of a calibrate run")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub->add_option("--pdnout", o->pdnout, "Append every game to this file as PDN as it ends");
  sub->add_option("--cpu", o->cpu,
                  "CPU time charged: user (as the course's referee measured it, the default) or "
                  "user+sys")
      ->check(CLI::IsMember({"user", "user+sys"}))
      ->capture_default_str();
  add_cpu_tick_option(sub, o->cpu_tick);
  sub->add_option("--charge-per-move", o->charge_per_move,
                  "In agent order: charge each move exactly this many seconds (0: as measured); "
                  "the course's reference: 0.29")
      ->check(CLI::Range(0.0, 3600.0));
  sub->add_flag("--strict", o->strict,
                "Read output.txt to the hand-out's letter (default: as the course's referee "
                "read it: any case, spacing, line ending and blank lines)");
  // Old scripts: --lenient was the practice reading the course's is now.
  sub->add_flag("--lenient", o->lenient, "Deprecated: the default reading")->group("");
  add_box_options(sub, o->box);
  sub->add_flag("--json", o->json, "One JSON document");
  sub->add_flag("--quiet", o->quiet, "No progress on stderr");
  return {sub, [o] { return run_referee(*o); }};
}

}  // namespace duel::cli
