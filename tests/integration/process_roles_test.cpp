// Each process kind signs in to PostgreSQL as its own role and may do what db/grants.sql says,
// nothing more: smsgw-migrate re-applies the file every run, so a right given by hand is taken
// back and a table no line names belongs to no kind. The roles are the cluster's (ops/lib/stack.sh
// makes them, as deploy/postgres/entrypoint.sh does in production).
#include <gtest/gtest.h>
#include <soci/postgresql/soci-postgresql.h>
#include <soci/soci.h>

#include <optional>
#include <string>

#include "db/migrator.h"
#include "db/outbox.h"
#include "tests/support/scratch_database.h"
#include "tests/support/test_env.h"

using namespace smsgw;
using namespace smsgw::testing;

namespace {

class ProcessRoles : public ::testing::Test {
 protected:
  void SetUp() override {
    report_ =
        db::migrate(database_.url(), SMSGW_MIGRATIONS_DIR, SMSGW_FUNCTIONS_DIR, SMSGW_GRANTS_FILE);
  }

  bool may(const std::string& kind, const std::string& relation, const std::string& privilege) {
    soci::session sql(soci::postgresql, database_.url());
    int granted = 0;
    sql << "SELECT has_table_privilege('smsgw_' || :k, :r, :p)::int", soci::use(kind),
        soci::use(relation), soci::use(privilege), soci::into(granted);
    return granted == 1;
  }

  bool mayReadColumn(const std::string& kind, const std::string& relation,
                     const std::string& column) {
    soci::session sql(soci::postgresql, database_.url());
    int granted = 0;
    sql << "SELECT has_column_privilege('smsgw_' || :k, :r, :c, 'SELECT')::int", soci::use(kind),
        soci::use(relation), soci::use(column), soci::into(granted);
    return granted == 1;
  }

  // Runs `statement` signed in as the kind's role; the server's refusal, or "" when it ran.
  std::string refusalAs(const std::string& kind, const std::string& statement) {
    soci::session sql(soci::postgresql, asProcessRole(database_.url(), kind));
    try {
      sql << statement;
      return "";
    } catch (const soci::soci_error& e) {
      return e.what();
    }
  }

  ScratchDatabase database_{/*migrate=*/false};
  db::MigrationReport report_;
};

}  // namespace

TEST_F(ProcessRoles, NoKindMayRewriteOrDeleteALedgerEntry) {
  ASSERT_TRUE(report_.grants_applied);
  for (const std::string& kind : processKinds()) {
    EXPECT_FALSE(may(kind, "ledger_entries", "UPDATE")) << kind;
    EXPECT_FALSE(may(kind, "ledger_entries", "DELETE")) << kind;
    EXPECT_FALSE(may(kind, "ledger_entries", "TRUNCATE")) << kind;
  }
  EXPECT_NE(refusalAs("api", "DELETE FROM ledger_entries WHERE false")
                .find("permission denied for table ledger_entries"),
            std::string::npos);
  EXPECT_EQ(refusalAs("api", "SELECT count(*) FROM ledger_entries"), "");
}

TEST_F(ProcessRoles, OnlyTheApiReadsKeyHashesSessionsAndPasswordFailures) {
  for (const std::string& kind : processKinds()) {
    EXPECT_EQ(mayReadColumn(kind, "api_keys", "key_hash"), kind == "api") << kind;
    for (const char* relation : {"dashboard_sessions", "password_failures"}) {
      EXPECT_EQ(may(kind, relation, "SELECT"), kind == "api") << kind << " " << relation;
    }
  }
  EXPECT_NE(refusalAs("webhook_dispatcher", "SELECT key_hash FROM api_keys")
                .find("permission denied for table api_keys"),
            std::string::npos);
  // The receipt worker revokes the keys of an OAuth grant that expired, without their hashes.
  EXPECT_EQ(refusalAs("receipt",
                      "UPDATE api_keys SET revoked_at = now() WHERE oauth_grant_id = "
                      "'none' AND revoked_at IS NULL"),
            "");
  EXPECT_NE(refusalAs("receipt", "SELECT key_hash FROM api_keys").find("permission denied"),
            std::string::npos);
}

