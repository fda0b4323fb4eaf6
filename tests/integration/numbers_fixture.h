#pragma once
// A scratch database with funded accounts, a scriptable carrier and the worker context the
// phone-number lifecycle needs; shared by the purchase, release and rent tests.

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <functional>
#include <string>
#include <vector>

#include "db/database.h"
#include "db/ledger.h"
#include "domain/caller.h"
#include "domain/carrier_hold.h"
#include "domain/errors.h"
#include "domain/ids.h"
#include "domain/permissions.h"
#include "services/numbers/purchase.h"
#include "tests/support/fake_carrier.h"
#include "tests/support/kafka_reader.h"
#include "tests/support/manual_clock.h"
#include "tests/support/scratch_database.h"
#include "topics/records.h"
#include "workers/runtime/run_worker.h"

namespace smsgw::testing {

inline TimePoint at(const char* iso) {
  return *parseIso(iso);
}

class NumbersTest : public ::testing::Test {
 protected:
  // An account holding `balance_cents`, credited through the ledger like a top-up.
  std::string newAccount(long long balance_cents, int number_limit = 5) {
    std::string id = newId("acc");
    scratch_.exec(
        "INSERT INTO accounts (id, name, email, password_hash, status, "
        "phone_number_limit, verified_phone) VALUES ('" +
        id + "', 'T', '" + id + "@ex.ca', 'x', 'ACTIVE', " + std::to_string(number_limit) +
        ", '+14165550100')");
    if (balance_cents > 0) {
      db::Session sql(database_);
      db::postLedgerEntry(*sql, {id, balance_cents, "top_up", newId("topup"), "Top-up"});
    }
    return id;
  }

  // A LIVE caller of `account` with every permission, as the HTTP edge would hand a service.
  static Caller liveCaller(const std::string& account) {
    Caller caller;
    caller.account_id = account;
    caller.key_id = "key_test";
    caller.mode = KeyMode::Live;
    caller.permissions = Permissions::everything();
    caller.account_status = AccountStatus::Active;
    return caller;
  }
  // The code of the ApiError `action` throws; a failure of the test when it throws none.
  static ErrorCode refusalOf(const std::function<void()>& action) {
    try {
      action();
    } catch (const ApiError& error) {
      return error.code();
    }
    ADD_FAILURE() << "not refused";
    return ErrorCode::INTERNAL_ERROR;
  }

  long long query(const std::string& sql_text) {
    db::Session sql(database_);
    long long value = 0;
    *sql << sql_text, soci::into(value);
    return value;
  }
  std::string text(const std::string& sql_text) {
    db::Session sql(database_);
    std::string value;
    *sql << sql_text, soci::into(value);
    return value;
  }
  long long balance(const std::string& account) {
    return query("SELECT balance_cents FROM accounts WHERE id = '" + account + "'");
  }
  // The money invariant: the balance is the sum of the account's ledger.
  void expectBalanceMatchesLedger(const std::string& account) {
    EXPECT_EQ(
        balance(account),
        query("SELECT COALESCE(sum(amount_cents), 0) FROM ledger_entries WHERE account_id = '" +
              account + "'"))
        << account;
  }
  long long count(const std::string& table_and_condition) {
    return query("SELECT count(*) FROM " + table_and_condition);
  }

  // Buys a number as of `now` and expects it to go through.
  std::string buy(const std::string& account, const std::string& number, TimePoint now) {
    auto outcome = numbers::purchaseNumber(database_, carrier_, account, *E164::parse(number), now);
    EXPECT_EQ(outcome.kind, numbers::PurchaseOutcome::Kind::Completed) << outcome.detail;
    return outcome.phone_number_id;
  }

  std::string status(const std::string& number_id) {
    return text("SELECT status FROM phone_numbers WHERE id = '" + number_id + "'");
  }

  // The billing.rent records waiting in the outbox (the relay is not running here).
  std::vector<topics::BillingRent> queuedRentRecords() {
    db::Session sql(database_);
    std::vector<topics::BillingRent> out;
    soci::rowset<std::string> rows =
        (sql->prepare << "SELECT payload FROM outbox WHERE topic = 'billing.rent' ORDER BY id");
    for (const auto& payload : rows) out.push_back(topics::BillingRent::parse(payload));
    return out;
  }
  static topics::Record asRecord(const topics::BillingRent& rent) {
    return {"billing.rent", 0, 0, rent.phone_number_id, rent.toJson().dump(), {}};
  }

  ScratchDatabase scratch_;
  db::Database database_{scratch_.url(), 8};
  FakeCarrier carrier_;
  CarrierHold carrier_hold_;  // the sender's, as one process shares it among its loops
  topics::Producer producer_{brokers(), "numbers-test"};
  topics::OutboxRelay relay_{database_, producer_};
  SkippingClock clock_;  // the workers' time: tests skip ahead instead of sleeping
  workers::WorkerContext context_{database_, producer_, relay_, clock_};
};

}  // namespace smsgw::testing
