// POST /v1/contact-groups/{id}/messages over HTTP: always 207 with a result per member,
// group-wide refusals first (nothing is messaged), per-member refusals as results, the size and
// daily-broadcast limits with their staff overrides, money for LIVE broadcasts, and
// Idempotency-Key repeats. The kill -9 case is tests/integration/broadcast_crash_test.cpp.
#include <gtest/gtest.h>

#include "tests/support/eventually.h"
#include "tests/support/numbers.h"
#include "tests/support/test_env.h"

using namespace smsgw::testing;

namespace {

constexpr long long kPartPrice = 2;  // prices.sms_outbound_part
constexpr const char* kTestFrom = "+14165550100";

class Broadcasts : public ::testing::Test {
 protected:
  // A group of `numbers`, made with `key`.
  std::string groupOf(const std::string& key, const std::vector<std::string>& numbers) {
    std::string group = idOf(
        api.call("POST", "/v1/contact-groups", bearer(key), {{"name", "Group " + uniqueSuffix()}}));
    for (const auto& number : numbers) {
      EXPECT_EQ(api.call("POST", "/v1/contact-groups/" + group + "/members", bearer(key),
                         {{"phone_number", number}})
                    .status,
                201);
    }
    return group;
  }
  Reply broadcast(const std::string& key, const std::string& group, const nlohmann::json& body,
                  const std::string& idempotency_key = "") {
    Headers headers = bearer(key);
    if (!idempotency_key.empty()) headers.emplace_back("Idempotency-Key", idempotency_key);
    return api.call("POST", "/v1/contact-groups/" + group + "/messages", headers, body);
  }
  nlohmann::json testBody(const std::string& text = "Sale this weekend") {
    return {{"from", kTestFrom}, {"body", text}, {"skip_consent_check", true}};
  }
  long long messageCount(const std::string& key) {
    return api.call("GET", "/v1/messages", bearer(key)).body["meta"]["total"].get<long long>();
  }
  static std::vector<std::string> subscribers(int n) {
    std::vector<std::string> out;
    out.reserve(n);
    for (int i = 0; i < n; ++i) out.push_back(randomSubscriber("416"));
    return out;
  }
  void consentTo(const std::string& key, const std::string& phone) {
    ASSERT_EQ(api.call("POST", "/v1/compliance/consents", bearer(key),
                       {{"phone_number", phone},
                        {"consent_type", "express"},
                        {"source_description", "signup form"}})
                  .status,
              201);
  }

  HttpTestClient api{apiUrl()};
};

}  // namespace

TEST_F(Broadcasts, ATestBroadcastMessagesEveryMemberThroughThePipeline) {
  TestAccount account = signUp(api);
  auto members = subscribers(3);
  std::string group = groupOf(account.test_key, members);
  Reply sent = broadcast(account.test_key, group, testBody(std::string(170, 'a')));  // 2 parts
  ASSERT_EQ(sent.status, 207) << sent.raw_body;
  EXPECT_TRUE(sent.body["id"].get<std::string>().starts_with("bc_"));
  EXPECT_EQ(sent.body["group_id"], group);
  EXPECT_EQ(sent.body["sent_to"], 3);
  EXPECT_EQ(sent.body["failed"], 0);
  ASSERT_EQ(sent.body["results"].size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    const auto& line = sent.body["results"][i];
    EXPECT_EQ(line["to"], members[i]) << "in the group's order";
    EXPECT_EQ(line["status"], "queued");
    EXPECT_FALSE(line.contains("error"));
    std::string id = line["message_id"];
    // Each member's message is a normal TEST message, simulated through the whole pipeline.
    EXPECT_TRUE(eventually([&] {
      Reply message = api.call("GET", "/v1/messages/" + id, bearer(account.test_key));
      return message.body["status"] == "DELIVERED";
    })) << id;
    Reply message = api.call("GET", "/v1/messages/" + id, bearer(account.test_key));
    EXPECT_EQ(message.body["mode"], "TEST");
    EXPECT_EQ(message.body["to"], members[i]);
    EXPECT_EQ(message.body["from"], kTestFrom);
    EXPECT_EQ(message.body["segment_count"], 2);
    EXPECT_EQ(message.body["cost_cents"], 2 * kPartPrice) << "what it would have cost";
  }
  Reply account_doc = api.call("GET", "/v1/accounts/" + account.id, bearer(account.test_key));
  EXPECT_EQ(account_doc.body["account"]["balance_cents"], 0) << "TEST charges nothing";
}

