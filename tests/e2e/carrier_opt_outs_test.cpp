// Opt-outs across tenants (issue 50). Telnyx acts on STOP itself unless its handling is turned
// off, and its block rules reach every number of a messaging profile or of the whole account,
// while all our customers' numbers share one profile. The going-live checklist has it turned
// off, as the test stack's simulator is: a STOP then blocks only the customer it was sent to,
// and the subscriber gets one confirmation, ours. Where it was left on, Telnyx refuses sends
// with 40300: the gateway fails and refunds them and never holds them against the recipient.
#include <gtest/gtest.h>

#include "tests/support/eventually.h"
#include "tests/support/numbers.h"
#include "tests/support/test_env.h"

using namespace smsgw::testing;

namespace {

struct Tenant {
  TestAccount account;
  std::string number;
};

class CarrierOptOuts : public ::testing::Test {
 protected:
  void SetUp() override {
    subscriber = randomSubscriber("613");
    for (Tenant* tenant : {&acme, &bistro}) {
      tenant->account = readyToBuy(api, 1000);
      tenant->number = buyNumber(api, tenant->account, "613")["phone_number"];
      withLiveConsent(api, tenant->account, subscriber);
    }
  }
  void TearDown() override { sim.call("DELETE", "/sim/faults"); }

  void textsStopTo(const Tenant& tenant) {
    Reply sent = sim.call("POST", "/sim/inbound", {},
                          {{"from", subscriber}, {"to", tenant.number}, {"text", "STOP"}});
    ASSERT_EQ(sent.status, 202) << sent.raw_body;
    ASSERT_EQ(sent.body["gateway_status"], 200);
  }
  Reply send(const Tenant& tenant, const std::string& body) {
    return api.call("POST", "/v1/messages", bearer(tenant.account.live_key),
                    {{"from", tenant.number}, {"to", subscriber}, {"body", body}});
  }
  nlohmann::json message(const Tenant& tenant, const std::string& id) {
    return api.call("GET", "/v1/messages/" + id, bearer(tenant.account.live_key)).body;
  }
  bool reaches(const Tenant& tenant, const std::string& id, const std::string& status) {
    return eventually([&] { return message(tenant, id)["status"] == status; });
  }
  // What the simulated handset received, newest first.
  nlohmann::json handset() {
    return sim.call("GET", "/sim/messages?to=" + encodedNumber(subscriber)).body["data"];
  }
  // The messages our gateway queued to the subscriber for `tenant` (its STOP confirmation).
  nlohmann::json outbound(const Tenant& tenant) {
    return api
        .call("GET", "/v1/messages?direction=OUTBOUND&to=" + encodedNumber(subscriber),
              bearer(tenant.account.live_key))
        .body["data"];
  }
  bool optedOutAt(const Tenant& tenant) {
    return api.call("GET",
                    "/v1/compliance/consents/check?phone_number=" + encodedNumber(subscriber) +
                        "&from_number=" + encodedNumber(tenant.number),
                    bearer(tenant.account.live_key))
               .body["reason"] == "OPT_OUT";
  }

  HttpTestClient api{apiUrl()};
  HttpTestClient sim{simUrl()};
  Tenant acme, bistro;
  std::string subscriber;
};

}  // namespace

TEST_F(CarrierOptOuts, AStopToOneCustomersNumberBlocksNoOtherCustomer) {
  textsStopTo(acme);
  ASSERT_TRUE(eventually([&] { return optedOutAt(acme); }));
  ASSERT_TRUE(eventually([&] { return handset().size() == 1u; })) << handset().dump();
  ASSERT_TRUE(reaches(acme, outbound(acme)[0]["id"], "DELIVERED"));
  EXPECT_EQ(handset().size(), 1u) << "one confirmation: ours, no carrier's reply beside it";
  EXPECT_EQ(handset()[0]["from"], acme.number);
  EXPECT_NE(handset()[0]["text"].get<std::string>().find("You are unsubscribed"),
            std::string::npos);

  EXPECT_EQ(send(acme, "Sale today").status, 451) << "ours refuses: CASL";
  Reply other = send(bistro, "Your table is ready");
  ASSERT_EQ(other.status, 201) << other.raw_body;
  EXPECT_TRUE(reaches(bistro, other.body["id"], "DELIVERED"))
      << "another customer's STOP is not this customer's";
  EXPECT_EQ(handset().size(), 2u);
}

// The operator left Telnyx's handling on (account level, its default by its support article).
TEST_F(CarrierOptOuts, WhereTheCarriersHandlingIsOnItsRefusalsFailAndNeverCountAgainstTheNumber) {
  ASSERT_EQ(
      sim.call("POST", "/sim/faults", {},
               {{"kind", "opt_out_handling"}, {"handling", "account"}, {"subscriber", subscriber}})
          .status,
      201);
  textsStopTo(acme);
  ASSERT_TRUE(eventually([&] { return optedOutAt(acme); }));
  ASSERT_TRUE(eventually([&] { return !outbound(acme).empty(); }));
  std::string confirmation = outbound(acme)[0]["id"];
  ASSERT_TRUE(reaches(acme, confirmation, "FAILED")) << "Telnyx refuses our own confirmation";
  ASSERT_EQ(handset().size(), 1u) << "the subscriber got Telnyx's English reply only";
  EXPECT_NE(handset()[0]["text"].get<std::string>().find("successfully been unsubscribed"),
            std::string::npos);

  long long before = balanceOf(api, bistro.account);
  for (int attempt = 0; attempt < 4; ++attempt) {
    Reply sent = send(bistro, "Your table is ready");
    ASSERT_EQ(sent.status, 201) << "attempt " << attempt << ": not UNDELIVERABLE_NUMBER, "
                                << sent.raw_body;
    ASSERT_TRUE(reaches(bistro, sent.body["id"], "FAILED"));
    nlohmann::json failed = message(bistro, sent.body["id"]);
    EXPECT_EQ(failed["error_code"], "CARRIER_ERROR");
    EXPECT_NE(failed["error_message"].get<std::string>().find("opted out at the carrier"),
              std::string::npos)
        << failed.dump();
    EXPECT_EQ(failed["cost_cents"], 0) << "refunded";
  }
  EXPECT_EQ(balanceOf(api, bistro.account), before);
  EXPECT_EQ(balanceOf(api, bistro.account), ledgerSum(api, bistro.account));
  EXPECT_EQ(handset().size(), 1u) << "nothing more reached the handset";
}
