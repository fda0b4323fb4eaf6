// Migrations apply from empty, are recorded, re-run as no-ops and roll back a failing file;
// the functions of db/functions are re-applied on every run and are all the schema has.
#include <gtest/gtest.h>
#include <soci/soci.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "db/database.h"
#include "db/migrator.h"
#include "domain/ids.h"
#include "tests/support/scratch_database.h"

using namespace smsgw;
using namespace smsgw::testing;

TEST(Migrations, ApplyFromEmptyAndRecordTheirVersions) {
  ScratchDatabase database(/*migrate=*/false);
  auto first = db::migrate(database.url(), SMSGW_MIGRATIONS_DIR, SMSGW_FUNCTIONS_DIR);
  ASSERT_FALSE(first.applied.empty());
  EXPECT_EQ(first.applied.front(), "0001_foundation.sql");
  EXPECT_EQ(first.already_applied, 0);
  // The tables the code relies on exist.
  database.exec("SELECT id, balance_cents FROM accounts LIMIT 0");
  database.exec("SELECT txid, id FROM outbox_pending LIMIT 0");
  database.exec("SELECT api_account_document(a, now()) FROM accounts a LIMIT 0");

  auto second = db::migrate(database.url(), SMSGW_MIGRATIONS_DIR, SMSGW_FUNCTIONS_DIR);
  EXPECT_TRUE(second.applied.empty());
  EXPECT_EQ(second.already_applied, static_cast<int>(first.applied.size()));
}

TEST(Migrations, AFailingMigrationLeavesNothingBehind) {
  ScratchDatabase database(/*migrate=*/false);
  auto dir = std::filesystem::temp_directory_path() / ("migrations_" + randomBase62(8));
  std::filesystem::create_directories(dir);
  std::filesystem::copy(std::filesystem::path(SMSGW_MIGRATIONS_DIR) / "0001_foundation.sql",
                        dir / "0001_foundation.sql");
  std::ofstream(dir / "0002_broken.sql")
      << "CREATE TABLE half_done (id int);\nSELECT no_such_function();\n";

  EXPECT_THROW(db::migrate(database.url(), dir.string()), std::runtime_error);
  EXPECT_THROW(database.exec("SELECT 1 FROM half_done"), std::runtime_error);  // rolled back
  database.exec("SELECT 1 FROM accounts");  // 0001 stayed applied
  std::filesystem::remove_all(dir);
}

namespace {

std::set<std::string> functionFiles() {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(SMSGW_FUNCTIONS_DIR))
    names.insert(entry.path().stem().string());
  return names;
}

}  // namespace

TEST(Migrations, EveryFunctionTheSchemaHasLivesInItsOwnFile) {
  ScratchDatabase database;  // migrated, functions included
  db::Database pool(database.url(), 1);
  db::Session sql(pool);
  soci::rowset<std::string> defined =
      (sql->prepare << "SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON "
                       "n.oid = p.pronamespace WHERE n.nspname = 'public' AND p.prokind = 'f'");
  std::set<std::string> in_database(defined.begin(), defined.end());
  EXPECT_EQ(in_database, functionFiles())
      << "each function is one file of db/functions, named after it";
}

TEST(Migrations, FunctionsAreReappliedOnEveryRun) {
  ScratchDatabase database;
  database.exec(
      "CREATE OR REPLACE FUNCTION iso_ts(t timestamptz) RETURNS text "
      "LANGUAGE sql IMMUTABLE AS $$ SELECT 'changed by hand' $$");
  auto report = db::migrate(database.url(), SMSGW_MIGRATIONS_DIR, SMSGW_FUNCTIONS_DIR);
  EXPECT_TRUE(report.applied.empty());
  EXPECT_EQ(report.functions, static_cast<int>(functionFiles().size()));
  db::Database pool(database.url(), 1);
  db::Session sql(pool);
  std::string text;
  *sql << "SELECT iso_ts('2026-11-23T10:00:00Z'::timestamptz)", soci::into(text);
  EXPECT_EQ(text, "2026-11-23T10:00:00.000Z") << "the file's text is back";
}
