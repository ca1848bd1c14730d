#include "duel/serve/http.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace duel::serve {
namespace {

using Clock = std::chrono::steady_clock;

// One open connection, as the deadline sees it.
struct Link {
  // Our own duplicate of the connection's socket: shutting the socket down
  // through it cannot reach another connection that reused the number.
  int fd = -1;
  bool reading = true;  // waiting for a whole request (else answering one)
  Clock::time_point since;
  bool cut = false;
};

// One request's body as it arrives: kept whole, or a multipart form read
// part by part with libmicrohttpd's post processor.
struct Pending {
  std::string body;
  std::vector<FormPart> parts;
  MHD_PostProcessor* form = nullptr;
  std::size_t form_bytes = 0;  // all parts' data so far
  std::size_t max_body = kMaxBody;
  bool too_big = false;
  bool bad_form = false;
  Pending() = default;
  Pending(const Pending&) = delete;
  Pending& operator=(const Pending&) = delete;
  ~Pending() {
    if (form != nullptr) MHD_destroy_post_processor(form);
  }

  // The post processor's callback: one piece of one field. A piece at
  // offset 0 starts a part; later pieces continue the last one.
  static MHD_Result on_field(void* cls, MHD_ValueKind /*kind*/, const char* key,
                             const char* filename, const char* content_type,
                             const char* /*transfer_encoding*/, const char* data, uint64_t off,
                             size_t size) {
    auto& self = *static_cast<Pending*>(cls);
    self.form_bytes += size;
    if (self.form_bytes > self.max_body) {
      self.too_big = true;
      self.parts.clear();
      return MHD_NO;
    }
    const std::string name = key == nullptr ? "" : key;
    const std::string file = filename == nullptr ? "" : filename;
    if (off == 0 || self.parts.empty() || self.parts.back().name != name ||
        self.parts.back().filename != file) {
      self.parts.push_back({name, file, content_type == nullptr ? "" : content_type, {}});
    }
    if (size > 0) self.parts.back().data.append(data, size);
    return MHD_YES;
  }
};

MHD_Result add_header(void* cls, MHD_ValueKind /*kind*/, const char* key, size_t key_size,
                      const char* value, size_t value_size) {
  auto& headers = *static_cast<std::map<std::string, std::string>*>(cls);
  if (key == nullptr) return MHD_YES;
  std::string name(key, key_size);
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  headers.emplace(std::move(name),
                  value == nullptr ? std::string() : std::string(value, value_size));
  return MHD_YES;
}

// The 413 answer to a body over `max` bytes.
Response too_big_for(std::size_t max) {
  if (max == kMaxBody) return body_too_big();
  return error_response(413, fmt::format("the request is too large (at most {} KiB)", max / 1024));
}

// One open event stream: what is being sent of it and whether its
// connection is parked. Shared by the response (freed when MHD is done with
// it) and the stream's bell, which holds it weakly.
struct StreamLink {
  MHD_Connection* connection = nullptr;
  std::shared_ptr<EventStream> stream;
  std::mutex mutex;  // guards everything below; taken before the stream's own
  std::string out;   // taken from the stream, not yet all sent
  std::size_t sent = 0;
  bool parked = false;    // suspended until the bell rings
  bool stopping = false;  // the server is closing: end the stream
  bool ping = false;      // send a keep-alive comment
  bool freed = false;     // MHD has let the response go
  Clock::time_point last = Clock::now();

  // The bell: the stream has something, or the server wants a ping or an end.
  void wake() {
    bool resume = false;
    {
      const std::lock_guard lock(mutex);
      if (parked && !freed) {
        parked = false;
        resume = true;
      }
    }
    // A parked connection is not touched by MHD until resumed, so it cannot
    // be freed between the unlock and this call.
    if (resume) MHD_resume_connection(connection);
  }

