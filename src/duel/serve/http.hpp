#pragma once
// `duel serve` on a socket: GNU libmicrohttpd (Debian's libmicrohttpd-dev) in
// front of Server::handle. Kept out of server.hpp so that everything but
// this file and the loopback test runs without a socket.
//
// Why libmicrohttpd: it reads all connections from a few epoll threads, so
// a client that sends slowly or sits idle holds no thread, and it caps the
// connections per client address and in all. (cpp-httplib, before, gave
// each connection one of 8 threads for as long as it stayed open: 8 idle
// keep-alive connections, or 12 sending a header line every 1.5 s, stalled
// every other client; docs/serve.md.) What it has not got, a deadline for a
// whole request, is kept here: a connection that has not sent a complete
// request (head and body) within `deadline` of opening or of its previous
// answer is shut down.
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "duel/core/result.hpp"
#include "duel/serve/server.hpp"

namespace duel::serve {

struct HttpLimits {
  int max_connections = 256;  // open at once, all clients together
  int max_per_client = 32;    // open at once from one address
  // A whole request within this of the connection's start or its previous
  // answer; also how long an answer may wait on a client that does not read.
  std::chrono::milliseconds deadline{std::chrono::seconds(10)};
  int threads = 4;  // polling threads (each serves its share of the connections)
  // A request's body at most, bytes (a multipart body: all its parts).
  std::size_t max_body = kMaxBody;
  // HTTPS when both are set: the certificate chain and private key, PEM.
  std::string tls_cert;
  std::string tls_key;
};

class HttpServer {
 public:
  explicit HttpServer(Handler& handler, HttpLimits limits = {});
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds host:port (port 0: any free port) and starts answering; the port
  // bound, or why not (a certificate the TLS library refuses, too).
  [[nodiscard]] Result<int> bind(const std::string& host, int port);
  // Returns when stop() is called (from any thread, before or after), with
  // every connection closed; false if it was never bound.
  bool run();
  void stop();
  // Connections shut down for missing the deadline so far (tests, logs).
  [[nodiscard]] long deadline_cuts() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;  // keeps microhttpd.h out of this header
};

}  // namespace duel::serve
