// Webhook management and the carrier callback gate.
#include <gtest/gtest.h>

#include <chrono>

#include "domain/clock.h"
#include "tests/support/accounts.h"
#include "tests/support/carrier_webhooks.h"
#include "tests/support/numbers.h"
#include "tests/support/test_env.h"

using namespace smsgw::testing;

TEST(Webhooks, CreateShowsTheSecretOnceThenReadListDelete) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  Reply created =
      api.call("POST", "/v1/webhooks", bearer(account.test_key),
               {{"url", "http://127.0.0.1:9/hook"}, {"events", {"message.sent", "message.sent"}}});
  ASSERT_EQ(created.status, 201) << created.raw_body;
  EXPECT_TRUE(created.body["signing_secret"].get<std::string>().starts_with("whsec_"));
  EXPECT_EQ(created.body["events"], nlohmann::json({"message.sent"}));
  std::string id = created.body["id"];
  Reply read = api.call("GET", "/v1/webhooks/" + id, bearer(account.test_key));
  EXPECT_EQ(read.status, 200);
  EXPECT_FALSE(read.body.contains("signing_secret"));
  for (const char* field :
       {"active", "failing_since", "failed_events", "last_failure_reason", "deactivated_reason"}) {
    EXPECT_TRUE(read.body.contains(field)) << field;
  }
  EXPECT_EQ(api.call("GET", "/v1/webhooks", bearer(account.test_key)).body["data"].size(), 1u);
  EXPECT_EQ(api.call("DELETE", "/v1/webhooks/" + id, bearer(account.test_key)).status, 204);
  EXPECT_EQ(api.call("GET", "/v1/webhooks/" + id, bearer(account.test_key)).status, 404);
}

TEST(Webhooks, RefusesUnknownEventsAndBadUrls) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  auto create = [&](const nlohmann::json& body) {
    return api.call("POST", "/v1/webhooks", bearer(account.test_key), body);
  };
  EXPECT_EQ(create({{"url", "http://127.0.0.1:9/h"}, {"events", {"message.teleported"}}})
                .body["details"][0]["field"],
            "events");
  EXPECT_EQ(create({{"url", "http://127.0.0.1:9/h"}, {"events", nlohmann::json::array()}}).status,
            422);
  EXPECT_EQ(create({{"url", "ftp://example.com/h"}, {"events", {"message.sent"}}})
                .body["details"][0]["field"],
            "url");
  EXPECT_EQ(create({{"url", "not a url"}, {"events", {"message.sent"}}}).status, 422);
}

TEST(Webhooks, TenEndpointsAtMost) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  for (int i = 0; i < 10; ++i) {
    ASSERT_EQ(api.call("POST", "/v1/webhooks", bearer(account.test_key),
                       {{"url", "http://127.0.0.1:9/h" + std::to_string(i)},
                        {"events", {"message.sent"}}})
                  .status,
              201);
  }
  Reply eleventh = api.call("POST", "/v1/webhooks", bearer(account.test_key),
                            {{"url", "http://127.0.0.1:9/h"}, {"events", {"message.sent"}}});
  EXPECT_EQ(eleventh.status, 422);
  EXPECT_EQ(eleventh.body["code"], "WEBHOOK_LIMIT_REACHED");
}

TEST(Webhooks, AnotherAccountsEndpointIsForbidden) {
  HttpTestClient api(apiUrl());
  TestAccount mine = signUp(api);
  TestAccount theirs = signUp(api);
  std::string id = api.call("POST", "/v1/webhooks", bearer(theirs.test_key),
                            {{"url", "http://127.0.0.1:9/h"}, {"events", {"message.sent"}}})
                       .body["id"];
  EXPECT_EQ(api.call("GET", "/v1/webhooks/" + id, bearer(mine.test_key)).status, 403);
  EXPECT_EQ(api.call("DELETE", "/v1/webhooks/" + id, bearer(mine.test_key)).status, 403);
  EXPECT_EQ(api.call("GET", "/v1/webhooks/" + id, bearer(theirs.test_key)).status, 200);
}

