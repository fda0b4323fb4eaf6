// Buying and releasing numbers against a real database: money moves once, failures refund,
// and work a crash interrupted is settled by asking the carrier.
#include <future>
#include <latch>
#include <thread>

#include "domain/errors.h"
#include "services/numbers/release.h"
#include "tests/integration/numbers_fixture.h"

using namespace smsgw;
using namespace smsgw::testing;
using Kind = numbers::PurchaseOutcome::Kind;

namespace {

const TimePoint kNow = at("2027-01-31T10:00:00Z");

}  // namespace

TEST_F(NumbersTest, APurchaseChargesRentAndActivationOnceAndSchedulesTheNextMonth) {
  std::string account = newAccount(1000);
  std::string id = buy(account, "+16135550123", kNow);
  EXPECT_EQ(balance(account), 1000 - 150 - 100);
  EXPECT_EQ(count("ledger_entries WHERE kind = 'number_purchase' AND amount_cents = -250"), 1);
  EXPECT_EQ(status(id), "ACTIVE");
  EXPECT_EQ(text("SELECT region FROM phone_numbers WHERE id = '" + id + "'"), "Ontario");
  EXPECT_EQ(text("SELECT iso_ts(next_rent_due_at) FROM phone_numbers WHERE id = '" + id + "'"),
            "2027-02-28T10:00:00.000Z")
      << "bought on Jan 31: due on the last day of February";
  expectBalanceMatchesLedger(account);
}

TEST_F(NumbersTest, ASecondPurchaseWhileOneIsInFlightIsRefusedAndNothingIsChargedTwice) {
  std::string account = newAccount(1000);
  std::latch order_started(1), may_answer(1);
  carrier_.on_order = [&](const std::string&) {
    order_started.count_down();
    may_answer.wait();
    return operation(NumberOperation::Kind::Done);
  };
  auto first = std::async(std::launch::async, [&] {
    return numbers::purchaseNumber(database_, carrier_, account, *E164::parse("+16135550001"),
                                   kNow);
  });
  order_started.wait();  // the first purchase is charged and waiting on the carrier
  for (const char* number : {"+16135550002", "+16135550001"}) {
    EXPECT_EQ(refusalOf([&] {
                numbers::purchaseNumber(database_, carrier_, account, *E164::parse(number), kNow);
              }),
              ErrorCode::PURCHASE_IN_PROGRESS);
  }
  may_answer.count_down();
  EXPECT_EQ(first.get().kind, Kind::Completed);
  EXPECT_EQ(carrier_.orders.load(), 1) << "refused purchases never reach the carrier";
  EXPECT_EQ(count("ledger_entries WHERE kind = 'number_purchase'"), 1);
  EXPECT_EQ(balance(account), 750);
  expectBalanceMatchesLedger(account);
}

TEST_F(NumbersTest, ManyAccountsRacingForOneNumberGetItOnceAndTheOthersAreRefunded) {
  std::vector<std::string> accounts;
  accounts.reserve(6);
  for (int i = 0; i < 6; ++i) accounts.push_back(newAccount(1000));
  std::vector<std::future<numbers::PurchaseOutcome>> racers;
  racers.reserve(accounts.size());
  for (const auto& account : accounts) {
    racers.push_back(std::async(std::launch::async, [&, account] {
      try {
        return numbers::purchaseNumber(database_, carrier_, account, *E164::parse("+15145550777"),
                                       kNow);
      } catch (const ApiError& e) {  // CONFLICT once the winner holds it
        EXPECT_EQ(e.code(), ErrorCode::CONFLICT);
        return numbers::PurchaseOutcome{};
      }
    }));
  }
  int completed = 0;
  for (auto& racer : racers) completed += racer.get().kind == Kind::Completed;
  EXPECT_EQ(completed, 1);
  EXPECT_EQ(count("phone_numbers WHERE phone_number = '+15145550777'"), 1);
  for (const auto& account : accounts) {
    expectBalanceMatchesLedger(account);
    long long held =
        query("SELECT count(*) FROM phone_numbers WHERE account_id = '" + account + "'");
    EXPECT_EQ(balance(account), held ? 750 : 1000) << "losers are refunded in full";
  }
}

TEST_F(NumbersTest, RefusalsBeforeTheChargeChangeNothing) {
  std::string poor = newAccount(249);
  EXPECT_EQ(refusalOf([&] { buy(poor, "+16135550124", kNow); }), ErrorCode::INSUFFICIENT_BALANCE);
  std::string full = newAccount(5000, 1);
  buy(full, "+16135550125", kNow);
  EXPECT_EQ(refusalOf([&] { buy(full, "+16135550126", kNow); }), ErrorCode::NUMBER_LIMIT_REACHED);
  EXPECT_EQ(refusalOf([&] { buy(full, "+16135550125", kNow); }), ErrorCode::CONFLICT);
  EXPECT_EQ(carrier_.orders.load(), 1);
  EXPECT_EQ(balance(poor), 249);
  EXPECT_EQ(count("number_purchases WHERE account_id = '" + poor + "'"), 0);
  expectBalanceMatchesLedger(full);
}

