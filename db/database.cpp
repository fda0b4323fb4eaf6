#include "db/database.h"

#include <soci/postgresql/soci-postgresql.h>

#include "db/prepared_statement.h"

namespace smsgw::db {

Database::Database(const std::string& conninfo, size_t pool_size, bool prepared_statements)
    : pool_(pool_size), conninfo_(conninfo) {
  usePreparedStatements(prepared_statements);
  for (size_t i = 0; i != pool_size; ++i) pool_.at(i).open(soci::postgresql, conninfo_);
}

namespace {

// libpq's own view of the connection, without a round trip. SOCI's is_connected() sends a
// query, which cost one round trip per lease on every request. A connection the server
// dropped shows here once a statement on it has failed: that statement's caller sees the
// error, and the next lease reconnects.
bool connectionLooksBroken(soci::session& session) {
  // Every pooled session was opened with the PostgreSQL backend (the constructor above).
  auto* backend = static_cast<soci::postgresql_session_backend*>(session.get_backend());
  return backend == nullptr || backend->conn_ == nullptr ||
         PQstatus(backend->conn_) != CONNECTION_OK;
}

}  // namespace

Session::Session(Database& db) : session_(db.pool()) {
  if (connectionLooksBroken(session_)) session_.reconnect();
}

bool answers(Database& db) {
  try {
    Session sql(db);
    int one = 0;
    *sql << "SELECT 1", soci::into(one);
    return one == 1;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace smsgw::db
