// The inbound pipeline through the running stack: a subscriber texts an account number at the
// carrier simulator, which calls the gateway's signed callback; the inbound-keyword worker acts
// on the text and its automatic reply travels back through the sender to the simulator.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <thread>

#include "domain/clock.h"
#include "tests/support/carrier_webhooks.h"
#include "tests/support/eventually.h"
#include "tests/support/numbers.h"
#include "tests/support/test_env.h"
#include "tests/support/webhook_receiver.h"
#include "tests/support/webhooks.h"

using namespace smsgw::testing;

namespace {

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
    return sim.call("GET", "/sim/messages?to=" + encodedNumber(subscriber)).body["data"];
  }
  nlohmann::json inboundMessages() {
    return api
        .call("GET", "/v1/messages?direction=INBOUND&from=" + encodedNumber(subscriber),
              bearer(account.live_key))
        .body["data"];
  }
  std::string consentCheck() {
    Reply checked =
        api.call("GET",
                 "/v1/compliance/consents/check?phone_number=" + encodedNumber(subscriber) +
                     "&from_number=" + encodedNumber(number),
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
  Reply opt_outs =
      api.call("GET", "/v1/compliance/opt-outs?phone_number=" + encodedNumber(subscriber),
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
  Reply replies = api.call("GET", "/v1/messages?direction=OUTBOUND&to=" + encodedNumber(subscriber),
                           bearer(account.live_key));
  ASSERT_EQ(replies.body["data"].size(), 1u);
  EXPECT_EQ(replies.body["data"][0]["auto_reply_keyword"], "STOP");
  EXPECT_EQ(replies.body["data"][0]["cost_cents"], 0);

  auto deliveries = receiver.waitFor(2, std::chrono::seconds(20));
  ASSERT_EQ(deliveries.size(), 2u);
  auto first = nlohmann::json::parse(deliveries[0].body);
  auto second = nlohmann::json::parse(deliveries[1].body);
  if (first["type"] != "message.received") std::swap(first, second);  // either order may arrive
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
  Reply opt_outs =
      api.call("GET", "/v1/compliance/opt-outs?phone_number=" + encodedNumber(subscriber),
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
  ASSERT_EQ(
      api.call("POST", "/v1/webhooks", bearer(account.live_key),
               {{"url", receiver.url()},
                {"events", {"message.received", "account.inbound_sms_capped", "message.queued"}}})
          .status,
      201);
  ASSERT_EQ(runAdmin("account set-inbound-cap " + account.id + " --cap 1").exit_code, 0);
  for (const char* body : {"first", "second", "third"}) texts(body);
  ASSERT_TRUE(eventually([&] { return inboundMessages().size() == 3; }));
  int without_content = 0;
  for (const auto& message : inboundMessages()) without_content += message["body"].is_null();
  EXPECT_EQ(without_content, 2);

  auto deliveries = deliveriesBeforeMarker(api, account, receiver);
  ASSERT_EQ(deliveries.size(), 2u) << "one message.received, one cap notice";
  // Deliveries to one endpoint may run side by side, so they can arrive in either order.
  auto first = nlohmann::json::parse(deliveries[0].body);
  auto notice = first["type"] == "account.inbound_sms_capped"
                    ? first
                    : nlohmann::json::parse(deliveries[1].body);
  EXPECT_EQ(notice["type"], "account.inbound_sms_capped");
  EXPECT_EQ(notice["data"]["cap"], 1);
  EXPECT_EQ(notice["data"]["window_hours"], 24);
  Reply doc = api.call("GET", "/v1/accounts/" + account.id, bearer(account.live_key));
  EXPECT_EQ(doc.body["account"]["inbound_sms_daily_cap"], 1);
  EXPECT_EQ(doc.body["account"]["inbound_sms_received_24h"], 3);

  texts("STOP");
  EXPECT_TRUE(eventually([&] { return consentCheck() == "OPT_OUT"; })) << "STOP works over the cap";
}

TEST_F(Inbound, ADoubleOptInIsAskedInFrenchAndConfirmedByOui) {
  std::string toll_free = buyNumber(api, account, "833")["phone_number"];
  auto request = [&](const nlohmann::json& body) {
    return api.call("POST", "/v1/compliance/opt-in-confirmations", bearer(account.live_key), body);
  };
  nlohmann::json body = {
      {"to", subscriber}, {"from", toll_free}, {"brand_name", "Érable"}, {"language", "fr"}};
  Reply unverified = request(body);
  EXPECT_EQ(unverified.status, 403);
  EXPECT_EQ(unverified.body["details"]["reason"], "toll_free_verification_not_approved");
  ASSERT_EQ(runAdmin("toll-free set " + toll_free + " --status APPROVED").exit_code, 0);
  EXPECT_EQ(request({{"to", subscriber}, {"from", number}, {"brand_name", "Érable"}})
                .body["details"][0]["field"],
            "from")
      << "a local number cannot ask";
  EXPECT_EQ(
      request({{"to", "+12125550123"}, {"from", toll_free}, {"brand_name", "Érable"}}).body["code"],
      "NON_CANADIAN_NUMBER");
  // Issue 49, item 6: the brand signs a text to a stranger: no message, no link.
  Reply pitch = request(
      {{"to", subscriber}, {"from", toll_free}, {"brand_name", "WIN $500 at example.ca/win"}});
  EXPECT_EQ(pitch.status, 422) << pitch.raw_body;
  EXPECT_EQ(pitch.body["details"][0]["field"], "brand_name");

  Reply first = request(body);
  ASSERT_EQ(first.status, 201) << first.raw_body;
  Reply asked = request(body);  // a newer request replaces the older one
  ASSERT_EQ(asked.status, 201);
  EXPECT_TRUE(asked.body["id"].get<std::string>().starts_with("oic_"));
  EXPECT_EQ(asked.body["status"], "PENDING");
  EXPECT_EQ(asked.body["language"], "fr");
  EXPECT_FALSE(asked.body["message_id"].is_null());
  ASSERT_TRUE(eventually([&] { return handset().size() == 2; }));
  EXPECT_EQ(handset()[0]["from"], toll_free);
  EXPECT_NE(handset()[0]["text"].get<std::string>().find("Répondez OUI"), std::string::npos);

  Reply sent = sim.call("POST", "/sim/inbound", {},
                        {{"from", subscriber}, {"to", toll_free}, {"text", "Oui"}});
  ASSERT_EQ(sent.body["gateway_status"], 200);
  auto listed = [&] {
    return api.call("GET", "/v1/compliance/opt-in-confirmations", bearer(account.live_key))
        .body["data"];
  };
  ASSERT_TRUE(eventually([&] { return listed()[0]["status"] == "CONFIRMED"; }));
  EXPECT_EQ(listed()[0]["id"], asked.body["id"]);
  EXPECT_FALSE(listed()[0]["reply_message_id"].is_null());
  EXPECT_EQ(listed()[1]["status"], "EXPIRED") << "replaced by the newer request";
  Reply consents =
      api.call("GET", "/v1/compliance/consents?phone_number=" + encodedNumber(subscriber),
               bearer(account.live_key));
  ASSERT_EQ(consents.body["data"].size(), 1u) << "the YES is express consent";
  EXPECT_EQ(consents.body["data"][0]["doubleOptInConfirmationId"], asked.body["id"]);
  EXPECT_EQ(consents.body["data"][0]["consentType"], "EXPRESS");
}

TEST_F(Inbound, ErasureAnonymizesTheSubscriberButKeepsTheOptOutAndTheLedger) {
  ASSERT_EQ(api.call("POST", "/v1/compliance/consents", bearer(account.live_key),
                     {{"phone_number", subscriber},
                      {"consent_type", "express"},
                      {"source_description", "Signed up in store"}})
                .status,
            201);
  texts("Bonjour, c'est Marie Tremblay");
  texts("STOP");
  ASSERT_TRUE(eventually([&] { return consentCheck() == "OPT_OUT"; }));
  ASSERT_TRUE(eventually([&] { return !handset().empty(); }));
  long long balance = balanceOf(api, account);
  // The subscriber is in the address book too: a contact in a group a deny list names.
  auto post = [&](const std::string& path, const nlohmann::json& body) {
    return api.call("POST", path, bearer(account.live_key), body);
  };
  std::string group = post("/v1/contact-groups", {{"name", "Marie"}}).body["id"];
  ASSERT_EQ(post("/v1/contact-groups/" + group + "/members", {{"phone_number", subscriber}}).status,
            201);
  std::string deny = post("/v1/contact-lists", {{"name", "Never"}}).body["id"];
  ASSERT_EQ(post("/v1/contact-lists/" + deny + "/entries", {{"contact_group_id", group}}).status,
            201);

  auto erase = [&](const std::string& key, const std::string& phone) {
    return api.call("POST", "/v1/compliance/erasures", bearer(key), {{"phone_number", phone}});
  };
  EXPECT_EQ(erase(account.test_key, subscriber).body["code"], "LIVE_KEY_REQUIRED");
  EXPECT_EQ(erase(account.live_key, number).body["code"], "CANNOT_ERASE_OWN_NUMBER");
  Reply erased = erase(account.live_key, subscriber);
  ASSERT_EQ(erased.status, 201) << erased.raw_body;
  EXPECT_TRUE(erased.body["id"].get<std::string>().starts_with("ers_"));
  EXPECT_EQ(erased.body["counts"]["messages_anonymized"], 3) << "two received, one reply";
  EXPECT_EQ(erased.body["counts"]["consents_deleted"], 1);
  EXPECT_EQ(erased.body["counts"]["opt_outs_kept"], 1);
  EXPECT_EQ(erased.body["counts"]["contacts_deleted"], 1);
  EXPECT_EQ(erased.body["counts"]["list_entries_kept"], 1);
  EXPECT_FALSE(erased.body.dump().find(subscriber) != std::string::npos)
      << "the erasure record does not name the number";

  EXPECT_TRUE(inboundMessages().empty()) << "no message names the number any more";
  Reply all = api.call("GET", "/v1/messages?direction=INBOUND", bearer(account.live_key));
  ASSERT_EQ(all.body["data"].size(), 2u);
  for (const auto& message : all.body["data"]) {
    EXPECT_TRUE(message["body"].is_null());
    EXPECT_EQ(message["body_purged"], true);
    EXPECT_TRUE(message["from"].get<std::string>().starts_with("erased:"));
  }
  EXPECT_EQ(consentCheck(), "OPT_OUT") << "the opt-out keeps the number blocked";
  EXPECT_EQ(
      api.call("GET", "/v1/contact-groups/" + group, bearer(account.live_key)).body["member_count"],
      0)
      << "the contact is gone";
  Reply list = api.call("GET", "/v1/contact-lists/" + deny, bearer(account.live_key));
  bool still_denied = false;
  for (const auto& entry : list.body["entries"])
    still_denied |= entry["phone_number"] == subscriber;
  EXPECT_TRUE(still_denied) << "the deny list still reaches the number, as the opt-out blocks it "
                            << list.raw_body;
  EXPECT_EQ(balanceOf(api, account), balance);
  EXPECT_EQ(ledgerSum(api, account), balance);
}

TEST_F(Inbound, ACallbackTheCarrierDeliversTwiceIsStoredAndChargedOnce) {
  // The carrier retries a callback it did not see acknowledged: same message id, same text.
  std::string body = telnyxWebhook("message.received",
                                   {{"id", "carrier-msg-" + subscriber.substr(1)},
                                    {"from", {{"phone_number", subscriber}}},
                                    {"to", nlohmann::json::array({{{"phone_number", number}}})},
                                    {"text", "STOP"},
                                    {"parts", 1}})
                         .dump();
  for (int delivery = 0; delivery < 2; ++delivery) {
    Reply accepted =
        api.call("POST", "/carrier/webhooks", telnyxSignedHeaders(body), nullptr, &body);
    ASSERT_EQ(accepted.status, 200) << accepted.raw_body;
  }
  ASSERT_TRUE(eventually([&] { return consentCheck() == "OPT_OUT"; }));
  // A later text of the same subscriber to the same number travels the same partition: once
  // its answer is on the handset, the second copy has been handled too.
  texts("HELP");
  ASSERT_TRUE(eventually([&] { return handset().size() >= 2; }));
  EXPECT_EQ(inboundMessages().size(), 2u) << "STOP once, then HELP";
  EXPECT_EQ(handset().size(), 2u) << "one STOP confirmation, not two, then the HELP answer";
  Reply ledger = api.call("GET", "/v1/accounts/" + account.id + "/transactions?limit=100",
                          bearer(account.live_key));
  int inbound_charges = 0;
  for (const auto& entry : ledger.body["data"]) inbound_charges += entry["kind"] == "sms_inbound";
  EXPECT_EQ(inbound_charges, 2) << "STOP charged once, HELP once";
}
