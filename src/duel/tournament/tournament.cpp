#include "duel/tournament/tournament.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <system_error>
#include <variant>

#include <fmt/format.h>

#include "duel/arena/openings.hpp"
#include "duel/arena/pool.hpp"
#include "duel/core/clock.hpp"
#include "duel/registry/agents.hpp"
#include "duel/registry/games.hpp"
#include "duel/tournament/cluster.hpp"
#include "duel/tournament/estimate.hpp"
#include "duel/tournament/journal.hpp"
#include "duel/tournament/plan.hpp"
#include "duel/tournament/scoring.hpp"
#include "duel/tournament/tasks.hpp"

namespace duel::tournament {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// The journal's first line: every option that changes what is played or
// how it is scored, so a resumed run is the same tournament.
[[nodiscard]] json header_of(const Options& o, const std::vector<Submission>& entrants) {
  json h = {{"course", o.course == Course::Csci561 ? "csci561" : "game"},
            {"game", o.game},
            {"format", format_name(o.format)},
            {"time", o.game_seconds},
            {"seed", o.seed},
            {"cpu", o.charge == referee::Charge::User ? "user" : "user+sys"},
            {"reading", games::checkers::protocol::reading_name(o.reading)}};
  if (o.format == Format::Grading) {
    json positions = json::array();
    for (const auto& p : o.singles.empty() ? default_singles() : o.singles) {
      positions.push_back({p.fen, p.seconds});
    }
    h["reference"] = o.reference;
    h["reference_games"] = o.reference_games;
    h["positions"] = positions;
  } else {
    h["games"] = o.games;
    h["agents"] = o.agents;
    h["openings"] = o.openings;
    h["openings_random"] = o.openings_random;
    h["timeout"] = o.timeout;
    h["max_turns"] = o.max_turns;
  }
  if (o.format == Format::Swiss) h["rounds"] = o.rounds;
  // A competition's rounds are planned from its entrants: one more would
  // change every pairing, so a changed class is another tournament.
  if (o.format == Format::Competition) {
    h["rounds"] = o.rounds;
    h["final_size"] = o.final_size;
    h["reference"] = o.reference;
  }
  if (o.format == Format::Grading || o.format == Format::Competition) {
    h["reference_charge"] = reference_charge_of(o);
  }
  h["tick"] = o.tick;
  // Unboxed runs say so (results.json, index.html); a boxed run's header is
  // as before, so journals of earlier runs resume.
  if (!o.limits.sandbox) h["sandbox"] = false;
  if (o.format == Format::Swiss || o.format == Format::Knockout ||
      o.format == Format::Competition) {
    json names = json::array();
    for (const auto& e : entrants) names.push_back(e.name);
    h["entrants"] = names;
  }
  return h;
}

// Whether a journal entry is the result of `task`: same kind and the same
// student or players.
[[nodiscard]] bool planned_entry(const json& task, const json& entry) {
  const std::string kind = task.value("kind", "");
  if (kind == "single") {
    return entry.value("kind", "") == "single" && entry.value("student", "") == task["student"];
  }
  if (task.contains("sides") && entry.contains("players")) {
    return entry["players"] ==
           json::array({task["sides"][0].value("name", ""), task["sides"][1].value("name", "")});
  }
  return entry.value("kind", "") == kind || entry.value("kind", "") == "error";
}

// Adds the journal's entries for `tasks` (a round's plan) to `counted`.
void count_round(const std::vector<json>& tasks, const Entries& journal, Entries& counted) {
  for (const auto& t : tasks) {
    const std::string key = t["key"].get<std::string>();
    const auto it = journal.find(key);
    if (it != journal.end() && planned_entry(t, it->second)) counted[key] = it->second;
  }
}

// The entrants: the --agent specs first (in the order given), then the
// class's folders (sorted); duplicate names get #2, #3.
[[nodiscard]] Result<std::vector<Submission>> entrants_of(const Options& o) {
  std::vector<Submission> out;
  std::map<std::string, int> seen;
  const auto unique = [&](std::string name) {
    const int n = ++seen[name];
    return n == 1 ? name : fmt::format("{}#{}", name, n);
  };
  for (const auto& spec : o.agents) {
    Submission s;
    s.name = unique(spec);
    s.agent = spec;
    s.language = "duel";
    out.push_back(std::move(s));
  }
  if (!o.class_dir.empty()) {
    std::error_code ec;
    if (!fs::is_directory(o.class_dir, ec)) {
      return fail(fmt::format("tournament: {} is not a folder", o.class_dir.string()));
    }
    for (auto& s : find_submissions(o.class_dir, o.limits.sandbox)) {
      s.name = unique(s.name);
      out.push_back(std::move(s));
    }
  }
  if (out.empty()) {
    return fail(o.class_dir.empty()
                    ? std::string("tournament: no entrants; give a class folder or --agent")
                    : fmt::format("tournament: {} holds no student folder", o.class_dir.string()));
  }
  return out;
}

// The arena's openings of the game, as task documents name them.
[[nodiscard]] Result<std::function<Opening(int)>> openings_of(const Options& o) {
  auto game = registry::make_game(o.game);
  if (!game) return fail(game.error());
  return std::visit(
      [&](const auto& start) -> Result<std::function<Opening(int)>> {
        auto book = arena::parse_openings(start, o.openings, o.openings_random, o.seed);
        if (!book) return fail(book.error());
        return std::function<Opening(int)>([start, book = std::move(*book), seed = o.seed](int p) {
          return opening_for(book, start, false, p, seed);
        });
      },
      *game);
}

// Every Duel agent checked before anything runs: a typo fails at once.
[[nodiscard]] Result<bool> check_agents(const Options& o) {
  auto game = registry::make_game(o.game);
  if (!game) return fail(game.error());
  return std::visit(
      [&](const auto& start) -> Result<bool> {
        using S = std::decay_t<decltype(start)>;
        for (const auto& spec : o.agents) {
          if (spec == "human" || spec.starts_with("human:")) {
            return fail("--agent: a tournament plays programs only");
          }
          if (auto a = registry::make_agent<S>(spec); !a) return fail("--agent: " + a.error());
        }
        return true;
      },
      *game);
}

[[nodiscard]] std::string task_words(const json& t) {
  if (t["kind"] == "game") {
    return fmt::format("{}: {} - {}", t["key"].get<std::string>(),
                       t["sides"][0]["name"].get<std::string>(),
                       t["sides"][1]["name"].get<std::string>());
  }
  return t["key"].get<std::string>();
}

// What the estimate knows of a task before it runs: its kind and the CPU
// its programs may use (a single move's clock; a game's clock for each side
// that is a program).
[[nodiscard]] TaskCost cost_of(const json& t) {
  TaskCost c;
  c.game = t.value("kind", "") == "game";
  const double seconds = t.value("seconds", 0.0);
  if (!c.game) {
    c.clock = seconds;
    return c;
  }
  for (const auto& side : t.value("sides", json::array())) {
    if (side.contains("program")) c.clock += seconds;
  }
  return c;
}

// Tasks of the rounds after `round` not planned yet, as the format will
// plan them: Swiss, the same number each round; a knockout, about half as
// many pairs each round; the other formats have one round.
[[nodiscard]] double later_tasks(const Field& f, const std::vector<json>& tasks, int round) {
  const Options& o = f.options;
  const std::size_t this_round = tasks.size();
  const auto playing = static_cast<std::size_t>(
      std::ranges::count_if(f.entrants, [](const Submission& s) { return s.ok(); }));
  if (o.format == Format::Competition) {
    // The course's rounds as if no one left (an upper bound: who leaves is
    // not known before), then the final of at most final_size.
    if (tasks.empty() || tasks.back().value("final", false)) return 0.0;
    const auto n = static_cast<double>(playing);
    const double finalists = std::min(n, static_cast<double>(o.final_size));
    const double final_games = finalists * (finalists - 1) / 2 * o.games;
    if (n <= o.final_size) return final_games;
    const int pair_rounds = competition_rounds(o) - std::max(0, round - 1);
    return std::max(0, pair_rounds) * n * 4.5 / 2 * o.games + final_games;
  }
  if (o.format == Format::Swiss) {
    return static_cast<double>(this_round) * std::max(0, swiss_rounds(o, playing) - round);
  }
  if (o.format != Format::Knockout) return 0.0;
  double pairs = static_cast<double>(this_round) / std::max(1, o.games);
  double later = 0.0;
  while (pairs >= 1.0) {
    pairs = std::floor(pairs / 2.0);
    later += pairs * o.games;
  }
  return later;
}

}  // namespace

