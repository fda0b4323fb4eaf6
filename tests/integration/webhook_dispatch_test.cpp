// The webhook dispatcher against a real database and a real local receiver, with a clock the
// test moves: signing, the retry schedule, failures of every kind, the disable rule, dead
// letters, SSRF refusals, fairness between endpoints, and retries surviving a dispatcher's
// death.
#include <gtest/gtest.h>
#include <soci/soci.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>

#include "adapters/http_client.h"
#include "domain/ids.h"
#include "domain/webhook_signature.h"
#include "services/messaging/retention.h"
#include "tests/support/manual_clock.h"
#include "tests/support/recording_mailer.h"
#include "tests/support/scratch_database.h"
#include "tests/support/webhook_receiver.h"
#include "topics/records.h"
#include "workers/webhook_dispatcher/dispatcher.h"

using namespace smsgw;
using namespace smsgw::testing;
using namespace std::chrono_literals;

namespace {

class WebhookDispatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    account_ = newId("acc");
    scratch_.exec("INSERT INTO accounts (id, name, email, password_hash, status) VALUES ('" +
                  account_ + "', 'T', '" + account_ + "@ex.ca', 'x', 'ACTIVE')");
    webhook_ = addWebhook(account_, receiver_.url());
    config_.delivery.allow_loopback = true;
    config_.delivery.timeout = 1500ms;
    config_.pool = {8, 2, 100};
  }

  // `mode`: of the key that registered it (LIVE-created endpoints get every event).
  std::string addWebhook(const std::string& account, const std::string& url,
                         const std::string& mode = "LIVE") {
    std::string id = newId("wh");
    secret_ = newWebhookSecret();
    scratch_.exec(
        "INSERT INTO webhooks (id, account_id, url, events, signing_secret, mode) VALUES ('" + id +
        "', '" + account + "', '" + url + "', '[\"message.sent\"]', '" + secret_ + "', '" + mode +
        "')");
    return id;
  }

  workers::Dispatcher& dispatcher() {
    if (!dispatcher_)
      dispatcher_ = std::make_unique<workers::Dispatcher>(database_, clock_, mailer_, config_);
    return *dispatcher_;
  }

  topics::Record raise(const std::string& account = "", bool livemode = true) {
    topics::EventRecord event;
    event.type = "message.sent";
    event.account_id = account.empty() ? account_ : account;
    event.livemode = livemode;
    event.data = {{"message_id", newId("msg")}, {"status", "sent"}};
    db::Session sql(database_);
    std::string data = event.data.dump();
    int live = livemode ? 1 : 0;
    *sql << "INSERT INTO events (id, account_id, type, livemode, data) VALUES "
            "(gen_random_uuid(), :a, :t, :live::int::boolean, :d::jsonb) RETURNING id::text, "
            "iso_ts(created_at)",
        soci::use(event.account_id), soci::use(event.type), soci::use(live), soci::use(data),
        soci::into(event.id), soci::into(event.created);
    return {"events", 0, 0, event.account_id, event.toJson().dump(), {}};
  }

  void dispatch(const topics::Record& record) {
    dispatcher().onEvent(record);
    dispatcher().waitIdle();
  }

  int retryNow() {
    int claimed = dispatcher().runDueRetries();
    dispatcher().waitIdle();
    return claimed;
  }

  // Moves the clock in steps, running due retries after each, until `total` has passed.
  void runFor(std::chrono::minutes total, std::chrono::minutes step = 10min) {
    for (auto passed = 0min; passed < total; passed += step) {
      clock_.advance(step);
      retryNow();
    }
  }

  template <typename T = int>
  T one(const std::string& query) {
    db::Session sql(database_);
    T value{};
    *sql << query, soci::into(value);
    return value;
  }

  std::string webhookField(const std::string& column) {
    return one<std::string>("SELECT COALESCE(" + column + "::text, '') FROM webhooks WHERE id = '" +
                            webhook_ + "'");
  }

  ScratchDatabase scratch_;
  db::Database database_{scratch_.url(), 4};
  ManualClock clock_;
  RecordingMailer mailer_;
  WebhookReceiver receiver_;
  workers::DispatcherConfig config_;
  std::string account_, webhook_, secret_;
  std::unique_ptr<workers::Dispatcher> dispatcher_;  // last: goes first
};