TEST_F(Broadcasts, PerMemberRefusalsAreResultsNotErrors) {
  TestAccount account = signUpAndFund(api);
  std::string consenting = randomSubscriber("416"), opted_out = randomSubscriber("416"),
              silent = randomSubscriber("416"), denied = randomSubscriber("416");
  for (const auto& phone : {consenting, opted_out, denied}) consentTo(account.test_key, phone);
  ASSERT_EQ(api.call("POST", "/v1/compliance/opt-outs", bearer(account.test_key),
                     {{"phone_number", opted_out}, {"from_number", kTestFrom}})
                .status,
            201);
  std::string group = groupOf(
      account.test_key, {consenting, opted_out, silent, "+12125550123", "+14164112345", denied});
  std::string deny_list = idOf(
      api.call("POST", "/v1/contact-lists", bearer(account.live_key), {{"name", "Do not text"}}));
  api.call("POST", "/v1/contact-lists/" + deny_list + "/entries", bearer(account.live_key),
           {{"phone_number", denied}});
  Reply fenced_key = api.call("POST", "/v1/api-keys", bearer(account.live_key),
                              {{"mode", "TEST"}, {"deny_list_id", deny_list}});
  ASSERT_EQ(fenced_key.status, 201);

  Reply sent =
      broadcast(fenced_key.body["key"], group, {{"from", kTestFrom}, {"body", "Our hours change"}});
  ASSERT_EQ(sent.status, 207) << sent.raw_body;
  std::map<std::string, nlohmann::json> by_number;
  for (const auto& line : sent.body["results"]) by_number[line["to"]] = line;
  EXPECT_EQ(by_number[consenting]["status"], "queued");
  EXPECT_TRUE(by_number[consenting].contains("message_id"));
  std::map<std::string, std::string> refused = {{opted_out, "OPT_OUT_BLOCKED"},
                                                {silent, "NO_CONSENT"},
                                                {"+12125550123", "NON_CANADIAN_NUMBER"},
                                                {"+14164112345", "RESERVED_DESTINATION"},
                                                {denied, "DENY_LIST_BLOCKED"}};
  for (const auto& [number, code] : refused) {
    EXPECT_EQ(by_number[number]["status"], "failed") << number;
    EXPECT_EQ(by_number[number]["error"], code) << number;
    EXPECT_FALSE(by_number[number].contains("message_id")) << "no message made for " << number;
  }
  EXPECT_EQ(sent.body["sent_to"], 1);
  EXPECT_EQ(sent.body["failed"], 5);
  EXPECT_EQ(messageCount(account.test_key), 1);
  Reply consented =
      api.call("GET", "/v1/messages/" + by_number[consenting]["message_id"].get<std::string>(),
               bearer(account.test_key));
  EXPECT_EQ(consented.body["casl_consent_type"], "EXPRESS");
}

TEST_F(Broadcasts, GroupWideRefusalsComeFirstAndMessageNobody) {
  TestAccount account = signUpAndFund(api);
  TestAccount stranger = signUp(api);
  std::string group = groupOf(account.test_key, subscribers(2));
  auto expectRefused = [&](const Reply& reply, int status, const std::string& code) {
    EXPECT_EQ(reply.status, status) << code << " " << reply.raw_body;
    EXPECT_EQ(reply.body["code"], code);
  };
  expectRefused(broadcast(account.test_key, "cg_missing", testBody()), 404,
                "CONTACT_GROUP_NOT_FOUND");
  expectRefused(broadcast(stranger.test_key, group, testBody()), 403, "FORBIDDEN");
  expectRefused(broadcast(account.test_key, group, testBody(std::string(1531, 'a'))), 422,
                "MESSAGE_TOO_LONG");
  expectRefused(broadcast(account.test_key, group, testBody("See https://bit.ly/x")), 422,
                "LINK_SHORTENER_BLOCKED");
  expectRefused(broadcast(account.test_key, group, {{"body", "No sender"}}), 422,
                "VALIDATION_ERROR");
  expectRefused(broadcast(account.test_key, group, {{"from", kTestFrom}}), 422, "VALIDATION_ERROR");
  expectRefused(broadcast(account.test_key, group, {{"from", "+12125550100"}, {"body", "x"}}), 422,
                "NON_CANADIAN_NUMBER");
  // LIVE: an unverified account cannot send (its number is checked after it).
  expectRefused(broadcast(account.live_key, group, {{"from", kTestFrom}, {"body", "x"}}), 403,
                "ACCOUNT_NOT_VERIFIED");
  expectRefused(broadcast(stranger.live_key, group, testBody()), 402, "PAYMENT_REQUIRED");
  Reply narrow = api.call("POST", "/v1/api-keys", bearer(account.test_key),
                          {{"mode", "TEST"}, {"permissions", {{"contact_groups", "rwmd"}}}});
  expectRefused(broadcast(narrow.body["key"], group, testBody()), 403, "FORBIDDEN");
  EXPECT_EQ(messageCount(account.test_key), 0);
}