TEST(CarrierCallbacks, OnlyATelnyxSignatureOfThisBodyWithinFiveMinutesIsTaken) {
  HttpTestClient api(apiUrl());
  std::string body = telnyxWebhook("message.sent", {{"id", "x"}}).dump();
  auto post = [&](const Headers& headers, const std::string& text) {
    return api.call("POST", "/carrier/webhooks", headers, nullptr, &text).status;
  };
  EXPECT_EQ(post({{"Content-Type", "application/json"}}, body), 401) << "unsigned";
  // The API reads its own clock a moment after ours and may be a second on: the exact edge
  // is the unit test's (carrier_callback_test, with a fixed now); here a margin either side.
  long long now = smsgw::unixSeconds(std::chrono::system_clock::now());
  EXPECT_EQ(post(telnyxSignedHeaders(body, now - 330), body), 401) << "stale";
  EXPECT_EQ(post(telnyxSignedHeaders(body, now + 330), body), 401) << "from the future";
  EXPECT_EQ(post(telnyxSignedHeaders(body), body + " "), 401) << "another body";
  Headers hmac_era = {{"Content-Type", "application/json"},
                      {"X-Carrier-Timestamp", std::to_string(now)},
                      {"X-Carrier-Signature", "00"}};
  EXPECT_EQ(post(hmac_era, body), 401);
  EXPECT_EQ(post(telnyxSignedHeaders(body, now - 270), body), 200);
  EXPECT_EQ(api.call("POST", "/carrier/receipts", telnyxSignedHeaders(body), nullptr, &body).status,
            404)
      << "one URL for every event";
}

TEST(CarrierCallbacks, EventTypesWeDoNotUseAreAnsweredAndAReceiptNeedsAKnownStatus) {
  HttpTestClient api(apiUrl());
  auto post = [&](const nlohmann::json& webhook) {
    std::string text = webhook.dump();
    return api.call("POST", "/carrier/webhooks", telnyxSignedHeaders(text), nullptr, &text);
  };
  nlohmann::json message = {{"id", "carrier-" + randomSubscriber("000").substr(5)},
                            {"to", {{{"phone_number", "+14165550123"}, {"status", "sent"}}}}};
  EXPECT_EQ(post(telnyxWebhook("message.sent", message)).status, 200);
  EXPECT_EQ(post(telnyxWebhook("call.initiated", {{"call_control_id", "c"}})).status, 200);
  EXPECT_EQ(post({{"data", {{"record_type", "event"}}}}).status, 200) << "no type: not ours";

  nlohmann::json without_status = message;
  without_status["to"][0].erase("status");
  Reply refused = post(telnyxWebhook("message.finalized", without_status));
  EXPECT_EQ(refused.status, 422);
  EXPECT_EQ(refused.body["code"], "VALIDATION_ERROR");
  EXPECT_NE(refused.raw_body.find("to[0].status"), std::string::npos) << refused.raw_body;
  nlohmann::json unknown = message;
  unknown["to"][0]["status"] = "lost_in_space";
  EXPECT_EQ(post(telnyxWebhook("message.finalized", unknown)).status, 422);
  EXPECT_EQ(post(telnyxWebhook("message.finalized", nlohmann::json::object())).status, 422)
      << "no message id";
  EXPECT_EQ(post(telnyxWebhook("message.received", {{"id", "m"}, {"text", "hi"}})).status, 422)
      << "an inbound text without its numbers";
}

TEST(CarrierCallbacks, TheSimulatorsSignedInboundCallbackIsAccepted) {
  HttpTestClient sim(simUrl());
  Reply reply = sim.call("POST", "/sim/inbound", {},
                         {{"from", "+14165550199"}, {"to", "+14165550100"}, {"text", "HELLO"}});
  EXPECT_EQ(reply.status, 202);
  EXPECT_EQ(reply.body["gateway_status"], 200);
}
