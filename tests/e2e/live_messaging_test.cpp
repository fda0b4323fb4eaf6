// LIVE sends through the running stack: the checks in their order, the charge and its refund,
// pacing per sending number, the carrier hand-off at the simulator, receipts, the
// undeliverable-number counter, and Idempotency-Key retries.
#include <gtest/gtest.h>

#include <thread>

#include "domain/clock.h"
#include "tests/support/eventually.h"
#include "tests/support/numbers.h"
#include "tests/support/test_env.h"

using namespace smsgw::testing;

namespace {

constexpr long long kPartPrice = 2;  // prices.sms_outbound_part

class LiveMessaging : public ::testing::Test {
 protected:
  void SetUp() override {
    account = readyToBuy(api, 1000);
    number = buyNumber(api, account, "613")["phone_number"];
    subscriber = withConsent(randomSubscriber("613"));
  }
  void TearDown() override { sim.call("DELETE", "/sim/faults"); }

  std::string withConsent(const std::string& phone) { return withLiveConsent(api, account, phone); }
  Reply send(const std::string& to, const std::string& body, const std::string& key = "") {
    std::vector<std::pair<std::string, std::string>> headers = bearer(account.live_key);
    if (!key.empty()) headers.emplace_back("Idempotency-Key", key);
    return api.call("POST", "/v1/messages", headers,
                    {{"from", number}, {"to", to}, {"body", body}});
  }
  nlohmann::json message(const std::string& id) {
    return api.call("GET", "/v1/messages/" + id, bearer(account.live_key)).body;
  }
  bool reaches(const std::string& id, const std::string& status) {
    return eventually([&] { return message(id)["status"] == status; });
  }
  // Texts the simulated handset received.
  size_t handsetCount(const std::string& phone) {
    return sim.call("GET", "/sim/messages?to=" + encodedNumber(phone)).body["data"].size();
  }
  void fault(const nlohmann::json& body) {
    ASSERT_EQ(sim.call("POST", "/sim/faults", {}, body).status, 201);
  }
  // A send fault only this test's sends meet (from its number unless it names a `to`): other
  // tests share the simulator, and their sends (an owner's code, another test's text) must
  // neither use it up nor be throttled by it.
  void sendFault(nlohmann::json body) {
    body["kind"] = "send";
    if (!body.contains("to")) body["from"] = number;
    fault(body);
  }
  void expectBalanced() {
    EXPECT_EQ(balanceOf(api, account), ledgerSum(api, account)) << "balance = ledger sum";
  }

  HttpTestClient api{apiUrl()};
  HttpTestClient sim{simUrl()};
  TestAccount account;
  std::string number;
  std::string subscriber;
};

}  // namespace

TEST_F(LiveMessaging, ASendIsChargedHandedToTheCarrierOnceAndDelivered) {
  long long before = balanceOf(api, account);
  Reply sent = send(subscriber, std::string(200, 'a'));  // two GSM-7 parts
  ASSERT_EQ(sent.status, 201) << sent.raw_body;
  EXPECT_EQ(sent.body["status"], "QUEUED");
  EXPECT_EQ(sent.body["mode"], "LIVE");
  EXPECT_EQ(sent.body["segment_count"], 2);
  EXPECT_EQ(sent.body["cost_cents"], 2 * kPartPrice);
  EXPECT_EQ(sent.body["casl_consent_type"], "EXPRESS");
  ASSERT_TRUE(sent.body["estimated_send_at"].is_string()) << "the number was idle: now";
  EXPECT_EQ(balanceOf(api, account), before - 2 * kPartPrice);

  std::string id = sent.body["id"];
  ASSERT_TRUE(reaches(id, "DELIVERED")) << message(id).dump();
  nlohmann::json delivered = message(id);
  EXPECT_TRUE(delivered["sent_at"].is_string());
  EXPECT_TRUE(delivered["delivered_at"].is_string());
  EXPECT_EQ(delivered["cost_cents"], 2 * kPartPrice) << "a delivered message keeps its charge";
  EXPECT_EQ(handsetCount(subscriber), 1u);
  expectBalanced();
}

