// Two API instances behind the load balancer production runs (deploy/haproxy/haproxy.cfg,
// HAProxy with TLS, round robin), as issue 52 asked: every limit holds for the deployment, not
// per instance; the per-address limit counts the client the balancer saw, whatever the client
// wrote in X-Forwarded-For; and a key revoked or a dashboard session signed out through one
// instance is refused by the other at once (the key on the send route that keeps callers).
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <string>

#include "tests/integration/pipeline_fixture.h"
#include "tests/support/accounts.h"
#include "tests/support/balancer.h"
#include "tests/support/crash_stack.h"
#include "tests/support/dashboard_signin.h"
#include "tests/support/http_test_client.h"

using namespace smsgw;
using namespace smsgw::testing;

namespace {

constexpr int kSignupsPerMinute = 5;

class BalancedApis : public PipelineTest {
 protected:
  BalancedApis()
      : PipelineTest({{"API_TRUSTED_PROXIES", kBalancerSource},
                      {"API_PUBLIC_RATE_LIMIT_PER_MINUTE", std::to_string(kSignupsPerMinute)}}) {}

  void SetUp() override {
    PipelineTest::SetUp();
    size_t second = stack_.addApi();
    ASSERT_TRUE(CrashStack::healthy(stack_.apiUrl(second)));
    balancer_ = std::make_unique<Balancer>(
        Balancer::Instance{stack_.apiPort(0), stack_.apiOpsPort(0)},
        Balancer::Instance{stack_.apiPort(second), stack_.apiOpsPort(second)});
    ASSERT_TRUE(balancer_->start()) << "HAProxy did not answer; its log: " << balancer_->log();
    public_ = std::make_unique<HttpTestClient>(balancer_->url());
    public_->trust(balancer_->certificate());
  }

  // Lines of an instance's log that hold `text` (its access log names each route served).
  long long linesOf(size_t instance, const std::string& text) {
    std::ifstream in(stack_.apiLogOf(instance));
    long long count = 0;
    for (std::string line; std::getline(in, line);) count += line.find(text) != std::string::npos;
    return count;
  }

  Reply signUpThroughTheBalancer(const std::string& claimed_address) {
    return public_->call("POST", "/v1/accounts", {{"X-Forwarded-For", claimed_address}},
                         {{"name", "Balanced Co"},
                          {"email", "owner+" + randomBase62(10) + "@example.ca"},
                          {"password", "a long enough password"},
                          {"accept_terms", true}});
  }

  std::unique_ptr<Balancer> balancer_;
  std::unique_ptr<HttpTestClient> public_;
};

}  // namespace

TEST_F(BalancedApis, AnAccountsLimitHoldsForBothInstancesTogether) {
  LiveCustomer customer = factory_.make(1, 1);
  // Number search: 30 a minute per account, then one earned back every 2 s. Each instance kept
  // its own before, and 60 searches through two instances were all answered.
  auto started = std::chrono::steady_clock::now();
  int allowed = 0, refused = 0;
  for (int i = 0; i < 60; ++i) {
    Reply reply = public_->call("GET", "/v1/phone-numbers/search?area_codes=613&limit=1",
                                bearer(customer.key));
    ASSERT_TRUE(reply.status == 200 || reply.status == 429) << reply.status << reply.raw_body;
    (reply.status == 200 ? allowed : refused) += 1;
    if (reply.status == 429) {
      EXPECT_FALSE(reply.header("retry-after").empty());
    }
  }
  auto earned =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started)
          .count() /
      2;
  EXPECT_GE(allowed, 30);
  EXPECT_LE(allowed, 30 + earned) << "the limit is the deployment's: 30 at once, then 1 per 2 s";
  EXPECT_EQ(allowed + refused, 60);
  EXPECT_GT(linesOf(0, "/v1/phone-numbers/search"), 0) << "both instances served";
  EXPECT_GT(linesOf(1, "/v1/phone-numbers/search"), 0) << "both instances served";
}

TEST_F(BalancedApis, TheAddressLimitCountsTheClientTheBalancerSawNotTheOneItClaims) {
  // Each signup claims another address; the balancer appends the one it saw (127.0.0.1), and
  // that is the one counted, on both instances together.
  for (int i = 0; i < kSignupsPerMinute; ++i) {
    Reply reply = signUpThroughTheBalancer("198.51.100." + std::to_string(i + 1));
    EXPECT_EQ(reply.status, 201) << i << reply.raw_body;
  }
  Reply refused = signUpThroughTheBalancer("198.51.100.99");
  EXPECT_EQ(refused.status, 429) << refused.raw_body;
  EXPECT_EQ(refused.body["code"], "RATE_LIMITED");
  // The same client straight to an instance is the same address: refused too. Had the
  // instances counted the balancer (ignoring the header), this one would pass.
  HttpTestClient direct(stack_.apiUrl(1));
  Reply straight = direct.call("POST", "/v1/accounts", {{"X-Forwarded-For", "203.0.113.50"}},
                               {{"name", "Direct Co"},
                                {"email", "owner+" + randomBase62(10) + "@example.ca"},
                                {"password", "a long enough password"},
                                {"accept_terms", true}});
  EXPECT_EQ(straight.status, 429) << "a client's own X-Forwarded-For is not believed: "
                                  << straight.raw_body;
  EXPECT_EQ(query("SELECT count(*) FROM accounts WHERE name = 'Balanced Co'"), kSignupsPerMinute);
  EXPECT_EQ(query("SELECT count(*) FROM accounts WHERE name = 'Direct Co'"), 0);
}

TEST_F(BalancedApis, AKeyRevokedThroughOneInstanceIsRefusedByTheOtherAtOnce) {
  LiveCustomer customer = factory_.make(1, 1);
  HttpTestClient first(stack_.apiUrl(0)), second(stack_.apiUrl(1));
  Reply created = first.call("POST", "/v1/api-keys", bearer(customer.key), {{"mode", "LIVE"}});
  ASSERT_EQ(created.status, 201) << created.raw_body;
  std::string key = created.body["key"];
  auto sendWith = [&](HttpTestClient& api, const std::string& body) {
    return api.call(
        "POST", "/v1/messages", bearer(key),
        {{"from", customer.numbers[0]}, {"to", customer.recipients[0]}, {"body", body}});
  };
  // The second instance now keeps this key's caller (api/http/caller_cache.h).
  ASSERT_EQ(sendWith(second, "before").status, 201);
  ASSERT_EQ(
      first.call("DELETE", "/v1/api-keys/" + std::string(created.body["id"]), bearer(customer.key))
          .status,
      204);
  Reply after = sendWith(second, "after");
  EXPECT_EQ(after.status, 401) << after.raw_body;
  EXPECT_EQ(after.body["code"], "API_KEY_REVOKED");
  EXPECT_EQ(query("SELECT count(*) FROM messages WHERE body = 'after'"), 0);
}

TEST_F(BalancedApis, ADashboardSessionSignedOutThroughOneInstanceIsRefusedByTheOther) {
  HttpTestClient first(stack_.apiUrl(0)), second(stack_.apiUrl(1));
  TestAccount account = signUp(first);
  DashboardSession session = signInToDashboard(first, account.email, account.password);
  ASSERT_EQ(second.call("GET", "/v1/accounts/me", session.cookies()).status, 200);
  ASSERT_EQ(first.call("DELETE", "/v1/sessions/current", session.cookies()).status, 204);
  Reply after = second.call("GET", "/v1/accounts/me", session.cookies());
  EXPECT_EQ(after.status, 401) << after.raw_body;
}