std::string_view format_name(Format f) noexcept {
  switch (f) {
    case Format::Grading: return "grading";
    case Format::Knockout: return "knockout";
    case Format::Competition: return "competition";
    case Format::RoundRobin: return "round-robin";
    case Format::Swiss: return "swiss";
    case Format::Gauntlet: return "gauntlet";
  }
  return "?";
}

std::optional<Format> format_of(std::string_view name) noexcept {
  for (const Format f : {Format::Grading, Format::Knockout, Format::Competition, Format::RoundRobin,
                         Format::Swiss, Format::Gauntlet}) {
    if (format_name(f) == name) return f;
  }
  return std::nullopt;
}

Result<Summary> run(const Options& o, const OnProgress& on_progress) {
  // Step 1. The entrants, the agents and openings checked, the output
  // folder and the journal of an earlier run.
  auto entrants = entrants_of(o);
  if (!entrants) return fail(entrants.error());
  if (auto ok = check_agents(o); !ok) return fail(ok.error());
  auto opening = openings_of(o);
  if (!opening) return fail(opening.error());
  std::error_code ec;
  fs::create_directories(o.out, ec);
  if (ec) return fail(fmt::format("tournament: cannot make {}: {}", o.out.string(), ec.message()));
  auto journal = Journal::open(o.out / "journal.jsonl", header_of(o, *entrants));
  if (!journal) return fail(journal.error());

  // Step 2. Every submission prepared once: copied, compiled, calibrated;
  // a failure told as it happens.
  WallClock clock;
  Progress progress;
  for (auto& s : *entrants) {
    if (!s.agent.empty()) continue;
    prepare(s, fs::absolute(o.out, ec) / "agents" / s.name, o.limits);
    const bool calibrate_failed = !s.calibration.empty() && !s.calibration.starts_with("ok");
    if (on_progress && (!s.ok() || calibrate_failed)) {
      progress.note = fmt::format("{}: {}", s.name, s.ok() ? s.calibration : s.error);
      progress.seconds = clock.seconds();
      on_progress(progress);
      progress.note.clear();
    }
  }
  const Field field{o, *entrants, *opening};

  // Step 3. Round by round, the tasks the journal lacks, N at a time (the
  // kinds interleaved), each journaled as it ends.
  Summary summary;
  const TaskEnv env{fs::absolute(o.out, ec), o.cancel};
  std::mutex lock;
  Estimate estimate(o.scheduler.empty() ? o.concurrency : 1);
  const auto journaled = [&](const json& task, const json& entry, double seconds) {
    journal->append(entry);
    ++summary.tasks_run;
    ++progress.done;
    estimate.finished(cost_of(task), seconds);
    progress.seconds = clock.seconds();
    progress.seconds_left = estimate.seconds_left();
    progress.last = task_words(task);
    if (on_progress) on_progress(progress);
  };
  std::unique_ptr<Cluster> cluster;
  if (!o.scheduler.empty()) {
    auto connected = Cluster::connect({o.scheduler, env.out, o.shared_dir, o.worker_duel});
    if (!connected) return fail(connected.error());
    cluster = std::move(*connected);
  }
  // What is scored: only the journal's entries for tasks the plan holds,
  // each once and for the players the plan gave it (planned_entry), so a
  // journal edited by hand cannot add points or move them to someone else.
  Entries counted;
  for (int round = 1;; ++round) {
    const auto tasks = plan_round(field, counted, round);
    if (tasks.empty()) break;
    std::vector<const json*> planned;
    std::vector<bool> is_game;
    for (const auto& t : tasks) {
      // Done when the journal holds its result (a line that is not, run again).
      const auto done = journal->entries().find(t["key"].get<std::string>());
      if (done != journal->entries().end() && planned_entry(t, done->second)) continue;
      planned.push_back(&t);
      is_game.push_back(cost_of(t).game);
      estimate.planned(cost_of(t));
    }
    std::vector<const json*> todo;
    for (const std::size_t i : interleaved(is_game)) todo.push_back(planned[i]);
    estimate.later(cost_of(tasks.back()), later_tasks(field, tasks, round));
    progress.total += static_cast<int>(tasks.size());
    progress.done += static_cast<int>(tasks.size() - todo.size());
    summary.tasks_resumed += static_cast<int>(tasks.size() - todo.size());
    if (cluster) {
      // The cluster's tasks are timed by the gaps between their ends (its
      // workers' number is its own), so the estimate divides by 1.
      std::map<std::string, const json*> by_key;
      for (const json* t : todo) by_key[(*t)["key"].get<std::string>()] = t;
      WallClock since_last;
      auto ran = cluster->run(
          todo,
          [&](const json& entry) {
            journaled(*by_key.at(entry["key"].get<std::string>()), entry, since_last.seconds());
            since_last.restart();
            return Cluster::Reply{};
          },
          o.cancel);
      if (!ran) return fail(ran.error());
      count_round(tasks, journal->entries(), counted);
    } else {
      arena::run_pool(
          todo.size(), o.concurrency,
          [&](std::size_t i) {
            const WallClock took;
            json entry = run_task(*todo[i], env);
            const std::lock_guard guard(lock);
            // null: cancelled, run on resume
            if (!entry.is_null()) journaled(*todo[i], entry, took.seconds());
            return true;
          },
          o.cancel);
      count_round(tasks, journal->entries(), counted);
    }
    if (o.cancel != nullptr && o.cancel->load()) break;
  }
  summary.cancelled = o.cancel != nullptr && o.cancel->load();

  // Step 4. The tables, from the journal's planned entries alone.
  summary.results = results_document(field, counted);
  write_reports(o.out, summary.results);
  return summary;
}

}  // namespace duel::tournament
