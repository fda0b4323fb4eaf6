#include "tests/support/accounts.h"

#include <gtest/gtest.h>

#include "domain/ids.h"

namespace smsgw::testing {

std::string uniqueSuffix() {
  return randomBase62(10);
}

TestAccount signUp(HttpTestClient& api) {
  TestAccount account;
  account.email = "owner+" + uniqueSuffix() + "@example.ca";
  account.password = "a long enough password";
  Reply reply = api.call("POST", "/v1/accounts", {},
                         {{"name", "Test Co"},
                          {"email", account.email},
                          {"password", account.password},
                          {"accept_terms", true}});
  EXPECT_EQ(reply.status, 201) << reply.raw_body;
  account.id = reply.body["account"]["id"];
  for (const auto& key : reply.body["api_keys"]) {
    (key["mode"] == "LIVE" ? account.live_key : account.test_key) = key["key"];
  }
  return account;
}

TestAccount signUpAndFund(HttpTestClient& api, long long cents) {
  TestAccount account = signUp(api);
  Reply reply =
      api.call("POST", "/v1/accounts/" + account.id + "/top-ups", bearer(account.live_key),
               {{"amount_cents", cents}, {"payment_token", "tok_sandbox_ok"}});
  EXPECT_EQ(reply.status, 201) << reply.raw_body;
  return account;
}

}  // namespace smsgw::testing