TEST_F(Broadcasts, TheSizeLimitHasAStaffOverridePerAccount) {
  TestAccount account = signUp(api);
  std::string group = groupOf(account.test_key, subscribers(3));
  AdminRun lowered = runAdmin("account set-broadcast-limits " + account.id + " --max-members 2");
  ASSERT_EQ(lowered.exit_code, 0);
  EXPECT_EQ(lowered.output["broadcast_max_members"], 2);
  Reply too_large = broadcast(account.test_key, group, testBody());
  EXPECT_EQ(too_large.status, 422);
  EXPECT_EQ(too_large.body["code"], "BROADCAST_TOO_LARGE");
  EXPECT_EQ(too_large.body["details"]["members"], 3);
  EXPECT_EQ(too_large.body["details"]["limit"], 2);
  EXPECT_EQ(messageCount(account.test_key), 0);
  ASSERT_EQ(runAdmin("account set-broadcast-limits " + account.id + " --max-members 3").exit_code,
            0);
  EXPECT_EQ(broadcast(account.test_key, group, testBody()).status, 207);
  EXPECT_NE(runAdmin("account set-broadcast-limits " + account.id + " --max-members 0").exit_code,
            0);
}

TEST_F(Broadcasts, TheDefaultSizeLimitIs250Members) {
  TestAccount account = signUp(api);
  // 251 members are added as fast as the machine goes: not this test's business to be limited.
  ASSERT_EQ(runAdmin("account set-request-rate " + account.id + " --per-second 100000").exit_code,
            0);
  std::string group = groupOf(account.test_key, {});
  for (int i = 0; i < 251; ++i) {
    ASSERT_EQ(api.call("POST", "/v1/contact-groups/" + group + "/members", bearer(account.test_key),
                       {{"phone_number", "+1416" + std::to_string(2300000 + i)}})
                  .status,
              201);
  }
  Reply too_large = broadcast(account.test_key, group, testBody());
  EXPECT_EQ(too_large.body["code"], "BROADCAST_TOO_LARGE");
  EXPECT_EQ(too_large.body["details"]["limit"], 250);
  std::string last = api.call("GET", "/v1/contact-groups/" + group, bearer(account.test_key))
                         .body["members"][250]["id"];
  ASSERT_EQ(api.call("DELETE", "/v1/contact-groups/" + group + "/members/" + last,
                     bearer(account.test_key))
                .status,
            204);
  Reply sent = broadcast(account.test_key, group, testBody());
  ASSERT_EQ(sent.status, 207) << sent.raw_body;
  EXPECT_EQ(sent.body["sent_to"], 250);
  EXPECT_EQ(messageCount(account.test_key), 250);
}

TEST_F(Broadcasts, ARepeatWithItsKeyReturnsTheStoredAnswerAndUsesNoSlot) {
  TestAccount account = signUp(api);
  auto members = subscribers(2);
  std::string group = groupOf(account.test_key, members);
  ASSERT_EQ(runAdmin("account set-broadcast-limits " + account.id + " --per-day 1").exit_code, 0);
  Reply first = broadcast(account.test_key, group, testBody(), "spring-sale");
  ASSERT_EQ(first.status, 207) << first.raw_body;
  // Members added since, and anything else, change nothing: the stored 207 comes back.
  api.call("POST", "/v1/contact-groups/" + group + "/members", bearer(account.test_key),
           {{"phone_number", randomSubscriber("416")}});
  Reply again = broadcast(account.test_key, group, testBody(), "spring-sale");
  EXPECT_EQ(again.status, 207);
  EXPECT_EQ(again.body, first.body);
  EXPECT_EQ(messageCount(account.test_key), 2);

  Reply reused = broadcast(account.test_key, group, testBody("Another text"), "spring-sale");
  EXPECT_EQ(reused.status, 409);
  EXPECT_EQ(reused.body["code"], "IDEMPOTENCY_KEY_REUSED");
  // The one slot of the day is used: another broadcast waits.
  Reply limited = broadcast(account.test_key, group, testBody("Another text"));
  EXPECT_EQ(limited.status, 429);
  EXPECT_EQ(limited.body["code"], "BROADCAST_LIMIT_REACHED");
  EXPECT_EQ(limited.body["details"]["limit"], 1);
  EXPECT_GT(std::stoi(limited.header("retry-after")), 86000);
  EXPECT_EQ(messageCount(account.test_key), 2);
  // LIVE broadcasts have slots of their own (none used yet); keys are per mode.
  EXPECT_EQ(runAdmin("account set-broadcast-limits " + account.id + " --per-day -1")
                .output["broadcasts_per_day"],
            nullptr);
}

