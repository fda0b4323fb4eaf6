// The walking skeleton, end to end through real processes: signup -> TEST send -> sender ->
// receipt -> webhook dispatcher -> a real HTTP endpoint, with every signature verified.
#include <gtest/gtest.h>

#include <set>

#include "domain/webhook_signature.h"
#include "tests/support/accounts.h"
#include "tests/support/test_env.h"
#include "tests/support/webhook_receiver.h"

using namespace smsgw;
using namespace smsgw::testing;

TEST(Pipeline, TestSendReachesTheWebhookSignedQueuedSentAndDelivered) {
  HttpTestClient api(apiUrl());
  WebhookReceiver receiver;
  TestAccount account = signUp(api);
  Reply hook = api.call("POST", "/v1/webhooks", bearer(account.test_key),
                        {{"url", receiver.url()},
                         {"events", {"message.queued", "message.sent", "message.delivered"}}});
  ASSERT_EQ(hook.status, 201) << hook.raw_body;
  std::string secret = hook.body["signing_secret"];

  Reply sent = api.call("POST", "/v1/messages", bearer(account.test_key),
                        {{"from", "+14165550100"},
                         {"to", "+15142220123"},
                         {"body", "Bonjour!"},
                         {"skip_consent_check", true}});
  ASSERT_EQ(sent.status, 201) << sent.raw_body;
  EXPECT_EQ(sent.body["status"], "QUEUED");
  EXPECT_EQ(sent.body["mode"], "TEST");
  EXPECT_EQ(sent.body["cost_cents"], 2);  // what it would have cost: one part
  EXPECT_TRUE(sent.body["estimated_send_at"].is_null());
  std::string message_id = sent.body["id"];

  auto deliveries = receiver.waitFor(3, std::chrono::seconds(60));
  ASSERT_EQ(deliveries.size(), 3u);
  std::set<std::string> types, ids;
  for (const auto& delivery : deliveries) {
    auto envelope = nlohmann::json::parse(delivery.body);
    long long timestamp = std::stoll(delivery.headers.at("x-service-timestamp"));
    EXPECT_TRUE(verifyWebhook(secret, envelope["id"].get<std::string>(), timestamp, delivery.body,
                              delivery.headers.at("x-service-signature")));
    EXPECT_EQ(delivery.headers.at("webhook-signature"), delivery.headers.at("x-service-signature"));
    EXPECT_EQ(delivery.headers.at("webhook-id"), envelope["id"]);
    EXPECT_EQ(delivery.headers.at("x-service-event"), envelope["type"]);
    EXPECT_EQ(envelope["livemode"], false);
    EXPECT_EQ(envelope["account_id"], account.id);
    EXPECT_EQ(envelope["data"]["message_id"], message_id);
    EXPECT_EQ(envelope["data"]["from"], "+14165550100");
    EXPECT_EQ(envelope["data"]["to"], "+15142220123");
    EXPECT_EQ(envelope["created"].get<std::string>().size(), 24u);  // 2026-11-22T10:00:00.000Z
    types.insert(envelope["type"]);
    ids.insert(envelope["id"]);
    if (envelope["type"] == "message.sent") {
      EXPECT_EQ(envelope["data"]["segment_count"], 1);
      EXPECT_EQ(envelope["data"]["cost_cents"], 2);
      EXPECT_FALSE(envelope["data"]["carrier_message_id"].get<std::string>().empty());
    }
    if (envelope["type"] == "message.delivered") {
      EXPECT_EQ(envelope["data"]["status"], "delivered");
      EXPECT_EQ(envelope["data"]["message_status"], "DELIVERED");
      EXPECT_TRUE(envelope["data"]["errors"].is_array());
    }
  }
  EXPECT_EQ(types, (std::set<std::string>{"message.queued", "message.sent", "message.delivered"}));
  EXPECT_EQ(ids.size(), 3u);

  Reply read = api.call("GET", "/v1/messages/" + message_id, bearer(account.test_key));
  EXPECT_EQ(read.body["status"], "DELIVERED");
  EXPECT_FALSE(read.body["delivered_at"].is_null());
  EXPECT_FALSE(read.body["sent_at"].is_null());

  // A TEST send never touches money.
  Reply doc = api.call("GET", "/v1/accounts/" + account.id, bearer(account.test_key));
  EXPECT_EQ(doc.body["account"]["balance_cents"], 0);
}

TEST(Pipeline, WebhookOnlyGetsTheEventsItSubscribedTo) {
  HttpTestClient api(apiUrl());
  WebhookReceiver receiver;
  TestAccount account = signUp(api);
  ASSERT_EQ(api.call("POST", "/v1/webhooks", bearer(account.test_key),
                     {{"url", receiver.url()}, {"events", {"message.delivered"}}})
                .status,
            201);
  ASSERT_EQ(api.call("POST", "/v1/messages", bearer(account.test_key),
                     {{"from", "+14165550100"},
                      {"to", "+14162220124"},
                      {"body", "hi"},
                      {"skip_consent_check", true}})
                .status,
            201);
  auto deliveries = receiver.waitFor(1, std::chrono::seconds(60));
  ASSERT_EQ(deliveries.size(), 1u);
  EXPECT_EQ(nlohmann::json::parse(deliveries[0].body)["type"], "message.delivered");
  EXPECT_EQ(receiver.waitFor(2, std::chrono::seconds(3)).size(), 1u);
}
