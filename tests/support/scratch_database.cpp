#include "tests/support/scratch_database.h"

#include <libpq-fe.h>

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "db/migrator.h"
#include "domain/ids.h"
#include "tests/support/test_env.h"

namespace smsgw::testing {
namespace {

void execOn(const std::string& url, const std::string& sql) {
  std::unique_ptr<PGconn, decltype(&PQfinish)> conn(PQconnectdb(url.c_str()), PQfinish);
  if (PQstatus(conn.get()) != CONNECTION_OK) throw std::runtime_error(PQerrorMessage(conn.get()));
  std::unique_ptr<PGresult, decltype(&PQclear)> result(PQexec(conn.get(), sql.c_str()), PQclear);
  auto status = PQresultStatus(result.get());
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
    throw std::runtime_error(PQerrorMessage(conn.get()));
}

}  // namespace

std::string adminUrl() {
  return requiredEnv("PG_ADMIN_URL");
}

ScratchDatabase::ScratchDatabase(bool migrate) {
  name_ = "it_" + randomBase62(12);
  std::transform(name_.begin(), name_.end(), name_.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  execOn(adminUrl(), "CREATE DATABASE " + name_);
  std::string admin = adminUrl();
  url_ = admin.substr(0, admin.find("dbname=")) + "dbname=" + name_ + " user=smsgw";
  if (migrate) db::migrate(url_, SMSGW_MIGRATIONS_DIR, SMSGW_FUNCTIONS_DIR, SMSGW_GRANTS_FILE);
}

const std::vector<std::string>& processKinds() {
  static const std::vector<std::string> kinds = {
      "api", "sender", "receipt", "inbound_keyword", "webhook_dispatcher", "rent_billing"};
  return kinds;
}

std::string asProcessRole(const std::string& url, const std::string& process) {
  std::string kind = process.substr(0, process.find_last_not_of("0123456789-") + 1);
  std::replace(kind.begin(), kind.end(), '-', '_');
  const auto& kinds = processKinds();
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) return url;
  return url + " user=smsgw_" + kind;  // libpq takes a keyword's last value
}

ScratchDatabase::~ScratchDatabase() {
  try {
    execOn(adminUrl(), "DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
  } catch (...) {
  }
}

void ScratchDatabase::exec(const std::string& sql) const {
  execOn(url_, sql);
}

}  // namespace smsgw::testing
