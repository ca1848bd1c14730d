#include "duel/tournament/tasks.hpp"

#include "duel/tournament/split_solve.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <variant>

#include <fmt/format.h>

#include "duel/agents/exec_agent.hpp"
#include "duel/core/clock.hpp"
#include "duel/core/text.hpp"
#include "duel/play/game_record.hpp"
#include "duel/play/record_io.hpp"
#include "duel/referee/referee.hpp"
#include "duel/registry/agents.hpp"
#include "duel/registry/games.hpp"
#include "duel/tournament/split_solve.hpp"

namespace duel::tournament {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
namespace protocol = games::checkers::protocol;

[[nodiscard]] fs::path under(const TaskEnv& env, const std::string& path) {
  if (path.empty()) return {};
  const fs::path p(path);
  return p.is_absolute() ? p : env.out / p;
}

[[nodiscard]] referee::Charge charge_of(const json& task) {
  return task.value("cpu", "user") == "user" ? referee::Charge::User : referee::Charge::UserSystem;
}

// "reading": "course" or "strict"; an old journal's "lenient" read as
// then: true took any case and spacing (now the course's reading), false
// the hand-out's letter.
[[nodiscard]] protocol::Reading reading_of(const json& task) {
  if (task.contains("reading")) {
    return protocol::reading_of(task.value("reading", "course"))
        .value_or(protocol::Reading::Course);
  }
  return task.value("lenient", true) ? protocol::Reading::Course : protocol::Reading::Strict;
}

// The limits of a task's boxes ("sandbox", "memory", "processes"; a task
// without them, an earlier journal's, is boxed with the defaults).
[[nodiscard]] box::Limits limits_of(const json& task) {
  box::Limits limits;
  limits.memory = task.value("memory", limits.memory);
  limits.processes = task.value("processes", limits.processes);
  return limits;
}

// After a task, a program's folder keeps what tells what it did (the
// protocol's files and its logs, each up to 8 MiB) and loses the rest: the
// copy of its submission and whatever it wrote, so that a class of
// hundreds, or a program that fills its folder, does not fill the disk.
void prune(const fs::path& dir) {
  static constexpr std::array<std::string_view, 7> kKept = {
      "stdout.log",   "stderr.log",      "input.txt", "output.txt",
      "playdata.txt", "calibration.txt", "task.json"};
  std::error_code ec;
  std::vector<fs::path> doomed;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    // A link its program left is never kept (nor followed).
    const bool kept = std::ranges::find(kKept, name) != kKept.end() &&
                      fs::is_regular_file(it->symlink_status(ec)) &&
                      it->file_size(ec) <= (std::uintmax_t{8} << 20);
    if (!kept) doomed.push_back(it->path());
  }
  for (const auto& p : doomed) fs::remove_all(p, ec);
}

// The task itself beside its results, so that `duel task --out DIR
// DIR/games/KEY/task.json` plays it again.
void keep_task(const fs::path& dir, const json& task) {
  std::ofstream(dir / "task.json") << task.dump() << '\n';
}

// Step 1 of a single move: a fresh copy of the prepared submission.
[[nodiscard]] std::string fresh_copy(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::remove_all(to, ec);
  fs::create_directories(to.parent_path(), ec);
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::skip_symlinks, ec);
  return ec ? fmt::format("cannot copy {}: {}", from.string(), ec.message()) : "";
}

// What a program left in output.txt (the feedback file quotes it), its
// first 4 KiB as valid UTF-8, and the file's size; none without the file.
[[nodiscard]] std::optional<std::pair<std::string, std::uintmax_t>> written_output(
    const fs::path& dir) {
  std::error_code ec;
  const fs::path file = dir / "output.txt";
  if (!fs::is_regular_file(fs::symlink_status(file, ec))) return std::nullopt;  // no link followed
  const std::uintmax_t size = fs::file_size(file, ec);
  std::string text(std::min<std::uintmax_t>(ec ? 0 : size, 4096), '\0');
  std::ifstream(file, std::ios::binary)
      .read(text.data(), static_cast<std::streamsize>(text.size()));
  return std::pair{valid_utf8(text), ec ? 0 : size};
}