  static ssize_t read(void* cls, uint64_t /*pos*/, char* buf, size_t max) {
    auto& self = **static_cast<std::shared_ptr<StreamLink>*>(cls);
    const std::lock_guard lock(self.mutex);
    if (self.sent == self.out.size()) {
      bool ended = false;
      self.out = self.stream->take(ended);
      self.sent = 0;
      if (self.out.empty()) {
        if (ended || self.stopping) return MHD_CONTENT_READER_END_OF_STREAM;
        if (self.ping) {
          self.out = ": ping\n\n";
        } else {
          // Under the lock: a bell rung meanwhile waits and then resumes.
          self.parked = true;
          MHD_suspend_connection(self.connection);
          return 0;
        }
      }
    }
    self.ping = false;
    const std::size_t n = std::min(max, self.out.size() - self.sent);
    std::copy_n(self.out.data() + self.sent, n, buf);
    self.sent += n;
    self.last = Clock::now();
    return static_cast<ssize_t>(n);
  }

  static void free(void* cls) {
    auto* held = static_cast<std::shared_ptr<StreamLink>*>(cls);
    {
      const std::lock_guard lock((*held)->mutex);
      (*held)->freed = true;
    }
    delete held;
  }
};

MHD_Result answer(MHD_Connection* c, const Response& out,
                  std::vector<std::weak_ptr<StreamLink>>* streams = nullptr,
                  std::mutex* streams_mutex = nullptr) {
  MHD_Response* res = nullptr;
  if (out.stream && streams != nullptr) {
    auto link = std::make_shared<StreamLink>();
    link->connection = c;
    link->stream = out.stream;
    res =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16 * 1024, &StreamLink::read,
                                          new std::shared_ptr<StreamLink>(link), &StreamLink::free);
    if (res == nullptr) return MHD_NO;
    {
      const std::lock_guard lock(*streams_mutex);
      std::erase_if(*streams, [](const auto& w) { return w.expired(); });
      streams->push_back(link);
    }
    out.stream->on_ready([weak = std::weak_ptr<StreamLink>(link)] {
      if (auto l = weak.lock()) l->wake();
    });
    MHD_add_response_header(res, "X-Accel-Buffering", "no");
  } else {
    res = MHD_create_response_from_buffer(out.body.size(), const_cast<char*>(out.body.data()),
                                          MHD_RESPMEM_MUST_COPY);
  }
  if (res == nullptr) return MHD_NO;
  for (const auto& [key, value] : out.headers) {
    MHD_add_response_header(res, key.c_str(), value.c_str());
  }
  MHD_add_response_header(res, MHD_HTTP_HEADER_CONTENT_TYPE, out.content_type.c_str());
  MHD_add_response_header(res, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
  const MHD_Result queued = MHD_queue_response(c, static_cast<unsigned>(out.status), res);
  MHD_destroy_response(res);
  return queued;
}

MHD_Result add_query(void* cls, MHD_ValueKind /*kind*/, const char* key, size_t key_size,
                     const char* value, size_t value_size) {
  auto& query = *static_cast<std::map<std::string, std::string>*>(cls);
  if (key == nullptr) return MHD_YES;
  // The first value of a repeated key wins.
  query.emplace(std::string(key, key_size),
                value == nullptr ? std::string() : std::string(value, value_size));
  return MHD_YES;
}

// Decodes %HH in a path or query in place, as libmicrohttpd's own does,
// but leaves "%00" as it is: the path reaches the server as a C string, so
// a decoded NUL would cut it short ("/api/games/g1%00x" would be g1).
std::size_t unescape(void* /*cls*/, MHD_Connection* /*c*/, char* s) {
  const auto hex = [](char ch) -> int {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
  };
  char* out = s;
  for (const char* in = s; *in != '\0';) {
    if (in[0] == '%' && in[1] != '\0' && in[2] != '\0') {
      const int hi = hex(in[1]);
      const int lo = hex(in[2]);
      if (hi >= 0 && lo >= 0 && (hi != 0 || lo != 0)) {
        *out++ = static_cast<char>(hi * 16 + lo);
        in += 3;
        continue;
      }
    }
    *out++ = *in++;
  }
  *out = '\0';
  return static_cast<std::size_t>(out - s);
}

int port_of(int fd) {
  sockaddr_storage address{};
  socklen_t length = sizeof(address);
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) return -1;
  if (address.ss_family == AF_INET6) {
    return ntohs(reinterpret_cast<const sockaddr_in6*>(&address)->sin6_port);
  }
  return ntohs(reinterpret_cast<const sockaddr_in*>(&address)->sin_port);
}

}  // namespace