TEST_F(Broadcasts, TheDailySendLimitCountsEveryMemberAtOnce) {
  TestAccount account = signUp(api);
  std::string group = groupOf(account.test_key, subscribers(3));
  ASSERT_EQ(runAdmin("account set-daily-limit " + account.id + " --limit 2").exit_code, 0);
  Reply limited = broadcast(account.test_key, group, testBody());
  EXPECT_EQ(limited.status, 429);
  EXPECT_EQ(limited.body["code"], "DAILY_LIMIT_REACHED");
  EXPECT_EQ(limited.body["details"]["adding"], 3);
  EXPECT_EQ(messageCount(account.test_key), 0);
}

TEST_F(Broadcasts, ALiveBroadcastChargesEachMemberOrNobody) {
  // 500 in, 250 for the number (rent and activation): 250 left, short of 13 ten-part texts.
  TestAccount account = readyToBuy(api, 500);
  std::string number = buyNumber(api, account, "519")["phone_number"];
  ASSERT_EQ(balanceOf(api, account), 250);
  auto members = subscribers(13);
  for (const auto& phone : members) withLiveConsent(api, account, phone);
  std::string group = groupOf(account.live_key, members);
  nlohmann::json body = {{"from", number}, {"body", std::string(1530, 'a')}};  // 10 parts

  Reply short_of = broadcast(account.live_key, group, body, "doors");
  EXPECT_EQ(short_of.status, 402);
  EXPECT_EQ(short_of.body["code"], "INSUFFICIENT_BALANCE");
  EXPECT_EQ(short_of.body["details"]["required_cents"], 13LL * 10 * kPartPrice);
  EXPECT_EQ(balanceOf(api, account), 250);
  EXPECT_EQ(api.call("GET", "/v1/messages", bearer(account.live_key)).body["meta"]["total"], 0);

  ASSERT_EQ(api.call("POST", "/v1/accounts/" + account.id + "/top-ups",
                     bearer(account.live_key, {{"Idempotency-Key", "more"}}),
                     {{"amount_cents", 500}, {"payment_token", "tok_sandbox_ok"}})
                .status,
            201);
  Reply sent = broadcast(account.live_key, group, body, "doors");
  ASSERT_EQ(sent.status, 207) << sent.raw_body;
  EXPECT_EQ(sent.body["sent_to"], 13);
  EXPECT_EQ(balanceOf(api, account), 750 - 13LL * 10 * kPartPrice);
  EXPECT_EQ(balanceOf(api, account), ledgerSum(api, account));
  std::string first_id = sent.body["results"][0]["message_id"];
  Reply first = api.call("GET", "/v1/messages/" + first_id, bearer(account.live_key));
  EXPECT_EQ(first.body["mode"], "LIVE");
  EXPECT_EQ(first.body["segment_count"], 10);
  EXPECT_EQ(first.body["cost_cents"], 10 * kPartPrice);
  EXPECT_EQ(first.body["casl_consent_type"], "EXPRESS");
  EXPECT_TRUE(eventually([&] {
    return api.call("GET", "/v1/messages/" + first_id, bearer(account.live_key)).body["status"] ==
           "DELIVERED";
  }));
  // Paced on the sending number like any send: 10 parts a minute, one member after another.
  std::string second_id = sent.body["results"][1]["message_id"];
  EXPECT_EQ(api.call("GET", "/v1/messages/" + second_id, bearer(account.live_key)).body["status"],
            "QUEUED");
  // The repeat charges nothing more.
  Reply again = broadcast(account.live_key, group, body, "doors");
  EXPECT_EQ(again.body, sent.body);
  EXPECT_EQ(balanceOf(api, account), 750 - 13LL * 10 * kPartPrice);

  // skip_consent_check is for TEST keys; the sender must be the account's own number.
  nlohmann::json skipping = body;
  skipping["skip_consent_check"] = true;
  Reply skipped = broadcast(account.live_key, group, skipping);
  EXPECT_EQ(skipped.status, 403);
  EXPECT_EQ(skipped.body["code"], "FORBIDDEN");
  Reply not_owned = broadcast(account.live_key, group, {{"from", "+16135550177"}, {"body", "x"}});
  EXPECT_EQ(not_owned.status, 403);
  EXPECT_EQ(not_owned.body["code"], "PHONE_NUMBER_NOT_OWNED");
}
