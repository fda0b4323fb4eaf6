// Accounts, payment state, top-ups, the ledger and owner phone verification.
#include "tests/support/accounts.h"

#include <gtest/gtest.h>

#include <regex>

#include "tests/support/eventually.h"
#include "tests/support/numbers.h"
#include "tests/support/test_env.h"

using namespace smsgw::testing;

TEST(Accounts, SignupGivesOneTestAndOneLiveKeyShownOnce) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  EXPECT_TRUE(account.test_key.starts_with("mk_test_"));
  EXPECT_TRUE(account.live_key.starts_with("mk_live_"));
  Reply doc = api.call("GET", "/v1/accounts/" + account.id, bearer(account.test_key));
  ASSERT_EQ(doc.status, 200) << doc.raw_body;
  EXPECT_EQ(doc.body["account"]["status"], "PENDING_PAYMENT");
  EXPECT_EQ(doc.body["features"]["email"], false);
  ASSERT_EQ(doc.body["api_keys"].size(), 2u);
  for (const auto& key : doc.body["api_keys"]) {
    EXPECT_FALSE(key.contains("key")) << "secrets are shown only once";
    EXPECT_TRUE(key.contains("keyPrefix"));
  }
  for (const char* field :
       {"monthly_rent_cents", "low_balance", "phone_number_limit", "phone_numbers_used",
        "inbound_sms_daily_cap", "inbound_sms_received_24h"}) {
    EXPECT_TRUE(doc.body["account"].contains(field)) << field;
  }
}

TEST(Accounts, SignupRefusesBadInputAndTakenEmails) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  Reply taken = api.call("POST", "/v1/accounts", {},
                         {{"name", "X"},
                          {"email", account.email},
                          {"password", "another long one"},
                          {"accept_terms", true}});
  EXPECT_EQ(taken.status, 409);
  EXPECT_EQ(taken.body["code"], "CONFLICT");
  Reply no_terms = api.call(
      "POST", "/v1/accounts", {},
      {{"name", "X"}, {"email", "x" + uniqueSuffix() + "@ex.ca"}, {"password", "long enough pw"}});
  EXPECT_EQ(no_terms.status, 422);
  EXPECT_EQ(no_terms.body["details"][0]["field"], "accept_terms");
  Reply bad_email = api.call(
      "POST", "/v1/accounts", {},
      {{"name", "X"}, {"email", "nope"}, {"password", "long enough pw"}, {"accept_terms", true}});
  EXPECT_EQ(bad_email.body["details"][0]["field"], "email");
}

TEST(Accounts, LiveKeysNeedAFirstTopUpExceptForAccountAndPricingReads) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  EXPECT_EQ(api.call("GET", "/v1/messages", bearer(account.live_key)).body["code"],
            "PAYMENT_REQUIRED");
  EXPECT_EQ(api.call("GET", "/v1/webhooks", bearer(account.live_key)).status, 402);
  EXPECT_EQ(api.call("GET", "/v1/accounts/me", bearer(account.live_key)).status, 200);
  EXPECT_EQ(api.call("GET", "/v1/accounts/" + account.id, bearer(account.live_key)).status, 200);
  EXPECT_EQ(api.call("GET", "/v1/pricing", bearer(account.live_key)).status, 200);
  EXPECT_EQ(api.call("GET", "/v1/messages", bearer(account.test_key)).status, 200)
      << "TEST keys are unaffected";

  Reply top_up =
      api.call("POST", "/v1/accounts/" + account.id + "/top-ups", bearer(account.live_key),
               {{"amount_cents", 2500}, {"payment_token", "tok_sandbox_ok"}});
  ASSERT_EQ(top_up.status, 201) << top_up.raw_body;
  EXPECT_EQ(top_up.body["account_status"], "ACTIVE");
  EXPECT_EQ(top_up.body["balance_cents"], 2500);
  EXPECT_EQ(api.call("GET", "/v1/messages", bearer(account.live_key)).status, 200);
}