json single_task(const json& task, const TaskEnv& env) {
  json j = {{"key", task["key"]},
            {"kind", "single"},
            {"student", task["student"]},
            {"position", task["position"]},
            {"point", 0}};
  const fs::path dir = under(env, task["dir"].get<std::string>());
  const fs::path source = under(env, task.value("source", ""));
  if (std::string e = fresh_copy(source, dir); !e.empty()) {
    j["reason"] = "crash";
    j["detail"] = e;
    return j;
  }
  keep_task(dir, task);
  const auto state = games::checkers::State::parse(task["fen"].get<std::string>());
  if (!state) {
    j["reason"] = "bad position";
    j["detail"] = state.error();
    return j;
  }
  const double seconds = task["seconds"].get<double>();
  referee::TurnSetup setup;
  const std::string program = task["program"].get<std::string>();
  setup.command = referee::resolve_command(program, source);
  setup.dir = dir;
  setup.box = referee::agent_box(program, source, task.value("sandbox", true), limits_of(task));
  if (setup.box && !source.empty()) setup.box->read_only.push_back(source);
  setup.time_left = seconds;
  setup.mode = protocol::Mode::Single;
  setup.wall_factor = task.value("wall_factor", 2.0);
  setup.charge = charge_of(task);
  setup.reading = reading_of(task);
  setup.cancel = env.cancel;
  setup.disk_limit = task.value("disk_limit", setup.disk_limit);
  setup.tick = task.value("tick", 0.0);
  setup.log_header =
      fmt::format("--- single move {}, {:.3f} s ---", task["position"].get<int>() + 1, seconds);
  const referee::TurnResult t = referee::play_turn(setup, *state);
  prune(dir);
  if (!t.move && t.loss == referee::Reason::Cancelled) return nullptr;
  if (auto written = written_output(dir)) {
    j["output"] = std::move(written->first);
    j["output_bytes"] = written->second;
  }
  j["cpu"] = t.cpu;
  j["user"] = t.run.cpu.user;
  j["system"] = t.run.cpu.system;
  if (t.move) {
    j["point"] = 1;
    j["move"] = state->move_text(*t.move);
  } else {
    j["reason"] = referee::reason_text(t.loss);
    j["detail"] = t.detail;
  }
  return j;
}

// A side of a game: a Duel agent from its spec, or a seed 003 program
// (checkers only) in its own folder under the game's.
template <games::PlayableGame S>
Result<std::unique_ptr<agents::Agent<S>>> make_side(const json& side, std::uint64_t seed,
                                                    const json& task, const fs::path& home,
                                                    const TaskEnv& env) {
  if (side.contains("agent")) {
    return registry::make_agent<S>(side["agent"].get<std::string>(), registry::AgentContext{seed});
  }
  if constexpr (std::same_as<S, games::checkers::State>) {
    agents::ExecSettings settings;
    settings.command = side["program"].get<std::string>();
    settings.name = side["name"].get<std::string>();
    settings.seconds = task.value("seconds", 300.0);
    settings.source = under(env, side.value("source", ""));
    settings.home = home;
    settings.charge = charge_of(task);
    settings.reading = reading_of(task);
    settings.cancel = env.cancel;
    settings.disk_limit = task.value("disk_limit", settings.disk_limit);
    settings.wall_factor = task.value("wall_factor", settings.wall_factor);
    // A task without "tick" (an older journal's) charged CPU exactly.
    settings.tick = task.value("tick", 0.0);
    settings.charge_per_move = side.value("charge_per_move", 0.0);
    settings.sandbox = task.value("sandbox", true);
    settings.limits = limits_of(task);
    std::error_code ec;
    fs::remove_all(home, ec);
    auto checked = agents::ExecAgent::parse(std::move(settings));
    if (!checked) return fail(checked.error());
    return std::unique_ptr<agents::Agent<S>>(
        std::make_unique<agents::ExecAgent>(std::move(*checked)));
  } else {
    return fail(fmt::format("{} has no agent programs; give a Duel agent", S::kName));
  }
}