TEST_F(WebhookDispatchTest, ATestCreatedEndpointGetsOnlyTestEventsALiveCreatedOneGetsBoth) {
  WebhookReceiver test_receiver;
  addWebhook(account_, test_receiver.url(), "TEST");
  dispatch(raise(account_, /*livemode=*/true));
  dispatch(raise(account_, /*livemode=*/false));
  auto live_created = receiver_.waitFor(2, 5s);
  ASSERT_EQ(live_created.size(), 2u);
  auto test_created = test_receiver.waitFor(1, 5s);
  ASSERT_EQ(test_created.size(), 1u);
  EXPECT_EQ(nlohmann::json::parse(test_created[0].body)["livemode"], false);
  EXPECT_EQ(test_receiver.received(), 1u) << "dispatch() waited for every attempt it started";
}

TEST_F(WebhookDispatchTest, DeliversTheSignedEnvelopeOnceEvenWhenTheRecordComesTwice) {
  auto record = raise();
  dispatch(record);
  dispatch(record);  // Kafka delivered it again
  auto got = receiver_.waitFor(1, 5s);
  ASSERT_EQ(got.size(), 1u);
  auto event = topics::EventRecord::parse(record.payload);
  auto body = nlohmann::json::parse(got[0].body);
  EXPECT_EQ(body, event.envelope());
  EXPECT_EQ(got[0].headers["webhook-id"], event.id);
  EXPECT_EQ(got[0].headers["x-service-event"], "message.sent");
  EXPECT_EQ(got[0].headers["x-service-signature"], got[0].headers["webhook-signature"]);
  EXPECT_TRUE(verifyWebhook(secret_, event.id, std::stoll(got[0].headers["webhook-timestamp"]),
                            got[0].body, got[0].headers["webhook-signature"]));
  EXPECT_FALSE(verifyWebhook(newWebhookSecret(), event.id,
                             std::stoll(got[0].headers["webhook-timestamp"]), got[0].body,
                             got[0].headers["webhook-signature"]));
  EXPECT_EQ(one("SELECT count(*) FROM webhook_deliveries WHERE success AND attempt = 1"), 1);
  EXPECT_NE(webhookField("last_success_at"), "");
}

// The batch handler (one query for a poll's events) delivers what onEvent would: each event to
// each endpoint owed it, an event of another, suspended account dead-lettered, an event no
// endpoint wants unchanged, and a batch that comes again delivers nothing twice.
TEST_F(WebhookDispatchTest, ABatchOfEventsDeliversEachOnceToEachEndpointOwedIt) {
  WebhookReceiver other_receiver;
  std::string suspended = newId("acc");
  scratch_.exec("INSERT INTO accounts (id, name, email, password_hash, status) VALUES ('" +
                suspended + "', 'S', '" + suspended + "@ex.ca', 'x', 'SUSPENDED')");
  addWebhook(suspended, other_receiver.url());
  std::string quiet = newId("acc");  // no endpoint
  scratch_.exec("INSERT INTO accounts (id, name, email, password_hash, status) VALUES ('" + quiet +
                "', 'Q', '" + quiet + "@ex.ca', 'x', 'ACTIVE')");
  std::vector<topics::Record> batch = {raise(), raise(suspended), raise(quiet), raise()};

  auto outcomes = dispatcher().onEvents(batch);
  dispatcher().waitIdle();
  ASSERT_EQ(outcomes.size(), 4u);
  EXPECT_TRUE(outcomes[0].applied);
  EXPECT_TRUE(outcomes[1].applied) << "dead-lettered: recorded";
  EXPECT_FALSE(outcomes[2].applied) << "no endpoint wants it";
  EXPECT_TRUE(outcomes[3].applied);
  auto got = receiver_.waitFor(2, 5s);
  ASSERT_EQ(got.size(), 2u);
  std::set<std::string> ids = {got[0].headers["webhook-id"], got[1].headers["webhook-id"]};
  EXPECT_EQ(ids.count(topics::EventRecord::parse(batch[0].payload).id), 1u);
  EXPECT_EQ(ids.count(topics::EventRecord::parse(batch[3].payload).id), 1u);
  EXPECT_EQ(other_receiver.received(), 0u);
  EXPECT_EQ(one<std::string>("SELECT failed_reason FROM webhook_dead_letters"),
            "ACCOUNT_SUSPENDED");

  auto again = dispatcher().onEvents(batch);  // Kafka delivered the poll again
  dispatcher().waitIdle();
  for (const auto& outcome : again) EXPECT_FALSE(outcome.applied);
  EXPECT_EQ(receiver_.received(), 2u);
  EXPECT_EQ(one("SELECT count(*) FROM webhook_dead_letters"), 1);
}

