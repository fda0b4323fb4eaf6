// POST/GET /v1/messages: validation, idempotency, modes and pagination.
#include <gtest/gtest.h>

#include "tests/support/accounts.h"
#include "tests/support/test_env.h"

using namespace smsgw::testing;

namespace {

nlohmann::json sms(const std::string& to, const std::string& body) {
  return {{"from", "+14165550100"}, {"to", to}, {"body", body}, {"skip_consent_check", true}};
}

}  // namespace

TEST(Messages, RefusesBadNumbersAndBodiesWithoutCreatingAnything) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  auto send = [&](const nlohmann::json& body) {
    return api.call("POST", "/v1/messages", bearer(account.test_key), body);
  };
  EXPECT_EQ(send(sms("4165550123", "hi")).body["code"], "INVALID_PHONE_NUMBER");
  EXPECT_EQ(send(sms("+12125550123", "hi")).body["code"], "NON_CANADIAN_NUMBER");
  EXPECT_EQ(send(sms("+14162220123", "")).body["code"], "VALIDATION_ERROR");
  EXPECT_EQ(send(sms("+14162220123", std::string(1531, 'a'))).body["code"], "MESSAGE_TOO_LONG");
  EXPECT_EQ(send(sms("+14162220123", std::string(1530, 'a'))).status, 201);
  EXPECT_EQ(send(sms("+14162220123", std::string(766, '{'))).body["code"], "MESSAGE_TOO_LONG");
  Reply list = api.call("GET", "/v1/messages", bearer(account.test_key));
  EXPECT_EQ(list.body["meta"]["total"], 1);
}

TEST(Messages, CountsPartsAsTheCarrierWould) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  Reply two = api.call("POST", "/v1/messages", bearer(account.test_key),
                       sms("+14162220123", std::string(161, 'a')));
  EXPECT_EQ(two.body["segment_count"], 2);
  EXPECT_EQ(two.body["cost_cents"], 4);
  Reply unicode = api.call("POST", "/v1/messages", bearer(account.test_key),
                           sms("+14162220123", "Ça coûte 5 $ 🙂"));
  EXPECT_EQ(unicode.body["segment_count"], 1);
}

TEST(Messages, IdempotencyKeyReturnsTheSameMessageAndRefusesADifferentOne) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  auto send = [&](const std::string& body) {
    return api.call("POST", "/v1/messages",
                    bearer(account.test_key, {{"Idempotency-Key", "order-42"}}),
                    sms("+14162220123", body));
  };
  Reply first = send("Your order shipped");
  Reply again = send("Your order shipped");
  ASSERT_EQ(first.status, 201);
  EXPECT_EQ(again.body["id"], first.body["id"]);
  Reply reused = send("Something else");
  EXPECT_EQ(reused.status, 409);
  EXPECT_EQ(reused.body["code"], "IDEMPOTENCY_KEY_REUSED");
  EXPECT_EQ(api.call("GET", "/v1/messages", bearer(account.test_key)).body["meta"]["total"], 1);
}

TEST(Messages, ALiveSendFromANumberNotOwnedIsRefusedFirst) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUpAndFund(api);
  Reply skip =
      api.call("POST", "/v1/messages", bearer(account.live_key), sms("+14162220123", "hi"));
  EXPECT_EQ(skip.status, 403);
  EXPECT_EQ(skip.body["code"], "PHONE_NUMBER_NOT_OWNED") << "the from number is checked first";
  nlohmann::json body = sms("+14162220123", "hi");
  body.erase("skip_consent_check");
  EXPECT_EQ(api.call("POST", "/v1/messages", bearer(account.live_key), body).body["code"],
            "PHONE_NUMBER_NOT_OWNED");
  Reply doc = api.call("GET", "/v1/accounts/" + account.id, bearer(account.live_key));
  EXPECT_EQ(doc.body["account"]["balance_cents"], 5000) << "refusals charge nothing";
}

TEST(Messages, TestAndLiveDataStayApartAndOtherAccountsAreForbidden) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUpAndFund(api);
  TestAccount other = signUp(api);
  std::string id =
      api.call("POST", "/v1/messages", bearer(account.test_key), sms("+14162220123", "hi"))
          .body["id"];
  EXPECT_EQ(api.call("GET", "/v1/messages/" + id, bearer(account.test_key)).status, 200);
  EXPECT_EQ(api.call("GET", "/v1/messages/" + id, bearer(account.live_key)).status, 404);
  EXPECT_EQ(api.call("GET", "/v1/messages/" + id, bearer(other.test_key)).status, 403);
  EXPECT_EQ(api.call("GET", "/v1/messages/msg_nothing", bearer(account.test_key)).status, 404);
  EXPECT_EQ(api.call("GET", "/v1/messages", bearer(account.live_key)).body["meta"]["total"], 0);
}

TEST(Messages, ListIsPagedNewestFirstAndFiltered) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  for (int i = 0; i < 5; ++i) {
    ASSERT_EQ(api.call("POST", "/v1/messages", bearer(account.test_key),
                       sms("+1416222012" + std::to_string(i), "m" + std::to_string(i)))
                  .status,
              201);
  }
  Reply page = api.call("GET", "/v1/messages?page=2&limit=2", bearer(account.test_key));
  ASSERT_EQ(page.status, 200);
  EXPECT_EQ(page.body["meta"],
            nlohmann::json({{"page", 2}, {"limit", 2}, {"total", 5}, {"pages", 3}}));
  EXPECT_EQ(page.body["data"][0]["body"], "m2");
  Reply filtered = api.call("GET", "/v1/messages?to=%2B14162220123", bearer(account.test_key));
  EXPECT_EQ(filtered.body["meta"]["total"], 1);
  EXPECT_EQ(api.call("GET", "/v1/messages?direction=INBOUND", bearer(account.test_key))
                .body["meta"]["total"],
            0);
  EXPECT_EQ(api.call("GET", "/v1/messages?limit=1000", bearer(account.test_key)).status, 422);
  EXPECT_EQ(api.call("GET", "/v1/messages?status=LOST", bearer(account.test_key)).status, 422);

  // By the time they were made: the newest message's instant (to the millisecond, as shown)
  // splits the five; any made in that same millisecond fall on its side.
  Reply all = api.call("GET", "/v1/messages", bearer(account.test_key));
  std::string at = all.body["data"][0]["created_at"];
  int same_millisecond = 0;
  for (const auto& m : all.body["data"]) same_millisecond += m["created_at"] == at ? 1 : 0;
  auto countBetween = [&](const std::string& query) {
    return api.call("GET", "/v1/messages?" + query, bearer(account.test_key)).body["meta"]["total"];
  };
  EXPECT_EQ(countBetween("created_after=" + at), same_millisecond);
  EXPECT_EQ(countBetween("created_before=" + at), 5 - same_millisecond);
  EXPECT_EQ(countBetween("created_after=2000-01-01T00:00:00Z&created_before=2000-01-02T00:00:00Z"),
            0);
  Reply bad = api.call("GET", "/v1/messages?created_after=yesterday", bearer(account.test_key));
  EXPECT_EQ(bad.status, 422);
  EXPECT_EQ(bad.body["details"][0]["field"], "created_after");
}
