#include "duel/tournament/tournament.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <mutex>
#include <system_error>
#include <thread>

#include <fmt/format.h>

#include "duel/agents/exec_agent.hpp"
#include "duel/core/clock.hpp"
#include "duel/core/rng.hpp"
#include "duel/play/game_record.hpp"
#include "duel/referee/referee.hpp"
#include "duel/tournament/journal.hpp"
#include "duel/tournament/scoring.hpp"

namespace duel::tournament {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using games::checkers::State;

// A task: one unit the journal records, run on any thread.
struct Task {
  std::string key;
  std::string what;           // for the progress line
  std::function<json()> run;  // the journal entry; null when cancelled (redone next time)
};

// A side of a game: a prepared submission, or the reference (Duel's own agent
// run as a program, as the course's reference was).
struct Side {
  std::string name;
  std::string command;
  fs::path source;  // empty for the reference
};

[[nodiscard]] std::string file_key(std::string key) {
  for (char& c : key) {
    if (c == '/' || c == ' ' || c == '\\') c = '_';
  }
  return key;
}

// Step 1 of every task: a fresh copy of a prepared submission to run in.
[[nodiscard]] std::string fresh_copy(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::remove_all(to, ec);
  fs::create_directories(to.parent_path(), ec);
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::skip_symlinks, ec);
  return ec ? fmt::format("cannot copy {}: {}", from.string(), ec.message()) : "";
}

json single_task(const Submission& s, int index, const SinglePosition& p, const fs::path& dir,
                 const Options& o) {
  json j = {{"key", fmt::format("single/{}/{}", s.name, index)},
            {"kind", "single"},
            {"student", s.name},
            {"position", index},
            {"point", 0}};
  if (std::string e = fresh_copy(s.home, dir); !e.empty()) {
    j["reason"] = "crash";
    j["detail"] = e;
    return j;
  }
  const State state = State::parse(p.fen).value();
  referee::TurnSetup setup;
  setup.command = referee::resolve_command(s.command, s.home);
  setup.dir = dir;
  setup.time_left = p.seconds;
  setup.mode = games::checkers::protocol::Mode::Single;
  setup.wall_factor = o.wall_factor;
  setup.wall_slack = o.wall_slack;
  setup.charge = o.charge;
  setup.reading = o.reading;
  setup.cancel = o.cancel;
  setup.log_header = fmt::format("--- single move {}, {:.3f} s ---", index + 1, p.seconds);
  const referee::TurnResult t = referee::play_turn(setup, state);
  if (!t.move && t.loss == referee::Reason::Cancelled) return nullptr;
  j["cpu"] = t.cpu;
  j["user"] = t.run.cpu.user;
  j["system"] = t.run.cpu.system;
  if (t.move) {
    j["point"] = 1;
    j["move"] = state.move_text(*t.move);
  } else {
    j["reason"] = referee::reason_text(t.loss);
    j["detail"] = t.detail;
  }
  return j;
}

json game_task(const std::string& key, const std::array<Side, 2>& sides, const fs::path& dir,
               const Options& o) {
  // Step 1. The two programs, each in its own copy, each with the game's clock.
  std::array<std::unique_ptr<agents::ExecAgent>, 2> agents;
  for (std::size_t i = 0; i < 2; ++i) {
    agents::ExecSettings settings;
    settings.command = sides[i].command;
    settings.name = sides[i].name;
    settings.seconds = o.game_seconds;
    settings.source = sides[i].source;
    settings.home = dir / (i == 0 ? "black" : "white");
    settings.charge = o.charge;
    settings.reading = o.reading;
    settings.cancel = o.cancel;
    std::error_code ec;
    fs::remove_all(settings.home, ec);
    agents[i] = std::make_unique<agents::ExecAgent>(std::move(settings));
  }
  // Step 2. The game, refereed as `duel referee` does (a tie to more time left).
  play::MatchOptions match;
  match.tie_to_more_time = true;
  match.stop = o.cancel;
  const State start;
  auto rec = play::play_match<State>(start, {agents[0].get(), agents[1].get()}, match);
  if (o.cancel != nullptr && o.cancel->load()) return nullptr;
  rec.agents = {sides[0].name, sides[1].name};
  // Step 3. Its record, kept with the programs' logs.
  const fs::path pdn = dir / "game.pdn";
  std::ofstream(pdn) << play::game_record(rec, start,
                                          {{"Event", "duel tournament"},
                                           {"Round", key},
                                           {"Black", sides[0].name},
                                           {"White", sides[1].name},
                                           {"Termination", play::termination(rec)}});
  json moves = json::array();
  for (const auto& m : rec.moves) moves.push_back(m.text);
  const json winner = rec.payoff > 0   ? json(sides[0].name)
                      : rec.payoff < 0 ? json(sides[1].name)
                                       : json(nullptr);
  return {{"key", key},
          {"kind", "game"},
          {"black", sides[0].name},
          {"white", sides[1].name},
          {"winner", winner},
          {"ending", play::ending_name(rec.ending)},
          {"reason", rec.reason},
          {"plies", rec.moves.size()},
          {"time_left", {agents[0]->time_left().value_or(0), agents[1]->time_left().value_or(0)}},
          {"moves", moves},
          {"record", fs::relative(pdn, o.out).string()}};
}

