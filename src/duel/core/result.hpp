#pragma once
// Errors as values at the edges (DESIGN habit 10): a `Result<T>` holds a value
// or a one-line message saying what was wrong with the input.
#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace duel {

struct Error {
  std::string message;
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : m_data(std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : m_data(std::move(error)) {}  // NOLINT
  [[nodiscard]] bool ok() const noexcept { return std::holds_alternative<T>(m_data); }
  explicit operator bool() const noexcept { return ok(); }
  [[nodiscard]] T& value() & {
    assert(ok());
    return std::get<T>(m_data);
  }
  [[nodiscard]] const T& value() const& {
    assert(ok());
    return std::get<T>(m_data);
  }
  [[nodiscard]] T&& value() && {
    assert(ok());
    return std::get<T>(std::move(m_data));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  [[nodiscard]] const std::string& error() const {
    assert(!ok());
    return std::get<Error>(m_data).message;
  }

 private:
  std::variant<T, Error> m_data;
};

// An error message is one line whatever input it quotes: control characters
// (a newline inside a bad move, say) are shown escaped, e.g. "\n".
[[nodiscard]] inline Error fail(const std::string& message) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string line;
  line.reserve(message.size());
  for (const char c : message) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') {
      line += "\\n";
    } else if (c == '\t') {
      line += "\\t";
    } else if (u < 0x20 || u == 0x7F) {
      line += {'\\', 'x', kHex[u >> 4], kHex[u & 15]};
    } else {
      line += c;
    }
  }
  return Error{std::move(line)};
}

}  // namespace duel
