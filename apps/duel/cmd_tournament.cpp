// duel tournament csci561 CLASS_DIR --out DIR: a whole class graded or
// ranked the way seed 003's course does it (docs/tournament.md).
#include <atomic>
#include <csignal>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "common.hpp"
#include "duel/tournament/tournament.hpp"

namespace duel::cli {
namespace {

struct TournamentArgs {
  std::string course;
  std::string class_dir;
  std::string out;
  std::string format = "grading";
  double time = 0.0;         // 0: the format's default (grading 100 s, competitions 300 s)
  double single_time = 0.0;  // 0: each position's own time
  int games = 2;
  int reference_games = 9;
  std::string reference = "duel:minimax:depth=4";
  std::string positions;
  int concurrency = 1;
  std::uint64_t seed = 0;
  std::string cpu = "user";
  bool lenient = false;
  double wall_factor = 2.0;
  bool quiet = false;
};

std::atomic<bool> g_stop{false};

extern "C" void on_tournament_signal(int /*sig*/) {
  g_stop.store(true);
}

int run_tournament(const TournamentArgs& a) {
  // Step 1. The options, checked before anything runs.
  if (a.course != "csci561") {
    return bad_input(fmt::format(
        "tournament: course '{}' is not run yet; csci561 is (docs/tournament.md)", a.course));
  }
  tournament::Options o;
  o.class_dir = a.class_dir;
  o.out = a.out;
  o.format = a.format == "grading"       ? tournament::Format::Grading
             : a.format == "competition" ? tournament::Format::Knockout
                                         : tournament::Format::RoundRobin;
  o.game_seconds = a.time > 0 ? a.time : (o.format == tournament::Format::Grading ? 100.0 : 300.0);
  o.games = a.games;
  if (o.games % 2 != 0) {
    return bad_input(fmt::format(
        "tournament: --games {} must be even (seed 003: \"an even number of games\")", a.games));
  }
  o.reference_games = a.reference_games;
  o.reference = a.reference;
  if (!a.positions.empty()) {
    auto p = tournament::read_positions(a.positions);
    if (!p) return bad_input(p.error());
    o.singles = std::move(*p);
  }
  if (a.single_time > 0) {
    if (o.singles.empty()) o.singles = tournament::default_singles();
    for (auto& p : o.singles) p.seconds = a.single_time;
  }
  o.concurrency = a.concurrency;
  o.seed = a.seed;
  o.charge = a.cpu == "user" ? referee::Charge::User : referee::Charge::UserSystem;
  o.reading = a.lenient ? games::checkers::protocol::Reading::Lenient
                        : games::checkers::protocol::Reading::Strict;
  o.wall_factor = a.wall_factor;
  o.cancel = &g_stop;
  struct sigaction sa {};
  sa.sa_handler = on_tournament_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);

  // Step 2. The run, with progress: tasks done / known, elapsed, estimate.
  Progress progress(!a.quiet);
  int first_done = -1;
  const auto on_progress = [&](const tournament::Progress& p) {
    if (first_done < 0) first_done = p.done - 1;
    const int ran = p.done - first_done;
    const double left = ran > 0 ? p.seconds / ran * (p.total - p.done) : 0.0;
    progress.update(fmt::format("{}/{} tasks, {:.0f} s, about {:.0f} s left: {}", p.done, p.total,
                                p.seconds, left, p.last));
  };
  auto r = tournament::run(o, on_progress);
  progress.done();
  if (!r) return bad_input(r.error());

  // Step 3. The summary: the table's head and where the files are.
  const auto& doc = r->results;
  std::cout << fmt::format("{} {}: {} students, {} tasks run, {} from the journal\n", a.course,
                           doc["format"].get<std::string>(), doc["students"].size(), r->tasks_run,
                           r->tasks_resumed);
  for (const auto& s : doc["standings"]) {
    std::cout << fmt::format("{:>3}. {:<24} {}\n", s["rank"].get<int>(),
                             s["name"].get<std::string>(), s["points"].dump());
  }
  std::cout << fmt::format("results: {}/results.json, results.csv, index.html, journal.jsonl\n",
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
  sub->add_option("course", a->course, "The course: csci561 (seed 003's checkers)")->required();
  sub->add_option("class", a->class_dir, "The class folder: one sub-folder per student")
      ->required();
  sub->add_option("--out", a->out, "Folder for results.json, results.csv, index.html, journal")
      ->required();
  sub->add_option("--format", a->format, "grading, competition (knockout) or round-robin")
      ->check(CLI::IsMember({"grading", "competition", "round-robin"}))
      ->capture_default_str();
  sub->add_option("--time", a->time,
                  "CPU seconds a side a game (default: grading 100, competitions 300)")
      ->check(CLI::Range(0.001, 1e6));
  sub->add_option("--single-time", a->single_time,
                  "Seconds of every single move (default: each position's own, as cited)")
      ->check(CLI::Range(0.001, 1e6));
  sub->add_option("--games", a->games, "Games a pair in a competition (even)")
      ->check(CLI::Range(2, 1000))
      ->capture_default_str();
  sub->add_option("--reference-games", a->reference_games, "Grading games against the reference")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  sub->add_option("--reference", a->reference, "The reference agent program")
      ->capture_default_str();
  sub->add_option("--positions", a->positions,
                  "Single-move positions, one a line: SECONDS FEN [# source]");
  sub->add_option("--concurrency", a->concurrency, "Tasks at once")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  sub->add_option("--seed", a->seed, "Seed of the competition's pairings")->capture_default_str();
  sub->add_option("--cpu", a->cpu, "CPU time charged: user (the course's) or user+sys")
      ->check(CLI::IsMember({"user", "user+sys"}))
      ->capture_default_str();
  sub->add_flag("--lenient", a->lenient, "Practice: read output.txt in any case and spacing");
  sub->add_option("--wall-factor", a->wall_factor, "Wall-clock limit of a move: this x time left")
      ->check(CLI::Range(1.0, 1000.0))
      ->capture_default_str();
  sub->add_flag("--quiet", a->quiet, "No progress on stderr");
  return {sub, [a] { return run_tournament(*a); }};
}

}  // namespace duel::cli