TEST_F(LiveMessaging, EachNumberIsPacedWithoutDelayingTheOthers) {
  // 10 parts a minute: a 2-part message holds the number for 12 seconds.
  std::vector<smsgw::TimePoint> estimates;
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) {
    Reply sent = send(subscriber, std::string(200, static_cast<char>('a' + i)));
    ASSERT_EQ(sent.status, 201) << sent.raw_body;
    estimates.push_back(*smsgw::parseIso(sent.body["estimated_send_at"].get<std::string>()));
    ids.push_back(sent.body["id"]);
  }
  EXPECT_EQ(estimates[1] - estimates[0], std::chrono::seconds(12));
  EXPECT_EQ(estimates[2] - estimates[1], std::chrono::seconds(12));

  std::string other_number = buyNumber(api, account, "613")["phone_number"];
  std::string other = withConsent(randomSubscriber("613"));
  Reply elsewhere = api.call("POST", "/v1/messages", bearer(account.live_key),
                             {{"from", other_number}, {"to", other}, {"body", "Hi"}});
  ASSERT_EQ(elsewhere.status, 201) << elsewhere.raw_body;
  EXPECT_TRUE(reaches(elsewhere.body["id"], "DELIVERED")) << "another number is not held up";
  EXPECT_TRUE(reaches(ids[0], "DELIVERED"));
  EXPECT_EQ(message(ids[2])["status"], "QUEUED") << "its slot is 24 s after the first";
  EXPECT_EQ(handsetCount(subscriber), 1u);
  EXPECT_TRUE(reaches(ids[1], "DELIVERED")) << "sent when its slot came";
}

TEST_F(LiveMessaging, RefusalsComeInOrderAndChargeNothing) {
  long long before = balanceOf(api, account);
  auto code = [&](const std::string& to, const std::string& body) {
    return send(to, body).body["code"].get<std::string>();
  };
  EXPECT_EQ(code("+16135550100", "Hi"), "RESERVED_DESTINATION") << "TEST magic is reserved LIVE";
  EXPECT_EQ(code("+16134110000", "Hi"), "RESERVED_DESTINATION");
  std::string landline = withConsent(randomSubscriber("613"));
  fault({{"kind", "landline"}, {"number", landline}});
  Reply refused = send(landline, "Hi");
  EXPECT_EQ(refused.status, 422);
  EXPECT_EQ(refused.body["code"], "NOT_A_MOBILE_NUMBER");
  sim.call("DELETE", "/sim/faults");
  EXPECT_EQ(code(landline, "Hi"), "NOT_A_MOBILE_NUMBER") << "the lookup is cached";
  EXPECT_EQ(code(landline, std::string(1601, 'a')), "NOT_A_MOBILE_NUMBER") << "checked first";
  EXPECT_EQ(code(subscriber, std::string(1531, 'a')), "MESSAGE_TOO_LONG");
  Reply shortened = send(subscriber, "Sale! https://bit.ly/3xYz now");
  EXPECT_EQ(shortened.body["code"], "LINK_SHORTENER_BLOCKED");
  EXPECT_EQ(shortened.body["details"]["domain"], "bit.ly");
  EXPECT_EQ(code(randomSubscriber("613"), "Hi"), "NO_CONSENT");
  Reply skip = api.call(
      "POST", "/v1/messages", bearer(account.live_key),
      {{"from", number}, {"to", subscriber}, {"body", "Hi"}, {"skip_consent_check", true}});
  EXPECT_EQ(skip.status, 403);
  EXPECT_EQ(skip.body["code"], "FORBIDDEN");
  EXPECT_EQ(balanceOf(api, account), before);
  EXPECT_EQ(api.call("GET", "/v1/messages?direction=OUTBOUND", bearer(account.live_key))
                .body["meta"]["total"],
            0);
}

TEST_F(LiveMessaging, ASendTheBalanceCannotCoverIs402) {
  TestAccount poor = readyToBuy(api, 500);  // two numbers at 250 leave nothing
  std::string from = buyNumber(api, poor, "613")["phone_number"];
  buyNumber(api, poor, "613");
  std::string to = randomSubscriber("613");
  api.call("POST", "/v1/compliance/consents", bearer(poor.live_key),
           {{"phone_number", to}, {"consent_type", "express"}, {"source_description", "Form"}});
  Reply refused = api.call("POST", "/v1/messages", bearer(poor.live_key),
                           {{"from", from}, {"to", to}, {"body", "Hi"}});
  EXPECT_EQ(refused.status, 402);
  EXPECT_EQ(refused.body["code"], "INSUFFICIENT_BALANCE");
  EXPECT_EQ(balanceOf(api, poor), 0);
}

