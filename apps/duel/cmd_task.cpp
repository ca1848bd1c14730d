// duel task --out DIR [FILE]: one task of a tournament (a game, a single
// move, a bye; src/duel/tournament/tasks.hpp), read as a JSON document from
// FILE or stdin, run, and its journal entry printed as one JSON line. This is
// what a cluster's worker runs for every game (docs/cluster.md), and a way
// to replay one game of a tournament by hand.
#include <atomic>
#include <csignal>
#include <iostream>
#include <iterator>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common.hpp"
#include "duel/core/file.hpp"
#include "duel/tournament/tasks.hpp"

namespace duel::cli {
namespace {

struct TaskArgs {
  std::string file = "-";
  std::string out;
};

std::atomic<bool> g_stop{false};

extern "C" void on_task_signal(int /*sig*/) {
  g_stop.store(true);
}

int run_task_command(const TaskArgs& a) {
  // Step 1. The document, and the build it was planned for.
  std::string text;
  if (a.file == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    auto read = read_file(a.file);
    if (!read) return bad_input(fmt::format("task: cannot read {}", a.file));
    text = std::move(*read);
  }
  const auto task = nlohmann::json::parse(text, nullptr, false);
  if (task.is_discarded() || !task.is_object() || !task.contains("key") ||
      !task["key"].is_string() || !task.contains("kind")) {
    return bad_input("task: not a task document (a JSON object with \"key\" and \"kind\")");
  }
  if (task.contains("build") && task["build"] != kBuildId) {
    return bad_input(fmt::format(
        "task: this duel is build {}, the tournament's is {}; install the same commit on every "
        "host",
        kBuildId, task["build"].dump()));
  }
  std::error_code ec;
  if (!std::filesystem::is_directory(a.out, ec)) {
    return bad_input(fmt::format("task: --out {} is not a folder", a.out));
  }
  struct sigaction sa {};
  sa.sa_handler = on_task_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);

  // Step 2. The task; its entry on one line.
  nlohmann::json entry;
  try {
    entry = tournament::run_task(task, {std::filesystem::absolute(a.out, ec), &g_stop});
  } catch (const nlohmann::json::exception& e) {
    return bad_input(fmt::format("task: a field has the wrong type ({})", e.what()));
  }
  if (entry.is_null()) {
    std::cerr << "duel: task interrupted\n";
    return 130;
  }
  std::cout << entry.dump() << '\n';
  return 0;
}

}  // namespace

Command add_task(CLI::App& app) {
  auto a = std::make_shared<TaskArgs>();
  CLI::App* sub = app.add_subcommand(
      "task", "Run one task of a tournament (a JSON document) and print its journal entry");
  sub->add_option("file", a->file, "The task document ('-': stdin)")->capture_default_str();
  sub->add_option("--out", a->out, "The tournament's folder, where the task's paths are")
      ->required();
  return {sub, [a] { return run_task_command(*a); }};
}

}  // namespace duel::cli
