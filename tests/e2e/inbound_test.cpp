// The inbound pipeline through the running stack: a subscriber texts an account number at the
// carrier simulator, which calls the gateway's signed callback; the inbound-keyword worker acts
// on the text and its automatic reply travels back through the sender to the simulator.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <thread>

#include "tests/support/numbers.h"
#include "tests/support/test_env.h"
#include "tests/support/webhook_receiver.h"

using namespace smsgw::testing;

namespace {

bool eventually(const std::function<bool()>& condition,
                std::chrono::seconds timeout = std::chrono::seconds(20)) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return condition();
}

std::string encoded(const std::string& e164) {
  return "%2B" + e164.substr(1);
}

class Inbound : public ::testing::Test {
 protected:
  void SetUp() override {
    account = readyToBuy(api, 1000);
    number = buyNumber(api, account, "581")["phone_number"];
    subscriber = randomSubscriber("581");
  }
  void texts(const std::string& body) {
    Reply sent = sim.call("POST", "/sim/inbound", {},
                          {{"from", subscriber}, {"to", number}, {"text", body}});
    ASSERT_EQ(sent.status, 202) << sent.raw_body;
    ASSERT_EQ(sent.body["gateway_status"], 200) << "the gateway took the signed callback";
  }
  // What the simulated handset received from the account number, newest first.
  nlohmann::json handset() {
    return sim.call("GET", "/sim/messages?to=" + encoded(subscriber)).body["data"];
  }
  nlohmann::json inboundMessages() {
    return api
        .call("GET", "/v1/messages?direction=INBOUND&from=" + encoded(subscriber),
              bearer(account.live_key))
        .body["data"];
  }
  std::string consentCheck() {
    Reply checked = api.call("GET",
                             "/v1/compliance/consents/check?phone_number=" + encoded(subscriber) +
                                 "&from_number=" + encoded(number),
                             bearer(account.live_key));
    return checked.body["allowed"] == true ? "allowed" : checked.body["reason"].get<std::string>();
  }

  HttpTestClient api{apiUrl()};
  HttpTestClient sim{simUrl()};
  TestAccount account;
  std::string number, subscriber;
};

}  // namespace

TEST_F(Inbound, StopOptsOutAndTheConfirmationReachesTheHandset) {
  WebhookReceiver receiver;
  ASSERT_EQ(
      api.call("POST", "/v1/webhooks", bearer(account.live_key),
               {{"url", receiver.url()}, {"events", {"message.received", "opt_out.recorded"}}})
          .status,
      201);
  ASSERT_EQ(api.call("POST", "/v1/compliance/consents", bearer(account.live_key),
                     {{"phone_number", subscriber},
                      {"consent_type", "express"},
                      {"source_description", "Loyalty sign-up"}})
                .status,
            201);
  EXPECT_EQ(consentCheck(), "allowed");

  texts("Stop please");
  ASSERT_TRUE(eventually([&] { return consentCheck() == "OPT_OUT"; }));
  Reply opt_outs = api.call("GET", "/v1/compliance/opt-outs?phone_number=" + encoded(subscriber),
                            bearer(account.live_key));
  ASSERT_EQ(opt_outs.body["data"].size(), 1u);
  EXPECT_EQ(opt_outs.body["data"][0]["keywordUsed"], "STOP PLEASE");
  EXPECT_EQ(opt_outs.body["data"][0]["fromNumber"], number);

  ASSERT_TRUE(eventually([&] { return !handset().empty(); })) << "the STOP confirmation";
  EXPECT_EQ(handset()[0]["from"], number);
  EXPECT_NE(handset()[0]["text"].get<std::string>().find("unsubscribed"), std::string::npos);

  auto received = inboundMessages();
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0]["status"], "RECEIVED");
  EXPECT_EQ(received[0]["body"], "Stop please");
  EXPECT_EQ(received[0]["cost_cents"], 1);
  Reply replies = api.call("GET", "/v1/messages?direction=OUTBOUND&to=" + encoded(subscriber),
                           bearer(account.live_key));
  ASSERT_EQ(replies.body["data"].size(), 1u);
  EXPECT_EQ(replies.body["data"][0]["auto_reply_keyword"], "STOP");
  EXPECT_EQ(replies.body["data"][0]["cost_cents"], 0);

  auto deliveries = receiver.waitFor(2, std::chrono::seconds(20));
  ASSERT_EQ(deliveries.size(), 2u);
  auto first = nlohmann::json::parse(deliveries[0].body);
  auto second = nlohmann::json::parse(deliveries[1].body);
  EXPECT_EQ(first["type"], "message.received");
  EXPECT_EQ(first["data"]["keyword_action"], "opted_out");
  EXPECT_EQ(first["data"]["body"], "Stop please");
  EXPECT_EQ(second["type"], "opt_out.recorded");
  EXPECT_EQ(second["data"]["keyword"], "STOP PLEASE");
}