TEST_F(WebhookDispatchTest, AFailedEventIsRetriedOnTheSpecsScheduleThenDeadLettered) {
  receiver_.answerWith(ReceiverAnswer::Status, 500);
  auto record = raise();
  dispatch(record);
  ASSERT_EQ(receiver_.received(), 1u);
  EXPECT_EQ(one("SELECT count(*) FROM webhook_retries"), 1) << "stored at once";
  EXPECT_EQ(webhookField("last_failure_reason"), "HTTP_500");
  EXPECT_EQ(webhookField("failed_events"), "1");
  EXPECT_NE(webhookField("failing_since"), "");

  // about 1 s, then 1 min, 5 min, 30 min, 2 h, 6 h and 16 h (±5% jitter)
  const std::chrono::milliseconds waits[] = {1s, 1min, 5min, 30min, 2h, 6h, 16h};
  size_t expected = 1;
  for (auto wait : waits) {
    clock_.advance(wait * 94 / 100);
    EXPECT_EQ(retryNow(), 0) << "too early for the retry after " << wait.count() << " ms";
    clock_.advance(wait * 12 / 100);
    EXPECT_EQ(retryNow(), 1) << "the retry after " << wait.count() << " ms";
    EXPECT_EQ(receiver_.received(), ++expected);
  }
  clock_.advance(48h);
  EXPECT_EQ(retryNow(), 0) << "8 attempts at most";
  auto got = receiver_.waitFor(8, 1s);
  ASSERT_EQ(got.size(), 8u);
  for (const auto& request : got) {
    EXPECT_EQ(request.body, got[0].body) << "same id and created on every attempt";
    EXPECT_TRUE(verifyWebhook(secret_, request.headers.at("webhook-id"),
                              std::stoll(request.headers.at("webhook-timestamp")), request.body,
                              request.headers.at("webhook-signature")));
  }
  EXPECT_NE(got[0].headers["webhook-timestamp"], got[7].headers["webhook-timestamp"])
      << "signed afresh";
  EXPECT_EQ(one("SELECT count(*) FROM webhook_retries"), 0);
  EXPECT_EQ(one<std::string>("SELECT failed_reason FROM webhook_dead_letters"),
            "HTTP_500 after 8 attempts");
  EXPECT_EQ(one("SELECT count(*) FROM webhook_deliveries WHERE NOT success"), 8);
  EXPECT_EQ(webhookField("active"), "true") << "one event is not enough to disable";
}

TEST_F(WebhookDispatchTest, TheOneSecondRetryIsSkippedWhenTheEndpointWasAlreadyFailing) {
  receiver_.answerWith(ReceiverAnswer::Status, 503);
  dispatch(raise());
  dispatch(raise());
  clock_.advance(1100ms);
  EXPECT_EQ(retryNow(), 1) << "only the first event comes back after a second";
  clock_.advance(70s);
  EXPECT_EQ(retryNow(), 2);
  EXPECT_EQ(webhookField("failed_events"), "2") << "distinct events, not attempts";
}