TEST_F(NumbersTest, ACarrierRefusalRefundsTheCharge) {
  std::string account = newAccount(1000);
  carrier_.on_order = [](const std::string&) {
    return operation(NumberOperation::Kind::Refused, "85001");
  };
  auto outcome =
      numbers::purchaseNumber(database_, carrier_, account, *E164::parse("+18335550100"), kNow);
  EXPECT_EQ(outcome.kind, Kind::Failed);
  EXPECT_EQ(outcome.carrier_code, "85001");
  EXPECT_EQ(outcome.charged_cents, 300 + 100) << "toll-free rent tier";
  EXPECT_EQ(balance(account), 1000);
  EXPECT_EQ(count("ledger_entries WHERE kind = 'number_purchase_refund' AND amount_cents = 400"),
            1);
  EXPECT_EQ(count("phone_numbers"), 0);
  EXPECT_EQ(text("SELECT status FROM number_purchases"), "FAILED");
  expectBalanceMatchesLedger(account);
}

TEST_F(NumbersTest, ALostOrderAnswerIsSettledByAskingTheCarrier) {
  std::string account = newAccount(1000);
  carrier_.on_order = [&](const std::string& number) {
    carrier_.sell(number);  // the order went through, but its answer never arrived
    return operation(NumberOperation::Kind::Failed);
  };
  auto outcome =
      numbers::purchaseNumber(database_, carrier_, account, *E164::parse("+16135550130"), kNow);
  EXPECT_EQ(outcome.kind, Kind::Completed);
  EXPECT_EQ(balance(account), 750);

  carrier_.on_order = [](const std::string&) { return operation(NumberOperation::Kind::Failed); };
  outcome =
      numbers::purchaseNumber(database_, carrier_, account, *E164::parse("+16135550131"), kNow);
  EXPECT_EQ(outcome.kind, Kind::Failed) << "the carrier says it does not hold it: refund";
  EXPECT_EQ(balance(account), 750);
  expectBalanceMatchesLedger(account);
}

TEST_F(NumbersTest, APendingOrderIsNeitherCompletedNorRefundedUntilTheCarrierSettlesIt) {
  std::string account = newAccount(1000);
  auto order_status = NumberOperation::Kind::Pending;
  carrier_.on_order = [](const std::string&) { return operation(NumberOperation::Kind::Pending); };
  carrier_.on_order_status = [&](const std::string&) { return operation(order_status); };
  auto settle = [&] {
    return numbers::settleStalePurchases(database_, carrier_, std::chrono::seconds(0), kNow);
  };
  auto outcome =
      numbers::purchaseNumber(database_, carrier_, account, *E164::parse("+16135550150"), kNow);
  EXPECT_EQ(outcome.kind, Kind::Pending);
  EXPECT_EQ(outcome.pending_reason, "order_pending");
  EXPECT_EQ(balance(account), 750) << "charged while the carrier's order is pending";
  EXPECT_EQ(count("phone_numbers"), 0);
  EXPECT_EQ(settle(), 0) << "still pending at the carrier: nothing refunded, nothing made";
  EXPECT_EQ(balance(account), 750);

  carrier_.sell("+16135550150");
  order_status = NumberOperation::Kind::Done;
  EXPECT_EQ(settle(), 1);
  EXPECT_EQ(count("phone_numbers WHERE status = 'ACTIVE' AND carrier_number_id = "
                  "'fake-id-+16135550150'"),
            1)
      << "kept with the carrier's id for it";
  EXPECT_EQ(balance(account), 750);

  order_status = NumberOperation::Kind::Pending;
  outcome =
      numbers::purchaseNumber(database_, carrier_, account, *E164::parse("+16135550151"), kNow);
  ASSERT_EQ(outcome.kind, Kind::Pending);
  EXPECT_EQ(balance(account), 500);
  order_status = NumberOperation::Kind::Refused;  // the carrier's order failed
  EXPECT_EQ(settle(), 1);
  EXPECT_EQ(balance(account), 750) << "refunded";
  EXPECT_EQ(count("phone_numbers"), 1);
  expectBalanceMatchesLedger(account);
}

TEST_F(NumbersTest, AReleaseNamesTheNumberByTheCarriersIdWhenKept) {
  std::string account = newAccount(1000);
  std::string id = buy(account, "+16135550160", kNow);
  ASSERT_EQ(numbers::releaseNumber(database_, carrier_, id, numbers::kCustomerReleased, kNow).kind,
            numbers::ReleaseResult::Kind::Released);
  EXPECT_EQ(carrier_.release_ids(), std::vector<std::string>{"fake-id-+16135550160"});
}