TEST_F(Inbound, StartAfterStopReinstatesAndHelpIsAnswered) {
  texts("STOP");
  ASSERT_TRUE(eventually([&] { return consentCheck() == "OPT_OUT"; }));
  texts("start");
  ASSERT_TRUE(eventually([&] { return consentCheck() == "NO_CONSENT"; }))
      << "the opt-out is lifted; consent is still needed";
  Reply opt_outs = api.call("GET", "/v1/compliance/opt-outs?phone_number=" + encoded(subscriber),
                            bearer(account.live_key));
  EXPECT_EQ(opt_outs.body["data"][0]["reinstateKeyword"], "START");
  EXPECT_FALSE(opt_outs.body["data"][0]["reinstatedAt"].is_null());

  texts("aide");
  ASSERT_TRUE(eventually([&] { return handset().size() == 3; })) << "STOP, START and AIDE replies";
  EXPECT_NE(handset()[0]["text"].get<std::string>().find("Répondez ARRET"), std::string::npos);
  auto received = inboundMessages();
  ASSERT_EQ(received.size(), 3u);
}

TEST_F(Inbound, TextsOverTheInboundCapAreStoredWithoutContentAndAnnouncedOnce) {
  WebhookReceiver receiver;
  ASSERT_EQ(api.call("POST", "/v1/webhooks", bearer(account.live_key),
                     {{"url", receiver.url()},
                      {"events", {"message.received", "account.inbound_sms_capped"}}})
                .status,
            201);
  ASSERT_EQ(runAdmin("account set-inbound-cap " + account.id + " --cap 1").exit_code, 0);
  for (const char* body : {"first", "second", "third"}) texts(body);
  ASSERT_TRUE(eventually([&] { return inboundMessages().size() == 3; }));
  int without_content = 0;
  for (const auto& message : inboundMessages()) without_content += message["body"].is_null();
  EXPECT_EQ(without_content, 2);

  auto deliveries = receiver.waitFor(2, std::chrono::seconds(20));
  std::this_thread::sleep_for(std::chrono::seconds(1));
  deliveries = receiver.waitFor(2, std::chrono::seconds(1));
  ASSERT_EQ(deliveries.size(), 2u) << "one message.received, one cap notice";
  auto notice = nlohmann::json::parse(deliveries[1].body);
  EXPECT_EQ(notice["type"], "account.inbound_sms_capped");
  EXPECT_EQ(notice["data"]["cap"], 1);
  EXPECT_EQ(notice["data"]["window_hours"], 24);
  Reply doc = api.call("GET", "/v1/accounts/" + account.id, bearer(account.live_key));
  EXPECT_EQ(doc.body["account"]["inbound_sms_daily_cap"], 1);
  EXPECT_EQ(doc.body["account"]["inbound_sms_received_24h"], 3);

  texts("STOP");
  EXPECT_TRUE(eventually([&] { return consentCheck() == "OPT_OUT"; })) << "STOP works over the cap";
}
