// The box's words and child steps (box.hpp).
#include "duel/box/box.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string_view>

#include <fmt/format.h>

#include "duel/core/rng.hpp"

extern char** environ;

namespace duel::box {
namespace {

namespace fs = std::filesystem;

// The folders of the system's programs and libraries, shown read-only (a
// link, as Debian's merged /usr makes /bin, stays a link).
constexpr std::array<const char*, 8> kSystem = {"/usr",   "/bin",   "/sbin",   "/lib",
                                                "/lib32", "/lib64", "/libx32", "/opt"};

// What of /etc the interpreters and compilers read: the dynamic linker's
// cache, the alternatives links (java, javac), each runtime's own settings.
// Nothing else of /etc (passwd, shadow, the machine's keys) is there.
constexpr std::array<std::string_view, 6> kEtc = {"alternatives", "ld.so.cache", "ld.so.conf",
                                                  "ld.so.conf.d", "localtime",   "mime.types"};
constexpr std::array<std::string_view, 3> kEtcPrefixes = {"java", "python3", "gcc"};

constexpr uid_t kFirstBoxUid = 1000000;  // above any user a system gives out
constexpr uid_t kBoxUids = 1000000;

[[nodiscard]] bool is_root() {
  return ::geteuid() == 0;
}

// Whether anyone may read `p` and, in a folder, what it holds (the first
// thousand entries; a larger folder counts as not).
[[nodiscard]] bool readable_by_all(const fs::path& p) {
  const auto readable = [](const fs::path& q) {
    struct stat st {};
    if (::lstat(q.c_str(), &st) != 0 || S_ISLNK(st.st_mode)) return true;
    const mode_t need = S_ISDIR(st.st_mode) ? (S_IROTH | S_IXOTH) : S_IROTH;
    return (st.st_mode & need) == need;
  };
  if (!readable(p)) return false;
  std::error_code ec;
  if (!fs::is_directory(p, ec)) return true;
  int seen = 0;
  for (fs::recursive_directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec)) {
    if (++seen > 1000 || !readable(it->path())) return false;
  }
  return true;
}

// As root, a box gets a uid of its own, unless it must read a path that
// only its owner may read (a folder made by mkdtemp): then a user
// namespace, where it is nobody (docs/box.md).
[[nodiscard]] bool own_uid(const Policy& policy) {
  if (!is_root()) return false;
  return std::ranges::all_of(policy.read_only,
                             [](const fs::path& p) { return readable_by_all(p); });
}

[[nodiscard]] std::string find_program(const char* name) {
  for (const char* dir : {"/usr/bin", "/bin", "/usr/local/bin", "/usr/sbin"}) {
    std::string p = std::string(dir) + "/" + name;
    if (::access(p.c_str(), X_OK) == 0) return p;
  }
  return {};
}

[[nodiscard]] fs::path real_path(const fs::path& p) {
  std::error_code ec;
  fs::path r = fs::weakly_canonical(fs::absolute(p, ec), ec);
  return ec ? p : r;
}

void add(std::vector<std::string>& words, std::initializer_list<std::string_view> more) {
  for (const auto w : more) words.emplace_back(w);
}

// The folders above `p` that the box makes to hold it, made 0755 as on the
// machine (bwrap would make them 0700, shutting the box's user out of its
// own folder's path); not those the system's binds or /tmp already give.
void add_parents(std::vector<std::string>& words, const fs::path& p, std::vector<fs::path>& made) {
  std::vector<fs::path> up;
  for (fs::path a = p.parent_path(); !a.empty() && a != a.root_path(); a = a.parent_path()) {
    up.push_back(a);
  }
  for (auto it = up.rbegin(); it != up.rend(); ++it) {
    const std::string text = it->string();
    bool given = text == "/tmp" || text == "/etc" || text == "/proc" || text == "/dev";
    for (const char* d : kSystem)
      given = given || text == d || text.starts_with(std::string(d) + "/");
    if (given || std::ranges::find(made, *it) != made.end()) continue;
    made.push_back(*it);
    add(words, {"--perms", "0755", "--dir", text});
  }
}

// Runs `argv` with its stdout and stderr in a pipe; the exit status and the
// first line it printed.
[[nodiscard]] std::pair<int, std::string> run_quietly(const std::vector<std::string>& argv) {
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0) return {-1, std::strerror(errno)};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, p[1], 1);
  posix_spawn_file_actions_adddup2(&actions, p[1], 2);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(p[1]);
  std::string said;
  std::array<char, 512> buf{};
  ssize_t n = 0;
  while ((n = ::read(p[0], buf.data(), buf.size())) > 0) {
    said.append(buf.data(), static_cast<std::size_t>(n));
  }
  ::close(p[0]);
  if (rc != 0) return {-1, std::strerror(rc)};
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (const auto nl = said.find('\n'); nl != std::string::npos) said.resize(nl);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), said};
}