TEST_F(WebhookDispatchTest, RedirectsTimeoutsAndClosedConnectionsAreFailures) {
  receiver_.answerWith(ReceiverAnswer::Redirect);
  dispatch(raise());
  EXPECT_EQ(webhookField("last_failure_reason"), "HTTP_302_REDIRECT_NOT_FOLLOWED");
  EXPECT_EQ(receiver_.received(), 1u) << "the redirect was not followed";
  receiver_.answerWith(ReceiverAnswer::Hang);
  dispatch(raise());
  EXPECT_EQ(webhookField("last_failure_reason"), "TIMEOUT");
  receiver_.answerWith(ReceiverAnswer::Close);
  dispatch(raise());
  EXPECT_EQ(webhookField("last_failure_reason"), "NETWORK_ERROR");
  EXPECT_EQ(one("SELECT count(*) FROM webhook_deliveries WHERE NOT success"), 3);
  EXPECT_EQ(one("SELECT count(*) FROM webhook_deliveries WHERE http_status = 302"), 1);
}

TEST_F(WebhookDispatchTest, ASuccessEndsTheStreak) {
  receiver_.answerWith(ReceiverAnswer::Status, 500);
  for (int i = 0; i < 3; ++i) dispatch(raise());
  EXPECT_EQ(webhookField("failed_events"), "3");
  receiver_.answerWith(ReceiverAnswer::Ok);
  dispatch(raise());
  EXPECT_EQ(webhookField("failing_since"), "");
  EXPECT_EQ(webhookField("failed_events"), "0");
  clock_.advance(2s);
  EXPECT_EQ(retryNow(), 1) << "the owed events are still retried";
}

TEST_F(WebhookDispatchTest, FiveEventsFailingFor24HoursDisableTheEndpointAndTellTheOwner) {
  receiver_.answerWith(ReceiverAnswer::Status, 500);
  for (int i = 0; i < 4; ++i) dispatch(raise());
  runFor(70min);
  EXPECT_EQ(mailer_.countAbout("failing"), 1u) << "one hour into the streak, once";
  // The fifth event fails later, so its last attempt comes after 24 h whatever the jitter.
  dispatch(raise());
  EXPECT_EQ(webhookField("failed_events"), "5");
  runFor(22h);
  EXPECT_EQ(webhookField("active"), "true") << "not yet 24 hours";
  runFor(4h);
  EXPECT_EQ(webhookField("active"), "false");
  EXPECT_NE(webhookField("deactivated_reason").find("HTTP_500"), std::string::npos);
  EXPECT_EQ(mailer_.countAbout("disabled"), 1u);
  EXPECT_EQ(mailer_.countAbout("failing"), 1u);
  EXPECT_EQ(one("SELECT count(*) FROM webhook_retries"), 0);
  EXPECT_EQ(one("SELECT count(*) FROM webhook_dead_letters"), 5) << "failed events are kept";
  EXPECT_GE(one("SELECT count(*) FROM webhook_dead_letters WHERE failed_reason LIKE "
                "'HTTP_500 after % attempts; endpoint disabled'"),
            1);

  size_t before = receiver_.received();
  dispatch(raise());
  EXPECT_EQ(receiver_.received(), before) << "nothing is delivered while disabled";
  EXPECT_EQ(one("SELECT count(*) FROM webhook_dead_letters"), 5) << "nor stored";
}

TEST_F(WebhookDispatchTest, FourFailedEventsNeverDisable) {
  receiver_.answerWith(ReceiverAnswer::Status, 500);
  for (int i = 0; i < 4; ++i) dispatch(raise());
  runFor(27h);
  EXPECT_EQ(webhookField("active"), "true");
  EXPECT_EQ(one("SELECT count(*) FROM webhook_dead_letters"), 4);
}

TEST_F(WebhookDispatchTest, SuspendedAccountsGetNothingAndEverythingIsADeadLetter) {
  scratch_.exec("UPDATE accounts SET status = 'SUSPENDED' WHERE id = '" + account_ + "'");
  dispatch(raise());
  EXPECT_EQ(receiver_.received(), 0u);
  EXPECT_EQ(one<std::string>("SELECT failed_reason FROM webhook_dead_letters"),
            "ACCOUNT_SUSPENDED");
}

