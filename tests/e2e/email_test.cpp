// The email product, gated: its routes answer 501 EMAIL_COMING_SOON in the error shape, after
// authentication and the `email` permission; the account says features.email false and keys
// carry email_domain_ids null.
#include <gtest/gtest.h>

#include "tests/support/accounts.h"
#include "tests/support/test_env.h"

using namespace smsgw::testing;

TEST(Email, EveryEmailRouteAnswersComingSoonAfterAuthAndPermission) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUpAndFund(api);
  struct Route {
    std::string method, path;
    nlohmann::json body;
  };
  std::vector<Route> routes = {
      {"GET", "/v1/email-domains", nullptr},
      {"POST", "/v1/emails", {{"from", "a@example.ca"}, {"to", "b@example.ca"}}},
      {"POST", "/v1/emails/batch", nlohmann::json::array()}};
  Reply no_email = api.call("POST", "/v1/api-keys", bearer(account.test_key),
                            {{"mode", "TEST"}, {"permissions", {{"messages", "rw"}}}});
  ASSERT_EQ(no_email.status, 201);
  for (const auto& route : routes) {
    for (const std::string& key : {account.test_key, account.live_key}) {
      Reply answer = api.call(route.method, route.path, bearer(key), route.body);
      EXPECT_EQ(answer.status, 501) << route.method << " " << route.path;
      EXPECT_EQ(answer.body["code"], "EMAIL_COMING_SOON");
      EXPECT_EQ(answer.body["statusCode"], 501);
      EXPECT_TRUE(answer.body.contains("messageEn") && answer.body.contains("messageFr"));
    }
    EXPECT_EQ(api.call(route.method, route.path, {}, route.body).status, 401) << route.path;
    EXPECT_EQ(api.call(route.method, route.path, bearer(no_email.body["key"]), route.body).status,
              403)
        << route.path;
  }
  Reply document = api.call("GET", "/v1/accounts/" + account.id, bearer(account.live_key));
  EXPECT_EQ(document.body["features"]["email"], false);
  for (const auto& key : document.body["api_keys"]) {
    ASSERT_TRUE(key.contains("email_domain_ids"));
    EXPECT_TRUE(key["email_domain_ids"].is_null());
  }
}