TEST_F(ProcessRoles, EveryKindMayPublishThroughTheOutboxAndLeadItsRelay) {
  for (const std::string& kind : processKinds()) {
    EXPECT_TRUE(may(kind, "outbox", "INSERT")) << kind;
    EXPECT_TRUE(may(kind, "outbox_relay_position", "UPDATE")) << kind;
    EXPECT_TRUE(may(kind, "outbox_pending", "SELECT")) << kind;
  }
  EXPECT_EQ(refusalAs("rent_billing", "SELECT * FROM outbox_commit_horizon()"), "");
}

// After a restore the relay's leader finds the outbox on another cluster and re-keys it
// (db/outbox.h), whichever kind leads.
TEST_F(ProcessRoles, AnyKindLeadingTheRelayReKeysTheOutboxAfterARestore) {
  for (const std::string& kind : processKinds()) {
    database_.exec("UPDATE outbox_relay_position SET cluster_id = 1");
    soci::session sql(soci::postgresql, asProcessRole(database_.url(), kind));
    std::optional<db::OutboxRebase> rebase;
    EXPECT_NO_THROW(rebase = db::bindOutboxToCluster(sql, std::chrono::system_clock::now()))
        << kind;
    EXPECT_TRUE(rebase.has_value()) << kind;
  }
}

TEST_F(ProcessRoles, AWorkerSeesOnlyTheTablesOfItsWork) {
  EXPECT_FALSE(may("rent_billing", "messages", "SELECT"));
  EXPECT_FALSE(may("webhook_dispatcher", "messages", "SELECT"));
  EXPECT_FALSE(may("inbound_keyword", "webhook_deliveries", "SELECT"));
  EXPECT_FALSE(may("sender", "oauth_grants", "SELECT"));
  EXPECT_TRUE(may("sender", "messages", "UPDATE"));
  EXPECT_TRUE(may("webhook_dispatcher", "webhook_dead_letters", "INSERT"));
  EXPECT_TRUE(may("rent_billing", "phone_numbers", "UPDATE"));
}

TEST_F(ProcessRoles, EachRunTakesBackWhatNoLineGrants) {
  database_.exec("GRANT DELETE ON ledger_entries TO smsgw_api");
  database_.exec("CREATE TABLE handmade (id int)");
  database_.exec("GRANT SELECT ON handmade TO smsgw_sender");
  ASSERT_TRUE(may("api", "ledger_entries", "DELETE"));

  auto again =
      db::migrate(database_.url(), SMSGW_MIGRATIONS_DIR, SMSGW_FUNCTIONS_DIR, SMSGW_GRANTS_FILE);
  EXPECT_TRUE(again.grants_applied);
  EXPECT_FALSE(may("api", "ledger_entries", "DELETE"));
  EXPECT_FALSE(may("sender", "handmade", "SELECT"));
  EXPECT_TRUE(may("api", "ledger_entries", "INSERT"));
}

// A process is named smsgw-<kind>[-<instance>] in pg_stat_activity (ops/lib/stack.sh's start).
TEST(ProcessRolesOfTheStack, EveryProcessSignsInAsItsKind) {
  soci::session sql(soci::postgresql, requiredEnv("DATABASE_URL"));
  soci::rowset<soci::row> rows =
      (sql.prepare << "SELECT application_name, usename::text, 'smsgw_' || replace(substring("
                      "application_name from '^smsgw-([a-z-]*[a-z])(-[0-9]+)?$'), '-', '_') "
                      "FROM pg_stat_activity WHERE datname = current_database() AND "
                      "application_name ~ '^smsgw-(api|sender|receipt|inbound-keyword|"
                      "webhook-dispatcher|rent-billing)(-[0-9]+)?$'");
  int seen = 0;
  for (const auto& row : rows) {
    EXPECT_EQ(row.get<std::string>(1), row.get<std::string>(2)) << row.get<std::string>(0);
    ++seen;
  }
  EXPECT_GT(seen, 0) << "no process of the stack is connected";
}