TEST(Accounts, DeclinedTopUpChangesNothing) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  Reply declined =
      api.call("POST", "/v1/accounts/" + account.id + "/top-ups", bearer(account.live_key),
               {{"amount_cents", 2500}, {"payment_token", "tok_sandbox_declined"}});
  EXPECT_EQ(declined.status, 402);
  EXPECT_EQ(declined.body["code"], "PAYMENT_DECLINED");
  Reply doc = api.call("GET", "/v1/accounts/" + account.id, bearer(account.live_key));
  EXPECT_EQ(doc.body["account"]["balance_cents"], 0);
  EXPECT_EQ(doc.body["account"]["status"], "PENDING_PAYMENT");
  EXPECT_EQ(
      api.call("GET", "/v1/accounts/" + account.id + "/transactions", bearer(account.live_key))
          .body["data"]
          .size(),
      0u);
}

TEST(Accounts, RepeatedTopUpWithTheSameIdempotencyKeyCreditsOnce) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  auto top_up = [&](long long cents) {
    return api.call("POST", "/v1/accounts/" + account.id + "/top-ups",
                    bearer(account.live_key, {{"Idempotency-Key", "k1"}}),
                    {{"amount_cents", cents}, {"payment_token", "tok_sandbox_ok"}});
  };
  Reply first = top_up(1000);
  Reply again = top_up(1000);
  EXPECT_EQ(first.body["id"], again.body["id"]);
  EXPECT_EQ(again.body["balance_cents"], 1000);
  EXPECT_EQ(top_up(2000).body["code"], "IDEMPOTENCY_KEY_REUSED");
}

TEST(Accounts, TopUpsRefuseTestKeysAndBadAmounts) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  EXPECT_EQ(api.call("POST", "/v1/accounts/" + account.id + "/top-ups", bearer(account.test_key),
                     {{"amount_cents", 1000}, {"payment_token", "tok_sandbox_ok"}})
                .body["code"],
            "LIVE_KEY_REQUIRED");
  for (const nlohmann::json& amount :
       {nlohmann::json(0), nlohmann::json(-5), nlohmann::json(10.5), nlohmann::json("10")}) {
    Reply reply =
        api.call("POST", "/v1/accounts/" + account.id + "/top-ups", bearer(account.live_key),
                 {{"amount_cents", amount}, {"payment_token", "tok_sandbox_ok"}});
    EXPECT_EQ(reply.status, 422) << amount;
    EXPECT_EQ(reply.body["details"][0]["field"], "amount_cents");
  }
}

TEST(Accounts, LedgerIsCursorPaginatedAndSumsToTheBalance) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUpAndFund(api, 1000);
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(api.call("POST", "/v1/accounts/" + account.id + "/top-ups", bearer(account.live_key),
                       {{"amount_cents", 500 + i}, {"payment_token", "tok_sandbox_ok"}})
                  .status,
              201);
  }
  long long sum = 0;
  std::string cursor;
  int pages = 0;
  while (true) {
    std::string path = "/v1/accounts/" + account.id + "/transactions?limit=2" +
                       (cursor.empty() ? "" : "&before=" + cursor);
    Reply page = api.call("GET", path, bearer(account.live_key));
    ASSERT_EQ(page.status, 200) << page.raw_body;
    pages++;
    for (const auto& entry : page.body["data"]) sum += entry["amount_cents"].get<long long>();
    if (!page.body["has_more"].get<bool>()) break;
    cursor = page.body["data"].back()["id"];
  }
  EXPECT_EQ(pages, 3);
  Reply doc = api.call("GET", "/v1/accounts/" + account.id, bearer(account.live_key));
  EXPECT_EQ(doc.body["account"]["balance_cents"].get<long long>(), sum);
  EXPECT_EQ(sum, 1000 + 500 + 501 + 502 + 503);
}

TEST(Accounts, AnotherAccountsIdIsForbidden) {
  HttpTestClient api(apiUrl());
  TestAccount mine = signUp(api);
  TestAccount theirs = signUp(api);
  Reply reply = api.call("GET", "/v1/accounts/" + theirs.id, bearer(mine.test_key));
  EXPECT_EQ(reply.status, 403);
  EXPECT_EQ(reply.body["code"], "FORBIDDEN");
  EXPECT_EQ(
      api.call("GET", "/v1/accounts/" + theirs.id + "/transactions", bearer(mine.test_key)).status,
      403);
}

