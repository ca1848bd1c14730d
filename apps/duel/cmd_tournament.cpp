// duel tournament COURSE [CLASS_DIR] --out DIR: a whole class graded or
// ranked the way its course does it, or an arena of any game's agents with
// a journal and a table (docs/tournament.md, docs/referee.md).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "common.hpp"
#include "duel/core/spec.hpp"
#include "duel/tournament/tournament.hpp"
#include "tree_guard.hpp"

namespace duel::cli {
namespace {

struct TournamentArgs {
  std::string course;
  std::string class_dir;
  std::string out;
  std::vector<std::string> agents;
  std::string format;  // "": the course's default
  std::string time;    // seconds, or a comma list cycled over games
  double single_time = 0.0;
  int games = 0;  // 0: the course's default
  int rounds = 0;
  int final_size = 50;
  int reference_games = 9;
  std::string reference = "duel:csci561-ta";
  double reference_charge = -1.0;  // < 0: the default for the reference (tournament.hpp)
  double cpu_tick = referee::kCourseTick;
  std::string positions;
  std::string openings;
  std::string openings_order = "sequential";
  double timeout = 0.0;
  int max_turns = 0;
  int concurrency = 1;
  std::uint64_t seed = 0;
  std::string cpu = "user";
  bool strict = false;
  bool lenient = false;  // deprecated: the course's reading, now the default
  double wall_factor = 2.0;
  std::uint64_t disk_mb = 512;
  std::string scheduler;
  bool shared_dir = false;
  std::string worker_duel;
  bool quiet = false;
  std::string config;  // cs3243: the configuration file for sys.argv[1]; "": the course's
  BoxFlags box;
};

std::atomic<bool> g_stop{false};

extern "C" void on_tournament_signal(int /*sig*/) {
  g_stop.store(true);
}

// `--time 100` or `--time 60,100,300` (seed 003: the time "will vary from
// game to game").
Result<std::vector<double>> parse_times(const std::string& text) {
  std::vector<double> out;
  std::istringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) {
    const auto v = parse_number(part);
    if (!v || !(*v >= 0.001 && *v <= 1e6)) {
      return fail(
          fmt::format("--time: '{}' is not a number of seconds from 0.001 to 1000000", part));
    }
    out.push_back(*v);
  }
  if (out.empty()) return fail("--time: give seconds, or a comma list of them");
  return out;
}

// cs3243 is graded by the Python package's grader (duel.cs3243, the
// hand-out's studentAgent interface), found beside this binary.
int run_cs3243(const TournamentArgs& a) {
  if (!a.format.empty() && a.format != "grading") {
    return bad_input(fmt::format(
        "tournament: cs3243 is graded only (--format grading): the hand-out's studentAgent plays "
        "White in every game and has no competition, not {}",
        a.format));
  }
  if (!a.agents.empty()) return bad_input("tournament: cs3243 grades a class folder; no --agent");
  if (a.class_dir.empty()) return bad_input("tournament: cs3243 needs the class folder");
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  std::string path = std::getenv("DUEL_PYTHONPATH") != nullptr
                         ? std::getenv("DUEL_PYTHONPATH")
                         : (self.parent_path().parent_path() / "python").string();
  if (!std::filesystem::is_regular_file(std::filesystem::path(path) / "duel/cs3243/__main__.py",
                                        ec)) {
    return bad_input(fmt::format(
        "tournament: cs3243 needs the Python package duel (built in build/python); not found in "
        "{} (set DUEL_PYTHONPATH)",
        path));
  }
  if (const char* old = std::getenv("PYTHONPATH"); old != nullptr && *old != '\0') {
    path += std::string(":") + old;
  }
  ::setenv("PYTHONPATH", path.c_str(), 1);
  std::vector<std::string> args = {"/usr/bin/python3",
                                   "-m",
                                   "duel.cs3243",
                                   "class",
                                   a.class_dir,
                                   "--out",
                                   a.out,
                                   "--games",
                                   std::to_string(a.games > 0 ? a.games : 10),
                                   "--seed",
                                   std::to_string(a.seed),
                                   "--concurrency",
                                   std::to_string(a.concurrency)};
  if (!a.time.empty()) {
    const auto t = parse_number(a.time);
    if (!t || !(*t >= 0)) return bad_input("--time: cs3243 takes one number: seconds a move");
    args.insert(args.end(), {"--time-limit", a.time});
  }
  if (a.quiet) args.emplace_back("--quiet");
  // The grader boxes each student's child with this binary's `duel box`.
  if (a.box.no_sandbox) {
    args.emplace_back("--no-sandbox");
  } else {
    args.insert(args.end(), {"--memory", std::to_string(a.box.memory_mib)});
    ::setenv("DUEL_BIN", self.string().c_str(), 1);
  }
  if (!a.config.empty()) {
    // Checked here too, so that the message is the CLI's one line.
    const int fd = ::open(a.config.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st {};
    const std::string why =
        fd < 0 ? std::strerror(errno)
               : (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ? "not a file" : "");
    if (fd >= 0) ::close(fd);
    if (!why.empty()) {
      return bad_input(fmt::format("tournament: --config {}: cannot read it ({})", a.config, why));
    }
    args.insert(args.end(), {"--config", a.config});
  }
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (auto& s : args) argv.push_back(s.data());
  argv.push_back(nullptr);
  ::execv(argv[0], argv.data());
  return bad_input(fmt::format("tournament: cannot run {}: {}", args[0], std::strerror(errno)));
}

int run_tournament(const TournamentArgs& a) {
  // Step 1. The course, and the options checked before anything runs. Nothing
  // this command starts outlives it, even killed with SIGKILL (tree_guard.hpp).
  guard_process_tree();
  if (!a.box.no_sandbox) {
    if (auto ok = box::check(); !ok) return bad_input("tournament: " + ok.error());
  }
  if (a.course == "cs3243") return run_cs3243(a);
  if (!a.config.empty()) return bad_input("tournament: --config is cs3243's (AB.py's sys.argv[1])");
  tournament::Options o;
  if (a.course == "csci561") {
    o.course = tournament::Course::Csci561;
    o.game = "checkers";
    if (a.class_dir.empty()) return bad_input("tournament: csci561 needs the class folder");
  } else {
    auto game = registry::make_game(a.course);
    if (!game) {
      return bad_input(
          fmt::format("tournament: course '{}' is not csci561, cs3243 or a game spec ({})",
                      a.course, game.error()));
    }
    o.course = tournament::Course::Game;
    o.game = std::visit([](const auto& s) { return s.spec(); }, *game);
  }
  const std::string format = !a.format.empty()                         ? a.format
                             : o.course == tournament::Course::Csci561 ? "grading"
                                                                       : "round-robin";
  o.format = *tournament::format_of(format);
  const bool grading = o.format == tournament::Format::Grading;
  if (grading && o.course == tournament::Course::Game) {
    return bad_input(
        "tournament: grading is a course's (csci561, cs3243); a game spec plays round-robin, "
        "gauntlet, swiss or knockout");
  }
  if (o.format == tournament::Format::Competition && o.course != tournament::Course::Csci561) {
    return bad_input(
        "tournament: competition is csci561's as the course ran it (against its reference "
        "first); a game spec plays knockout, round-robin, gauntlet or swiss");
  }
  if (grading && !a.agents.empty()) {
    return bad_input("tournament: grading grades the class folder's programs; no --agent");
  }
  o.class_dir = a.class_dir;
  o.agents = a.agents;
  o.out = a.out;
  if (!a.time.empty()) {
    auto t = parse_times(a.time);
    if (!t) return bad_input(t.error());
    o.game_seconds = *t;
  } else {
    o.game_seconds = {300.0};  // RULES.md §6a: 300 s in every game, grading and competition
  }
  // RULES.md §6a: the course's competition played 4 games a pair.
  o.games = a.games > 0 ? a.games : o.format == tournament::Format::Competition ? 4 : 2;
  if (o.games % 2 != 0) {
    return bad_input(fmt::format(
        "tournament: --games {} must be even (seed 003: \"an even number of games\"; each "
        "pairing plays both colours)",
        o.games));
  }
  o.rounds = a.rounds;
  o.final_size = a.final_size;
  o.reference_games = a.reference_games;
  o.reference = a.reference;
  if (a.reference_charge >= 0.0) o.reference_charge = a.reference_charge;
  o.tick = a.cpu_tick;
  if (!a.positions.empty()) {
    // A set's name (course, duel), else a file (./course for one so named).
    const bool named = a.positions == "course" || a.positions == "duel";
    auto p =
        named ? tournament::named_singles(a.positions) : tournament::read_positions(a.positions);
    if (!p) return bad_input(p.error());
    o.singles = std::move(*p);
  }
  if (a.single_time > 0) {
    if (o.singles.empty()) o.singles = tournament::default_singles();
    for (auto& p : o.singles) p.seconds = a.single_time;
  }
  o.openings = a.openings;
  o.openings_random = a.openings_order == "random";
  o.timeout = a.timeout;
  o.max_turns = a.max_turns;
  o.concurrency = a.concurrency;
  o.seed = a.seed;
  o.charge = a.cpu == "user" ? referee::Charge::User : referee::Charge::UserSystem;
  if (a.strict && a.lenient) {
    return bad_input(
        "tournament: give --strict or --lenient (the default, by its old name), not both");
  }
  o.reading = a.strict ? games::checkers::protocol::Reading::Strict
                       : games::checkers::protocol::Reading::Course;
  o.wall_factor = a.wall_factor;
  o.disk_mb = a.disk_mb;
  o.limits.sandbox = !a.box.no_sandbox;
  o.limits.box = a.box.limits();
  o.scheduler = a.scheduler;
  o.shared_dir = a.shared_dir;
  o.worker_duel = a.worker_duel;
  o.cancel = &g_stop;
  struct sigaction sa {};
  sa.sa_handler = on_tournament_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);

  // Step 2. The run, with progress: a line for each submission that failed
  // to compile or calibrate, as it happens; then tasks done / known,
  // elapsed, the estimate of the rest (tournament/estimate.hpp).
  Progress progress(!a.quiet);
  const auto on_progress = [&](const tournament::Progress& p) {
    if (!p.note.empty()) {
      if (a.quiet) return;
      progress.done();
      std::cerr << "duel: " << p.note << '\n';
      return;
    }
    progress.update(fmt::format("{}/{} tasks, {:.0f} s, {}: {}", p.done, p.total, p.seconds,
                                p.seconds_left ? fmt::format("about {:.0f} s left", *p.seconds_left)
                                               : std::string("estimating"),
                                p.last));
  };
  auto r = tournament::run(o, on_progress);
  progress.done();
  if (!r) return bad_input(r.error());

  // Step 3. The summary: the table's head and where the files are.
  const auto& doc = r->results;
  std::cout << fmt::format("{} {}: {} entrants, {} tasks run, {} from the journal\n",
                           o.course == tournament::Course::Csci561 ? "csci561" : o.game,
                           doc["format"].get<std::string>(), doc["students"].size(), r->tasks_run,
                           r->tasks_resumed);
  for (const auto& s : doc["standings"]) {
    std::string elo;
    if (!s["elo"].is_null()) {
      elo = fmt::format("  Elo {:g}", s["elo"].get<double>());
      if (!s["elo_margin"].is_null())
        elo += fmt::format(" +/- {:g}", s["elo_margin"].get<double>());
    }
    std::cout << fmt::format("{:>3}. {:<24} {:>6g}{}{}\n", s["rank"].get<int>(),
                             s["name"].get<std::string>(), s["points"].get<double>(), elo,
                             s.contains("result") ? "  " + s["result"].get<std::string>() : "");
  }
  std::cout << fmt::format(
      "results: {}/results.json, results.csv, tasks.csv, feedback/, index.html, journal.jsonl\n",
      a.out);
  if (r->cancelled) {
    std::cerr << "duel: tournament interrupted; the same command resumes it\n";
    return 130;
  }
  return 0;
}

}  // namespace

