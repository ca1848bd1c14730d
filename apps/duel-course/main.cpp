// duel-course: the course server (docs/course-server.md). `duel course ...`
// runs this program (apps/duel/cmd_course.cpp), so that only it links the
// HTTP, database and archive libraries.
//
//   duel course new DIR --course csci561 --roster roster.csv [--url URL]
//   duel course serve DIR [--port 8080] [--workers 2 | --scheduler tcp://H:P] [--cert F --key F]
//   duel course token DIR STUDENT
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "duel/course/course.hpp"
#include "duel/course/judge.hpp"
#include "duel/course/server.hpp"
#include "duel/course/store.hpp"
#include "duel/serve/http.hpp"

namespace {

namespace fs = std::filesystem;
using namespace duel::course;

int bad(const std::string& message) {
  std::cerr << "duel: course: " << message << '\n';
  return 2;
}

std::optional<std::string> slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// "2026-12-10T23:59:00Z" (or without seconds), UTC.
std::optional<double> parse_time(const std::string& text) {
  std::tm tm{};
  for (const char* format : {"%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%dT%H:%MZ", "%Y-%m-%d %H:%M:%S"}) {
    tm = {};
    const char* end = strptime(text.c_str(), format, &tm);
    if (end != nullptr && *end == '\0') return static_cast<double>(timegm(&tm));
  }
  return std::nullopt;
}

struct NewArgs {
  std::string dir, course, roster, title, url, deadline;
};

int run_new(const NewArgs& a) {
  auto config = Config::defaults(a.course);
  if (!config) return bad(config.error());
  if (!a.title.empty()) config->title = a.title;
  config->url = a.url;
  const auto text = slurp(a.roster);
  if (!text) return bad(fmt::format("--roster {}: cannot read it", a.roster));
  auto roster = read_roster(*text);
  if (!roster) return bad(roster.error());
  std::optional<double> deadline;
  if (!a.deadline.empty()) {
    deadline = parse_time(a.deadline);
    if (!deadline) return bad("--deadline: give UTC as 2026-12-10T23:59:00Z");
  }
  auto made = create_course(a.dir, *config, *roster);
  if (!made) return bad(made.error());
  if (deadline) {
    auto store = Store::open((fs::path(a.dir) / "course.db").string());
    if (!store) return bad(store.error());
    (*store)->set_deadline(deadline);
  }
  std::cout << made->csv;
  std::cerr << fmt::format(
      "duel course: made {} ({} students): the sign-in links above are in {}/sign-in.csv; the "
      "teacher's: {}\n",
      a.dir, roster->size(), a.dir, made->teacher_link);
  return 0;
}

struct ServeArgs {
  std::string dir, host = "127.0.0.1", scheduler, cert, key, web_root, duel;
  int port = 8080;
  int workers = 2;
};

int run_serve(const ServeArgs& a) {
  // Step 1. The course, locked against a second server.
  const fs::path dir = a.dir;
  const auto text = slurp((dir / "course.json").string());
  if (!text) return bad(fmt::format("{}: no course.json (make one with duel course new)", a.dir));
  const auto j = nlohmann::json::parse(*text, nullptr, false);
  auto config = j.is_object() ? Config::from_json(j)
                              : duel::Result<Config>(duel::fail("course.json is not JSON"));
  if (!config) return bad(config.error());
  const int lock = ::open((dir / ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (lock < 0 || ::flock(lock, LOCK_EX | LOCK_NB) != 0) {
    return bad(fmt::format("{}: another server is serving this course", a.dir));
  }
  duel::serve::HttpLimits limits;
  if (!a.cert.empty() || !a.key.empty()) {
    const auto cert = slurp(a.cert);
    const auto key = slurp(a.key);
    if (a.cert.empty() || a.key.empty() || !cert || !key) {
      return bad("HTTPS needs both --cert and --key, readable PEM files");
    }
    limits.tls_cert = *cert;
    limits.tls_key = *key;
  }
  limits.max_body = static_cast<std::size_t>(config->max_upload_bytes) + (256 << 10);
  auto store = Store::open((dir / "course.db").string());
  if (!store) return bad(store.error());
  // Step 2. Signals to one thread; jobs a dead server left running queued again.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  const int requeued = (*store)->requeue_running();
  JudgeOptions jo;
  jo.workers = a.workers;
  jo.scheduler = a.scheduler;
  jo.duel_binary = a.duel;
  Judges judges(**store, *config, dir, jo);
  duel::serve::ServerOptions board;
  board.web_root = a.web_root;
  board.max_games = 256;
  CourseServer server(dir, *config, **store, judges, board);
  duel::serve::HttpServer http(server, limits);
  const auto port = http.bind(a.host, a.port);
  if (!port) {
    std::cerr << "duel: course: " << port.error() << '\n';
    return 1;
  }
  judges.start();
  const bool tls = !limits.tls_cert.empty();
  const bool loopback = a.host == "127.0.0.1" || a.host == "::1" || a.host == "localhost";
  const bool v6 = a.host.find(':') != std::string::npos;
  std::cout << fmt::format("duel course: serving {} on {}://{}{}{}:{}/course/ ({}{})",
                           config->title, tls ? "https" : "http", v6 ? "[" : "", a.host,
                           v6 ? "]" : "", *port,
                           a.scheduler.empty() ? fmt::format("{} judges", a.workers)
                                               : "judging on " + a.scheduler,
                           requeued > 0 ? fmt::format("; {} unfinished job{} queued again",
                                                      requeued, requeued == 1 ? "" : "s")
                                        : "")
            << std::endl;
  if (!a.scheduler.empty() && config->kind() == Kind::Cs3243) {
    std::cout << "duel course: cs3243 is judged on this machine, --workers at a time (its grader "
                 "runs the students' Python itself; the cluster is not used)"
              << std::endl;
  }
  if (!tls && loopback) {
    std::cout << "duel course: loopback only: students on other machines cannot reach it; give "
                 "--host 0.0.0.0 with --cert and --key to serve HTTPS"
              << std::endl;
  } else if (!tls) {
    std::cout << "duel course: plain HTTP beyond loopback: sign-in tokens and cookies cross the "
                 "network unencrypted; give --cert and --key"
              << std::endl;
  }
  // Step 3. Serve until a signal.
  std::atomic<bool> done{false};
  std::thread waiter([&] {
    const timespec tick{0, 100'000'000};
    while (!done.load()) {
      if (sigtimedwait(&signals, nullptr, &tick) <= 0) continue;
      http.stop();
    }
  });
  http.run();
  done.store(true);
  waiter.join();
  judges.stop();
  server.shutdown();
  return 0;
}

int run(int argc, char** argv) {
  CLI::App app{
      "Duel's course server: students submit, judges grade, a ladder ranks "
      "(docs/course-server.md)",
      "duel course"};
  app.require_subcommand(1);
  NewArgs na;
  auto* made = app.add_subcommand(
      "new", "Make a course folder from a roster; prints each student's sign-in link (CSV)");
  made->add_option("dir", na.dir, "The course folder to make")->required();
  made->add_option("--course", na.course, "csci561, cs3243 or a checkers game spec")->required();
  made->add_option("--roster", na.roster, "CSV: id,name,email a student")->required();
  made->add_option("--title", na.title, "The course's name on the pages");
  made->add_option("--url", na.url, "The server's address as students reach it (for the links)");
  made->add_option("--deadline", na.deadline,
                   "UTC, 2026-12-10T23:59:00Z; later submissions are marked late");
  ServeArgs sa;
  auto* serve = app.add_subcommand("serve", "Serve a course until SIGINT/SIGTERM");
  serve->add_option("dir", sa.dir, "The course folder")->required();
  serve->add_option("--host", sa.host, "Address to listen on (default 127.0.0.1, loopback only)");
  serve->add_option("--port", sa.port, "Port (0 = any free port)")->check(CLI::Range(0, 65535));
  serve->add_option("--workers", sa.workers, "Local judges: jobs at once")
      ->check(CLI::Range(1, 256));
  serve->add_option("--scheduler", sa.scheduler, "Judge on a Dask cluster (tcp://HOST:PORT)");
  serve->add_option("--cert", sa.cert, "HTTPS certificate chain (PEM)");
  serve->add_option("--key", sa.key, "HTTPS private key (PEM)");
  serve->add_option("--web-root", sa.web_root, "Serve the pages from this folder")
      ->check(CLI::ExistingDirectory);
  serve->add_option("--duel", sa.duel, "The duel binary the judges run (default: beside this one)");
  std::string token_dir, token_student;
  auto* token = app.add_subcommand(
      "token", "A new sign-in token for a student (or teacher); the old one stops working");
  token->add_option("dir", token_dir, "The course folder")->required();
  token->add_option("student", token_student, "The student's id, or teacher")->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return bad(e.what());
  }
  try {
    if (made->parsed()) return run_new(na);
    if (serve->parsed()) {
      if (!sa.scheduler.empty() && sa.scheduler.rfind("tcp://", 0) != 0) {
        return bad("--scheduler: give tcp://HOST:PORT");
      }
      return run_serve(sa);
    }
    auto t = reissue_token(token_dir, token_student);
    if (!t) return bad(t.error());
    std::cout << *t << '\n';
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "duel: course: internal error: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (...) {
    std::cerr << "duel: course: internal error\n";
    return 1;
  }
}
