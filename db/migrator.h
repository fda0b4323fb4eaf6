#pragma once
// Applies db/migrations/NNNN_name.sql files in version order, each in its own transaction,
// recording applied versions in schema_migrations. Safe to run concurrently (advisory lock)
// and repeatedly (applied versions are skipped).

#include <string>
#include <vector>

namespace smsgw::db {

struct MigrationReport {
  std::vector<std::string> applied;  // file names applied by this run
  int already_applied = 0;
};

// Throws std::runtime_error naming the failing file; that file's changes are rolled back.
MigrationReport migrate(const std::string& conninfo, const std::string& migrations_dir);

}  // namespace smsgw::db