// Runs the tasks not in the journal, `concurrency` at a time; each entry is
// journaled as its task ends.
int run_tasks(const std::vector<Task>& tasks, Journal& journal, const Options& o,
              Progress& progress, const OnProgress& on_progress, const WallClock& clock) {
  std::vector<const Task*> todo;
  for (const auto& t : tasks) {
    if (!journal.has(t.key)) todo.push_back(&t);
  }
  progress.total += static_cast<int>(tasks.size());
  progress.done += static_cast<int>(tasks.size() - todo.size());
  std::atomic<std::size_t> next{0};
  std::mutex lock;
  int ran = 0;
  const auto worker = [&] {
    while (o.cancel == nullptr || !o.cancel->load()) {
      const std::size_t i = next.fetch_add(1);
      if (i >= todo.size()) return;
      json entry = todo[i]->run();
      const std::lock_guard guard(lock);
      if (entry.is_null()) continue;
      journal.append(entry);
      ++ran;
      ++progress.done;
      progress.seconds = clock.seconds();
      progress.last = todo[i]->what;
      if (on_progress) on_progress(progress);
    }
  };
  const int threads = std::clamp(o.concurrency, 1, std::max(1, static_cast<int>(todo.size())));
  if (threads == 1) {
    worker();
  } else {
    std::vector<std::jthread> pool;
    pool.reserve(static_cast<std::size_t>(threads));
    for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
  }
  return ran;
}

[[nodiscard]] json header_of(const Options& o, const std::vector<SinglePosition>& singles) {
  json positions = json::array();
  for (const auto& p : singles) positions.push_back({p.fen, p.seconds});
  json h = {{"course", "csci561"},
            {"format", format_name(o.format)},
            {"time", o.game_seconds},
            {"seed", o.seed},
            {"cpu", o.charge == referee::Charge::User ? "user" : "user+sys"},
            {"lenient", o.reading == games::checkers::protocol::Reading::Lenient}};
  if (o.format == Format::Grading) {
    h["reference"] = o.reference;
    h["reference_games"] = o.reference_games;
    h["positions"] = positions;
  } else {
    h["games"] = o.games;
  }
  return h;
}

[[nodiscard]] Side side_of(const Submission& s) {
  return {s.name, s.command, s.home};
}

}  // namespace

std::string_view format_name(Format f) noexcept {
  switch (f) {
    case Format::Grading: return "grading";
    case Format::Knockout: return "competition";
    case Format::RoundRobin: return "round-robin";
  }
  return "?";
}

