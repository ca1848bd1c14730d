#include "duel/serve/http.hpp"

#include <httplib.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <utility>

#include <fmt/format.h>

namespace duel::serve {

struct HttpServer::Impl {
  explicit Impl(Server& s) : server(s) {}
  Server& server;
  httplib::Server http;
};

namespace {

// One handler for every method and path: Server::handle routes.
void answer(Server& server, const httplib::Request& req, httplib::Response& res) {
  Request r;
  r.method = req.method;
  r.path = req.path;
  for (const auto& [key, value] : req.params) r.query.emplace(key, value);  // first one wins
  r.body = req.body;
  Response out = server.handle(r);
  res.status = out.status;
  for (const auto& [key, value] : out.headers) res.set_header(key, value);
  res.set_header("Cache-Control", "no-store");
  res.set_content(std::move(out.body), out.content_type);
}

}  // namespace

HttpServer::HttpServer(Server& server) : m_impl(std::make_unique<Impl>(server)) {
  auto& http = m_impl->http;
  const auto handler = [this](const httplib::Request& req, httplib::Response& res) {
    answer(m_impl->server, req, res);
  };
  constexpr const char* kAny = R"(/.*)";
  http.Get(kAny, handler);
  http.Post(kAny, handler);
  http.Put(kAny, handler);
  http.Patch(kAny, handler);
  http.Delete(kAny, handler);
  http.Options(kAny, handler);
  // SO_REUSEADDR (a restart right after a stop binds again) but not
  // httplib's default SO_REUSEPORT, with which a second `duel serve` on the
  // same port would bind too and take half the connections. TCP_NODELAY
  // (accepted sockets inherit it): httplib writes a response's head and
  // body separately, and with Nagle's algorithm against the client's delayed
  // ACK every keep-alive request waited about 40 ms (wrk: 290 requests/s).
  http.set_socket_options([](int sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof(yes));
  });
  // Bodies over the limit are refused before they are read (413).
  http.set_payload_max_length(kMaxBody);
  // Errors httplib answers itself (413, 400 for a malformed request, 404
  // for a method it does not know) get the API's JSON shape too.
  http.set_error_handler([](const httplib::Request& /*req*/, httplib::Response& res) {
    if (!res.body.empty()) return;
    const std::string message =
        res.status == 413 ? fmt::format("the request body is over {} KiB", kMaxBody / 1024)
                          : fmt::format("HTTP {}", res.status);
    res.set_content(error_response(res.status, message).body, "application/json");
  });
  http.set_exception_handler(
      [](const httplib::Request& /*req*/, httplib::Response& res, std::exception_ptr /*e*/) {
        res.status = 500;
        res.set_content(error_response(500, "internal error").body, "application/json");
      });
}

HttpServer::~HttpServer() {
  stop();
}

Result<int> HttpServer::bind(const std::string& host, int port) {
  auto& http = m_impl->http;
  if (port == 0) {
    const int bound = http.bind_to_any_port(host);
    if (bound <= 0) return fail(fmt::format("cannot listen on {} (any port)", host));
    return bound;
  }
  if (!http.bind_to_port(host, port)) {
    return fail(fmt::format("cannot listen on {}:{} (in use, or not an address here)", host, port));
  }
  return port;
}

bool HttpServer::run() {
  return m_impl->http.listen_after_bind();
}

void HttpServer::stop() {
  m_impl->http.stop();
}

}  // namespace duel::serve
