#pragma once
// Wall and CPU clocks, and a deadline the search polls cheaply.
#include <chrono>
#include <ctime>

namespace duel {

class WallClock {
 public:
  WallClock() noexcept : m_start(std::chrono::steady_clock::now()) {}
  void restart() noexcept { m_start = std::chrono::steady_clock::now(); }
  [[nodiscard]] double seconds() const noexcept {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
  }

 private:
  std::chrono::steady_clock::time_point m_start;
};

// CPU time of this process, all threads (the CSCI-561 referee's measure).
[[nodiscard]] inline double process_cpu_seconds() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

class CpuClock {
 public:
  CpuClock() noexcept : m_start(process_cpu_seconds()) {}
  void restart() noexcept { m_start = process_cpu_seconds(); }
  [[nodiscard]] double seconds() const noexcept { return process_cpu_seconds() - m_start; }

 private:
  double m_start;
};

}  // namespace duel
