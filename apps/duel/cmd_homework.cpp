// duel homework / duel calibrate: Duel as a checkers agent program for seed
// 003's file protocol (input.txt -> output.txt; RULES.md §5).
#include <filesystem>
#include <fstream>

#include "common.hpp"
#include "duel/play/homework.hpp"

namespace duel::cli {
namespace {

struct CalibrateArgs {
  std::filesystem::path dir = ".";
  double seconds = 1.0;
};

}  // namespace

Command add_homework(CLI::App& app) {
  auto args = std::make_shared<play::HomeworkOptions>();
  CLI::App* sub = app.add_subcommand(
      "homework",
      "Play one checkers move by seed 003's protocol: read input.txt, write output.txt "
      "(GAME mode keeps playdata.txt; calibration.txt is read when present)");
  sub->add_option("--agent", args->agent,
                  "Agent spec (default: engine; the seed's reference: minimax:depth=4)");
  sub->add_option("--dir", args->dir, "Working directory (default: the current one)");
  sub->add_flag("--verbose,-v", args->verbose, "The time plan and search on stderr");
  return {sub, [args] {
            const auto r = play::run_homework(*args);
            if (const auto* e = std::get_if<play::HomeworkError>(&r)) {
              if (e->status == kBadInput) return bad_input(e->message);
              std::cerr << "duel: " << e->message << '\n';
              return e->status;
            }
            return 0;
          }};
}

Command add_calibrate(CLI::App& app) {
  auto args = std::make_shared<CalibrateArgs>();
  CLI::App* sub = app.add_subcommand(
      "calibrate", "Measure this machine for duel homework and write calibration.txt");
  sub->add_option("--dir", args->dir, "Where to write calibration.txt (default: here)");
  sub->add_option("--time,--seconds", args->seconds, "Time for the engine speed measurement")
      ->check(CLI::Range(0.05, 60.0));
  return {sub, [args] {
            const play::Calibration c = play::calibrate(args->seconds);
            const auto path = args->dir / "calibration.txt";
            std::ofstream out(path);
            if (!(out << play::calibration_text(c))) {
              return bad_input(fmt::format("cannot write {}", path.string()));
            }
            std::cout << play::calibration_text(c);
            return 0;
          }};
}

}  // namespace duel::cli
