#pragma once
// One page's live feed of one game (`GET /api/games/{id}/events`): the
// game's views and its search's progress as server-sent events.
//
// Why only the latest of each: a view holds the whole game (every move so
// far), so a page that reads slowly loses nothing by skipping to the newest
// one, and a feed never holds more than three documents (a view, a search,
// an analysis) however slow its page is. The game posts under its own lock; the bell is rung after
// the feed's lock is let go, so the HTTP layer may take() from inside its own.
#include <functional>
#include <mutex>
#include <string>
#include <utility>

#include "duel/serve/http_types.hpp"

namespace duel::serve {

class Feed final : public EventStream {
 public:
  // The game's live view (JSON text); replaces one not yet sent.
  void post_view(std::string json) { post(&Feed::m_view, std::move(json)); }
  // The search's progress (JSON text); replaces one not yet sent.
  void post_search(std::string json) { post(&Feed::m_search, std::move(json)); }
  // The analysis of a position (JSON text); replaces one not yet sent.
  void post_analysis(std::string json) { post(&Feed::m_analysis, std::move(json)); }
  // The game is gone (deleted, dropped, the server stopping): one last
  // `gone` event, then the stream ends.
  void end() {
    std::function<void()> ring;
    {
      std::lock_guard lock(m_mutex);
      if (m_gone) return;
      m_gone = true;
      ring = m_ring;
    }
    if (ring) ring();
  }

  [[nodiscard]] std::string take(bool& ended) override {
    std::lock_guard lock(m_mutex);
    std::string out;
    if (!m_view.empty()) out += "event: view\ndata: " + std::exchange(m_view, {}) + "\n\n";
    if (!m_search.empty()) out += "event: search\ndata: " + std::exchange(m_search, {}) + "\n\n";
    if (!m_analysis.empty()) {
      out += "event: analysis\ndata: " + std::exchange(m_analysis, {}) + "\n\n";
    }
    if (m_gone && !m_said_gone) {
      out += "event: gone\ndata: {}\n\n";
      m_said_gone = true;
    }
    ended = m_said_gone && out.empty();
    return out;
  }

  void on_ready(std::function<void()> ring) override {
    bool now = false;
    {
      std::lock_guard lock(m_mutex);
      m_ring = ring;
      now = !m_view.empty() || !m_search.empty() || !m_analysis.empty() || m_gone;
    }
    if (now && ring) ring();
  }

 private:
  void post(std::string Feed::*slot, std::string json) {
    std::function<void()> ring;
    {
      std::lock_guard lock(m_mutex);
      if (m_gone) return;
      this->*slot = std::move(json);
      ring = m_ring;
    }
    if (ring) ring();
  }

  std::mutex m_mutex;
  std::string m_view;
  std::string m_search;
  std::string m_analysis;
  bool m_gone = false;
  bool m_said_gone = false;
  std::function<void()> m_ring;
};

}  // namespace duel::serve