TEST_F(WebhookDispatchTest, AHostResolvingToLoopbackIsBlockedDisabledAndDeadLettered) {
  config_.delivery.allow_loopback = false;
  scratch_.exec("UPDATE webhooks SET url = 'http://localhost:" + std::to_string(receiver_.port()) +
                "/hook' WHERE id = '" + webhook_ + "'");
  dispatch(raise());
  EXPECT_EQ(receiver_.received(), 0u) << "no connection was made";
  EXPECT_EQ(webhookField("active"), "false");
  EXPECT_EQ(webhookField("deactivated_reason"), "SSRF_BLOCKED");
  EXPECT_EQ(one<std::string>("SELECT failed_reason FROM webhook_dead_letters"), "SSRF_BLOCKED");
  EXPECT_EQ(mailer_.countAbout("disabled"), 1u);
}

TEST_F(WebhookDispatchTest, AnIpv4MappedLoopbackAddressIsBlocked) {
  config_.delivery.allow_loopback = false;
  scratch_.exec("UPDATE webhooks SET url = 'http://[::ffff:127.0.0.1]:" +
                std::to_string(receiver_.port()) + "/hook' WHERE id = '" + webhook_ + "'");
  dispatch(raise());
  EXPECT_EQ(receiver_.received(), 0u);
  EXPECT_EQ(webhookField("deactivated_reason"), "SSRF_BLOCKED");
}

TEST_F(WebhookDispatchTest, TheConnectionGoesToTheAddressThatWasChecked) {
  // The name does not resolve at all: only the pinned address can reach the receiver.
  std::string url = "http://hooks.invalid:" + std::to_string(receiver_.port()) + "/hook";
  auto response = httpRequest("POST", url, {}, "{}", 2s,
                              PinnedAddress{"hooks.invalid", receiver_.port(), "127.0.0.1"});
  EXPECT_EQ(response.status, 200) << response.error;
  EXPECT_EQ(httpRequest("POST", url, {}, "{}", 2s).status, 0);
}

TEST_F(WebhookDispatchTest, AHangingEndpointDoesNotDelayAnotherAccount) {
  receiver_.answerWith(ReceiverAnswer::Hang);
  config_.delivery.timeout = 3s;
  for (int i = 0; i < 6; ++i) dispatcher().onEvent(raise());
  std::string other = newId("acc");
  scratch_.exec("INSERT INTO accounts (id, name, email, password_hash, status) VALUES ('" + other +
                "', 'O', '" + other + "@ex.ca', 'x', 'ACTIVE')");
  WebhookReceiver fast;
  addWebhook(other, fast.url());
  auto started = std::chrono::steady_clock::now();
  dispatcher().onEvent(raise(other));
  ASSERT_EQ(fast.waitFor(1, 5s).size(), 1u);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 1s);
  EXPECT_LE(receiver_.received(), 2u) << "at most 2 attempts at once per endpoint";
}

TEST_F(WebhookDispatchTest, AnEndpointsFullBacklogMakesQueueFullDeadLetters) {
  receiver_.answerWith(ReceiverAnswer::Hang);
  config_.pool = {4, 1, 1};
  for (int i = 0; i < 3; ++i) dispatcher().onEvent(raise());
  EXPECT_EQ(one<std::string>("SELECT failed_reason FROM webhook_dead_letters"), "queue_full");
  dispatcher().waitIdle();
}

TEST_F(WebhookDispatchTest, ARetryClaimedByADispatcherThatDiedIsTakenAgainAfterItsLease) {
  receiver_.answerWith(ReceiverAnswer::Status, 500);
  dispatch(raise());
  clock_.advance(2s);
  {
    // A dispatcher claims the retry and dies before making the attempt.
    db::Session sql(database_);
    auto claimed = webhooks::claimDueRetries(*sql, clock_.now(), clock_.now() + config_.lease, 10);
    ASSERT_EQ(claimed.size(), 1u);
  }
  receiver_.answerWith(ReceiverAnswer::Ok);
  EXPECT_EQ(retryNow(), 0) << "still leased";
  clock_.advance(config_.lease);
  EXPECT_EQ(retryNow(), 1);
  EXPECT_EQ(receiver_.received(), 2u);
  EXPECT_EQ(one("SELECT count(*) FROM webhook_retries"), 0);
  EXPECT_EQ(one("SELECT count(*) FROM webhook_deliveries WHERE success AND attempt = 2"), 1);
}