TEST_F(LiveMessaging, ACarrierRefusalFailsAndRefunds) {
  long long before = balanceOf(api, account);
  sendFault({{"count", 1}, {"mode", "refuse"}, {"code", "40008"}});
  Reply sent = send(subscriber, "Hi");
  ASSERT_EQ(sent.status, 201) << sent.raw_body;
  ASSERT_TRUE(reaches(sent.body["id"], "FAILED"));
  nlohmann::json failed = message(sent.body["id"]);
  EXPECT_EQ(failed["error_code"], "CARRIER_ERROR");
  EXPECT_EQ(failed["cost_cents"], 0);
  EXPECT_EQ(balanceOf(api, account), before);
  EXPECT_EQ(handsetCount(subscriber), 0u);
  expectBalanced();
}

TEST_F(LiveMessaging, ThreeCarrierFailuresInARowMakeANumberUndeliverable) {
  fault(
      {{"kind", "receipt"}, {"to", subscriber}, {"status", "delivery_failed"}, {"code", "30003"}});
  std::string first_id;
  for (int i = 0; i < 3; ++i) {
    Reply sent = send(subscriber, "Attempt " + std::to_string(i), i == 0 ? "attempt-0" : "");
    ASSERT_EQ(sent.status, 201) << sent.raw_body;
    if (i == 0) first_id = sent.body["id"];
    ASSERT_TRUE(reaches(sent.body["id"], "UNDELIVERED"));
    nlohmann::json undelivered = message(sent.body["id"]);
    EXPECT_EQ(undelivered["error_code"], "30003");
    EXPECT_EQ(undelivered["cost_cents"], kPartPrice) << "an undelivered message keeps its charge";
  }
  long long before = balanceOf(api, account);
  Reply refused = send(subscriber, "Once more");
  EXPECT_EQ(refused.status, 422);
  EXPECT_EQ(refused.body["code"], "UNDELIVERABLE_NUMBER");
  Reply replayed = send(subscriber, "Attempt 0", "attempt-0");
  EXPECT_EQ(replayed.status, 201) << "a replay answers as the first request did";
  EXPECT_EQ(replayed.body["id"], first_id);
  EXPECT_EQ(balanceOf(api, account), before);
  expectBalanced();
}

TEST_F(LiveMessaging, AReceiptThatConfirmsNothingLeavesItSentChargedAndNotCountedAgainstIt) {
  fault({{"kind", "receipt"}, {"to", subscriber}, {"status", "delivery_unconfirmed"}});
  long long before = balanceOf(api, account);
  for (int i = 0; i < 3; ++i) {
    Reply sent = send(subscriber, "Unconfirmed " + std::to_string(i));
    ASSERT_EQ(sent.status, 201) << sent.raw_body;
    ASSERT_TRUE(reaches(sent.body["id"], "SENT")) << message(sent.body["id"]).dump();
    nlohmann::json unconfirmed = message(sent.body["id"]);
    EXPECT_TRUE(unconfirmed["error_code"].is_null());
    EXPECT_EQ(unconfirmed["cost_cents"], kPartPrice) << "the carrier sent it: the charge is kept";
  }
  EXPECT_EQ(balanceOf(api, account), before - 3 * kPartPrice);
  sim.call("DELETE", "/sim/faults");
  Reply fourth = send(subscriber, "Still reachable");
  ASSERT_EQ(fourth.status, 201) << "three unconfirmed receipts are no failures: "
                                << fourth.raw_body;
  EXPECT_TRUE(reaches(fourth.body["id"], "DELIVERED"));
  expectBalanced();
}

// Issue 50: a 429 means the carrier did not send it and named when to try again. The message
// waits for that window, QUEUED and charged, and goes: nothing failed, nothing refunded.
TEST_F(LiveMessaging, AThrottledSendWaitsForTheCarriersWindowAndIsSentOnce) {
  long long before = balanceOf(api, account);
  sendFault({{"count", 1}, {"mode", "throttle"}, {"reset", 2}, {"window", "scoped"}});
  Reply first = send(subscriber, "Your order shipped");
  ASSERT_EQ(first.status, 201) << first.raw_body;
  std::string id = first.body["id"];
  ASSERT_TRUE(reaches(id, "DELIVERED")) << message(id).dump();
  EXPECT_TRUE(message(id)["error_code"].is_null());
  EXPECT_EQ(balanceOf(api, account), before - kPartPrice) << "charged once for the one SMS";
  EXPECT_EQ(handsetCount(subscriber), 1u);
  expectBalanced();
}

