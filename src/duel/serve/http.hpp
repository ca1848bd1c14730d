#pragma once
// `duel serve` on a socket: cpp-httplib (Debian's libcpp-httplib-dev) in
// front of Server::handle. Kept out of server.hpp so that everything but
// this file and the loopback test runs without a socket.
#include <memory>
#include <string>

#include "duel/core/result.hpp"
#include "duel/serve/server.hpp"

namespace duel::serve {

class HttpServer {
 public:
  explicit HttpServer(Server& server);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds host:port (port 0: any free port); the port bound, or why not.
  [[nodiscard]] Result<int> bind(const std::string& host, int port);
  // Answers requests until stop() (from any thread); false if it could not.
  bool run();
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;  // keeps httplib.h out of this header
};

}  // namespace duel::serve
