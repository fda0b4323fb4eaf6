// Rent billing against a real database: the billing pass publishes what is due once, the
// worker's handler charges each period once however often a record is replayed, suspends,
// reactivates on money and releases after the grace period, each event raised once.
#include <future>

#include "services/numbers/billing_pass.h"
#include "services/numbers/release.h"
#include "services/numbers/rent.h"
#include "tests/integration/numbers_fixture.h"
#include "workers/rent_billing/rent_handler.h"

using namespace smsgw;
using namespace smsgw::testing;

namespace {

const TimePoint kBought = at("2027-01-31T10:00:00Z");
const TimePoint kSecondMonth = at("2027-02-28T10:00:00Z");

}  // namespace

class RentBillingTest : public NumbersTest {
 protected:
  numbers::BillingPassReport pass(TimePoint as_of) {
    numbers::BillingPassOptions options;
    options.as_of = as_of;
    options.now = as_of;
    return numbers::runBillingPass(database_, carrier_, options);
  }
  // Handles every queued billing.rent record not handled yet, as the worker would.
  void handleQueued() {
    while (handled_ < queuedRentRecords().size())
      handler_(asRecord(queuedRentRecords()[handled_++]));
  }
  long long rentRows(const std::string& number_id) {
    return count("ledger_entries WHERE kind = 'number_rent' AND reference_id LIKE '" + number_id +
                 "/%'");
  }

  workers::RentHandler handler_{context_, carrier_, numbers::RentSettings{}};
  size_t handled_ = 0;
};

TEST_F(RentBillingTest, NothingIsDueBeforeTheAnniversary) {
  buy(newAccount(1000), "+16135550200", kBought);
  auto report = pass(kSecondMonth - std::chrono::milliseconds(1));
  EXPECT_EQ(report.rent_due, 0);
  EXPECT_TRUE(queuedRentRecords().empty());
}

TEST_F(RentBillingTest, AReplayedRecordChargesNothing) {
  std::string account = newAccount(1000);
  std::string id = buy(account, "+16135550201", kBought);
  EXPECT_EQ(pass(kSecondMonth).rent_due, 1);
  auto records = queuedRentRecords();
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].period, 2);
  for (int delivery = 0; delivery < 3; ++delivery) handler_(asRecord(records[0]));
  EXPECT_EQ(rentRows(id), 1);
  EXPECT_EQ(balance(account), 1000 - 250 - 150);
  EXPECT_EQ(text("SELECT iso_ts(next_rent_due_at) FROM phone_numbers"), "2027-03-31T10:00:00.000Z");
  EXPECT_EQ(pass(kSecondMonth).rent_due, 0) << "paid: nothing due any more";
  expectBalanceMatchesLedger(account);
}

TEST_F(RentBillingTest, ConcurrentPassesPublishEachDueNumberOnce) {
  std::string account = newAccount(100000, 300);
  for (int i = 0; i < 250; ++i) buy(account, "+1613555" + std::to_string(3000 + i), kBought);
  auto run = [&] { return pass(kSecondMonth).rent_due; };
  auto a = std::async(std::launch::async, run), b = std::async(std::launch::async, run);
  EXPECT_EQ(a.get() + b.get(), 250);
  EXPECT_EQ(queuedRentRecords().size(), 250u);
  EXPECT_EQ(pass(kSecondMonth).rent_due, 0)
      << "published recently: not again until republish_after";
}