// The words that run /bin/true in an empty box of folder `dir` (check()
// and startup_seconds()). --as-pid-1: no init of bwrap's own, which bwrap
// does not wait for and which would be left a zombie of this process when
// it is a subreaper.
[[nodiscard]] std::vector<std::string> empty_box(const char* dir) {
  Policy policy;
  policy.dir = dir;
  std::vector<std::string> words = command_line(policy, {"/bin/true"});
  words.insert(words.begin() + 1, "--as-pid-1");
  return words;
}

// What check() measured an empty box's wall time to be (startup_seconds).
[[nodiscard]] std::atomic<double>& measured_startup() {
  static std::atomic<double> seconds{0.0};
  return seconds;
}

}  // namespace

Result<bool> check() {
  static std::once_flag once;
  static std::string why;
  std::call_once(once, [] {
    const std::string bwrap = find_program("bwrap");
    if (bwrap.empty()) {
      why =
          "cannot box: bubblewrap is not installed (apt-get install bubblewrap), or give "
          "--no-sandbox to run programs unboxed";
      return;
    }
    if (is_root() && find_program("setpriv").empty()) {
      why =
          "cannot box: setpriv is not installed (apt-get install util-linux), or give "
          "--no-sandbox to run programs unboxed";
      return;
    }
    char temp[] = "/tmp/duel-box-check-XXXXXX";
    if (::mkdtemp(temp) == nullptr) {
      why = fmt::format("cannot box: cannot make a folder in /tmp: {}", std::strerror(errno));
      return;
    }
    const auto [status, said] = run_quietly(empty_box(temp));
    std::error_code ec;
    fs::remove_all(temp, ec);
    if (status != 0) {
      why = fmt::format(
          "cannot box: bwrap failed ({}){}; or give --no-sandbox to run programs unboxed",
          said.empty() ? fmt::format("status {}", status) : said,
          is_root() ? ""
                    : ": run as root, or allow user namespaces (sysctl "
                      "kernel.unprivileged_userns_clone=1)");
    }
  });
  if (!why.empty()) return fail(why);
  return true;
}

double startup_seconds() {
  // Measured the first time it is asked for, not by check(): `duel box`
  // checks on every start and would pay for five boxes each time.
  static std::once_flag once;
  std::call_once(once, [] {
    if (!check()) return;
    char temp[] = "/tmp/duel-box-startup-XXXXXX";  // mkdtemp's pattern
    if (::mkdtemp(temp) == nullptr) return;
    const std::vector<std::string> words = empty_box(temp);
    // The median of five.
    std::array<double, 5> took{};
    for (double& t : took) {
      const auto start = std::chrono::steady_clock::now();
      (void)run_quietly(words);
      t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    std::ranges::sort(took);
    measured_startup().store(took[2]);
    std::error_code ec;
    fs::remove_all(temp, ec);
  });
  return measured_startup().load();
}

namespace {

// The uid of a box of its own (one per working folder, so that a folder's
// files stay its program's between runs).
[[nodiscard]] uid_t box_uid(const Policy& policy) {
  return kFirstBoxUid + static_cast<uid_t>(fnv1a(real_path(policy.dir).string()) % kBoxUids);
}

// Hands `dir` (and what it holds, links not followed) to `uid`, so that the
// program can write its files.
void hand_over(const fs::path& dir, uid_t uid) {
  (void)::lchown(dir.c_str(), uid, uid);
  // bwrap enters it as root without capabilities, as anyone else would.
  (void)::chmod(dir.c_str(), 0755);
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec), end;
       !ec && it != end; it.increment(ec)) {
    (void)::lchown(it->path().c_str(), uid, uid);
  }
}

}  // namespace