TEST_F(WebhookDispatchTest, AttemptsNotMadeAtShutdownAreOwedInTheDatabase) {
  receiver_.answerWith(ReceiverAnswer::Hang);
  config_.pool = {4, 1, 100};
  for (int i = 0; i < 3; ++i) dispatcher().onEvent(raise());
  // The endpoint's one slot is taken before the shutdown (a pool thread may not have picked the
  // first attempt up yet when onEvent returns).
  ASSERT_EQ(receiver_.waitFor(1, 10s).size(), 1u);
  dispatcher_.reset();  // one attempt runs to its timeout; two never started
  EXPECT_EQ(one("SELECT count(*) FROM webhook_retries WHERE attempts = 0"), 2);
  EXPECT_EQ(one("SELECT count(*) FROM webhook_retries WHERE attempts = 1"), 1);
  receiver_.answerWith(ReceiverAnswer::Ok);
  EXPECT_EQ(retryNow(), 2) << "the parked ones are due at once";
  EXPECT_EQ(one("SELECT count(*) FROM webhook_deliveries WHERE success AND attempt = 1"), 2);
}

TEST_F(WebhookDispatchTest, DuringTheDayAfterARotationDeliveriesCarryBothSignatures) {
  std::string old_secret = secret_, new_secret = newWebhookSecret();
  scratch_.exec("UPDATE webhooks SET previous_secret = signing_secret, signing_secret = '" +
                new_secret + "', previous_secret_expires_at = now() + interval '24 hours' " +
                "WHERE id = '" + webhook_ + "'");
  dispatch(raise());
  clock_.advance(25h);
  dispatch(raise());
  auto got = receiver_.waitFor(2, 5s);
  ASSERT_EQ(got.size(), 2u);
  for (const auto& [request, both] : {std::pair{got[0], true}, std::pair{got[1], false}}) {
    auto signature = request.headers.at("webhook-signature");
    long long ts = std::stoll(request.headers.at("webhook-timestamp"));
    auto id = request.headers.at("webhook-id");
    EXPECT_EQ(signature.find(' ') != std::string::npos, both) << signature;
    EXPECT_TRUE(verifyWebhook(new_secret, id, ts, request.body, signature));
    EXPECT_EQ(verifyWebhook(old_secret, id, ts, request.body, signature), both);
  }
}

TEST_F(WebhookDispatchTest, DeadLettersAndAttemptsGoAtTheRetentionCutoff) {
  receiver_.answerWith(ReceiverAnswer::Status, 500);
  for (int i = 0; i < 3; ++i) dispatch(raise());
  scratch_.exec("UPDATE webhooks SET active = false WHERE id = '" + webhook_ + "'");
  {
    db::Session sql(database_);
    webhooks::deadLetterOwedEvents(*sql, webhook_, "ENDPOINT_DISABLED", clock_.now());
  }
  ASSERT_EQ(one("SELECT count(*) FROM webhook_dead_letters"), 3);
  std::string ids = "(SELECT event_id FROM webhook_dead_letters ORDER BY event_id LIMIT 2)";
  scratch_.exec(
      "UPDATE webhook_dead_letters SET created_at = now() - interval '91 days' WHERE "
      "event_id IN " +
      ids +
      "; UPDATE webhook_deliveries SET occurred_at = now() - "
      "interval '91 days' WHERE event_id IN " +
      ids);
  db::Session sql(database_);
  messaging::purgeExpiredBodies(*sql, {}, 1000, std::chrono::system_clock::now());
  EXPECT_EQ(one("SELECT count(*) FROM webhook_dead_letters"), 1);
  EXPECT_EQ(one("SELECT count(*) FROM webhook_deliveries"), 1);
}

}  // namespace

