#pragma once
// Helper threads for a search: started on first use, reused by every search
// after that, ended with their owner.
//
// Why: a timed move may last 1 ms; starting and joining threads for every
// move would spend part of that (and wake the kernel's scheduler twice a
// move), so the engine keeps its helpers parked on a condition variable.
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace duel::search {

class HelperPool {
 public:
  using Job = std::function<void(std::size_t)>;  // called with the helper's index, 1..count

  HelperPool() = default;
  HelperPool(const HelperPool&) = delete;
  HelperPool& operator=(const HelperPool&) = delete;
  HelperPool(HelperPool&&) = delete;
  HelperPool& operator=(HelperPool&&) = delete;
  ~HelperPool() {
    {
      const std::lock_guard lock(m_mutex);
      m_quit = true;
    }
    m_wake.notify_all();
    for (auto& t : m_threads) t.join();
  }

  // Runs job(1) ... job(count) on helper threads, each on its own, and
  // returns at once; wait() blocks until all have returned. One round at a
  // time: start() again only after wait().
  void start(std::size_t count, Job job) {
    const std::lock_guard lock(m_mutex);
    while (m_threads.size() < count) {
      const std::size_t index = m_threads.size() + 1;
      m_threads.emplace_back([this, index, round = m_round] { loop(index, round); });
    }
    m_job = std::move(job);
    m_count = count;
    m_running = count;
    m_started = 0;
    m_closed = false;
    ++m_round;
    m_wake.notify_all();
  }

  // Blocks until every job of the round that started has returned. A
  // helper that has not woken up yet (on a busy machine the scheduler may
  // hold it for milliseconds) is not waited for: the round closes, and it
  // goes back to sleep when it wakes.
  void wait() {
    std::unique_lock lock(m_mutex);
    if (!m_closed) {
      m_closed = true;
      m_running -= m_count - m_started;
    }
    m_done.wait(lock, [this] { return m_running == 0; });
    m_job = nullptr;
  }

  [[nodiscard]] std::size_t threads() const {
    const std::lock_guard lock(m_mutex);
    return m_threads.size();
  }

 private:
  // A helper's life: park until a new round (or the end), run the job if
  // the round needs this helper, report back.
  void loop(std::size_t index, std::uint64_t seen) {
    std::unique_lock lock(m_mutex);
    for (;;) {
      m_wake.wait(lock, [&] { return m_quit || m_round != seen; });
      if (m_quit) return;
      seen = m_round;
      if (index > m_count || m_closed) continue;
      ++m_started;
      const Job& job = m_job;
      lock.unlock();
      job(index);
      lock.lock();
      if (--m_running == 0) m_done.notify_all();
    }
  }

  mutable std::mutex m_mutex;
  std::condition_variable m_wake;  // a new round, or the end
  std::condition_variable m_done;  // the round's last helper returned
  std::vector<std::thread> m_threads;
  Job m_job;
  std::uint64_t m_round = 0;
  std::size_t m_count = 0;
  std::size_t m_running = 0;  // helpers of this round not yet returned
  std::size_t m_started = 0;  // helpers that took this round's job
  bool m_closed = false;      // wait() was called: no helper takes the job any more
  bool m_quit = false;
};

}  // namespace duel::search
