// The rules that live in SQL functions alone (db/README.md), against the real database, with the
// time handed in rather than waited for.
#include <gtest/gtest.h>
#include <soci/soci.h>

#include "db/database.h"
#include "db/ledger.h"
#include "domain/ids.h"
#include "services/oauth/retention.h"
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

// The batched form a broadcast batch charges through: all entries move or none, each row with
// the balance after it.
TEST_F(SqlRulesTest, SeveralLedgerEntriesMoveTogetherOrNotAtAll) {
  db::Session sql(database_);
  auto post = [&](long long amount, const std::string& references) {
    std::string outcome;
    *sql << "SELECT outcome FROM post_ledger_entries(:a, :amount, 'sms_outbound', "
            "(SELECT jsonb_agg(jsonb_build_object('reference', r, 'description', 'SMS')) "
            "FROM unnest(string_to_array(:refs, ',')) r))",
        soci::use(account_, "a"), soci::use(amount, "amount"), soci::use(references, "refs"),
        soci::into(outcome);
    return outcome;
  };
  EXPECT_EQ(post(-3, "b1,b2,b3,b4"), "INSUFFICIENT_BALANCE");  // 12 of 10
  EXPECT_EQ(post(-3, "b1,b2,b3"), "POSTED");
  EXPECT_EQ(post(-1, "b4,b2"), "ALREADY_POSTED");  // b2 was posted: b4 is not either
  EXPECT_EQ(balance(), 1);
  std::string afters;
  *sql << "SELECT string_agg(reference_id || '=' || balance_after_cents, ' ' ORDER BY id) "
          "FROM ledger_entries WHERE account_id = :a",
      soci::use(account_), soci::into(afters);
  EXPECT_EQ(afters, "b1=7 b2=4 b3=1");
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

TEST_F(SqlRulesTest, ARecipientsCountReadsItsOwnIndexForAnAccountTheStatisticsDoNotKnow) {
  // The statistics know one very large account only; this account's day of sends came after.
  // Planned for it, it would look like one row and be read through the smaller (account_id,
  // created_at) index, every message of its day for each send (migration notes in
  // db/functions/send_counts.sql).
  const std::string columns =
      "INSERT INTO messages (id, account_id, direction, from_number, to_number, body, status, "
      "segment_count, mode, cost_cents, part_price_cents, body_sha256, created_at) ";
  scratch_.exec(
      "INSERT INTO accounts (id, name, email, password_hash) VALUES ('acc_big', 'B', "
      "'big@ex.ca', 'x')");
  scratch_.exec(columns +
                "SELECT 'msg_big' || g, 'acc_big', 'OUTBOUND', '+16134000001', '+1514' || "
                "(6000000 + g % 5000), 'x', 'DELIVERED', 1, 'LIVE', 2, 2, md5(g::text), "
                "now() - g * interval '1 minute' FROM generate_series(1, 20000) g");
  scratch_.exec("ANALYZE messages");
  scratch_.exec(columns + "SELECT 'msg_day' || g, '" + account_ +
                "', 'OUTBOUND', '+16134000002', '+1514' || (7000000 + g), 'x', 'DELIVERED', 1, "
                "'LIVE', 2, 2, md5(g::text), now() - g * interval '10 seconds' "
                "FROM generate_series(1, 600) g");

  auto scans = [&](const std::string& index) {
    db::Session sql(database_);
    long long n = 0;
    *sql << "SELECT pg_stat_clear_snapshot()";
    *sql << "SELECT coalesce(idx_scan, 0) FROM pg_stat_user_indexes WHERE indexrelname = :i",
        soci::use(index), soci::into(n);
    return n;
  };
  long long by_account_before = scans("messages_account_created");
  long long by_recipient_before = scans("messages_recipient_window");
  {
    db::Session sql(database_);
    for (int i = 0; i < 8; ++i) {  // past the five plans made for the values at hand
      int last_hour = -1;
      *sql << "SELECT recipient_last_hour FROM send_counts(:a, 'LIVE', '+15147000001', 'sha', "
              "now())",
          soci::use(account_), soci::into(last_hour);
      EXPECT_EQ(last_hour, 1);
    }
    // Flushed before this statement's answer comes back (the backend reports when idle).
    *sql << "SELECT pg_stat_force_next_flush()";
  }
  EXPECT_EQ(scans("messages_account_created"), by_account_before);
  EXPECT_EQ(scans("messages_recipient_window"), by_recipient_before + 8);
}

// An OAuth access token is a key with an expiry: from that instant it reads as revoked, for the
// edge's lookup and for a route confirming a cached caller alike (both read api_key_caller).
TEST_F(SqlRulesTest, AKeyReadsAsRevokedFromItsExpiry) {
  scratch_.exec(
      "INSERT INTO api_keys (id, account_id, key_hash, key_prefix, mode, permissions, "
      "expires_at) VALUES ('key_exp', '" +
      account_ +
      "', 'hash_exp', 'mk_test_x', 'TEST', '{}', '2026-01-01T12:00:00Z'), ('key_forever', '" +
      account_ + "', 'hash_forever', 'mk_test_y', 'TEST', '{}', NULL)");
  auto revoked = [&](const char* hash, const char* at) {
    return ask(std::string("SELECT revoked FROM api_key_caller('") + hash + "', '" + at + "')");
  };
  EXPECT_FALSE(revoked("hash_exp", "2026-01-01T11:59:59Z"));
  EXPECT_TRUE(revoked("hash_exp", "2026-01-01T12:00:00Z"));
  EXPECT_FALSE(revoked("hash_forever", "2099-01-01T00:00:00Z"));
}

// Retention keeps what can still matter: a code within a day of its expiry (a replay must find
// it), a live grant's spent refresh tokens (a replay tells a leak), a registered client that
// connected; the rest goes.
TEST_F(SqlRulesTest, OAuthRetentionKeepsWhatCanStillMatter) {
  scratch_.exec(
      "INSERT INTO oauth_clients (id, kind, client_name, redirect_uris, created_at) VALUES "
      "('dcr_old', 'REGISTERED', 'old', '[]', now() - interval '40 days'), "
      "('dcr_used', 'REGISTERED', 'used', '[]', now() - interval '40 days'), "
      "('dcr_new', 'REGISTERED', 'new', '[]', now())");
  scratch_.exec(
      "INSERT INTO oauth_grants (id, account_id, client_id, mode, permissions, "
      "refresh_expires_at, revoked_at) VALUES ('ogr_live', '" +
      account_ + "', 'dcr_used', 'TEST', '{}', now() + interval '20 days', NULL), ('ogr_ended', '" +
      account_ +
      "', 'dcr_used', 'TEST', '{}', now() + interval '20 days', now() - interval '2 days')");
  scratch_.exec(
      "INSERT INTO oauth_spent_refresh_tokens (token_hash, grant_id, spent_at) VALUES "
      "('h_live', 'ogr_live', now()), ('h_ended', 'ogr_ended', now())");
  scratch_.exec(
      "INSERT INTO oauth_codes (code_hash, client_id, account_id, mode, permissions, redirect_uri, "
      "code_challenge, expires_at) VALUES ('c_old', 'dcr_used', '" +
      account_ +
      "', 'TEST', '{}', 'x', 'x', now() - interval '2 days'), ('c_recent', 'dcr_used', '" +
      account_ + "', 'TEST', '{}', 'x', 'x', now() - interval '1 hour')");
  {
    db::Session sql(database_);
    auto now = std::chrono::system_clock::now();
    EXPECT_EQ(oauth::pruneSpent(*sql, now), 3);  // c_old, h_ended, dcr_old
    EXPECT_EQ(oauth::pruneSpent(*sql, now), 0);
  }
  EXPECT_TRUE(ask("SELECT count(*) = 1 FROM oauth_codes WHERE code_hash = 'c_recent'"));
  EXPECT_TRUE(ask("SELECT array_agg(token_hash) = '{h_live}' FROM oauth_spent_refresh_tokens"));
  EXPECT_TRUE(ask("SELECT array_agg(id ORDER BY id) = '{dcr_new,dcr_used}' FROM oauth_clients"));
}

// Issue 34, item 1: a grant whose refresh token expired ends as a revoked one does, and takes
// its keys and the endpoints its tokens registered with it; a live grant and the owner's own
// endpoint are untouched.
TEST_F(SqlRulesTest, AGrantThatExpiredEndsWithItsKeysAndEndpoints) {
  scratch_.exec(
      "INSERT INTO oauth_clients (id, kind, client_name, redirect_uris) VALUES "
      "('dcr_app', 'REGISTERED', 'app', '[]')");
  scratch_.exec(
      "INSERT INTO oauth_grants (id, account_id, client_id, mode, permissions, "
      "refresh_expires_at) VALUES ('ogr_expired', '" +
      account_ + "', 'dcr_app', 'TEST', '{}', now() - interval '1 minute'), ('ogr_live', '" +
      account_ + "', 'dcr_app', 'TEST', '{}', now() + interval '20 days')");
  scratch_.exec(
      "INSERT INTO api_keys (id, account_id, key_hash, key_prefix, mode, permissions, "
      "oauth_grant, oauth_grant_id) VALUES ('key_expired', '" +
      account_ + "', 'h1', 'mk_test_', 'TEST', '{}', true, 'ogr_expired'), ('key_live', '" +
      account_ + "', 'h2', 'mk_test_', 'TEST', '{}', true, 'ogr_live')");
  scratch_.exec(
      "INSERT INTO webhooks (id, account_id, url, events, signing_secret, mode, oauth_grant_id) "
      "VALUES ('wh_expired', '" +
      account_ + "', 'https://x.example', '[]', 's', 'TEST', 'ogr_expired'), ('wh_live', '" +
      account_ + "', 'https://x.example', '[]', 's', 'TEST', 'ogr_live'), ('wh_owner', '" +
      account_ + "', 'https://x.example', '[]', 's', 'TEST', NULL)");
  {
    db::Session sql(database_);
    EXPECT_EQ(oauth::endExpiredGrants(*sql, std::chrono::system_clock::now()), 1);
    EXPECT_EQ(oauth::endExpiredGrants(*sql, std::chrono::system_clock::now()), 0);
  }
  EXPECT_TRUE(ask("SELECT revoked_because = 'expired' FROM oauth_grants WHERE id = 'ogr_expired'"));
  EXPECT_TRUE(ask("SELECT revoked_at IS NOT NULL FROM api_keys WHERE id = 'key_expired'"));
  EXPECT_TRUE(ask("SELECT revoked_at IS NULL FROM api_keys WHERE id = 'key_live'"));
  EXPECT_TRUE(
      ask("SELECT array_agg(id ORDER BY id) = '{wh_live,wh_owner}' FROM webhooks WHERE deleted_at "
          "IS NULL"));
  EXPECT_TRUE(ask("SELECT NOT active FROM webhooks WHERE id = 'wh_expired'"));
}
