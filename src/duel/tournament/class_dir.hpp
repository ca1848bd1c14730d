#pragma once
// A class's submissions as a CSCI-561 teacher receives them (seed 003,
// RULES.md §5): one folder per student holding `homework.py` (Python 3),
// `homework.cpp` / `homework11.cpp` (C++, compiled here), `homework.java`,
// or `homework2.py` (Python 2), and optionally `calibrate.*` in the same
// language.
//
// Why here, apart from the games: a submission is untrusted input. Finding
// it, compiling it and running its calibrate program once are done one way
// for every format (grading, competition, round-robin), each with one line
// saying what went wrong, and a broken submission never stops the others.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "duel/box/box.hpp"

namespace duel::tournament {

struct Submission {
  std::string name;              // the folder's name, shown as the student (valid UTF-8)
  std::filesystem::path source;  // the folder as submitted
  std::filesystem::path home;    // the prepared copy every game copies: compiled, calibrated
  std::string language;          // "python3", "c++", "c++11", "java", "python2"
  std::string program;           // homework.py, ...
  std::string command;           // how it runs in a copy of `home`
  std::string calibration;       // "": none; "ok (CPU 0.120 s)" or what went wrong
  std::string error;             // non-empty: it cannot play (why, in one line); it scores 0
  std::string agent;             // an --agent entrant: a Duel agent spec, nothing to prepare
  // What the failed compile or calibrate run said, whole (up to 200 lines):
  // the feedback file's; `error` or `calibration` holds its error line.
  std::string message;
  [[nodiscard]] bool ok() const noexcept { return error.empty(); }
};

// The limits a submission is held to while it is prepared.
struct PrepareLimits {
  double compile_seconds = 120.0;    // wall clock of one compile
  double calibrate_seconds = 120.0;  // wall clock of the calibrate run (seed: "once")
  std::uintmax_t max_bytes = std::uintmax_t{64} << 20;  // the folder's size
  int max_files = 2000;
  // Compiling, calibrating and every move run in a box with these limits
  // (box/box.hpp); false: with our rights (--no-sandbox).
  bool sandbox = true;
  box::Limits box;
};

// The students in `class_dir`: each sub-folder, sorted by name, with the
// program it holds (or why it holds none). Files at the top level and
// hidden folders are skipped. Boxed (`sandbox`), an interpreter is the
// box's (on its PATH); unboxed, the one PATH finds here, resolved.
[[nodiscard]] std::vector<Submission> find_submissions(const std::filesystem::path& class_dir,
                                                       bool sandbox = true);

// Copies `s` into `home` (made afresh), compiles it with the course's
// command and runs its calibrate program once there. On failure `s.error`
// says why.
void prepare(Submission& s, const std::filesystem::path& home, const PrepareLimits& limits = {});

// The compile commands, as docs/tournament.md lists them.
[[nodiscard]] std::string compile_command(const std::string& language, const std::string& program,
                                          const std::string& output);

}  // namespace duel::tournament
