// SMS verifications over HTTP: every status and error, TEST codes, LIVE codes texted through
// the pipeline (charged, refunded when the carrier refuses), opt-outs, limits and isolation.
// Expiry after 10 minutes is tested with a clock in tests/integration/verification_test.cpp.
#include <gtest/gtest.h>

#include <regex>
#include <utility>

#include "tests/support/eventually.h"
#include "tests/support/numbers.h"
#include "tests/support/test_env.h"

using namespace smsgw::testing;

namespace {

class Verifications : public ::testing::Test {
 protected:
  Reply start(const std::string& key, const nlohmann::json& body) {
    return api.call("POST", "/v1/verifications", bearer(key), body);
  }
  Reply check(const std::string& key, const std::string& id, const std::string& code) {
    return api.call("POST", "/v1/verifications/" + id + "/check", bearer(key), {{"code", code}});
  }
  // The code the simulated handset received last.
  std::string codeTextedTo(const std::string& phone) {
    std::string code;
    eventually([&] {
      Reply texts = sim.call("GET", "/sim/messages?to=" + encodedNumber(phone));
      if (texts.body["data"].empty()) return false;
      std::smatch digits;
      std::string text = texts.body["data"][0]["text"];
      if (!std::regex_search(text, digits, std::regex(R"((\d{4,10}))"))) return false;
      code = digits[1];
      return true;
    });
    return code;
  }

  HttpTestClient api{apiUrl()};
  HttpTestClient sim{simUrl()};
};

}  // namespace

TEST_F(Verifications, ATestCodeIsZerosAndIsCheckedOnce) {
  TestAccount account = signUp(api);
  std::string phone = randomSubscriber("416");
  Reply started = start(account.test_key, {{"phone_number", phone}, {"app_name", "Érable"}});
  ASSERT_EQ(started.status, 201) << started.raw_body;
  const auto& v = started.body;
  EXPECT_TRUE(v["id"].get<std::string>().starts_with("ver_"));
  EXPECT_EQ(v["phone_number"], phone);
  EXPECT_EQ(v["status"], "pending");
  EXPECT_EQ(v["attempts"], 0);
  EXPECT_EQ(v["code_length"], 6);
  EXPECT_EQ(v["app_name"], "Érable");
  EXPECT_EQ(v["mode"], "TEST");
  EXPECT_EQ(v["cost_cents"], 0);
  EXPECT_TRUE(v["verified_at"].is_null());
  EXPECT_TRUE(v["message_id"].is_null()) << "TEST codes are not texted";
  for (const char* field : {"from_number", "expires_at", "created_at"})
    EXPECT_TRUE(v[field].is_string()) << field;
  std::string id = v["id"];

  Reply wrong = check(account.test_key, id, "123456");
  EXPECT_EQ(wrong.status, 422);
  EXPECT_EQ(wrong.body["code"], "VERIFICATION_INVALID_CODE");
  EXPECT_EQ(wrong.body["details"]["attempts_remaining"], 4);
  Reply right = check(account.test_key, id, "000000");
  ASSERT_EQ(right.status, 200) << right.raw_body;
  EXPECT_EQ(right.body["status"], "verified");
  EXPECT_EQ(right.body["attempts"], 1);
  EXPECT_TRUE(right.body["verified_at"].is_string());
  Reply again = check(account.test_key, id, "000000");
  EXPECT_EQ(again.status, 409);
  EXPECT_EQ(again.body["code"], "VERIFICATION_ALREADY_VERIFIED");

  Reply read = api.call("GET", "/v1/verifications/" + id, bearer(account.test_key));
  EXPECT_EQ(read.status, 200);
  EXPECT_EQ(read.body, right.body);
  Reply lengths = start(account.test_key, {{"phone_number", phone}, {"code_length", 4}});
  EXPECT_EQ(lengths.body["code_length"], 4);
  EXPECT_EQ(check(account.test_key, lengths.body["id"], "0000").status, 200);
  Reply ten = start(account.test_key, {{"phone_number", phone}, {"code_length", 10}});
  EXPECT_EQ(check(account.test_key, ten.body["id"], "0000000000").status, 200);

  Reply list = api.call("GET", "/v1/verifications?limit=2", bearer(account.test_key));
  ASSERT_EQ(list.status, 200);
  EXPECT_EQ(list.body["total"], 3);
  EXPECT_EQ(list.body["limit"], 2);
  EXPECT_EQ(list.body["offset"], 0);
  ASSERT_EQ(list.body["data"].size(), 2u);
  EXPECT_EQ(list.body["data"][0]["id"], ten.body["id"]) << "newest first";
}