TEST(Accounts, PatchChangesTheNameWithALiveKey) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  EXPECT_EQ(
      api.call("PATCH", "/v1/accounts/" + account.id, bearer(account.test_key), {{"name", "New"}})
          .body["code"],
      "LIVE_KEY_REQUIRED");
  Reply reply = api.call("PATCH", "/v1/accounts/" + account.id, bearer(account.live_key),
                         {{"name", "Nouveau nom"}});
  ASSERT_EQ(reply.status, 200) << reply.raw_body;
  EXPECT_EQ(reply.body["account"]["name"], "Nouveau nom");
  EXPECT_EQ(api.call("PATCH", "/v1/accounts/" + account.id, bearer(account.live_key),
                     {{"balance_cents", 1}})
                .status,
            422);
}

TEST(Accounts, OwnerPhoneIsVerifiedWithTheCodeTheCarrierDelivered) {
  HttpTestClient api(apiUrl());
  HttpTestClient sim(simUrl());
  TestAccount account = signUp(api);
  std::string phone = randomSubscriber("604");
  std::string path = "/v1/accounts/" + account.id + "/phone-verification";
  Reply sent = api.call("POST", path, bearer(account.live_key), {{"phone_number", phone}});
  ASSERT_EQ(sent.status, 202) << sent.raw_body;

  Reply texts = sim.call("GET", "/sim/messages?to=%2B" + phone.substr(1));
  ASSERT_FALSE(texts.body["data"].empty());
  std::smatch match;
  std::string text = texts.body["data"][0]["text"];
  ASSERT_TRUE(std::regex_search(text, match, std::regex(R"((\d{6}))")));
  std::string code = match[1];
  std::string wrong = code == "000000" ? "111111" : "000000";

  Reply bad =
      api.call("POST", path, bearer(account.live_key), {{"phone_number", phone}, {"code", wrong}});
  EXPECT_EQ(bad.status, 422);
  EXPECT_EQ(bad.body["code"], "VERIFICATION_INVALID_CODE");
  EXPECT_EQ(bad.body["details"]["attempts_remaining"], 4);
  Reply good =
      api.call("POST", path, bearer(account.live_key), {{"phone_number", phone}, {"code", code}});
  ASSERT_EQ(good.status, 200) << good.raw_body;
  EXPECT_EQ(good.body["verified_phone"], phone);
  EXPECT_FALSE(good.body["phone_verified_at"].is_null());
}

TEST(Accounts, OwnerPhoneLocksAfterFiveWrongCodes) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  std::string path = "/v1/accounts/" + account.id + "/phone-verification";
  std::string phone = randomSubscriber("604");
  ASSERT_EQ(api.call("POST", path, bearer(account.live_key), {{"phone_number", phone}}).status,
            202);
  std::string last_code;
  for (int i = 0; i < 5; ++i) {
    last_code =
        api.call("POST", path, bearer(account.live_key), {{"phone_number", phone}, {"code", "abc"}})
            .body["code"];
  }
  EXPECT_EQ(last_code, "VERIFICATION_MAX_ATTEMPTS");
  EXPECT_EQ(
      api.call("POST", path, bearer(account.live_key), {{"phone_number", phone}, {"code", "abc"}})
          .status,
      429);
}

TEST(Accounts, CarrierFailureWhileSendingTheCodeIsReported) {
  HttpTestClient api(apiUrl());
  HttpTestClient sim(simUrl());
  TestAccount account = signUp(api);
  ASSERT_EQ(sim.call("POST", "/sim/faults", {},
                     {{"kind", "send"}, {"to", "+16045550111"}, {"count", 1}, {"mode", "error"}})
                .status,
            201);
  Reply reply = api.call("POST", "/v1/accounts/" + account.id + "/phone-verification",
                         bearer(account.live_key), {{"phone_number", "+16045550111"}});
  EXPECT_EQ(reply.status, 503);
  // A 5xx after the request was written: the code may have been texted (issue 50).
  EXPECT_EQ(reply.body["code"], "CARRIER_TIMEOUT");
}