struct HttpServer::Impl {
  Impl(Handler& s, HttpLimits l) : server(s), limits(std::move(l)) {}
  Handler& server;
  HttpLimits limits;
  MHD_Daemon* daemon = nullptr;

  std::mutex mutex;  // guards links, stop_requested and sweeping
  std::condition_variable wake;
  std::map<MHD_Connection*, Link> links;
  bool stop_requested = false;
  bool sweeping = false;
  std::atomic<long> cuts{0};
  std::mutex streams_mutex;  // guards streams; never held with a link's own
  std::vector<std::weak_ptr<StreamLink>> streams;
  std::thread sweeper;
  std::once_flag closed;

  void set_reading(MHD_Connection* c, bool reading) {
    const std::lock_guard lock(mutex);
    const auto it = links.find(c);
    if (it == links.end()) return;
    it->second.reading = reading;
    it->second.since = Clock::now();
  }

  // The open event streams (the expired ones dropped).
  std::vector<std::shared_ptr<StreamLink>> live_streams() {
    const std::lock_guard lock(streams_mutex);
    std::vector<std::shared_ptr<StreamLink>> out;
    std::erase_if(streams, [](const auto& w) { return w.expired(); });
    for (const auto& w : streams) {
      if (auto l = w.lock()) out.push_back(std::move(l));
    }
    return out;
  }

  // A stream quiet for half the deadline is sent a comment: MHD's own
  // timeout then never cuts a page that is only waiting, and a page gone
  // away is found by the failed write (a parked connection sees nothing).
  void ping_streams() {
    const auto quiet = limits.deadline / 2;
    for (const auto& l : live_streams()) {
      {
        const std::lock_guard lock(l->mutex);
        if (Clock::now() - l->last < quiet) continue;
        l->ping = true;
      }
      l->wake();
    }
  }

  // Ends every stream and waits (at most 2 s) until MHD has let them go: a
  // parked connection must not be left when the daemon stops.
  void end_streams() {
    const auto until = Clock::now() + std::chrono::seconds(2);
    while (true) {
      auto open = live_streams();
      if (open.empty() || Clock::now() > until) return;
      for (const auto& l : open) {
        {
          const std::lock_guard lock(l->mutex);
          l->stopping = true;
        }
        l->wake();
      }
      open.clear();
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }

  // Shuts down the connections that are past the deadline; MHD then sees
  // them end and closes them.
  void sweep() {
    const auto tick = std::clamp<std::chrono::milliseconds>(
        limits.deadline / 10, std::chrono::milliseconds(10), std::chrono::milliseconds(200));
    std::unique_lock lock(mutex);
    while (sweeping) {
      wake.wait_for(lock, tick);
      lock.unlock();
      ping_streams();
      lock.lock();
      const auto now = Clock::now();
      for (auto& [connection, link] : links) {
        if (!link.reading || link.cut || link.fd < 0 || now - link.since <= limits.deadline) {
          continue;
        }
        ::shutdown(link.fd, SHUT_RDWR);
        link.cut = true;
        cuts.fetch_add(1);
      }
    }
  }

  void close_daemon() {
    std::call_once(closed, [this] {
      {
        const std::lock_guard lock(mutex);
        sweeping = false;
      }
      wake.notify_all();
      if (sweeper.joinable()) sweeper.join();
      end_streams();
      if (daemon != nullptr) {
        // Stop accepting, then close every connection (each one's CLOSED
        // notification closes our duplicate of its socket).
        const int fd = static_cast<int>(MHD_quiesce_daemon(daemon));
        MHD_stop_daemon(daemon);
        daemon = nullptr;
        if (fd >= 0) ::close(fd);
      }
      const std::lock_guard lock(mutex);
      for (auto& [connection, link] : links) {
        if (link.fd >= 0) ::close(link.fd);
      }
      links.clear();
    });
  }

  static void on_connection(void* cls, MHD_Connection* c, void** /*socket_context*/,
                            MHD_ConnectionNotificationCode code) {
    auto& self = *static_cast<Impl*>(cls);
    const std::lock_guard lock(self.mutex);
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
      const MHD_ConnectionInfo* info =
          MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
      const int fd = info == nullptr ? -1 : fcntl(info->connect_fd, F_DUPFD_CLOEXEC, 0);
      self.links[c] = Link{fd, true, Clock::now(), false};
      return;
    }
    const auto it = self.links.find(c);
    if (it == self.links.end()) return;
    if (it->second.fd >= 0) ::close(it->second.fd);
    self.links.erase(it);
  }