TEST_F(Verifications, TheFifthWrongTryLocksTheCodeAndANewCodeKeepsTheCount) {
  TestAccount account = signUp(api);
  std::string phone = randomSubscriber("416");
  std::string first = start(account.test_key, {{"phone_number", phone}}).body["id"];
  for (int remaining : {4, 3}) {
    EXPECT_EQ(check(account.test_key, first, "999999").body["details"]["attempts_remaining"],
              remaining);
  }
  // A new code supersedes the first, which answers expired, and inherits its two wrong tries.
  Reply second = start(account.test_key, {{"phone_number", phone}});
  ASSERT_EQ(second.status, 201);
  EXPECT_EQ(second.body["attempts"], 2);
  Reply superseded = check(account.test_key, first, "000000");
  EXPECT_EQ(superseded.status, 410);
  EXPECT_EQ(superseded.body["code"], "VERIFICATION_EXPIRED");
  EXPECT_EQ(api.call("GET", "/v1/verifications/" + first, bearer(account.test_key)).body["status"],
            "expired");
  std::string id = second.body["id"];
  for (int remaining : {2, 1}) {
    EXPECT_EQ(check(account.test_key, id, "999999").body["details"]["attempts_remaining"],
              remaining);
  }
  Reply fifth = check(account.test_key, id, "999999");
  EXPECT_EQ(fifth.status, 429);
  EXPECT_EQ(fifth.body["code"], "VERIFICATION_MAX_ATTEMPTS");
  Reply locked = check(account.test_key, id, "000000");
  EXPECT_EQ(locked.status, 429) << "the right code no longer helps";
  EXPECT_EQ(api.call("GET", "/v1/verifications/" + id, bearer(account.test_key)).body["status"],
            "max_attempts");
  Reply no_new = start(account.test_key, {{"phone_number", phone}});
  EXPECT_EQ(no_new.status, 429) << "a locked code is not replaced before it expires";
  EXPECT_EQ(no_new.body["code"], "VERIFICATION_MAX_ATTEMPTS");
  EXPECT_FALSE(no_new.header("retry-after").empty());
}

TEST_F(Verifications, RequestsAreCheckedAndOtherAccountsIdsAreNotFound) {
  TestAccount account = signUp(api);
  TestAccount stranger = signUp(api);
  auto code_of = [&](const nlohmann::json& body) {
    return start(account.test_key, body).body["code"];
  };
  EXPECT_EQ(code_of({{"phone_number", "416-555"}}), "INVALID_PHONE_NUMBER");
  EXPECT_EQ(code_of({{"phone_number", "+12125550123"}}), "NON_CANADIAN_NUMBER");
  EXPECT_EQ(code_of({{"phone_number", "+14164112345"}}), "RESERVED_DESTINATION");
  EXPECT_EQ(code_of({{"phone_number", "+14165550102"}}), "NOT_A_MOBILE_NUMBER") << "magic landline";
  std::string phone = randomSubscriber("416");
  for (const nlohmann::json& bad :
       {nlohmann::json::object(), nlohmann::json{{"phone_number", phone}, {"code_length", 3}},
        nlohmann::json{{"phone_number", phone}, {"code_length", 11}},
        nlohmann::json{{"phone_number", phone}, {"app_name", std::string(31, 'a')}},
        nlohmann::json{{"phone_number", phone}, {"channel", "voice"}}}) {
    EXPECT_EQ(code_of(bad), "VALIDATION_ERROR") << bad;
  }
  std::string id = start(account.test_key, {{"phone_number", phone}}).body["id"];
  EXPECT_EQ(check(account.test_key, id, "").body["code"], "VALIDATION_ERROR");
  for (const auto& [key, what] :
       std::vector<std::pair<std::string, std::string>>{{stranger.test_key, "another account"}}) {
    Reply read = api.call("GET", "/v1/verifications/" + id, bearer(key));
    EXPECT_EQ(read.status, 404) << what;
    EXPECT_EQ(read.body["code"], "VERIFICATION_NOT_FOUND");
    EXPECT_EQ(check(key, id, "000000").status, 404) << what;
  }
  EXPECT_EQ(api.call("GET", "/v1/verifications/ver_missing", bearer(account.test_key)).status, 404);
  EXPECT_EQ(api.call("GET", "/v1/verifications", bearer(stranger.test_key)).body["total"], 0);
  // Permission letters.
  Reply reader = api.call("POST", "/v1/api-keys", bearer(account.test_key),
                          {{"mode", "TEST"}, {"permissions", {{"verifications", "r"}}}});
  std::string read_only = reader.body["key"];
  EXPECT_EQ(api.call("GET", "/v1/verifications/" + id, bearer(read_only)).status, 200);
  EXPECT_EQ(start(read_only, {{"phone_number", phone}}).status, 403);
  EXPECT_EQ(check(read_only, id, "000000").status, 403);
}