// Throttled again once it has waited THROTTLED_REQUEUE_SECONDS (5 s in the test stack), a send
// fails CARRIER_THROTTLED, refunded; a retry with its Idempotency-Key queues the same message.
TEST_F(LiveMessaging, ASendThrottledTooLongFailsAndIsQueuedAgainByARetryWithTheSameKey) {
  long long before = balanceOf(api, account);
  sendFault({{"count", 2}, {"mode", "throttle"}, {"reset", 6}, {"window", "scoped"}});
  Reply first = send(subscriber, "Your order shipped", "order-42");
  ASSERT_EQ(first.status, 201) << first.raw_body;
  std::string id = first.body["id"];
  ASSERT_TRUE(
      eventually([&] { return message(id)["status"] == "FAILED"; }, std::chrono::seconds(60)));
  EXPECT_EQ(message(id)["error_code"], "CARRIER_THROTTLED");
  EXPECT_EQ(balanceOf(api, account), before) << "refunded";

  // The second 429 shut the simulator's window for 6 s of wall time before the failure was
  // recorded: a retry after 7 s finds it open.
  std::this_thread::sleep_for(std::chrono::seconds(7));
  Reply retry = send(subscriber, "Your order shipped", "order-42");
  ASSERT_EQ(retry.status, 201) << retry.raw_body;
  EXPECT_EQ(retry.body["id"], id) << "the same message, queued again";
  EXPECT_EQ(retry.body["status"], "QUEUED");
  EXPECT_TRUE(retry.body["estimated_send_at"].is_string());
  ASSERT_TRUE(reaches(id, "DELIVERED"));
  EXPECT_EQ(balanceOf(api, account), before - kPartPrice) << "charged once for the one SMS";
  EXPECT_EQ(handsetCount(subscriber), 1u);
  Reply replay = send(subscriber, "Your order shipped", "order-42");
  EXPECT_EQ(replay.body["status"], "DELIVERED");
  EXPECT_TRUE(replay.body["estimated_send_at"].is_null()) << "a replay carries no estimate";
  expectBalanced();
}

TEST_F(LiveMessaging, AfterACarriers429TheOtherSendsWaitForItsWindowInsteadOfFailing) {
  std::string other_number = buyNumber(api, account, "613")["phone_number"];
  // Telnyx's window shut for three seconds: every send in it is answered 429. Telnyx's is the
  // account's; this one shuts for texts to this subscriber, from any number, so that the
  // tests running beside this one are not throttled.
  sendFault(
      {{"to", subscriber}, {"count", 1}, {"mode", "throttle"}, {"reset", 3}, {"window", "scoped"}});
  Reply first = send(subscriber, "First");
  ASSERT_EQ(first.status, 201) << first.raw_body;

  // Sent at once from another number (another partition): it waits out the window too.
  Reply second = api.call("POST", "/v1/messages", bearer(account.live_key),
                          {{"from", other_number}, {"to", subscriber}, {"body", "Second"}});
  ASSERT_EQ(second.status, 201) << second.raw_body;
  ASSERT_TRUE(reaches(second.body["id"], "DELIVERED")) << message(second.body["id"]).dump();
  ASSERT_TRUE(reaches(first.body["id"], "DELIVERED")) << message(first.body["id"]).dump();
  EXPECT_EQ(handsetCount(subscriber), 2u) << "each text once, the throttled one after its window";
  expectBalanced();
}

// Telnyx answers each send with wait_seconds, how long its own queue (0.1 message a second per
// long code by default) holds the text. The number's next slot moves behind that queue, so the
// next send's estimated_send_at tells the customer when it will really go.
TEST_F(LiveMessaging, TheCarriersQueueWaitMovesTheNumbersNextSlot) {
  fault({{"kind", "queue"}, {"number", number}, {"wait_seconds", 120}});
  Reply first = send(subscriber, "First");
  ASSERT_EQ(first.status, 201) << first.raw_body;
  ASSERT_TRUE(reaches(first.body["id"], "DELIVERED"));
  Reply second = send(subscriber, "Second");
  ASSERT_EQ(second.status, 201) << second.raw_body;
  auto estimate = smsgw::parseIso(second.body["estimated_send_at"].get<std::string>());
  ASSERT_TRUE(estimate);
  EXPECT_GE(*estimate, smsgw::parseIso(second.body["created_at"].get<std::string>()).value() +
                           std::chrono::seconds(110))
      << second.body.dump();
  EXPECT_EQ(message(second.body["id"])["status"], "QUEUED") << "it waits in our queue";
}

