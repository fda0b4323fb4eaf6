#pragma once
// Applies db/migrations/NNNN_name.sql files in version order, each in its own transaction,
// recording applied versions in schema_migrations; then re-applies every db/functions/*.sql
// (CREATE OR REPLACE FUNCTION), so a function's current text lives in one file whatever
// migration first made it; then the process kinds' rights (db/grants.sql), so a table a
// migration adds has its grants as soon as it exists. Safe to run concurrently (advisory lock) and
// repeatedly (applied versions are skipped; functions are replaced by themselves).

#include <chrono>
#include <string>
#include <vector>

namespace smsgw::db {

struct MigrationReport {
  std::vector<std::string> applied;  // file names applied by this run
  int already_applied = 0;
  int functions = 0;  // function files re-applied
  bool grants_applied = false;
};

// Throws std::runtime_error naming the failing file; that file's changes are rolled back.
// `functions_dir` or `grants_file` empty: that step is skipped.
MigrationReport migrate(const std::string& conninfo, const std::string& migrations_dir,
                        const std::string& functions_dir = "", const std::string& grants_file = "");

// Waits until the server at `conninfo` accepts connections (PQping), at most `limit`: a job
// started beside its database (a container engine starts both at once) would otherwise fail
// on "the database system is starting up". True once it answers.
bool waitForServer(const std::string& conninfo, std::chrono::seconds limit);

}  // namespace smsgw::db
