#pragma once
// An HTTP exchange as plain values, so that the whole server can be driven
// and tested without a socket (http.cpp adapts libmicrohttpd to these).
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace duel::serve {

struct Request {
  std::string method;                        // "GET", "POST", ...
  std::string path;                          // "/api/games/g1", without the query
  std::map<std::string, std::string> query;  // decoded; the first value of a repeated key
  std::string body;
};

struct Response {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // beyond Content-Type
};

// A JSON answer. Bytes that are not UTF-8 (a request path or query quoted
// in an error, say) are written as U+FFFD: dump() would otherwise throw and
// the answer become a 500.
[[nodiscard]] inline Response json_response(int status, const nlohmann::json& body) {
  return {status,
          "application/json",
          body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
          {}};
}
// An error answer: `{"error": "one line"}`.
[[nodiscard]] inline Response error_response(int status, const std::string& message) {
  return json_response(status, nlohmann::json{{"error", message}});
}

}  // namespace duel::serve
