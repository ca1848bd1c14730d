#pragma once
// The messages between a Keeper and its keeper inside the box (keeper.hpp),
// one a packet on a SOCK_SEQPACKET socket pair. Internal to box/.
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

namespace duel::box::wire {

enum Kind : std::uint32_t {
  kRun = 1,  // followed by the program's words, each ending in '\0'; fds 0-2 attached
  kPoll = 2,
  kClear = 3,
  kStarted = 11,
  kFailed = 12,   // value: errno
  kUsage = 13,    // user_us, system_us
  kEnded = 14,    // the program ended
  kCleared = 15,  // value: wait status; user_us, system_us; leftovers
};

struct Message {
  std::uint32_t kind = 0;
  std::int32_t value = 0;
  std::int32_t leftovers = 0;
  std::uint32_t unused = 0;
  std::int64_t user_us = 0;
  std::int64_t system_us = 0;
};

inline constexpr std::size_t kMaxPacket = std::size_t{1} << 16;

// Sends `m` followed by `tail`, with `fds` (up to 3; -1 ends them) attached.
[[nodiscard]] inline bool send(int socket, const Message& m, const std::string& tail = {},
                               const std::array<int, 3>& fds = {-1, -1, -1}) {
  std::array<iovec, 2> iov = {iovec{const_cast<Message*>(&m), sizeof m},
                              iovec{const_cast<char*>(tail.data()), tail.size()}};
  msghdr h{};
  h.msg_iov = iov.data();
  h.msg_iovlen = tail.empty() ? 1 : 2;
  alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(int) * 3)> control{};
  int n = 0;
  while (n < 3 && fds[static_cast<std::size_t>(n)] >= 0) ++n;
  if (n > 0) {
    h.msg_control = control.data();
    h.msg_controllen = CMSG_SPACE(sizeof(int) * static_cast<std::size_t>(n));
    cmsghdr* c = CMSG_FIRSTHDR(&h);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int) * static_cast<std::size_t>(n));
    std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * static_cast<std::size_t>(n));
  }
  ssize_t r = -1;
  do {
    r = ::sendmsg(socket, &h, MSG_NOSIGNAL);
  } while (r < 0 && errno == EINTR);
  return r == static_cast<ssize_t>(sizeof m + tail.size());
}

// Receives one packet: its message, the bytes after it and the descriptors
// it carried (the rest -1). False at the end of the stream or on error.
[[nodiscard]] inline bool receive(int socket, Message& m, std::string* tail = nullptr,
                                  std::array<int, 3>* fds = nullptr, int flags = 0) {
  // Without `tail`, only the message is read (a packet's rest is dropped):
  // the replies a move polls for need no 64 KiB buffer each.
  std::string buffer(tail != nullptr ? kMaxPacket : sizeof m, '\0');
  iovec iov{buffer.data(), buffer.size()};
  msghdr h{};
  h.msg_iov = &iov;
  h.msg_iovlen = 1;
  alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(int) * 3)> control{};
  h.msg_control = control.data();
  h.msg_controllen = control.size();
  ssize_t r = -1;
  do {
    r = ::recvmsg(socket, &h, MSG_CMSG_CLOEXEC | flags);
  } while (r < 0 && errno == EINTR);
  if (fds != nullptr) *fds = {-1, -1, -1};
  for (cmsghdr* c = CMSG_FIRSTHDR(&h); c != nullptr; c = CMSG_NXTHDR(&h, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    const std::size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    std::array<int, 3> got{-1, -1, -1};
    std::memcpy(got.data(), CMSG_DATA(c), sizeof(int) * std::min<std::size_t>(n, 3));
    if (fds != nullptr) {
      *fds = got;
    } else {
      for (const int fd : got) {
        if (fd >= 0) ::close(fd);
      }
    }
  }
  if (r < static_cast<ssize_t>(sizeof m)) return false;
  std::memcpy(&m, buffer.data(), sizeof m);
  if (tail != nullptr)
    tail->assign(buffer.data() + sizeof m, static_cast<std::size_t>(r) - sizeof m);
  return true;
}

[[nodiscard]] inline std::int64_t micros(double seconds) {
  return static_cast<std::int64_t>(seconds * 1e6);
}

}  // namespace duel::box::wire