// Successful first attempts settle together (success_batches.h): every attempt's row, each
// endpoint's streak cleared, the event told only once its row is committed, a repeat recorded
// once.
TEST_F(WebhookDispatchTest, SuccessfulFirstAttemptsSettleTogetherAndEachEventHearsOnce) {
  WebhookReceiver other_receiver;
  std::string other = addWebhook(account_, other_receiver.url());
  scratch_.exec(
      "UPDATE webhooks SET failing_since = now() - interval '1 hour', failed_events = 3 "
      "WHERE id = '" +
      webhook_ + "'");
  std::vector<webhooks::FirstSuccess> done;
  for (int i = 0; i < 6; ++i) {
    auto record = topics::EventRecord::parse(raise().payload);
    webhooks::OwedDelivery owed;
    owed.endpoint.id = i % 2 == 0 ? webhook_ : other;
    owed.account_id = account_;
    owed.event = {record.id, record.type, record.envelope().dump()};
    DeliveryOutcome outcome;
    outcome.success = true;
    outcome.http_status = 200;
    outcome.duration_ms = 3;
    done.push_back({owed, outcome, "req_" + std::to_string(i)});
  }
  std::atomic<int> settled{0};
  {
    workers::SuccessBatches batches(database_, clock_, /*max_batch=*/4);
    for (const auto& success : done)
      batches.add(success, [&] {
        EXPECT_EQ(one("SELECT count(*) FROM webhook_deliveries WHERE request_id = '" +
                      success.request_id + "'"),
                  1)
            << "the event hears of its attempt once the row is committed";
        ++settled;
      });
    batches.waitIdle();
    EXPECT_EQ(settled.load(), 6);
    batches.add(done[0], [&] { ++settled; });  // the same attempt again (a replayed record)
  }                                            // going away writes what waits
  EXPECT_EQ(settled.load(), 7);
  EXPECT_EQ(one("SELECT count(*) FROM webhook_deliveries WHERE success AND attempt = 1"), 6);
  EXPECT_EQ(one("SELECT count(DISTINCT (webhook_id, event_id)) FROM webhook_deliveries"), 6);
  EXPECT_EQ(webhookField("failing_since"), "") << "a success ends the streak";
  EXPECT_EQ(webhookField("failed_events"), "0");
  EXPECT_NE(webhookField("last_success_at"), "");
}

// A burst through the dispatcher: every event delivered and recorded once, whether successes
// settle together or one by one, and over connections kept open or not.
TEST_F(WebhookDispatchTest, ABurstIsDeliveredAndRecordedOnceWithOrWithoutBatches) {
  for (bool batches : {true, false}) {
    dispatcher_.reset();
    config_.batch_successes = batches;
    config_.delivery.keep_alive = batches;
    size_t connections_before = receiver_.connectionsAccepted();
    scratch_.exec("DELETE FROM webhook_deliveries");
    size_t before = receiver_.received();
    std::vector<topics::Record> records;
    records.reserve(40);
    for (int i = 0; i < 40; ++i) records.push_back(raise());
    std::vector<topics::Outcome> outcomes;
    outcomes.reserve(records.size());
    for (const auto& record : records) outcomes.push_back(dispatcher().onEvent(record));
    for (auto& outcome : outcomes)
      if (outcome.settles.valid()) outcome.settles.wait();
    EXPECT_EQ(one("SELECT count(*) FROM webhook_deliveries WHERE success"), 40)
        << "every event's row is in once its outcome settled (batches " << batches << ")";
    EXPECT_EQ(receiver_.waitFor(before + 40, 10s).size(), before + 40);
    size_t connections = receiver_.connectionsAccepted() - connections_before;
    if (config_.delivery.keep_alive)
      EXPECT_LE(connections, 8u) << "at most one per delivery thread";
    else
      EXPECT_EQ(connections, 40u);
  }
}
