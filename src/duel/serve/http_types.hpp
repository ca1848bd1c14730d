#pragma once
// An HTTP exchange as plain values, so that the whole server can be driven
// and tested without a socket (http.cpp adapts libmicrohttpd to these).
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace duel::serve {

// One field of a multipart/form-data body (an uploaded file, or a plain
// field with an empty filename).
struct FormPart {
  std::string name;      // the form field's name
  std::string filename;  // as the client named it ("" for a plain field)
  std::string content_type;
  std::string data;
};

struct Request {
  std::string method;                        // "GET", "POST", ...
  std::string path;                          // "/api/games/g1", without the query
  std::map<std::string, std::string> query;  // decoded; the first value of a repeated key
  std::string body;                          // empty for a multipart body (read into `parts`)
  std::vector<FormPart> parts;               // a multipart/form-data body, field by field
  // Header names in lower case; the first value of a repeated header.
  std::map<std::string, std::string> headers;
  bool secure = false;  // it came over HTTPS
};

// An answer that stays open and is sent as it comes (server-sent events).
// Why an interface: the server's feeds know what to send, the HTTP layer
// when the connection can take it; neither needs the other's locks.
class EventStream {
 public:
  virtual ~EventStream() = default;
  // What is waiting to be sent, moved out ("" when nothing is); `ended`
  // is set once nothing more will come.
  [[nodiscard]] virtual std::string take(bool& ended) = 0;
  // The HTTP layer's bell: rung (with no lock of the stream held) whenever
  // take() would give something.
  virtual void on_ready(std::function<void()> ring) = 0;
};

struct Response {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // beyond Content-Type
  std::shared_ptr<EventStream> stream;                       // set: body is ignored
};

// What answers requests. Why an interface: the HTTP layer serves the game
// server and the course server alike, and tests drive either without it.
class Handler {
 public:
  virtual ~Handler() = default;
  // Thread-safe: the HTTP library calls it from its polling threads.
  [[nodiscard]] virtual Response handle(const Request& request) = 0;
};

// A request path's parts: "/api/games/g1/" -> {"api", "games", "g1"}.
[[nodiscard]] inline std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> parts;
  std::size_t at = 0;
  while (at <= path.size()) {
    const auto slash = path.find('/', at);
    const auto end = slash == std::string_view::npos ? path.size() : slash;
    if (end > at) parts.emplace_back(path.substr(at, end - at));
    if (slash == std::string_view::npos) break;
    at = slash + 1;
  }
  return parts;
}

// A JSON answer. Bytes that are not UTF-8 (a request path or query quoted
// in an error, say) are written as U+FFFD: dump() would otherwise throw and
// the answer become a 500.
[[nodiscard]] inline Response json_response(int status, const nlohmann::json& body) {
  return {status,
          "application/json",
          body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
          {},
          nullptr};
}
// `text` as an error message quotes it: in single quotes, cut after `max`
// characters (then "..."), and every byte that is not printable UTF-8 (a
// control character, a stray or overlong byte) written as \xNN, as are a
// quote and a backslash; so a request's bytes never reach an answer raw.
[[nodiscard]] inline std::string quote_input(std::string_view text, std::size_t max = 60) {
  std::string out = "'";
  std::size_t shown = 0;
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const auto cont = [&](std::size_t i, unsigned lo, unsigned hi) {
    return i < text.size() && byte(i) >= lo && byte(i) <= hi;
  };
  for (std::size_t i = 0; i < text.size();) {
    if (shown == max) {
      out += "...";
      break;
    }
    const unsigned c = byte(i);
    // The length of a well-formed UTF-8 sequence starting at i (0: none).
    std::size_t n = 0;
    if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\') {
      n = 1;
    } else if (c >= 0xc2 && c <= 0xdf && cont(i + 1, 0x80, 0xbf)) {
      n = 2;
    } else if (c >= 0xe0 && c <= 0xef &&
               cont(i + 1, c == 0xe0 ? 0xa0 : 0x80, c == 0xed ? 0x9f : 0xbf) &&
               cont(i + 2, 0x80, 0xbf)) {
      n = 3;
    } else if (c >= 0xf0 && c <= 0xf4 &&
               cont(i + 1, c == 0xf0 ? 0x90 : 0x80, c == 0xf4 ? 0x8f : 0xbf) &&
               cont(i + 2, 0x80, 0xbf) && cont(i + 3, 0x80, 0xbf)) {
      n = 4;
    }
    if (n == 0) {
      constexpr std::string_view kHex = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
      n = 1;
    } else {
      out.append(text.substr(i, n));
    }
    i += n;
    ++shown;
  }
  return out + "'";
}

// An error answer: `{"error": "one line"}`, cut to 500 bytes (on a
// character's boundary) with "..." after.
[[nodiscard]] inline Response error_response(int status, std::string message) {
  constexpr std::size_t kMax = 500;
  if (message.size() > kMax) {
    std::size_t cut = kMax;
    while (cut > 0 && (static_cast<unsigned char>(message[cut]) & 0xc0) == 0x80) --cut;
    message.resize(cut);
    message += "...";
  }
  return json_response(status, nlohmann::json{{"error", message}});
}

}  // namespace duel::serve