// Issue 50: no answer in time, or a 5xx after the carrier took the text, is no proof that
// nothing was sent. The send stays QUEUED and charged, is never handed over again, and the
// carrier's receipt (which names the text, not our id) settles it. Before, both failed at once
// and were refunded while the handset had the text.
TEST_F(LiveMessaging, ATimedOutSendIsSettledByItsReceiptAndNeverSentAgain) {
  long long before = balanceOf(api, account);
  sendFault({{"count", 1}, {"mode", "timeout"}});
  Reply first = send(subscriber, "Code 1234", "otp-7");
  ASSERT_EQ(first.status, 201) << first.raw_body;
  std::string id = first.body["id"];
  ASSERT_TRUE(
      eventually([&] { return message(id)["status"] == "DELIVERED"; }, std::chrono::seconds(30)))
      << message(id).dump();
  EXPECT_TRUE(message(id)["error_code"].is_null());
  Reply retry = send(subscriber, "Code 1234", "otp-7");
  EXPECT_EQ(retry.body["id"], id);
  EXPECT_EQ(retry.body["status"], "DELIVERED") << "not queued again";
  EXPECT_EQ(handsetCount(subscriber), 1u);
  EXPECT_EQ(balanceOf(api, account), before - kPartPrice) << "charged once, kept";
  expectBalanced();
}

TEST_F(LiveMessaging, ASendTheCarrierTookAndAnswered502IsSettledByItsReceipt) {
  long long before = balanceOf(api, account);
  sendFault({{"count", 1}, {"mode", "accept_502"}});
  Reply first = send(subscriber, "Your table is ready", "table-9");
  ASSERT_EQ(first.status, 201) << first.raw_body;
  std::string id = first.body["id"];
  ASSERT_TRUE(reaches(id, "DELIVERED")) << message(id).dump();
  EXPECT_TRUE(message(id)["error_code"].is_null());
  EXPECT_EQ(send(subscriber, "Your table is ready", "table-9").body["status"], "DELIVERED");
  EXPECT_EQ(handsetCount(subscriber), 1u) << "one text: a 502 is not resent";
  EXPECT_EQ(balanceOf(api, account), before - kPartPrice);
  expectBalanced();
}

TEST_F(LiveMessaging, TestModeMagicNumbersSimulateWhatLiveTrafficMeets) {
  auto test_send = [&](const std::string& to) {
    return api.call(
        "POST", "/v1/messages", bearer(account.test_key),
        {{"from", "+16135550199"}, {"to", to}, {"body", "Hi"}, {"skip_consent_check", true}});
  };
  Reply refused = test_send("+16135550100");
  ASSERT_EQ(refused.status, 201) << refused.raw_body;
  EXPECT_TRUE(refused.body["estimated_send_at"].is_null());
  Reply undelivered = test_send("+16135550101");
  ASSERT_EQ(undelivered.status, 201);
  Reply landline = test_send("+16135550102");
  EXPECT_EQ(landline.status, 422);
  EXPECT_EQ(landline.body["code"], "NOT_A_MOBILE_NUMBER");
  EXPECT_EQ(test_send("+16135550103").body["code"], "RESERVED_DESTINATION");
  auto status_of = [&](const Reply& sent) {
    return api
        .call("GET", "/v1/messages/" + sent.body["id"].get<std::string>(), bearer(account.test_key))
        .body;
  };
  ASSERT_TRUE(eventually([&] { return status_of(refused)["status"] == "FAILED"; }));
  EXPECT_EQ(status_of(refused)["error_code"], "CARRIER_ERROR");
  ASSERT_TRUE(eventually([&] { return status_of(undelivered)["status"] == "UNDELIVERED"; }));
  EXPECT_EQ(status_of(undelivered)["error_code"], "30003");
}