Command add_tournament(CLI::App& app) {
  auto a = std::make_shared<TournamentArgs>();
  CLI::App* sub = app.add_subcommand(
      "tournament", "Grade or rank a whole class's agent programs as the course does");
  sub->add_option("course", a->course,
                  "csci561 (seed 003's checkers), cs3243 (seed 000's studentAgent), or a game "
                  "spec for an arena of Duel agents and programs")
      ->required();
  sub->add_option("class", a->class_dir, "The class folder: one sub-folder per student");
  sub->add_option("--out", a->out, "Folder for results.json, results.csv, index.html, journal")
      ->required();
  sub->add_option("--agent", a->agents, "A Duel agent spec entered beside the class");
  sub->add_option("--format", a->format,
                  "grading (csci561, cs3243), competition (csci561's as the course ran it), "
                  "knockout (seed 003's wording), round-robin, swiss or gauntlet")
      ->check(CLI::IsMember(
          {"grading", "competition", "knockout", "round-robin", "swiss", "gauntlet"}));
  sub->add_option("--time", a->time,
                  "Programs' CPU seconds a side a game, or a comma list cycled over the games "
                  "(default 300, as the course gave); cs3243: seconds a move (1)");
  sub->add_option("--single-time", a->single_time,
                  "Seconds of every single move (default: each position's own, as cited)")
      ->check(CLI::Range(0.001, 1e6));
  sub->add_option("--games", a->games,
                  "Games a pairing (even; default 2, competition 4); cs3243: games against each "
                  "opponent (10)")
      ->check(CLI::Range(1, 1000));
  sub->add_option("--rounds", a->rounds,
                  "Swiss rounds (default: ceil(log2 entrants)); competition: rounds of 4-5 "
                  "opponents before the final (default 20, as the course)")
      ->check(CLI::Range(1, 1000));
  sub->add_option("--final-size", a->final_size,
                  "Competition: a field of at most this many plays the final round-robin")
      ->check(CLI::Range(2, 100000))
      ->capture_default_str();
  sub->add_option("--reference-games", a->reference_games, "Grading games against the reference")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  sub->add_option("--reference", a->reference,
                  "The reference agent program (the course's TA reference; Duel's earlier one: "
                  "duel:minimax:depth=4)")
      ->capture_default_str();
  sub->add_option("--reference-charge", a->reference_charge,
                  "Seconds each reference move is charged (default: the course's 0.29 for "
                  "duel:csci561-ta, else as measured; 0: as measured)")
      ->check(CLI::Range(0.0, 3600.0));
  add_cpu_tick_option(sub, a->cpu_tick);
  sub->add_option("--positions", a->positions,
                  "Single moves: course (the course's ten, the default), duel (Duel's own "
                  "ten), or a file, one a line: SECONDS FEN [# source] (duel positions makes one)");
  sub->add_option("--openings", a->openings,
                  "Start of each pair of games, as duel arena: random:plies=P (or P), or a file");
  sub->add_option("--openings-order", a->openings_order, "sequential or random (with --seed)")
      ->check(CLI::IsMember({"sequential", "random"}))
      ->capture_default_str();
  sub->add_option("--timeout", a->timeout, "Duel agents: seconds a move; over it loses (0 = none)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--max-turns", a->max_turns, "A draw after this many turns (0 = none)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--concurrency", a->concurrency, "Tasks at once (each charged its own CPU)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  sub->add_option("--seed", a->seed, "Seed of the pairings, openings and agents")
      ->capture_default_str();
  sub->add_option("--cpu", a->cpu, "CPU time charged: user (the course's) or user+sys")
      ->check(CLI::IsMember({"user", "user+sys"}))
      ->capture_default_str();
  sub->add_flag("--strict", a->strict,
                "Read output.txt to the hand-out's letter (default: as the course's referee "
                "read it: any case, spacing, line ending and blank lines)");
  // Old scripts: --lenient was the practice reading the course's is now.
  sub->add_flag("--lenient", a->lenient, "Deprecated: the default reading")->group("");
  sub->add_option("--wall-factor", a->wall_factor, "Wall-clock limit of a move: this x time left")
      ->check(CLI::Range(1.0, 1000.0))
      ->capture_default_str();
  sub->add_option("--disk-limit", a->disk_mb,
                  "MiB a program's folder may hold, its files and logs (over it loses)")
      ->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
  add_box_options(sub, a->box);
  add_cluster_options(sub, a->scheduler, a->worker_duel, "Run every task");
  sub->add_flag("--shared-dir", a->shared_dir,
                "With --scheduler: --out is on every host at the same path (nothing shipped)");
  sub->add_flag("--quiet", a->quiet, "No progress on stderr");
  sub->add_option("--config", a->config,
                  "cs3243: the configuration file each AB.py gets a copy of in sys.argv[1] "
                  "(default the course's, RULES.md §6b)");
  return {sub, [a] { return run_tournament(*a); }};
}

}  // namespace duel::cli