TEST_F(RentBillingTest, RentThatCannotBeCollectedSuspendsAndATopUpReactivates) {
  std::string account = newAccount(250 + 100);  // the purchase, then 100 of the 150 rent
  std::string id = buy(account, "+16135550202", kBought);
  pass(kSecondMonth);
  handleQueued();
  EXPECT_EQ(status(id), "SUSPENDED");
  EXPECT_EQ(rentRows(id), 0);
  EXPECT_EQ(balance(account), 100) << "nothing taken from a balance that cannot pay";
  EXPECT_EQ(text("SELECT iso_ts(grace_ends_at) FROM phone_numbers"), "2027-03-07T10:00:00.000Z");
  handler_(asRecord(queuedRentRecords().front()));  // replayed
  EXPECT_EQ(count("events WHERE type = 'phone_number.suspended'"), 1);
  EXPECT_EQ(text("SELECT data->>'reason' FROM events"), "insufficient_balance");

  {  // A top-up lands within the grace period.
    db::Session sql(database_);
    soci::transaction tx(*sql);
    db::postLedgerEntry(*sql, {account, 500, "top_up", "topup_late", "Top-up"});
    EXPECT_EQ(numbers::reactivateSuspended(*sql, account, at("2027-03-01T00:00:00Z")), 1);
    tx.commit();
  }
  EXPECT_EQ(status(id), "ACTIVE");
  EXPECT_EQ(rentRows(id), 1);
  EXPECT_EQ(balance(account), 100 + 500 - 150);
  EXPECT_EQ(text("SELECT iso_ts(next_rent_due_at) FROM phone_numbers"), "2027-03-31T10:00:00.000Z");
  EXPECT_EQ(pass(at("2027-03-08T00:00:00Z")).grace_expired, 0) << "reactivated: no release";
  expectBalanceMatchesLedger(account);
}

TEST_F(RentBillingTest, ReactivationPaysTheOldestSuspensionFirstAndStopsWhenMoneyRunsOut) {
  std::string account = newAccount(500);
  std::string first = buy(account, "+16135550210", kBought);
  std::string second = buy(account, "+16135550211", kBought + std::chrono::hours(1));
  pass(kSecondMonth + std::chrono::hours(2));
  handleQueued();
  ASSERT_EQ(status(first), "SUSPENDED");
  ASSERT_EQ(status(second), "SUSPENDED");
  db::Session sql(database_);
  soci::transaction tx(*sql);
  db::postLedgerEntry(*sql, {account, 200, "top_up", "topup_some", "Top-up"});
  EXPECT_EQ(numbers::reactivateSuspended(*sql, account, kSecondMonth + std::chrono::hours(3)), 1);
  tx.commit();
  EXPECT_EQ(status(first), "ACTIVE");
  EXPECT_EQ(status(second), "SUSPENDED");
  EXPECT_EQ(balance(account), 50);
  expectBalanceMatchesLedger(account);
}

TEST_F(RentBillingTest, ATopUpAfterTheGracePeriodDoesNotReactivate) {
  std::string account = newAccount(250);
  std::string id = buy(account, "+16135550220", kBought);
  pass(kSecondMonth);
  handleQueued();
  db::Session sql(database_);
  db::postLedgerEntry(*sql, {account, 1000, "top_up", "topup_too_late", "Top-up"});
  EXPECT_EQ(numbers::reactivateSuspended(*sql, account, at("2027-03-07T10:00:00Z")), 0);
  EXPECT_EQ(status(id), "SUSPENDED");
}

TEST_F(RentBillingTest, TheGracePeriodEndsInAReleaseRaisedOnce) {
  std::string account = newAccount(250);
  std::string id = buy(account, "+16135550230", kBought);
  pass(kSecondMonth);
  handleQueued();
  ASSERT_EQ(status(id), "SUSPENDED");
  EXPECT_EQ(pass(at("2027-03-07T09:59:59Z")).grace_expired, 0);
  EXPECT_EQ(pass(at("2027-03-07T10:00:00Z")).grace_expired, 1);
  auto expire = queuedRentRecords().back();
  EXPECT_EQ(expire.action, "expire");
  EXPECT_TRUE(handler_(asRecord(expire)).applied);
  EXPECT_FALSE(handler_(asRecord(expire)).applied) << "a replay reports it changed nothing";
  EXPECT_EQ(status(id), "RELEASED");
  EXPECT_EQ(carrier_.releases.load(), 1) << "a replay never asks the carrier again";
  EXPECT_FALSE(carrier_.holds("+16135550230"));
  EXPECT_EQ(count("events WHERE type = 'phone_number.released' "
                  "AND data->>'reason' = 'suspended_grace_expired'"),
            1);
  EXPECT_EQ(count("events WHERE type = 'phone_number.suspended'"), 1);
  EXPECT_EQ(balance(account), 0);
  expectBalanceMatchesLedger(account);
}

