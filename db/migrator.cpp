#include "db/migrator.h"

#include <libpq-fe.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace smsgw::db {
namespace {

using Connection = std::unique_ptr<PGconn, decltype(&PQfinish)>;

// Arbitrary constant naming "the migration runner" among advisory locks.
constexpr const char* kLockSql = "SELECT pg_advisory_lock(727274001)";

void exec(PGconn* conn, const std::string& sql, const std::string& what) {
  std::unique_ptr<PGresult, decltype(&PQclear)> result(PQexec(conn, sql.c_str()), PQclear);
  auto status = PQresultStatus(result.get());
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    throw std::runtime_error(what + ": " + PQerrorMessage(conn));
  }
}

std::set<std::string> appliedVersions(PGconn* conn) {
  std::unique_ptr<PGresult, decltype(&PQclear)> result(
      PQexec(conn, "SELECT version FROM schema_migrations"), PQclear);
  if (PQresultStatus(result.get()) != PGRES_TUPLES_OK)
    throw std::runtime_error(PQerrorMessage(conn));
  std::set<std::string> out;
  for (int i = 0; i < PQntuples(result.get()); ++i) out.insert(PQgetvalue(result.get(), i, 0));
  return out;
}

std::string quoteLiteral(PGconn* conn, const std::string& text) {
  std::unique_ptr<char, decltype(&PQfreemem)> quoted(
      PQescapeLiteral(conn, text.c_str(), text.size()), PQfreemem);
  return quoted.get();
}

// Every file, in one transaction: all or none of them replace what is there.
void applyTogether(PGconn* conn, const std::vector<std::filesystem::path>& files,
                   const std::string& what) {
  exec(conn, "BEGIN", what);
  try {
    for (const auto& file : files) {
      std::ifstream in(file);
      if (!in) throw std::runtime_error(what + ": cannot read " + file.string());
      std::stringstream sql;
      sql << in.rdbuf();
      exec(conn, sql.str(), what + "/" + file.filename().string());
    }
    exec(conn, "COMMIT", what);
  } catch (...) {
    PQclear(PQexec(conn, "ROLLBACK"));
    throw;
  }
}

int applyFunctions(PGconn* conn, const std::string& functions_dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(functions_dir)) {
    if (entry.path().extension() == ".sql") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  applyTogether(conn, files, "functions");
  return static_cast<int>(files.size());
}

}  // namespace

bool waitForServer(const std::string& conninfo, std::chrono::seconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (PQping(conninfo.c_str()) != PQPING_OK) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  return true;
}

MigrationReport migrate(const std::string& conninfo, const std::string& migrations_dir,
                        const std::string& functions_dir, const std::string& grants_file) {
  Connection conn(PQconnectdb(conninfo.c_str()), PQfinish);
  if (PQstatus(conn.get()) != CONNECTION_OK)
    throw std::runtime_error(std::string("connect: ") + PQerrorMessage(conn.get()));
  exec(conn.get(), "SET client_min_messages = warning", "settings");
  exec(conn.get(), kLockSql, "advisory lock");
  // The runner's own bookkeeping table; the schema itself only ever comes from the files.
  exec(
      conn.get(),
      "CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, name text NOT NULL, "
      "applied_at timestamptz NOT NULL DEFAULT now())",
      "schema_migrations");

  std::vector<std::filesystem::path> files;
  static const std::regex kName(R"((\d{4})_[a-z0-9_]+\.sql)");
  for (const auto& entry : std::filesystem::directory_iterator(migrations_dir)) {
    if (std::regex_match(entry.path().filename().string(), kName)) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) throw std::runtime_error("no migrations in " + migrations_dir);

  MigrationReport report;
  auto applied = appliedVersions(conn.get());
  for (const auto& file : files) {
    std::string name = file.filename().string();
    std::string version = name.substr(0, 4);
    if (applied.count(version)) {
      report.already_applied++;
      continue;
    }
    std::ifstream in(file);
    std::stringstream sql;
    sql << in.rdbuf();
    exec(conn.get(), "BEGIN", name);
    try {
      exec(conn.get(), sql.str(), name);
      exec(conn.get(),
           "INSERT INTO schema_migrations (version, name) VALUES (" +
               quoteLiteral(conn.get(), version) + ", " + quoteLiteral(conn.get(), name) + ")",
           name);
      exec(conn.get(), "COMMIT", name);
    } catch (...) {
      PQclear(PQexec(conn.get(), "ROLLBACK"));
      throw;
    }
    report.applied.push_back(name);
  }
  if (!functions_dir.empty()) report.functions = applyFunctions(conn.get(), functions_dir);
  if (!grants_file.empty()) {
    applyTogether(conn.get(), {grants_file}, "grants");
    report.grants_applied = true;
  }
  exec(conn.get(), "SELECT pg_advisory_unlock(727274001)", "advisory unlock");
  return report;
}

}  // namespace smsgw::db
