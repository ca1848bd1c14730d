#include "duel/tournament/class_dir.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

#include "duel/core/file.hpp"
#include "duel/core/text.hpp"
#include "duel/referee/process.hpp"

namespace duel::tournament {
namespace {

namespace fs = std::filesystem;

// Seed 003's file names, by language.
struct Language {
  std::string_view program;
  std::string_view language;
  std::string_view run;  // the command in the prepared folder
};
constexpr std::array<Language, 5> kLanguages = {{
    {"homework.py", "python3", "python3 homework.py"},
    {"homework11.cpp", "c++11", "./homework"},
    {"homework.cpp", "c++", "./homework"},
    {"homework.java", "java", "java homework"},
    {"homework2.py", "python2", "python2 homework2.py"},
}};

// The calibrate program of a language and how it runs once compiled.
struct Calibrate {
  std::string file;
  std::string run;
};
[[nodiscard]] Calibrate calibrate_of(const std::string& language) {
  if (language == "python3") return {"calibrate.py", "python3 calibrate.py"};
  if (language == "python2") return {"calibrate2.py", "python2 calibrate2.py"};
  if (language == "java") return {"calibrate.java", "java calibrate"};
  if (language == "c++11") return {"calibrate11.cpp", "./calibrate"};
  return {"calibrate.cpp", "./calibrate"};
}

// A compiler's message, kept whole for the feedback file up to this many
// lines and bytes (a template error in C++ can run to thousands of lines).
constexpr int kMessageLines = 200;
constexpr std::size_t kMessageBytes = 64 * 1024;

// The text of a log, valid UTF-8, cut after kMessageLines lines or
// kMessageBytes bytes.
[[nodiscard]] std::string message_of(const fs::path& file) {
  std::istringstream in(read_own_file(file).value_or(""));
  std::string line;
  std::string out;
  int lines = 0;
  while (std::getline(in, line)) {
    if (++lines > kMessageLines || out.size() + line.size() > kMessageBytes) {
      out += fmt::format("... (cut here; the whole message is in {})\n", file.filename().string());
      break;
    }
    out += line + '\n';
  }
  return valid_utf8(out);
}

// The line of a compiler's message that names the error, cut short: the
// first holding "error:" in any case (javac's `homework.java:3: error:
// ...`, g++'s `homework.cpp:1:10: error: ...`, Python's `SyntaxError:
// ...`), else the last non-empty one (javac's last line is only "1 error").
[[nodiscard]] std::string error_line(const std::string& message) {
  std::string found;
  std::string last;
  std::size_t at = 0;
  while (at < message.size() && found.empty()) {
    std::size_t end = message.find('\n', at);
    if (end == std::string::npos) end = message.size();
    const std::string line(trim(std::string_view(message).substr(at, end - at)));
    at = end + 1;
    if (line.empty()) continue;
    last = line;
    std::string low = line;
    for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (low.find("error:") != std::string::npos) found = line;
  }
  std::string out = found.empty() ? last : found;
  if (out.size() > 160) out = out.substr(0, 160) + "...";
  return valid_utf8(out);
}

// What a step that failed said: a one-line reason and the whole message.
struct StepFailure {
  std::string reason;   // "" when the step succeeded
  std::string message;  // the log, up to kMessageLines lines
};

// Runs `command` in `dir` with a wall limit, output to `log`.
[[nodiscard]] StepFailure run_step(const std::string& what, const std::string& command,
                                   const fs::path& dir, const fs::path& log, double seconds,
                                   const PrepareLimits& limits) {
  referee::RunSpec spec;
  spec.command = command;
  spec.dir = dir;
  if (limits.sandbox) spec.box = box::Policy{{}, {}, {}, limits.box};
  spec.out_log = log;
  spec.err_log = log;
  spec.wall_limit = seconds;
  const referee::RunResult r = referee::run_agent(spec);
  if (r.clean_exit()) return {};
  StepFailure f;
  f.message = message_of(log);
  const std::string said = error_line(f.message);
  f.reason =
      fmt::format("{} failed: {}{}", what, r.describe(), said.empty() ? "" : " (" + said + ")");
  return f;
}

// An interpreter as the submission will run it: the name found on PATH,
// resolved to the program itself. A pyenv shim is a shell script that costs
// every move about 90 ms of CPU, which would be charged to the student.
[[nodiscard]] std::string real_interpreter(const std::string& name) {
  static std::mutex lock;
  static std::map<std::string, std::string> known;
  const std::lock_guard guard(lock);
  if (const auto it = known.find(name); it != known.end()) return it->second;
  std::string found = name;
  const std::string ask = name + " -c 'import sys; print(sys.executable)' 2>/dev/null";
  if (FILE* pipe = ::popen(ask.c_str(), "r"); pipe != nullptr) {
    std::array<char, 4096> buffer{};
    std::string said;
    while (std::fgets(buffer.data(), static_cast<int>(buffer.size()), pipe) != nullptr) {
      said += buffer.data();
    }
    const std::string path(trim(said));
    std::error_code ec;
    if (::pclose(pipe) == 0 && !path.empty() && path.front() == '/' &&
        fs::is_regular_file(path, ec)) {
      const bool plain =
          path.find_first_not_of(
              "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+") ==
          std::string::npos;
      found = plain ? path : referee::shell_quote(path);
    }
  }
  known[name] = found;
  return found;
}

// `python3 homework.py` with python3 resolved; other languages as they are.
[[nodiscard]] std::string with_real_interpreter(const std::string& language,
                                                const std::string& command) {
  if (language != "python3" && language != "python2") return command;
  const std::string word = command.substr(0, command.find(' '));
  return real_interpreter(word) + command.substr(word.size());
}

}  // namespace

std::string compile_command(const std::string& language, const std::string& program,
                            const std::string& output) {
  if (language == "c++11") return fmt::format("g++ -std=c++11 -O2 -o {} {}", output, program);
  if (language == "c++") return fmt::format("g++ -std=c++17 -O2 -o {} {}", output, program);
  if (language == "java") return fmt::format("javac {}", program);
  return {};
}

std::vector<Submission> find_submissions(const fs::path& class_dir, bool sandbox) {
  std::vector<Submission> out;
  std::error_code ec;
  for (fs::directory_iterator it(class_dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& dir = it->path();
    const std::string raw = dir.filename().string();
    if (raw.empty() || raw[0] == '.' || !it->is_directory(ec)) continue;
    Submission s;
    s.name = valid_utf8(raw);
    s.source = dir;
    // Step 1. Exactly one program of seed 003's names.
    std::vector<const Language*> found;
    for (const auto& l : kLanguages) {
      if (fs::is_regular_file(dir / l.program, ec)) found.push_back(&l);
    }
    if (found.empty()) {
      s.error =
          "no program: seed 003 names it homework.py, homework.cpp, homework11.cpp, "
          "homework.java or homework2.py";
    } else if (found.size() > 1) {
      s.error = fmt::format("two programs, {} and {}: the course runs one; keep one",
                            found[0]->program, found[1]->program);
    } else {
      s.program = found[0]->program;
      s.language = found[0]->language;
      s.command = found[0]->run;
      if (!sandbox) s.command = with_real_interpreter(s.language, s.command);
    }
    out.push_back(std::move(s));
  }
  std::ranges::sort(out, {}, &Submission::name);
  return out;
}

void prepare(Submission& s, const fs::path& home, const PrepareLimits& limits) {
  if (!s.ok()) return;
  s.home = home;
  // Step 1. The folder's size, then a fresh copy of it (no symbolic links
  // followed out of it).
  std::error_code ec;
  std::uintmax_t bytes = 0;
  int files = 0;
  for (fs::recursive_directory_iterator it(s.source, ec), end; !ec && it != end; it.increment(ec)) {
    if (++files > limits.max_files) {
      s.error = fmt::format("more than {} files", limits.max_files);
      return;
    }
    if (it->is_regular_file(ec)) bytes += it->file_size(ec);
    if (bytes > limits.max_bytes) {
      s.error = fmt::format("larger than {} MB", limits.max_bytes >> 20);
      return;
    }
  }
  fs::remove_all(home, ec);
  fs::create_directories(home.parent_path(), ec);
  fs::copy(s.source, home, fs::copy_options::recursive | fs::copy_options::skip_symlinks, ec);
  if (ec) {
    s.error = fmt::format("cannot copy the folder: {}", ec.message());
    return;
  }
  for (const char* stale : {"output.txt", "input.txt", "playdata.txt", "calibration.txt"}) {
    fs::remove(home / stale, ec);
  }

  // Step 2. Compile, as the course does.
  const fs::path log = home / "build.log";
  if (const std::string cc = compile_command(s.language, s.program, "homework"); !cc.empty()) {
    StepFailure f = run_step("compiling", cc, home, log, limits.compile_seconds, limits);
    s.error = std::move(f.reason);
    s.message = std::move(f.message);
    if (!s.ok()) return;
  }
  // Step 3. calibrate, once, if it came with one: its failure is reported,
  // and the agent still plays (without calibration.txt).
  const Calibrate cal = calibrate_of(s.language);
  if (!fs::is_regular_file(home / cal.file, ec)) return;
  if (const std::string cc = compile_command(s.language, cal.file, "calibrate"); !cc.empty()) {
    if (StepFailure f =
            run_step("compiling calibrate", cc, home, log, limits.compile_seconds, limits);
        !f.reason.empty()) {
      s.calibration = std::move(f.reason);
      s.message = std::move(f.message);
      return;
    }
  }
  referee::RunSpec spec;
  spec.command = limits.sandbox ? cal.run : with_real_interpreter(s.language, cal.run);
  spec.dir = home;
  if (limits.sandbox) spec.box = box::Policy{{}, {}, {}, limits.box};
  spec.out_log = home / "calibrate.log";
  spec.err_log = home / "calibrate.log";
  spec.wall_limit = limits.calibrate_seconds;
  const referee::RunResult r = referee::run_agent(spec);
  if (r.clean_exit()) {
    s.calibration =
        fmt::format("ok (CPU {:.3f} s{})", r.cpu_seconds,
                    fs::exists(home / "calibration.txt", ec) ? "" : ", no calibration.txt written");
    return;
  }
  s.message = message_of(spec.out_log);
  const std::string said = error_line(s.message);
  s.calibration =
      fmt::format("calibrate failed: {}{}", r.describe(), said.empty() ? "" : " (" + said + ")");
}

}  // namespace duel::tournament