TEST(Accounts, ACarriers429WhileSendingTheCodeSaysWhenToTryAgain) {
  HttpTestClient api(apiUrl());
  HttpTestClient sim(simUrl());
  TestAccount account = signUp(api);
  ASSERT_EQ(sim.call("POST", "/sim/faults", {},
                     {{"kind", "send"},
                      {"to", "+16045550112"},
                      {"count", 1},
                      {"mode", "throttle"},
                      {"reset", 7},
                      {"window", "scoped"}})
                .status,
            201);
  Reply reply = api.call("POST", "/v1/accounts/" + account.id + "/phone-verification",
                         bearer(account.live_key), {{"phone_number", "+16045550112"}});
  sim.call("DELETE", "/sim/faults");  // opens the simulator's window for the tests after
  EXPECT_EQ(reply.status, 503);
  EXPECT_EQ(reply.body["code"], "CARRIER_UNAVAILABLE");
  EXPECT_EQ(reply.header("retry-after"), "7") << "the carrier's x-ratelimit-reset";
}

namespace {

Reply askForCode(HttpTestClient& api, const TestAccount& account, const std::string& phone) {
  return api.call("POST", "/v1/accounts/" + account.id + "/phone-verification",
                  bearer(account.live_key), {{"phone_number", phone}});
}

// The answer once the account's last code is no longer too recent to send another: ops/test
// lets an account ask again after a second (OWNER_CODE_RESEND_SECONDS). An ask refused as too
// soon changes nothing, so it is asked again until another answer comes.
Reply askOnceResendAllowed(HttpTestClient& api, const TestAccount& account,
                           const std::string& phone) {
  Reply reply;
  eventually(
      [&] {
        reply = askForCode(api, account, phone);
        return !(reply.status == 429 && reply.body["details"]["reason"] == "code_recently_sent");
      },
      std::chrono::seconds(30));
  return reply;
}

}  // namespace

TEST(Accounts, OwnerCodesAreLimitedPerNumberAndPerAccountWhoeverAsks) {
  HttpTestClient api(apiUrl());
  TestAccount first = signUp(api);
  TestAccount second = signUp(api);
  std::string victim = randomSubscriber("604");
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(askOnceResendAllowed(api, first, victim).status, 202);
  }
  Reply fourth = askOnceResendAllowed(api, first, victim);
  EXPECT_EQ(fourth.status, 429);
  EXPECT_EQ(fourth.body["code"], "RATE_LIMITED");
  EXPECT_EQ(fourth.body["details"]["reason"], "codes_to_number");
  EXPECT_GT(std::stoi(fourth.header("retry-after")), 3600) << "the oldest leaves in about a day";
  Reply other_account = askForCode(api, second, victim);
  EXPECT_EQ(other_account.body["details"]["reason"], "codes_to_number");

  for (int i = 0; i < 2; ++i) {  // codes four and five of the first account
    ASSERT_EQ(askOnceResendAllowed(api, first, randomSubscriber("604")).status, 202);
  }
  Reply sixth = askOnceResendAllowed(api, first, randomSubscriber("604"));
  EXPECT_EQ(sixth.status, 429);
  EXPECT_EQ(sixth.body["details"]["reason"], "codes_per_account");
}

TEST(Accounts, WrongTriesOutliveAResendAndALockedCodeIsNeitherResentNorAccepted) {
  HttpTestClient api(apiUrl());
  HttpTestClient sim(simUrl());
  TestAccount account = signUp(api);
  std::string phone = randomSubscriber("604");
  std::string path = "/v1/accounts/" + account.id + "/phone-verification";
  auto tryCode = [&](const std::string& code) {
    return api.call("POST", path, bearer(account.live_key),
                    {{"phone_number", phone}, {"code", code}});
  };
  ASSERT_EQ(askForCode(api, account, phone).status, 202);
  for (int i = 0; i < 3; ++i) tryCode("abcdef");
  ASSERT_EQ(askOnceResendAllowed(api, account, phone).status, 202);
  Reply fourth = tryCode("abcdef");
  EXPECT_EQ(fourth.body["details"]["attempts_remaining"], 1) << "three wrong tries came before";
  EXPECT_EQ(tryCode("abcdef").body["code"], "VERIFICATION_MAX_ATTEMPTS");

  std::string text =
      sim.call("GET", "/sim/messages?to=%2B" + phone.substr(1)).body["data"][0]["text"];
  std::smatch code;
  ASSERT_TRUE(std::regex_search(text, code, std::regex(R"((\d{6}))")));
  Reply right_but_locked = tryCode(code[1].str());
  EXPECT_EQ(right_but_locked.status, 429);
  EXPECT_EQ(right_but_locked.body["code"], "VERIFICATION_MAX_ATTEMPTS");
  Reply resend = askOnceResendAllowed(api, account, phone);
  EXPECT_EQ(resend.status, 429);
  EXPECT_EQ(resend.body["details"]["reason"], "code_locked");
  EXPECT_FALSE(resend.header("retry-after").empty());
}

