#pragma once
// The SOCI connection pool every process shares. Lease a session with
// `soci::session sql(db.pool());`; it returns to the pool when it goes out of scope.
// Thread-safe.

#include <soci/connection-pool.h>
#include <soci/session.h>

#include <string>

namespace smsgw::db {

class Database {
 public:
  // prepared_statements: whether the hot statements are prepared once per connection
  // (db/prepared_statement.h); the process's one setting, DB_PREPARED_STATEMENTS.
  Database(const std::string& conninfo, size_t pool_size, bool prepared_statements = true);
  soci::connection_pool& pool() { return pool_; }
  // For a connection a component must hold on its own (e.g. one that owns a session lock).
  const std::string& conninfo() const { return conninfo_; }

 private:
  soci::connection_pool pool_;
  std::string conninfo_;
};

// A leased session whose connection is re-established if PostgreSQL dropped it. (What it writes
// to the outbox names the calling thread's request, adapters/log.h RequestScope: every writer
// passes the id, migration 0019.)
class Session {
 public:
  explicit Session(Database& db);
  soci::session& operator*() { return session_; }
  soci::session* operator->() { return &session_; }

 private:
  soci::session session_;
};

// Whether the database answers a trivial query now (health checks); never throws.
bool answers(Database& db);

}  // namespace smsgw::db