Result<Summary> run(const Options& o, const OnProgress& on_progress) {
  // Step 1. The class and the output folder; the journal of an earlier run.
  std::error_code ec;
  if (!fs::is_directory(o.class_dir, ec)) {
    return fail(fmt::format("tournament: {} is not a folder", o.class_dir.string()));
  }
  fs::create_directories(o.out, ec);
  if (ec) return fail(fmt::format("tournament: cannot make {}: {}", o.out.string(), ec.message()));
  const auto& singles = o.singles.empty() ? default_singles() : o.singles;
  auto journal = Journal::open(o.out / "journal.jsonl", header_of(o, singles));
  if (!journal) return fail(journal.error());

  // Step 2. Every submission prepared once: copied, compiled, calibrated.
  std::vector<Submission> students = find_submissions(o.class_dir);
  if (students.empty()) {
    return fail(fmt::format("tournament: {} holds no student folder", o.class_dir.string()));
  }
  for (auto& s : students) prepare(s, o.out / "agents" / s.name, o.limits);

  // Step 3. The schedule, run task by task.
  WallClock clock;
  Progress progress;
  Summary summary;
  const auto run_all = [&](const std::vector<Task>& tasks) {
    const int before = progress.done;
    const int ran = run_tasks(tasks, *journal, o, progress, on_progress, clock);
    summary.tasks_run += ran;
    summary.tasks_resumed += progress.done - before - ran;
  };
  std::vector<Task> tasks;
  const fs::path work = o.out / "games";
  const auto add_game = [&](const std::string& key, const Side& black, const Side& white) {
    tasks.push_back({key, fmt::format("{}: {} (Black) - {} (White)", key, black.name, white.name),
                     [&o, key, black, white, dir = work / file_key(key)] {
                       return game_task(key, {black, white}, dir, o);
                     }});
  };
  if (o.format == Format::Grading) {
    const Side reference{"reference", o.reference, {}};
    for (const auto& s : students) {
      if (!s.ok()) continue;
      for (std::size_t i = 0; i < singles.size(); ++i) {
        const std::string key = fmt::format("single/{}/{}", s.name, i);
        tasks.push_back({key, key, [&o, &s, i, p = singles[i], dir = work / file_key(key)] {
                           return single_task(s, static_cast<int>(i), p, dir, o);
                         }});
      }
      // Seed 003: "Your agent will be given the first move on 5 of the 9 games."
      for (int g = 0; g < o.reference_games; ++g) {
        const std::string key = fmt::format("reference/{}/{}", s.name, g);
        if (g % 2 == 0) {
          add_game(key, side_of(s), reference);
        } else {
          add_game(key, reference, side_of(s));
        }
      }
    }
    run_all(tasks);
  } else if (o.format == Format::RoundRobin) {
    for (std::size_t a = 0; a < students.size(); ++a) {
      for (std::size_t b = a + 1; b < students.size(); ++b) {
        if (!students[a].ok() || !students[b].ok()) continue;
        for (int g = 0; g < o.games; ++g) {
          const auto& x = g % 2 == 0 ? students[a] : students[b];
          const auto& y = g % 2 == 0 ? students[b] : students[a];
          add_game(fmt::format("round-robin/{}/{}/{}", students[a].name, students[b].name, g),
                   side_of(x), side_of(y));
        }
      }
    }
    run_all(tasks);
  } else {
    // The knockout, round by round: a round's pairs come from the one before.
    std::vector<std::size_t> entrants;
    for (std::size_t i = 0; i < students.size(); ++i) {
      if (students[i].ok()) entrants.push_back(i);
    }
    for (int round = 1; entrants.size() > 1; ++round) {
      const auto pairs = knockout_pairs(entrants, o.seed, round);
      tasks.clear();
      for (const auto& [a, b] : pairs) {
        for (int g = 0; g < o.games; ++g) {
          const auto& x = students[g % 2 == 0 ? a : b];
          const auto& y = students[g % 2 == 0 ? b : a];
          add_game(
              fmt::format("competition/{}/{}/{}/{}", round, students[a].name, students[b].name, g),
              side_of(x), side_of(y));
        }
      }
      run_all(tasks);
      if (o.cancel != nullptr && o.cancel->load()) break;
      const auto next =
          knockout_survivors(entrants, pairs, students, journal->entries(), round, o.games);
      if (next.size() == entrants.size()) break;  // no one eliminated: equal winners
      entrants = next;
    }
  }
  summary.cancelled = o.cancel != nullptr && o.cancel->load();

  // Step 4. The table, from the journal alone.
  summary.results = results_document(o, singles, students, journal->entries());
  write_reports(o.out, summary.results);
  return summary;
}

}  // namespace duel::tournament