TEST_F(Verifications, CodesToOneNumberAreLimitedPerHour) {
  TestAccount account = signUp(api);
  std::string phone = randomSubscriber("416");
  for (int i = 0; i < 5; ++i)
    ASSERT_EQ(start(account.test_key, {{"phone_number", phone}}).status, 201) << i;
  Reply limited = start(account.test_key, {{"phone_number", phone}});
  EXPECT_EQ(limited.status, 429);
  EXPECT_EQ(limited.body["code"], "RATE_LIMITED");
  EXPECT_EQ(limited.body["details"]["reason"], "verifications_to_number");
  EXPECT_GT(std::stoi(limited.header("retry-after")), 3000);
  EXPECT_EQ(start(account.test_key, {{"phone_number", randomSubscriber("416")}}).status, 201)
      << "another number is not limited";
}

TEST_F(Verifications, ALiveCodeIsTextedChargedAndCheckedWithoutConsent) {
  TestAccount account = readyToBuy(api, 1000);
  std::string number = buyNumber(api, account, "418")["phone_number"];
  long long before = balanceOf(api, account);
  std::string phone = randomSubscriber("418");  // no consent on file: none is needed
  Reply started = start(account.live_key, {{"phone_number", phone}, {"from", number}});
  ASSERT_EQ(started.status, 201) << started.raw_body;
  EXPECT_EQ(started.body["mode"], "LIVE");
  EXPECT_EQ(started.body["from_number"], number);
  EXPECT_EQ(started.body["cost_cents"], 5) << "the price table's verification price";
  EXPECT_EQ(balanceOf(api, account), before - 5);
  EXPECT_EQ(balanceOf(api, account), ledgerSum(api, account));
  std::string code = codeTextedTo(phone);
  ASSERT_EQ(code.size(), 6u);

  std::string message_id = started.body["message_id"];
  ASSERT_TRUE(eventually([&] {
    return api.call("GET", "/v1/messages/" + message_id, bearer(account.live_key)).body["status"] ==
           "DELIVERED";
  }));
  Reply message = api.call("GET", "/v1/messages/" + message_id, bearer(account.live_key));
  EXPECT_EQ(message.body["is_verification"], true);
  EXPECT_TRUE(message.body["body"].is_null()) << "the code is never stored";
  EXPECT_EQ(message.body["cost_cents"], 5);

  Reply verified = check(account.live_key, started.body["id"], code);
  ASSERT_EQ(verified.status, 200) << verified.raw_body;
  EXPECT_EQ(verified.body["status"], "verified");
  // A TEST key does not see LIVE verifications.
  EXPECT_EQ(api.call("GET", "/v1/verifications/" + started.body["id"].get<std::string>(),
                     bearer(account.test_key))
                .status,
            404);

  // From the platform's sender when no `from` is given.
  std::string other = randomSubscriber("418");
  Reply platform = start(account.live_key, {{"phone_number", other}});
  ASSERT_EQ(platform.status, 201) << platform.raw_body;
  EXPECT_NE(platform.body["from_number"], number);
  EXPECT_EQ(codeTextedTo(other).size(), 6u);
}