TEST_F(NumbersTest, APurchaseInterruptedByACrashIsSettledByTheBillingPassOnce) {
  std::string account = newAccount(1000);
  // The process dies while the carrier is being asked: the charge and the PENDING purchase
  // are committed, nothing else is.
  carrier_.on_order = [](const std::string&) -> NumberOperation {
    throw std::runtime_error("killed mid-call");
  };
  EXPECT_THROW(
      numbers::purchaseNumber(database_, carrier_, account, *E164::parse("+16135550140"), kNow),
      std::runtime_error);
  EXPECT_EQ(balance(account), 750);
  EXPECT_EQ(refusalOf([&] { buy(account, "+16135550141", kNow); }),
            ErrorCode::PURCHASE_IN_PROGRESS);

  carrier_.on_holding = [](const std::string&) { return NumberHolding::Unknown; };
  EXPECT_EQ(numbers::settleStalePurchases(database_, carrier_, std::chrono::seconds(0), kNow), 0)
      << "while the carrier cannot say, the purchase stays in flight";
  carrier_.on_holding = nullptr;
  carrier_.sell("+16135550140");
  auto settle = [&] {
    return numbers::settleStalePurchases(database_, carrier_, std::chrono::seconds(0), kNow);
  };
  auto a = std::async(std::launch::async, settle), b = std::async(std::launch::async, settle);
  EXPECT_EQ(a.get() + b.get(), 1) << "two settlers, one settlement";
  EXPECT_EQ(count("phone_numbers WHERE status = 'ACTIVE'"), 1);
  EXPECT_EQ(balance(account), 750);
  carrier_.on_order = nullptr;
  buy(account, "+16135550141", kNow);  // the account may buy again
  expectBalanceMatchesLedger(account);
}

TEST_F(NumbersTest, AReleaseRaisesOneEventAndARefusalChangesNothing) {
  std::string account = newAccount(1000);
  std::string id = buy(account, "+16135550150", kNow);
  carrier_.on_release = [](const std::string&) {
    return operation(NumberOperation::Kind::Refused, "10007");
  };
  auto refused = numbers::releaseNumber(database_, carrier_, id, numbers::kCustomerReleased, kNow);
  EXPECT_EQ(refused.kind, numbers::ReleaseResult::Kind::CarrierRefused);
  EXPECT_EQ(status(id), "ACTIVE");
  EXPECT_EQ(count("events"), 0);

  carrier_.on_release = nullptr;
  auto released = numbers::releaseNumber(database_, carrier_, id, numbers::kCustomerReleased, kNow);
  EXPECT_EQ(released.kind, numbers::ReleaseResult::Kind::Released);
  EXPECT_EQ(status(id), "RELEASED");
  EXPECT_FALSE(carrier_.holds("+16135550150"));
  EXPECT_EQ(numbers::releaseNumber(database_, carrier_, id, numbers::kCustomerReleased, kNow).kind,
            numbers::ReleaseResult::Kind::NotReleasable);
  EXPECT_EQ(count("events WHERE type = 'phone_number.released' "
                  "AND data->>'reason' = 'customer_released'"),
            1);
  // The outbox record carries the id fixed in the events table: the same id on every replay.
  EXPECT_EQ(count("outbox o JOIN events e ON (o.payload::jsonb->>'id')::uuid = e.id "
                  "WHERE o.topic = 'events'"),
            1);
  buy(newAccount(1000), "+16135550150", kNow);  // a released number can be sold again
}

TEST_F(NumbersTest, AReleaseWhoseAnswerIsLostStaysReleasingUntilTheCarrierConfirms) {
  std::string account = newAccount(1000);
  std::string id = buy(account, "+16135550160", kNow);
  carrier_.on_release = [](const std::string&) { return operation(NumberOperation::Kind::Failed); };
  carrier_.on_holding = [](const std::string&) { return NumberHolding::Unknown; };
  EXPECT_EQ(numbers::releaseNumber(database_, carrier_, id, numbers::kAdminReleased, kNow).kind,
            numbers::ReleaseResult::Kind::Pending);
  EXPECT_EQ(status(id), "RELEASING");
  EXPECT_EQ(count("phone_numbers WHERE status IN ('ACTIVE', 'SUSPENDED')"), 0)
      << "a releasing number no longer counts towards the limit";

  carrier_.on_release = nullptr;
  carrier_.on_holding = nullptr;
  EXPECT_EQ(numbers::retryStaleReleases(database_, carrier_, std::chrono::seconds(0), kNow), 1);
  EXPECT_EQ(status(id), "RELEASED");
  EXPECT_EQ(
      count("events WHERE type = 'phone_number.released' AND data->>'reason' = 'admin_released'"),
      1);
  EXPECT_EQ(numbers::retryStaleReleases(database_, carrier_, std::chrono::seconds(0), kNow), 0);
}
