#include "db/database.h"

#include <soci/postgresql/soci-postgresql.h>

namespace smsgw::db {

Database::Database(const std::string& conninfo, size_t pool_size)
    : pool_(pool_size), conninfo_(conninfo) {
  for (size_t i = 0; i != pool_size; ++i) pool_.at(i).open(soci::postgresql, conninfo_);
}

Session::Session(Database& db) : session_(db.pool()) {
  if (!session_.is_connected()) session_.reconnect();
}

}  // namespace smsgw::db
