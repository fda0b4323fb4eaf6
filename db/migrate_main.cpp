// smsgw-migrate: applies pending migrations and says what it did.
#include <soci/postgresql/soci-postgresql.h>
#include <soci/session.h>

#include <iostream>

#include "adapters/settings.h"
#include "db/migrator.h"
#include "db/outbox.h"

int main(int argc, char** argv) {
  std::string url, dir = SMSGW_MIGRATIONS_DIR, functions = SMSGW_FUNCTIONS_DIR,
                   grants = SMSGW_GRANTS_FILE;
  smsgw::ProcessSettings settings("smsgw-migrate", "Applies the SMS gateway's SQL migrations");
  smsgw::addDatabaseSettings(settings, url);
  settings.add("MIGRATIONS_DIR", dir, "folder of NNNN_name.sql files",
               "db/migrations of the source tree");
  settings.add("FUNCTIONS_DIR", functions, "folder of the SQL functions, re-applied every run",
               "db/functions of the source tree");
  settings.add("GRANTS_FILE", grants,
               "what each process kind's database role may do, re-applied every run",
               "db/grants.sql of the source tree");
  std::chrono::seconds wait{60};
  settings.add("MIGRATE_WAIT_SECONDS", wait,
               "how long to wait for the database server to accept connections");
  settings.parse(argc, argv);
  try {
    if (!smsgw::db::waitForServer(url, wait)) {
      std::cerr << "migration failed: the database did not accept connections in " << wait.count()
                << " s\n";
      return 1;
    }
    auto report = smsgw::db::migrate(url, dir, functions, grants);
    for (const auto& name : report.applied) std::cout << "applied " << name << "\n";
    std::cout << report.applied.size() << " applied, " << report.already_applied
              << " already applied, " << report.functions << " functions"
              << (report.grants_applied ? ", process roles' grants" : "") << "\n";
    // After a logical restore, before any writer of this cluster runs (docs/operations.md,
    // "Backup and restore"): a writer's transaction id could otherwise meet a restored row's.
    soci::session sql(soci::postgresql, url);
    if (auto rebase = smsgw::db::bindOutboxToCluster(sql, smsgw::SystemClock().now())) {
      std::cout << "outbox re-keyed: its position belonged to database cluster "
                << rebase->from_cluster << ", this is " << rebase->to_cluster << "; "
                << rebase->rows_to_publish << " rows to publish\n";
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "migration failed: " << e.what() << "\n";
    return 1;
  }
}