TEST_F(LiveMessaging, TheRecipientAndDailyLimitsRefuseWithRetryAfter) {
  TestAccount tester = signUp(api);
  auto test_send = [&](const std::string& to, const std::string& body) {
    return api.call(
        "POST", "/v1/messages", bearer(tester.test_key),
        {{"from", "+16135550199"}, {"to", to}, {"body", body}, {"skip_consent_check", true}});
  };
  std::string to = randomSubscriber("613");
  for (int i = 0; i < 30; ++i) ASSERT_EQ(test_send(to, "n" + std::to_string(i)).status, 201);
  Reply limited = test_send(to, "one too many");
  EXPECT_EQ(limited.status, 429);
  EXPECT_EQ(limited.body["code"], "RECIPIENT_RATE_LIMITED");
  EXPECT_EQ(limited.body["details"]["limit"], 30);
  ASSERT_TRUE(limited.headers.count("retry-after"));
  EXPECT_GT(std::stoi(limited.headers.at("retry-after")), 3500);

  ASSERT_EQ(runAdmin("account set-daily-limit " + tester.id + " --limit 32").exit_code, 0);
  EXPECT_EQ(test_send(randomSubscriber("613"), "x").status, 201);
  EXPECT_EQ(test_send(randomSubscriber("613"), "y").status, 201);
  Reply daily = test_send(randomSubscriber("613"), "z");
  EXPECT_EQ(daily.status, 429);
  EXPECT_EQ(daily.body["code"], "DAILY_LIMIT_REACHED");
  EXPECT_EQ(daily.body["details"]["limit"], 32);
  EXPECT_EQ(daily.body["details"]["count"], 32);
}

// Issue 51: an erasure anonymized a QUEUED message (body to NULL, number to a token) and the
// sender then read the NULL body as a verification, failing it STALE_QUEUED, a platform code.
// What has not reached the carrier is cancelled by the erasure itself: FAILED RECIPIENT_ERASED,
// refunded, never handed over; what the carrier has keeps its status.
TEST_F(LiveMessaging, AnErasureCancelsWhatIsStillQueuedToTheNumberAndRefundsIt) {
  long long before = balanceOf(api, account);
  // 10 parts a minute: 2-part messages hold the number 12 s each, so the third waits 24 s.
  std::vector<std::string> ids;
  std::string last_slot;
  for (int i = 0; i < 3; ++i) {
    Reply sent = send(subscriber, std::string(200, static_cast<char>('a' + i)));
    ASSERT_EQ(sent.status, 201) << sent.raw_body;
    ids.push_back(sent.body["id"]);
    last_slot = sent.body["estimated_send_at"];
  }
  ASSERT_TRUE(reaches(ids[0], "DELIVERED"));
  Reply erased = api.call("POST", "/v1/compliance/erasures", bearer(account.live_key),
                          {{"phone_number", subscriber}});
  ASSERT_EQ(erased.status, 201) << erased.raw_body;

  // The second may have left in the meantime on a slow machine; the third cannot have.
  int cancelled = 0;
  for (const std::string& id : ids) {
    nlohmann::json now = message(id);
    if (now["error_code"] == "RECIPIENT_ERASED") {
      ++cancelled;
      EXPECT_EQ(now["status"], "FAILED");
      EXPECT_EQ(now["cost_cents"], 0) << "refunded";
      EXPECT_TRUE(now["to"].get<std::string>().starts_with("erased:"));
    }
  }
  EXPECT_EQ(message(ids[0])["status"], "DELIVERED") << "the carrier had it: kept";
  EXPECT_EQ(message(ids[2])["error_code"], "RECIPIENT_ERASED");
  EXPECT_EQ(erased.body["counts"]["messages_cancelled"], cancelled);

  // Past the last slot, nothing more reached the handset, and nothing changed.
  auto slot = *smsgw::parseIso(last_slot);
  std::this_thread::sleep_until(std::chrono::system_clock::now() +
                                (slot - smsgw::SystemClock().now()) + std::chrono::seconds(3));
  EXPECT_EQ(handsetCount(subscriber), static_cast<size_t>(3 - cancelled));
  EXPECT_EQ(message(ids[2])["status"], "FAILED");
  EXPECT_EQ(message(ids[2])["error_code"], "RECIPIENT_ERASED") << "not STALE_QUEUED";
  long long sent_parts = 2LL * (3 - cancelled);
  EXPECT_EQ(balanceOf(api, account), before - sent_parts * kPartPrice);
  expectBalanced();
}