  static void on_completed(void* cls, MHD_Connection* c, void** request,
                           MHD_RequestTerminationCode /*code*/) {
    delete static_cast<Pending*>(*request);
    *request = nullptr;
    static_cast<Impl*>(cls)->set_reading(c, true);
  }

  static MHD_Result on_request(void* cls, MHD_Connection* c, const char* url, const char* method,
                               const char* /*version*/, const char* upload, size_t* upload_size,
                               void** request) {
    auto& self = *static_cast<Impl*>(cls);
    // Step 1. The first call: the head is in, a body may follow. A body
    // announced over the limit is refused before it is read; a multipart
    // form goes through a post processor.
    if (*request == nullptr) {
      auto* pending = new Pending;
      *request = pending;
      pending->max_body = self.limits.max_body;
      const char* length =
          MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
      if (length != nullptr) {
        std::size_t n = 0;
        const char* end = length + std::strlen(length);
        const auto [ptr, ec] = std::from_chars(length, end, n);
        if (ec == std::errc::result_out_of_range ||
            (ec == std::errc() && n > self.limits.max_body)) {
          pending->too_big = true;
          self.set_reading(c, false);
          return answer(c, too_big_for(self.limits.max_body));
        }
      }
      const char* type =
          MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
      if (type != nullptr &&
          std::strncmp(type, MHD_HTTP_POST_ENCODING_MULTIPART_FORMDATA,
                       std::strlen(MHD_HTTP_POST_ENCODING_MULTIPART_FORMDATA)) == 0) {
        pending->form = MHD_create_post_processor(c, 64 * 1024, &Pending::on_field, pending);
        if (pending->form == nullptr) pending->bad_form = true;  // no boundary
      }
      return MHD_YES;
    }
    auto& pending = *static_cast<Pending*>(*request);
    // Step 2. Body bytes, kept up to the limit (a chunked body has no length
    // to refuse it by: past the limit it is read and dropped).
    if (*upload_size > 0) {
      if (!pending.too_big && !pending.bad_form) {
        if (pending.form != nullptr) {
          if (MHD_post_process(pending.form, upload, *upload_size) != MHD_YES && !pending.too_big) {
            pending.bad_form = true;
          }
        } else if (pending.body.size() + *upload_size > self.limits.max_body) {
          pending.too_big = true;
          std::string().swap(pending.body);
        } else {
          pending.body.append(upload, *upload_size);
        }
      }
      *upload_size = 0;
      return MHD_YES;
    }
    // Step 3. The whole request: answer it.
    self.set_reading(c, false);
    if (pending.too_big) return answer(c, too_big_for(self.limits.max_body));
    if (pending.bad_form) {
      return answer(c, error_response(400, "the form is not multipart/form-data as sent"));
    }
    try {
      Request r;
      r.method = method;
      r.path = url;
      MHD_get_connection_values_n(c, MHD_GET_ARGUMENT_KIND, &add_query, &r.query);
      MHD_get_connection_values_n(c, MHD_HEADER_KIND, &add_header, &r.headers);
      r.body = std::move(pending.body);
      r.parts = std::move(pending.parts);
      r.secure = !self.limits.tls_cert.empty();
      return answer(c, self.server.handle(r), &self.streams, &self.streams_mutex);
    } catch (const std::exception&) {
      return answer(c, error_response(500, "internal error"));
    }
  }
};

HttpServer::HttpServer(Handler& server, HttpLimits limits)
    : m_impl(std::make_unique<Impl>(server, std::move(limits))) {}

HttpServer::~HttpServer() {
  stop();
  m_impl->close_daemon();
}