TEST_F(Verifications, AnOptOutRefusesAndACarrierRefusalIsRefunded) {
  TestAccount account = readyToBuy(api, 1000);
  std::string number = buyNumber(api, account, "418")["phone_number"];
  std::string opted_out = randomSubscriber("418");
  ASSERT_EQ(api.call("POST", "/v1/compliance/opt-outs", bearer(account.live_key),
                     {{"phone_number", opted_out}, {"from_number", number}})
                .status,
            201);
  for (const nlohmann::json& body : {nlohmann::json{{"phone_number", opted_out}, {"from", number}},
                                     nlohmann::json{{"phone_number", opted_out}}}) {
    Reply refused = start(account.live_key, body);
    EXPECT_EQ(refused.status, 451) << body;
    EXPECT_EQ(refused.body["code"], "OPT_OUT_BLOCKED");
  }
  EXPECT_EQ(
      start(account.live_key, {{"phone_number", randomSubscriber("418")}, {"from", "+14185550177"}})
          .body["code"],
      "PHONE_NUMBER_NOT_OWNED");

  long long before = balanceOf(api, account);
  ASSERT_EQ(sim.call("POST", "/sim/faults", {},
                     {{"kind", "send"},
                      {"from", number},
                      {"count", 1},
                      {"mode", "refuse"},
                      {"code", "40008"}})
                .status,
            201);
  Reply started =
      start(account.live_key, {{"phone_number", randomSubscriber("418")}, {"from", number}});
  ASSERT_EQ(started.status, 201) << started.raw_body;
  std::string message_id = started.body["message_id"];
  EXPECT_TRUE(eventually([&] {
    return api.call("GET", "/v1/messages/" + message_id, bearer(account.live_key)).body["status"] ==
           "FAILED";
  }));
  sim.call("DELETE", "/sim/faults");
  EXPECT_EQ(balanceOf(api, account), before) << "refunded as a message would be";
  EXPECT_EQ(balanceOf(api, account), ledgerSum(api, account));
}

TEST_F(Verifications, LiveCodesNeedAPaidVerifiedAccountAndAKeyThatMayReachTheNumber) {
  TestAccount unpaid = signUp(api);
  EXPECT_EQ(start(unpaid.live_key, {{"phone_number", randomSubscriber("416")}}).body["code"],
            "PAYMENT_REQUIRED");
  TestAccount unverified = signUpAndFund(api);
  EXPECT_EQ(start(unverified.live_key, {{"phone_number", randomSubscriber("416")}}).body["code"],
            "ACCOUNT_NOT_VERIFIED");
  Reply fenced = api.call("POST", "/v1/api-keys", bearer(unverified.test_key),
                          {{"mode", "TEST"}, {"default_deny", true}});
  EXPECT_EQ(start(fenced.body["key"], {{"phone_number", randomSubscriber("416")}}).body["code"],
            "ALLOW_LIST_BLOCKED");
}

// Issue 34, item 3: app_name went into a LIVE text sent without consent, so it carried any
// message ("SALE 50% bit.ly/x: your verification code is …"). It names a brand now: the send's
// link-shortener check runs on it, and anything but a brand's characters is refused, before
// anything is charged or texted.
TEST_F(Verifications, AnAppNameNamesABrandAndCarriesNoMessage) {
  TestAccount account = readyToBuy(api, 1000);
  std::string number = buyNumber(api, account, "418")["phone_number"];
  long long before = balanceOf(api, account);
  std::string phone = randomSubscriber("418");
  Reply shortened =
      start(account.live_key,
            {{"phone_number", phone}, {"from", number}, {"app_name", "SALE 50% bit.ly/x"}});
  EXPECT_EQ(shortened.status, 422) << shortened.raw_body;
  EXPECT_EQ(shortened.body["code"], "LINK_SHORTENER_BLOCKED");
  for (const char* name : {"Visit shop.example", "SALE 50% OFF", "Call 5145550100!",
                           "Promo: https://x.example", "Two  spaces", " Leading"}) {
    Reply refused =
        start(account.live_key, {{"phone_number", phone}, {"from", number}, {"app_name", name}});
    EXPECT_EQ(refused.status, 422) << name << ": " << refused.raw_body;
    EXPECT_EQ(refused.body["code"], "VALIDATION_ERROR") << name;
    EXPECT_EQ(refused.body["details"][0]["field"], "app_name") << name;
  }
  EXPECT_EQ(balanceOf(api, account), before) << "a refused verification charges nothing";
  EXPECT_TRUE(sim.call("GET", "/sim/messages?to=" + encodedNumber(phone)).body["data"].empty());
  for (const char* name : {"Érable Inc.", "A&W", "L'Oréal", "Co-op 24", "St. Hubert"}) {
    Reply started = start(account.test_key, {{"phone_number", phone}, {"app_name", name}});
    EXPECT_EQ(started.status, 201) << name << ": " << started.raw_body;
  }
}