// Issue 49, item 6: a name is read by people (the dashboard's header, a contact list) and an
// account's may sign texts to strangers: hidden characters are refused ("Evil" + U+202E +
// "txt.exe" read as "Eviltxt.exe" reversed), and a sender name must read as a brand.
TEST(Names, AccountAndContactNamesRefuseHiddenCharacters) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  const std::string bidi = "Evil\xE2\x80\xAEtxt.exe",
                    zero_width =
                        "Ann\xE2\x80\x8B"
                        "e",
                    control = "Tab\x01name";
  for (const std::string& name : {bidi, zero_width, control}) {
    Reply signup = api.call("POST", "/v1/accounts", {},
                            {{"name", name},
                             {"email", "n" + uniqueSuffix() + "@example.ca"},
                             {"password", "a long passphrase"},
                             {"accept_terms", true}});
    EXPECT_EQ(signup.status, 422) << signup.raw_body;
    EXPECT_EQ(signup.body["details"][0]["field"], "name");
    Reply patch =
        api.call("PATCH", "/v1/accounts/" + account.id, bearer(account.live_key), {{"name", name}});
    EXPECT_EQ(patch.status, 422) << patch.raw_body;
    Reply contact = api.call("POST", "/v1/contacts", bearer(account.test_key),
                             {{"phone_number", "+15145550199"}, {"name", name}});
    EXPECT_EQ(contact.status, 422) << contact.raw_body;
    EXPECT_EQ(contact.body["details"][0]["field"], "name");
    Reply group =
        api.call("POST", "/v1/contact-groups", bearer(account.test_key), {{"name", name}});
    EXPECT_EQ(group.status, 422) << group.raw_body;
  }
  Reply ours = api.call("PATCH", "/v1/accounts/" + account.id, bearer(account.live_key),
                        {{"name", "SMS Gatewаy Support"}});  // a Cyrillic а
  EXPECT_EQ(ours.status, 422) << "an account's name may sign texts: it may not pass for us";
  Reply plain = api.call("POST", "/v1/contacts", bearer(account.test_key),
                         {{"phone_number", "+15145550198"}, {"name", "Zoë O'Brien-Tremblay 李"}});
  EXPECT_EQ(plain.status, 201) << plain.raw_body;
}

TEST(Names, TheSenderNameSigningTextsToStrangersMustReadAsABrand) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  std::string path = "/v1/accounts/" + account.id;
  Reply set = api.call("PATCH", path, bearer(account.live_key), {{"sender_name", "Érable & Fils"}});
  ASSERT_EQ(set.status, 200) << set.raw_body;
  EXPECT_EQ(set.body["account"]["sender_name"], "Érable & Fils");
  for (const std::string& refused :
       {std::string("Visit bit.ly/x"), std::string("Call now! 50% off"),
        std::string("Official Bank"), std::string(41, 'a'), std::string("")}) {
    Reply reply = api.call("PATCH", path, bearer(account.live_key), {{"sender_name", refused}});
    EXPECT_EQ(reply.status, 422) << refused << ": " << reply.raw_body;
    EXPECT_EQ(reply.body["details"][0]["field"], "sender_name");
  }
  Reply cleared = api.call("PATCH", path, bearer(account.live_key), {{"sender_name", nullptr}});
  ASSERT_EQ(cleared.status, 200) << cleared.raw_body;
  EXPECT_TRUE(cleared.body["account"]["sender_name"].is_null());
}
