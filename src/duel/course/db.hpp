#pragma once
// SQLite (Debian's libsqlite3) behind a few calls: a connection, statements
// with bound values, and transactions that either happen whole or not at all.
//
// Why a thin wrapper and not an ORM: the course server has six tables and a
// few dozen queries; what it needs from the library is its durability (WAL,
// synchronous=FULL: a committed row survives a SIGKILL or a power cut) and
// its one-writer locking, both SQLite's own. One connection serves the
// whole process behind a mutex: the server's writes are a few a second at
// most, and a single connection cannot deadlock against itself.
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "duel/core/result.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace duel::course {

// A column's value as read back: SQLite's NULL, integer, real or text
// (blobs are read as text).
struct Value {
  enum class Kind : std::uint8_t { Null, Int, Real, Text };
  Kind kind = Kind::Null;
  std::int64_t i = 0;
  double r = 0;
  std::string s;
  [[nodiscard]] bool null() const { return kind == Kind::Null; }
  [[nodiscard]] std::int64_t as_int() const {
    return kind == Kind::Real ? static_cast<std::int64_t>(r) : i;
  }
  [[nodiscard]] double as_real() const { return kind == Kind::Int ? static_cast<double>(i) : r; }
};
using Row = std::vector<Value>;

// A value to bind: NULL, an integer, a real or text.
struct Param {
  Param() = default;
  Param(std::nullopt_t) {}                                            // NOLINT: implicit by design
  Param(std::int64_t v) : kind(Value::Kind::Int), i(v) {}             // NOLINT
  Param(int v) : kind(Value::Kind::Int), i(v) {}                      // NOLINT
  Param(double v) : kind(Value::Kind::Real), r(v) {}                  // NOLINT
  Param(std::string v) : kind(Value::Kind::Text), s(std::move(v)) {}  // NOLINT
  Param(std::string_view v) : kind(Value::Kind::Text), s(v) {}        // NOLINT
  Param(const char* v) : kind(Value::Kind::Text), s(v) {}             // NOLINT
  Value::Kind kind = Value::Kind::Null;
  std::int64_t i = 0;
  double r = 0;
  std::string s;
};

class Db {
 public:
  // Opens (creating) the database file, in WAL mode with full syncs.
  [[nodiscard]] static Result<std::unique_ptr<Db>> open(const std::string& path);
  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  // Runs one statement and returns every row. Throws std::runtime_error on
  // an SQL error: the queries are ours, so one failing is a bug or a broken
  // disk, not bad input.
  std::vector<Row> query(std::string_view sql, const std::vector<Param>& params = {});
  // The first row, if any.
  std::optional<Row> one(std::string_view sql, const std::vector<Param>& params = {});
  // Runs statements with no result (several, separated by ';', when no params).
  void exec(std::string_view sql, const std::vector<Param>& params = {});
  [[nodiscard]] std::int64_t last_id() const;
  [[nodiscard]] int changes() const;

  // Holds the connection for a transaction (BEGIN IMMEDIATE .. COMMIT); the
  // destructor rolls back one not committed.
  class Transaction {
   public:
    explicit Transaction(Db& db);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit();

   private:
    Db& m_db;
    std::unique_lock<std::recursive_mutex> m_lock;
    bool m_done = false;
  };

 private:
  explicit Db(sqlite3* handle) : m_handle(handle) {}
  std::vector<Row> run(std::string_view sql, const std::vector<Param>& params, bool want_rows);
  sqlite3* m_handle;
  std::recursive_mutex m_mutex;  // one statement (or transaction) at a time
};

}  // namespace duel::course