TEST_F(RentBillingTest, AGraceExpiryTheCarrierRefusesIsRetriedByALaterPass) {
  std::string account = newAccount(250);
  std::string id = buy(account, "+16135550240", kBought);
  pass(kSecondMonth);
  handleQueued();
  carrier_.on_release = [](const std::string&) {
    return operation(NumberOperation::Kind::Refused, "10007");
  };
  TimePoint after_grace = at("2027-03-08T00:00:00Z");
  pass(after_grace);
  handleQueued();
  EXPECT_EQ(status(id), "SUSPENDED") << "back as it was";
  carrier_.on_release = nullptr;
  numbers::BillingPassOptions options;
  options.as_of = options.now = after_grace;
  options.republish_after = std::chrono::seconds(0);
  EXPECT_EQ(numbers::runBillingPass(database_, carrier_, options).grace_expired, 1);
  handleQueued();
  EXPECT_EQ(status(id), "RELEASED");
  EXPECT_EQ(count("events WHERE type = 'phone_number.released'"), 1);
}

TEST_F(RentBillingTest, APassLongAfterTheDueDateCatchesUpMonthByMonth) {
  std::string account = newAccount(250 + 3 * 150 + 40);
  std::string id = buy(account, "+16135550250", kBought);
  pass(at("2027-05-15T00:00:00Z"));  // months 2, 3 and 4 are due; month 5 is not
  handleQueued();
  EXPECT_EQ(rentRows(id), 3);
  EXPECT_EQ(status(id), "ACTIVE");
  EXPECT_EQ(text("SELECT iso_ts(next_rent_due_at) FROM phone_numbers"), "2027-05-31T10:00:00.000Z");
  pass(at("2027-06-01T00:00:00Z"));
  handleQueued();
  EXPECT_EQ(status(id), "SUSPENDED") << "40 cents cannot pay month 5";
  expectBalanceMatchesLedger(account);
}

TEST_F(RentBillingTest, MalformedRecordsAreDeadLetteredNotRetried) {
  workers::RentHandler handler(context_, carrier_, {});
  EXPECT_THROW(handler({"billing.rent",
                        0,
                        0,
                        "k",
                        R"({"v":1,"phone_number_id":"pn_x",
      "action":"teleport","period":2,"as_of":"2027-01-01T00:00:00Z"})",
                        {}}),
               topics::PermanentError);
  EXPECT_THROW(handler({"billing.rent",
                        0,
                        0,
                        "k",
                        R"({"v":1,"phone_number_id":"pn_x",
      "action":"collect","period":2,"as_of":"yesterday"})",
                        {}}),
               topics::PermanentError);
}

// Issue 50: a release the carrier neither confirms nor refuses must not end silently. The
// customer stops paying at once; the operator, whom the carrier may still bill, sees the number
// counted by every pass until the carrier answers.
TEST_F(RentBillingTest, AReleaseTheCarrierHasNotConfirmedIsCountedByEveryPassAndChargedNoRent) {
  std::string account = newAccount(1000);
  std::string id = buy(account, "+16135550260", kBought);
  carrier_.on_release = [](const std::string&) { return operation(NumberOperation::Kind::Failed); };
  carrier_.on_holding = [](const std::string&) { return NumberHolding::Unknown; };
  ASSERT_EQ(
      numbers::releaseNumber(database_, carrier_, id, numbers::kCustomerReleased, kBought).kind,
      numbers::ReleaseResult::Kind::Pending);

  numbers::BillingPassOptions options;
  options.as_of = options.now = kSecondMonth;
  options.stale_after = std::chrono::seconds(0);
  for (int pass = 0; pass < 2; ++pass) {
    auto report = numbers::runBillingPass(database_, carrier_, options);
    EXPECT_EQ(report.releases_in_doubt, 1);
    EXPECT_EQ(report.releases_finished, 0);
    EXPECT_EQ(report.rent_due, 0) << "no rent for a number the customer released";
  }
  EXPECT_EQ(status(id), "RELEASING");
  EXPECT_EQ(count("events WHERE type = 'phone_number.released'"), 0);
  EXPECT_EQ(rentRows(id), 0);

  carrier_.on_release = nullptr;
  carrier_.on_holding = nullptr;
  auto report = numbers::runBillingPass(database_, carrier_, options);
  EXPECT_EQ(report.releases_finished, 1);
  EXPECT_EQ(report.releases_in_doubt, 0);
  EXPECT_EQ(status(id), "RELEASED");
  EXPECT_EQ(count("events WHERE type = 'phone_number.released'"), 1);
  expectBalanceMatchesLedger(account);
}
