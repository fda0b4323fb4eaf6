// smsgw-migrate: applies pending migrations and says what it did.
#include <CLI/CLI.hpp>
#include <iostream>

#include "adapters/env.h"
#include "db/migrator.h"

int main(int argc, char** argv) {
  CLI::App app{"Apply the SMS gateway's SQL migrations"};
  std::string url = smsgw::env::databaseUrl();
  std::string dir = smsgw::env::get("MIGRATIONS_DIR", SMSGW_MIGRATIONS_DIR);
  app.add_option("--database-url", url, "libpq connection string (default: DATABASE_URL)");
  app.add_option("--dir", dir, "folder of NNNN_name.sql files");
  CLI11_PARSE(app, argc, argv);
  try {
    auto report = smsgw::db::migrate(url, dir);
    for (const auto& name : report.applied) std::cout << "applied " << name << "\n";
    std::cout << report.applied.size() << " applied, " << report.already_applied
              << " already applied\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "migration failed: " << e.what() << "\n";
    return 1;
  }
}
