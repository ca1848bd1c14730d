// A move in a box kept for the game (watch.hpp's run_kept, box/keeper.hpp).
#include <unistd.h>

#include <array>
#include <string>
#include <vector>

#include "duel/box/keeper.hpp"
#include "duel/referee/watch.hpp"

namespace duel::referee::detail {
namespace {

// What the keeper says of the move: it counts the CPU from the box's own
// /proc and what it reaped, and it kills and reaps what the move left.
class KeptWatch final : public Watched {
 public:
  explicit KeptWatch(box::Keeper& keeper) : m_keeper(keeper) {}

  [[nodiscard]] int wake_fd() const override { return m_keeper.fd(); }
  [[nodiscard]] bool ended() override { return m_keeper.ended(); }
  [[nodiscard]] CpuTime poll() override {
    raise_to(m_charged, cpu_of(m_keeper.usage()));
    return m_charged;
  }
  [[nodiscard]] box::Cgroups::Over over() const override {
    return m_finished ? m_over : m_keeper.over();
  }
  [[nodiscard]] int finish(int& leftovers) override {
    const box::Keeper::Cleared c = m_keeper.clear();
    m_finished = true;
    m_over = m_keeper.over();
    m_peak = m_keeper.peak_memory();
    raise_to(m_charged, cpu_of(c.usage));
    leftovers = c.leftovers;
    m_lost = c.lost;
    return c.lost ? -1 : c.status;
  }
  [[nodiscard]] CpuTime charged() const override { return m_charged; }
  [[nodiscard]] std::uint64_t peak_memory() const override { return m_peak; }
  [[nodiscard]] std::string lost() const override {
    return m_lost ? "its box stopped answering; everything in it was killed" : "";
  }

 private:
  [[nodiscard]] static CpuTime cpu_of(const box::Usage& u) { return {u.user, u.system}; }

  box::Keeper& m_keeper;
  CpuTime m_charged;
  bool m_finished = false;
  bool m_lost = false;
  box::Cgroups::Over m_over = box::Cgroups::Over::None;
  std::uint64_t m_peak = 0;
};

}  // namespace

std::optional<RunResult> run_kept(const RunSpec& spec) {
  box::Keeper& keeper = *spec.keeper;
  if (keeper.unavailable() || !keeper.open()) return std::nullopt;
  // Step 1. Its output's pipes and logs, and its words (the box finds the
  // program on its own PATH).
  RunResult r;
  r.kept = true;
  Spawned child;
  std::array<int, 3> ends{};
  if (std::string e = open_streams(spec, child, ends); !e.empty()) {
    r.error = std::move(e);
    return r;
  }
  std::vector<std::string> words = direct_words(spec.command);
  if (words.empty()) words = {"/bin/sh", "-c", spec.command};
  // Step 2. Started by the keeper (which makes the box on the first move).
  const WallClock clock;
  const auto started = keeper.run(words, ends);
  for (const int fd : ends) ::close(fd);
  if (!started) {
    close_streams(child);
    if (keeper.unavailable()) return std::nullopt;
    r.error = started.error();
    return r;
  }
  KeptWatch watched(keeper);
  RunResult done = watch(spec, child, watched, clock);
  done.kept = true;
  return done;
}

}  // namespace duel::referee::detail
