#pragma once
// Calls into Python from C++ code that runs without the GIL (a search, a
// match, an arena's threads): each call takes the GIL back, and the first
// exception raised (by the user's function, or KeyboardInterrupt from
// Ctrl-C) is kept, sets a stop flag and is raised again by `rethrow` once
// the C++ code has returned. Why not let it unwind: the search's stop checks
// are noexcept and the match loop owns agents and threads, so the C++ side
// must finish normally first.
#include <pybind11/pybind11.h>

#include <atomic>
#include <exception>
#include <utility>

namespace duel::python {

class PythonCalls {
 public:
  // Runs `f` with the GIL held unless something already raised; returns
  // false when `f` did not run or raised.
  template <class F>
  bool call(F&& f) noexcept {
    if (m_stop.load(std::memory_order_relaxed)) return false;
    pybind11::gil_scoped_acquire gil;
    try {
      // Ctrl-C: the signal handler runs here (on the main thread) and raises.
      if (PyErr_CheckSignals() != 0) throw pybind11::error_already_set();
      f();
      return true;
    } catch (...) {
      // Two threads (an arena's) may both raise: the first one is kept.
      if (!m_stop.exchange(true)) m_error = std::current_exception();
      return false;
    }
  }
  [[nodiscard]] const std::atomic<bool>* stop_flag() const noexcept { return &m_stop; }
  [[nodiscard]] bool raised() const noexcept { return m_stop.load(); }
  // With the GIL held: raises what a call raised, if anything did.
  void rethrow() {
    if (m_error) std::rethrow_exception(std::exchange(m_error, nullptr));
  }

 private:
  std::atomic<bool> m_stop{false};
  std::exception_ptr m_error;
};

}  // namespace duel::python