template <games::PlayableGame S>
json game_task(S start, const json& task, const TaskEnv& env) {
  const std::string key = task["key"];
  // Step 0. The opening's moves, played from the task's start.
  for (const auto& text : task.value("opening", json::array())) {
    auto move = start.parse_move(text.get<std::string>());
    if (!move) return {{"key", key}, {"kind", "error"}, {"detail", "opening: " + move.error()}};
    start = start.result(*move);
  }
  const fs::path dir = under(env, task["dir"].get<std::string>());
  std::error_code ec;
  fs::create_directories(dir, ec);
  keep_task(dir, task);
  const std::array<std::string, 2> names = {task["sides"][0]["name"], task["sides"][1]["name"]};
  json entry = {{"key", key},
                {"kind", "game"},
                {"players", names},
                {"sides", {S::kSideNames[0], S::kSideNames[1]}},
                {"start", task.value("start", "")},
                {"opening", task.value("opening", json::array())}};
  // Step 1. Both sides; one that cannot be made loses before a move.
  std::array<std::unique_ptr<agents::Agent<S>>, 2> players;
  for (std::size_t i = 0; i < 2; ++i) {
    std::string side_name(S::kSideNames[i]);
    for (char& c : side_name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto made = make_side<S>(task["sides"][i], task["seeds"][i].get<std::uint64_t>(), task,
                             dir / side_name, env);
    if (!made) {
      entry["winner"] = names[1 - i];
      entry["payoff"] = i == 0 ? -1 : 1;
      entry["ending"] = "abandoned";
      entry["reason"] =
          fmt::format("{} ({}) could not start: {}", S::kSideNames[i], names[i], made.error());
      entry["plies"] = 0;
      entry["moves"] = json::array();
      return entry;
    }
    players[i] = std::move(*made);
  }
  // Step 2. The game, refereed by the one game loop (play/match.hpp); in
  // checkers a draw between two game clocks goes to more time left (seed 003).
  play::MatchOptions match;
  match.timeout = task.value("timeout", 0.0);
  match.max_turns = task.value("max_turns", 0);
  match.tie_to_more_time = std::string_view(S::kName) == "checkers";
  if (const auto a = task.value("adjudication", json::object()); !a.empty()) {
    match.adjudication.draw_after = a.value("draw_after", 0);
    match.adjudication.draw_count = a.value("draw_count", 0);
    match.adjudication.draw_score = a.value("draw_score", 0);
    match.adjudication.resign_count = a.value("resign_count", 0);
    match.adjudication.resign_score = a.value("resign_score", 0);
  }
  match.stop = env.cancel;
  auto rec = play::play_match<S>(start, {players[0].get(), players[1].get()}, match);
  if (env.cancel != nullptr && env.cancel->load()) return nullptr;
  rec.agents = names;
  const std::array<std::optional<double>, 2> clocks = {players[0]->time_left(),
                                                       players[1]->time_left()};
  players = {};  // programs are gone before the record is written
  for (const char* side : {"black", "white"}) prune(dir / side);

  // Step 3. The record in the game's own format (PGN, PDN) or as JSON.
  // (game.json always: each move's time and search statistics, as duel
  // arena --records writes them.)
  fs::path file = dir / "game.json";
  std::ofstream(file) << play::to_json(rec).dump() << '\n';
  if constexpr (S::kRecordFormat != games::RecordFormat::none) {
    file = dir / fmt::format("game.{}", play::format_name(S::kRecordFormat));
    play::RecordTags tags = {{"Event", task.value("event", "duel tournament")},
                             {"Round", task.value("round_tag", key)}};
    for (auto& side : play::side_tags<S>(names)) tags.push_back(std::move(side));
    tags.emplace_back("Termination", play::termination(rec));
    std::ofstream(file) << play::game_record(rec, start, tags);
  }
  json moves = json::array();
  for (const auto& m : rec.moves) moves.push_back(m.text);
  entry["winner"] = rec.payoff > 0 ? json(names[0]) : rec.payoff < 0 ? json(names[1]) : json();
  entry["payoff"] = rec.payoff;
  entry["ending"] = play::ending_name(rec.ending);
  entry["reason"] = rec.reason;
  entry["plies"] = rec.moves.size();
  entry["seconds"] = rec.seconds;
  if (clocks[0] && clocks[1]) {
    entry["time_left"] = {*clocks[0], *clocks[1]};
    // A draw rule's ending that time left decided, by a hair or not at all.
    if (rec.ending == play::Ending::Rules && rec.final_state.utility() == 0 &&
        referee::close_call(*clocks[0], *clocks[1])) {
      entry["close_call"] = true;
    }
  }
  if (task.contains("seconds")) entry["clock"] = task["seconds"];
  entry["moves"] = moves;
  entry["record"] = fs::relative(file, env.out, ec).string();
  return entry;
}

}  // namespace

json game_task(const std::string& key, const std::string& game, const Opening& opening,
               const std::array<json, 2>& sides, const std::array<std::uint64_t, 2>& seeds,
               const std::string& dir) {
  return {{"key", key},
          {"kind", "game"},
          {"game", game},
          {"start", opening.start},
          {"opening", opening.moves},
          {"sides", {sides[0], sides[1]}},
          {"seeds", {seeds[0], seeds[1]}},
          {"dir", dir}};
}

json run_task(const json& task, const TaskEnv& env) {
  // Step 1. The task by its kind.
  const std::string kind = task.value("kind", "");
  json entry;
  if (task.value("sandbox", true) && kind != "solve" && kind != "bye") {
    // A machine that cannot box runs no student's program (a worker too).
    if (auto ok = box::check(); !ok) {
      return {{"key", task["key"]}, {"kind", "error"}, {"detail", ok.error()}};
    }
  }
  if (kind == "single") {
    entry = single_task(task, env);
  } else if (kind == "solve") {
    entry = solve_task(task);
  } else if (kind == "bye") {
    entry = {{"key", task["key"]},
             {"kind", "bye"},
             {"player", task["player"]},
             {"points", task["points"]}};
  } else if (auto game = registry::make_game(task.value("game", ""), task.value("start", ""));
             !game) {
    entry = {{"key", task["key"]}, {"kind", "error"}, {"detail", game.error()}};
  } else {
    entry = std::visit([&](const auto& start) { return game_task(start, task, env); }, *game);
  }
  // Step 2. Where it stands in the tournament, as the plan said.
  if (entry.is_null()) return entry;
  for (const char* field : {"stage", "round", "pairing"}) {
    if (task.contains(field)) entry[field] = task[field];
  }
  return entry;
}

std::array<double, 2> game_scores(const json& entry) {
  const int payoff = entry.value("payoff", 0);
  if (payoff > 0) return {1.0, 0.0};
  if (payoff < 0) return {0.0, 1.0};
  return {0.5, 0.5};
}

}  // namespace duel::tournament
