// The rules that live in SQL functions alone (db/README.md), against the real database, with the
// time handed in rather than waited for.
#include <gtest/gtest.h>
#include <soci/soci.h>

#include "db/database.h"
#include "db/ledger.h"
#include "domain/ids.h"
#include "tests/support/scratch_database.h"

using namespace smsgw;
using namespace smsgw::testing;

namespace {

class SqlRulesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_.exec("INSERT INTO accounts (id, name, email, password_hash, balance_cents) VALUES ('" +
                  account_ + "', 'T', '" + account_ + "@ex.ca', 'x', 10)");
  }

  bool ask(const std::string& query) {
    db::Session sql(database_);
    int answer = 0;
    *sql << "SELECT (" + query + ")::int", soci::into(answer);
    return answer != 0;
  }

  long long balance() {
    db::Session sql(database_);
    long long cents = 0;
    *sql << "SELECT balance_cents FROM accounts WHERE id = :a", soci::use(account_),
        soci::into(cents);
    return cents;
  }

  ScratchDatabase scratch_;
  db::Database database_{scratch_.url(), 2};
  std::string account_ = newId("acc");
};

}  // namespace

TEST_F(SqlRulesTest, ALedgerPostingSaysWhetherItMovedWasPostedBeforeOrFoundTheBalanceShort) {
  db::Session sql(database_);
  auto first = db::postLedgerEntry(*sql, {account_, -4, "sms_outbound", "m1/1", "SMS"});
  EXPECT_EQ(first.outcome, db::LedgerOutcome::Posted);
  EXPECT_EQ(first.balance_after_cents, 6);
  EXPECT_EQ(db::postLedgerEntry(*sql, {account_, -4, "sms_outbound", "m1/1", "SMS"}).outcome,
            db::LedgerOutcome::AlreadyPosted);
  EXPECT_EQ(db::postLedgerEntry(*sql, {account_, -7, "sms_outbound", "m2/1", "SMS"}).outcome,
            db::LedgerOutcome::InsufficientBalance);
  EXPECT_EQ(balance(), 6);  // nothing moved twice, nothing below zero
  int rows = 0;
  *sql << "SELECT count(*) FROM ledger_entries WHERE account_id = :a", soci::use(account_),
      soci::into(rows);
  EXPECT_EQ(rows, 1);
}

TEST_F(SqlRulesTest, AnImpliedConsentLapsesAtItsExpiryAndAnExpressOneNever) {
  const std::string expiry = "'2026-06-01T00:00:00Z'::timestamptz";
  EXPECT_FALSE(ask("implied_consent_lapsed('IMPLIED', " + expiry + ", " + expiry +
                   " - interval '1 second')"));
  EXPECT_TRUE(ask("implied_consent_lapsed('IMPLIED', " + expiry + ", " + expiry + ")"));
  EXPECT_FALSE(ask("implied_consent_lapsed('EXPRESS', NULL, " + expiry + ")"));
}

TEST_F(SqlRulesTest, ANumberIsUndeliverableAfterFailuresInARowUntilTheLastIsOld) {
  db::Session sql(database_);
  const std::string number = "+14165550199";
  for (int i = 0; i < 3; ++i) {
    *sql << "SELECT count_carrier_failure(:n, '30003', '2026-01-01T00:00:00Z')", soci::use(number);
  }
  auto undeliverable = [&](const std::string& failures, const std::string& at) {
    return ask("is_undeliverable('" + number + "', " + failures + ", 90, '" + at +
               "'::timestamptz)");
  };
  EXPECT_TRUE(undeliverable("3", "2026-01-02T00:00:00Z"));
  EXPECT_FALSE(undeliverable("4", "2026-01-02T00:00:00Z"));  // not that many in a row
  EXPECT_FALSE(undeliverable("3", "2026-04-02T00:00:00Z"));  // the last failure is 91 days old
}