namespace {

// bwrap and its options for a box of `policy`, up to the program's words;
// `own` gets whether the box has a uid of its own (as root), `user` that uid.
// A keeper's box is its PID 1, may kill what the box holds, and shows
// `keeper` (Duel's own program) read-only.
[[nodiscard]] std::vector<std::string> bwrap_words(const Policy& policy, const fs::path& keeper,
                                                   bool& own, uid_t& user) {
  // Step 0. A uid of its own (decided once: it reads the shown folders), and
  // its folder handed to it.
  const bool root = own_uid(policy);
  const uid_t box_user = root ? box_uid(policy) : ::getuid();
  own = root;
  user = box_user;
  if (root) hand_over(real_path(policy.dir), box_user);
  std::vector<std::string> w = {find_program("bwrap")};
  if (w[0].empty()) w[0] = "bwrap";
  // Step 1. Namespaces: no network but loopback, its own processes, IPC and
  // host name; as root no user namespace (the box's uid is taken inside,
  // after bwrap's mounts), otherwise one that makes the caller nobody.
  add(w, {"--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
          "--unshare-cgroup-try", "--die-with-parent", "--new-session", "--cap-drop", "ALL"});
  if (!keeper.empty()) add(w, {"--as-pid-1"});
  if (root) {
    add(w, {"--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_SETPCAP"});
    if (!keeper.empty()) add(w, {"--cap-add", "CAP_KILL"});
  } else {
    add(w, {"--unshare-user", "--uid", "65534", "--gid", "65534"});
  }
  // Step 2. The system, read-only; a private /proc, /dev and /tmp.
  std::error_code ec;
  add(w, {"--perms", "0755", "--dir", "/etc"});
  for (const char* d : kSystem) {
    const fs::path p(d);
    if (fs::is_symlink(p, ec)) {
      add(w, {"--symlink", fs::read_symlink(p, ec).string(), d});
    } else if (fs::is_directory(p, ec)) {
      add(w, {"--ro-bind", d, d});
    }
  }
  for (fs::directory_iterator it("/etc", ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    bool wanted = std::ranges::find(kEtc, name) != kEtc.end();
    for (const auto prefix : kEtcPrefixes) wanted = wanted || name.starts_with(prefix);
    if (wanted) add(w, {"--ro-bind", it->path().string(), it->path().string()});
  }
  add(w, {"--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--size",
          std::to_string(policy.limits.tmp), "--tmpfs", "/tmp"});
  // Step 3. What the caller shows read-only, then the program's own folder.
  std::vector<fs::path> made;
  for (const auto& p : policy.read_only) {
    const fs::path real = real_path(p);
    if (!fs::exists(real, ec)) continue;
    add_parents(w, real, made);
    add(w, {"--ro-bind", real.string(), real.string()});
  }
  if (!keeper.empty()) {
    const fs::path real = real_path(keeper);
    add_parents(w, real, made);
    add(w, {"--ro-bind", real.string(), real.string()});
  }
  const fs::path real_dir = real_path(policy.dir);
  const std::string dir = real_dir.string();
  add_parents(w, real_dir, made);
  add(w, {"--bind", dir, dir, "--chdir", dir});
  // Step 4. Its environment: only what the course defines.
  add(w, {"--clearenv", "--setenv", "PATH", kPath, "--setenv", "HOME", dir, "--setenv", "LANG",
          "C.UTF-8"});
  for (const auto& e : policy.env) {
    const auto eq = e.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    add(w, {"--setenv", e.substr(0, eq), e.substr(eq + 1)});
  }
  return w;
}

}  // namespace

std::vector<std::string> command_line(const Policy& policy, const std::vector<std::string>& argv) {
  bool root = false;
  uid_t box_user = 0;
  std::vector<std::string> w = bwrap_words(policy, {}, root, box_user);
  // As root: become the box's own user, with no capability left.
  if (root) {
    const std::string uid = std::to_string(box_user);
    std::string setpriv = find_program("setpriv");
    add(w, {setpriv.empty() ? "setpriv" : setpriv, "--reuid", uid, "--regid", uid, "--clear-groups",
            "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"});
  }
  w.insert(w.end(), argv.begin(), argv.end());
  return w;
}

std::vector<std::string> keeper_command_line(const Policy& policy, int socket) {
  const std::string duel = duel_binary();
  bool root = false;
  uid_t box_user = 0;
  std::vector<std::string> w = bwrap_words(policy, duel, root, box_user);
  add(w, {duel, "box-keeper", std::to_string(socket), root ? std::to_string(box_user) : "0"});
  return w;
}

std::string duel_binary() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && self.filename() == "duel") return self.string();
  if (const char* env = std::getenv("DUEL_BIN"); env != nullptr && ::access(env, X_OK) == 0) {
    return env;
  }
  if (!ec && ::access((self.parent_path() / "duel").c_str(), X_OK) == 0) {
    return (self.parent_path() / "duel").string();
  }
  return "duel";
}

ChildSteps child_steps(const Limits& limits) noexcept {
  ChildSteps s;
  const auto files = static_cast<rlim_t>(limits.open_files);
  s.nofile = {files, files};
  s.fsize = {limits.file_size, limits.file_size};
  return s;
}

bool ChildSteps::run() const noexcept {
  if (::setrlimit(RLIMIT_NOFILE, &nofile) != 0) return false;
  if (::setrlimit(RLIMIT_FSIZE, &fsize) != 0) return false;
  if (set_as && ::setrlimit(RLIMIT_AS, &as) != 0) return false;
  for (const int fd : cgroup_fds) {
    if (fd >= 0 && ::write(fd, "0", 1) != 1) return false;
  }
  return true;
}

}  // namespace duel::box
