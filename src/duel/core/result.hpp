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

[[nodiscard]] inline Error fail(std::string message) {
  return Error{std::move(message)};
}

}  // namespace duel
