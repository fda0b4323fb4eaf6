// Staff's moves of an account's status through smsgw-admin (services/accounts/account_standing.h):
// an account holding a number is not closed, one that holds none is closed for good, and a
// closed account's key, sign-in and staff moves are all refused.
#include <gtest/gtest.h>

#include "tests/support/numbers.h"
#include "tests/support/test_env.h"

using namespace smsgw::testing;

namespace {

std::string statusOf(HttpTestClient& api, const TestAccount& account) {
  Reply me = api.call("GET", "/v1/accounts/me", bearer(account.live_key));
  const auto& status = me.body["account"]["status"];
  return status.is_string() ? status.get<std::string>() : std::to_string(me.status);
}

}  // namespace

TEST(AccountStanding, AnAccountHoldingANumberIsNotClosedAndOneHoldingNoneIsClosedForGood) {
  HttpTestClient api(apiUrl());
  TestAccount account = readyToBuy(api, 1000);
  std::string number_id = buyNumber(api, account, "613")["id"];

  AdminRun refused = runAdmin("account close " + account.id + " --reason 'asked to leave'");
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_EQ(statusOf(api, account), "ACTIVE") << "nothing changed";

  ASSERT_EQ(api.call("DELETE", "/v1/phone-numbers/" + number_id, bearer(account.live_key)).status,
            204);
  AdminRun closed = runAdmin("account close " + account.id + " --reason 'asked to leave'");
  ASSERT_EQ(closed.exit_code, 0);
  EXPECT_EQ(closed.output["status"], "CLOSED");

  Reply me = api.call("GET", "/v1/accounts/me", bearer(account.live_key));
  EXPECT_EQ(me.status, 403) << me.raw_body;
  EXPECT_EQ(me.body["details"]["reason"], "account_closed");
  Reply sign_in = api.call("POST", "/v1/sessions", {},
                           {{"email", account.email}, {"password", account.password}});
  EXPECT_EQ(sign_in.status, 403) << sign_in.raw_body;
  EXPECT_EQ(sign_in.body["details"]["reason"], "account_closed");

  EXPECT_NE(runAdmin("account reinstate " + account.id).exit_code, 0);
  EXPECT_NE(runAdmin("account suspend " + account.id + " --reason again").exit_code, 0);
  EXPECT_NE(runAdmin("account close " + account.id + " --reason again").exit_code, 0);
}

TEST(AccountStanding, OnlyAnActiveAccountIsSuspendedAndOnlyASuspendedOneReinstated) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUpAndFund(api);
  EXPECT_NE(runAdmin("account reinstate " + account.id).exit_code, 0);
  EXPECT_EQ(statusOf(api, account), "ACTIVE");
  EXPECT_NE(runAdmin("account suspend " + account.id).exit_code, 0) << "a reason is required";

  AdminRun suspended = runAdmin("account suspend " + account.id + " --reason chargeback");
  ASSERT_EQ(suspended.exit_code, 0);
  EXPECT_EQ(suspended.output["status"], "SUSPENDED");
  EXPECT_NE(runAdmin("account suspend " + account.id + " --reason twice").exit_code, 0);

  AdminRun reinstated = runAdmin("account reinstate " + account.id);
  ASSERT_EQ(reinstated.exit_code, 0);
  EXPECT_EQ(reinstated.output["status"], "ACTIVE");
  EXPECT_EQ(statusOf(api, account), "ACTIVE");
  EXPECT_NE(runAdmin("account reinstate nope_" + account.id).exit_code, 0) << "no such account";
}
