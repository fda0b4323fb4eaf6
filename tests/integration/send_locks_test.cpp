// The send transaction's writes (accept_outbound_message) against the real database: a refusal
// leaves nothing once rolled back, and the send takes its locks in the order rent collection
// and broadcasts take theirs (the number, then the balance), so the two never deadlock.
#include <gtest/gtest.h>
#include <soci/soci.h>

#include <chrono>
#include <future>
#include <thread>

#include "db/database.h"
#include "db/ledger.h"
#include "domain/ids.h"
#include "tests/support/scratch_database.h"

using namespace smsgw;
using namespace smsgw::testing;

namespace {

constexpr const char* kNumber = "+16135550142";

class SendLocksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_.exec("INSERT INTO accounts (id, name, email, password_hash, balance_cents) VALUES ('" +
                  account_ + "', 'T', '" + account_ + "@ex.ca', 'x', 10)");
    scratch_.exec(
        "INSERT INTO number_purchases (id, account_id, phone_number, number_type, "
        "monthly_cost_cents, activation_fee_cents, status, settled_at) VALUES ('np_" +
        account_ + "', '" + account_ + "', '" + kNumber +
        "', 'local', 150, 100, 'COMPLETED', now())");
    scratch_.exec(
        "INSERT INTO phone_numbers (id, account_id, purchase_id, phone_number, area_code, "
        "region, capabilities, number_type, status, monthly_cost_cents, provisioned_at, "
        "next_rent_due_at) VALUES ('" +
        number_id_ + "', '" + account_ + "', 'np_" + account_ + "', '" + kNumber +
        "', '613', 'ON', '[\"sms\"]', 'local', 'ACTIVE', 150, now(), now())");
  }

  // One LIVE send of `cost` cents through accept_outbound_message, in a transaction of its own
  // that is committed when the function accepts and rolled back when it refuses; its refusal.
  std::string send(long long cost) {
    db::Session sql(database_);
    soci::transaction tx(*sql);
    // SOCI reads what it binds when the statement runs, at the end of the expression: every
    // bound value is a named local, never a temporary.
    std::string id = newId("msg"), refusal, from = kNumber;
    int part_price = static_cast<int>(cost);
    soci::indicator refusal_null = soci::i_ok;
    *sql << "SELECT refusal FROM accept_outbound_message(:id, :account, 'LIVE', :from, "
            "'+15145550100', 'Hi', 1, :cost, :price, 'sha', 'EXPRESS', false, 1, 'QUEUED', "
            "'message.queued', :ref, 'SMS', "
            "180, 10, gen_random_uuid(), jsonb_build_object('v', 1, 'data', '{}'::jsonb), "
            "'events', 'sms.outbound', '{}', now(), 'req-locks')",
        soci::use(id, "id"), soci::use(account_, "account"), soci::use(from, "from"),
        soci::use(cost, "cost"), soci::use(part_price, "price"), soci::use(id, "ref"),
        soci::into(refusal, refusal_null);
    if (refusal_null == soci::i_null) {
      tx.commit();
      return "";
    }
    tx.rollback();
    return refusal;
  }

  long long count(const std::string& query) {
    db::Session sql(database_);
    long long n = 0;
    *sql << query, soci::use(account_), soci::into(n);
    return n;
  }

  ScratchDatabase scratch_;
  db::Database database_{scratch_.url(), 4};
  std::string account_ = newId("acc");
  std::string number_id_ = newId("pn");
};

}  // namespace

TEST_F(SendLocksTest, ASendTheBalanceCannotCoverLeavesNothingBehind) {
  EXPECT_EQ(send(20), "INSUFFICIENT_BALANCE");
  EXPECT_EQ(count("SELECT count(*) FROM messages WHERE account_id = :a"), 0);
  EXPECT_EQ(count("SELECT count(*) FROM events WHERE account_id = :a"), 0);
  EXPECT_EQ(count("SELECT count(*) FROM ledger_entries WHERE account_id = :a"), 0);
  EXPECT_EQ(count("SELECT count(*) FROM account_send_hours WHERE account_id = :a"), 0);
  EXPECT_EQ(count("SELECT count(*) FROM phone_numbers WHERE account_id = :a "
                  "AND next_send_at IS NOT NULL"),
            0)
      << "the pacing slot taken before the refusal is given back by the rollback";
  EXPECT_EQ(count("SELECT balance_cents FROM accounts WHERE id = :a"), 10);

  EXPECT_EQ(send(4), "");
  EXPECT_EQ(count("SELECT count(*) FROM messages WHERE account_id = :a"), 1);
  EXPECT_EQ(count("SELECT count(*) FROM ledger_entries WHERE account_id = :a"), 1);
  EXPECT_EQ(count("SELECT sent FROM account_send_hours WHERE account_id = :a"), 1);
  EXPECT_EQ(count("SELECT balance_cents FROM accounts WHERE id = :a"), 6);
}

TEST_F(SendLocksTest, ASendAndARentCollectionOnOneNumberNeverDeadlock) {
  // Rent collection locks the number, then debits the balance (services/numbers/rent.cpp).
  db::Session rent(database_);
  soci::transaction rent_tx(*rent);
  *rent << "SELECT 1 FROM phone_numbers WHERE id = :id FOR UPDATE", soci::use(number_id_);

  // The send starts meanwhile and must wait for the number before it touches the balance.
  auto sent = std::async(std::launch::async, [&] { return send(4); });
  auto waiting = [&] {
    return count(
               "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
               "AND wait_event_type = 'Lock' AND query LIKE '%accept_outbound_message%' "
               "AND :a <> ''") == 1;
  };
  for (int i = 0; i < 500 && !waiting(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(waiting()) << "the send never queued behind the rent collection's lock";

  // Had the send taken the balance first, this debit would wait for the send while the send
  // waits for the number: PostgreSQL would end one of them with a deadlock error.
  auto posted =
      db::postLedgerEntry(*rent, {account_, -5, "number_rent", number_id_ + "/1", "Rent"});
  EXPECT_EQ(posted.outcome, db::LedgerOutcome::Posted);
  rent_tx.commit();

  EXPECT_EQ(sent.get(), "");
  EXPECT_EQ(count("SELECT balance_cents FROM accounts WHERE id = :a"), 1);
  EXPECT_EQ(count("SELECT count(*) FROM ledger_entries WHERE account_id = :a"), 2);
}
