#include "db/prepared_statement.h"

#include <soci/postgresql/soci-postgresql.h>
#include <soci/session.h>

#include <atomic>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <utility>

namespace smsgw::db {
namespace {

std::atomic<bool> prepared_on{true};

// The statements each connection has prepared. A connection is its libpq handle and its
// server process: a handle freed on reconnect may be allocated again at the same address, never
// for the same server process. Entries of dead connections stay (a few names per reconnect).
class PreparedOnConnections {
 public:
  bool has(PGconn* connection, const std::string& name) {
    std::lock_guard lock(mutex_);
    auto found = names_.find(keyOf(connection));
    return found != names_.end() && found->second.count(name) != 0;
  }
  void add(PGconn* connection, const std::string& name) {
    std::lock_guard lock(mutex_);
    names_[keyOf(connection)].insert(name);
  }

 private:
  static std::pair<const void*, int> keyOf(PGconn* connection) {
    return {connection, PQbackendPID(connection)};
  }
  std::mutex mutex_;
  std::map<std::pair<const void*, int>, std::set<std::string>> names_;
};

PreparedOnConnections& preparedOnConnections() {
  static PreparedOnConnections registry;
  return registry;
}

using Result = std::unique_ptr<PGresult, decltype(&PQclear)>;

// Throws as SOCI does for its own statements: the server's message and its SQLSTATE (a lost
// connection has none: connection_failure).
void expect(const Result& result, PGconn* connection, const std::string& name) {
  ExecStatusType status = result ? PQresultStatus(result.get()) : PGRES_FATAL_ERROR;
  if (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK) return;
  const char* sqlstate = result ? PQresultErrorField(result.get(), PG_DIAG_SQLSTATE) : nullptr;
  std::string message = result ? PQresultErrorMessage(result.get()) : PQerrorMessage(connection);
  throw soci::postgresql_soci_error(message + " while executing prepared statement " + name,
                                    sqlstate != nullptr ? sqlstate : "08006");
}

}  // namespace

PreparedStatement::PreparedStatement(std::string_view name, std::string text)
    : text_(std::move(text)) {
  char hash[9];
  std::snprintf(hash, sizeof hash, "%08zx", std::hash<std::string>{}(text_)&0xffffffffU);
  name_ = "smsgw_" + std::string(name) + "_" + hash;
}

std::vector<Row> PreparedStatement::run(soci::session& sql,
                                        const std::vector<Cell>& parameters) const {
  // Every session of ours is opened with the PostgreSQL backend (db::Database).
  auto* backend = static_cast<soci::postgresql_session_backend*>(sql.get_backend());
  if (backend == nullptr || backend->conn_ == nullptr) {
    throw soci::postgresql_soci_error("no connection for prepared statement " + name_, "08003");
  }
  PGconn* connection = backend->conn_;
  std::vector<const char*> values;
  values.reserve(parameters.size());
  for (const Cell& parameter : parameters) {
    values.push_back(parameter ? parameter->c_str() : nullptr);
  }
  const int count = static_cast<int>(values.size());
  Result result(nullptr, &PQclear);
  if (prepared_on.load(std::memory_order_relaxed)) {
    PreparedOnConnections& prepared = preparedOnConnections();
    if (!prepared.has(connection, name_)) {
      Result made(PQprepare(connection, name_.c_str(), text_.c_str(), 0, nullptr), &PQclear);
      expect(made, connection, name_);
      prepared.add(connection, name_);
    }
    result.reset(
        PQexecPrepared(connection, name_.c_str(), count, values.data(), nullptr, nullptr, 0));
  } else {
    result.reset(PQexecParams(connection, text_.c_str(), count, nullptr, values.data(), nullptr,
                              nullptr, 0));
  }
  expect(result, connection, name_);
  std::vector<Row> rows(static_cast<size_t>(PQntuples(result.get())));
  const int columns = PQnfields(result.get());
  for (size_t r = 0; r < rows.size(); ++r) {
    rows[r].reserve(static_cast<size_t>(columns));
    for (int c = 0; c < columns; ++c) {
      const int row = static_cast<int>(r);
      if (PQgetisnull(result.get(), row, c)) {
        rows[r].emplace_back(std::nullopt);
      } else {
        rows[r].emplace_back(std::string(PQgetvalue(result.get(), row, c),
                                         static_cast<size_t>(PQgetlength(result.get(), row, c))));
      }
    }
  }
  return rows;
}

void usePreparedStatements(bool on) {
  prepared_on.store(on, std::memory_order_relaxed);
}

Cell nullIfEmpty(const std::string& text) {
  if (text.empty()) return std::nullopt;
  return text;
}

std::string textOr(const Cell& cell, const std::string& fallback) {
  return cell ? *cell : fallback;
}

long long integerOf(const Cell& cell) {
  if (!cell) throw std::invalid_argument("a NULL where a number was expected");
  return std::stoll(*cell);
}

}  // namespace smsgw::db