Result<int> HttpServer::bind(const std::string& host, int port) {
  auto& m = *m_impl;
  if (m.daemon != nullptr) return fail("the server is already listening");
  const std::string where =
      port == 0 ? fmt::format("{} (any port)", host) : fmt::format("{}:{}", host, port);
  // Step 1. The listening socket: the first address of `host` that binds.
  // SO_REUSEADDR (a restart right after a stop binds again), not
  // SO_REUSEPORT (a second server on the same port must fail to bind).
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  if (getaddrinfo(host.c_str(), service.c_str(), &hints, &found) != 0 || found == nullptr) {
    return fail(fmt::format("cannot listen on {} (not an address here)", where));
  }
  int fd = -1;
  int family = AF_INET;
  for (const addrinfo* a = found; a != nullptr; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    int yes = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    if (::bind(fd, a->ai_addr, a->ai_addrlen) == 0 && ::listen(fd, SOMAXCONN) == 0) {
      family = a->ai_family;
      break;
    }
    ::close(fd);
    fd = -1;
  }
  freeaddrinfo(found);
  if (fd < 0)
    return fail(fmt::format("cannot listen on {} (in use, or not an address here)", where));
  const int bound = port_of(fd);

  // Step 2. The daemon on it: epoll threads, the caps, the notifications
  // the deadline needs. MHD's own inactivity timeout bounds an answer that
  // the client does not read.
  const auto seconds =
      static_cast<unsigned>(std::max<long long>(1, (m.limits.deadline.count() + 999) / 1000));
  unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ITC | MHD_ALLOW_SUSPEND_RESUME;
  if (family == AF_INET6) flags |= MHD_USE_IPv6;
  // HTTPS: the key and certificate (GnuTLS, through libmicrohttpd); an
  // empty pair ends the option list early, so it is plain HTTP.
  const bool tls = !m.limits.tls_cert.empty() && !m.limits.tls_key.empty();
  if (tls) {
    if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
      ::close(fd);
      return fail("HTTPS: this libmicrohttpd was built without TLS");
    }
    flags |= MHD_USE_TLS;
  }
  m.sweeping = true;
  m.daemon = MHD_start_daemon(
      flags, 0, nullptr, nullptr, &Impl::on_request, &m, MHD_OPTION_LISTEN_SOCKET, fd,
      MHD_OPTION_THREAD_POOL_SIZE, static_cast<unsigned>(std::max(1, m.limits.threads)),
      MHD_OPTION_CONNECTION_LIMIT, static_cast<unsigned>(std::max(1, m.limits.max_connections)),
      MHD_OPTION_PER_IP_CONNECTION_LIMIT,
      static_cast<unsigned>(std::max(1, m.limits.max_per_client)), MHD_OPTION_CONNECTION_TIMEOUT,
      seconds, MHD_OPTION_NOTIFY_COMPLETED, &Impl::on_completed, &m, MHD_OPTION_NOTIFY_CONNECTION,
      &Impl::on_connection, &m, MHD_OPTION_UNESCAPE_CALLBACK, &unescape, nullptr,
      tls ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_END, m.limits.tls_key.c_str(),
      MHD_OPTION_HTTPS_MEM_CERT, m.limits.tls_cert.c_str(), MHD_OPTION_END);
  if (m.daemon == nullptr) {
    m.sweeping = false;
    ::close(fd);
    return fail(tls ? fmt::format("cannot serve HTTPS on {} (the TLS library refused the "
                                  "certificate or key)",
                                  where)
                    : fmt::format("cannot serve on {} (the HTTP library refused to start)", where));
  }
  m.sweeper = std::thread([&m] { m.sweep(); });
  return bound;
}

bool HttpServer::run() {
  auto& m = *m_impl;
  if (m.daemon == nullptr) return false;
  {
    std::unique_lock lock(m.mutex);
    m.wake.wait(lock, [&] { return m.stop_requested; });
  }
  m.close_daemon();
  return true;
}

void HttpServer::stop() {
  {
    const std::lock_guard lock(m_impl->mutex);
    m_impl->stop_requested = true;
  }
  m_impl->wake.notify_all();
}

long HttpServer::deadline_cuts() const {
  return m_impl->cuts.load();
}

}  // namespace duel::serve
