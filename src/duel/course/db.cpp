#include "duel/course/db.hpp"

#include <sqlite3.h>

#include <stdexcept>

#include <fmt/format.h>

namespace duel::course {

Result<std::unique_ptr<Db>> Db::open(const std::string& path) {
  sqlite3* handle = nullptr;
  const int rc =
      sqlite3_open_v2(path.c_str(), &handle,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    const std::string why = handle != nullptr ? sqlite3_errmsg(handle) : sqlite3_errstr(rc);
    sqlite3_close(handle);
    return fail(fmt::format("cannot open the database {}: {}", path, why));
  }
  std::unique_ptr<Db> db(new Db(handle));
  sqlite3_busy_timeout(handle, 10000);
  try {
    db->exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON");
  } catch (const std::exception& e) {
    return fail(fmt::format("cannot open the database {}: {}", path, e.what()));
  }
  return db;
}

Db::~Db() {
  sqlite3_close_v2(m_handle);
}

std::vector<Row> Db::run(std::string_view sql, const std::vector<Param>& params, bool want_rows) {
  const std::lock_guard lock(m_mutex);
  std::vector<Row> rows;
  const char* tail = sql.data();
  const char* end = sql.data() + sql.size();
  // Step 1. Each statement of the text in turn (params bind to the first).
  bool first = true;
  while (tail < end) {
    sqlite3_stmt* stmt = nullptr;
    const char* next = nullptr;
    if (sqlite3_prepare_v2(m_handle, tail, static_cast<int>(end - tail), &stmt, &next) !=
        SQLITE_OK) {
      throw std::runtime_error(fmt::format("SQL: {} in: {}", sqlite3_errmsg(m_handle), sql));
    }
    tail = next;
    if (stmt == nullptr) continue;  // whitespace or a comment
    const std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> guard(stmt, &sqlite3_finalize);
    // Step 2. Bind.
    if (first) {
      for (std::size_t k = 0; k < params.size(); ++k) {
        const int at = static_cast<int>(k + 1);
        const Param& p = params[k];
        switch (p.kind) {
          case Value::Kind::Null: sqlite3_bind_null(stmt, at); break;
          case Value::Kind::Int: sqlite3_bind_int64(stmt, at, p.i); break;
          case Value::Kind::Real: sqlite3_bind_double(stmt, at, p.r); break;
          case Value::Kind::Text:
            sqlite3_bind_text(stmt, at, p.s.data(), static_cast<int>(p.s.size()), SQLITE_TRANSIENT);
            break;
        }
      }
      first = false;
    }
    // Step 3. Step through the rows.
    while (true) {
      const int rc = sqlite3_step(stmt);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) {
        throw std::runtime_error(fmt::format("SQL: {} in: {}", sqlite3_errmsg(m_handle), sql));
      }
      if (!want_rows) continue;
      Row row;
      const int n = sqlite3_column_count(stmt);
      row.reserve(static_cast<std::size_t>(n));
      for (int c = 0; c < n; ++c) {
        Value v;
        switch (sqlite3_column_type(stmt, c)) {
          case SQLITE_NULL: break;
          case SQLITE_INTEGER:
            v.kind = Value::Kind::Int;
            v.i = sqlite3_column_int64(stmt, c);
            break;
          case SQLITE_FLOAT:
            v.kind = Value::Kind::Real;
            v.r = sqlite3_column_double(stmt, c);
            break;
          default: {
            v.kind = Value::Kind::Text;
            const auto* text = static_cast<const char*>(sqlite3_column_blob(stmt, c));
            v.s.assign(text == nullptr ? "" : text,
                       static_cast<std::size_t>(sqlite3_column_bytes(stmt, c)));
          }
        }
        row.push_back(std::move(v));
      }
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

std::vector<Row> Db::query(std::string_view sql, const std::vector<Param>& params) {
  return run(sql, params, true);
}

std::optional<Row> Db::one(std::string_view sql, const std::vector<Param>& params) {
  auto rows = run(sql, params, true);
  if (rows.empty()) return std::nullopt;
  return std::move(rows.front());
}

void Db::exec(std::string_view sql, const std::vector<Param>& params) {
  run(sql, params, false);
}

std::int64_t Db::last_id() const {
  return sqlite3_last_insert_rowid(m_handle);
}

int Db::changes() const {
  return sqlite3_changes(m_handle);
}

Db::Transaction::Transaction(Db& db) : m_db(db), m_lock(db.m_mutex) {
  m_db.exec("BEGIN IMMEDIATE");
}

Db::Transaction::~Transaction() {
  if (m_done) return;
  try {
    m_db.exec("ROLLBACK");
  } catch (...) {  // NOLINT(bugprone-empty-catch): nothing more to undo
  }
}

void Db::Transaction::commit() {
  m_db.exec("COMMIT");
  m_done = true;
}

}  // namespace duel::course
