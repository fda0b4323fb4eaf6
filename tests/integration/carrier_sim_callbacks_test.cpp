// The carrier simulator toward a gateway that does not take a callback, as Telnyx behaves: an
// inbound text's webhook (message.received) is tried again, a second apart, until it is
// answered 2xx, and then no more. Without this, an inbound text sent while the gateway
// restarts was lost for good (the deployment test lost 2 of 200 when PostgreSQL restarted).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "adapters/http_client.h"
#include "tests/support/child_process.h"
#include "tests/support/eventually.h"
#include "tests/support/http_test_client.h"
#include "tests/support/webhook_receiver.h"

using namespace smsgw;
using namespace smsgw::testing;
using namespace std::chrono_literals;

namespace {

std::string payloadId(const ReceivedRequest& request) {
  return nlohmann::json::parse(request.body)["data"]["payload"]["id"];
}

}  // namespace

TEST(CarrierSimCallbacks, AnInboundTextTheGatewayDidNotTakeIsTriedAgainUntilTaken) {
  WebhookReceiver gateway;
  gateway.answerWith(ReceiverAnswer::Status, 503);
  int port = freeLoopbackPort();
  std::string sim_url = "http://127.0.0.1:" + std::to_string(port);
  ChildProcess sim(
      SMSGW_SIM_PATH,
      {"--host", "127.0.0.1", "--port", std::to_string(port), "--webhook-url", gateway.url()}, {},
      (std::filesystem::temp_directory_path() / "carrier-sim-callbacks.log").string());
  sim.start();
  ASSERT_TRUE(eventually(
      [&] { return httpRequest("GET", sim_url + "/health", {}, "", 1s).status == 200; }, 30s));

  Reply sent = HttpTestClient(sim_url).call(
      "POST", "/sim/inbound", {},
      {{"from", "+14165550199"}, {"to", "+14165550100"}, {"text", "are you open?"}});
  ASSERT_EQ(sent.status, 202) << sent.raw_body;
  EXPECT_EQ(sent.body["gateway_status"], 503) << "the first attempt is answered at once";
  // The second attempt has just been refused; the third comes a second later, and is taken.
  ASSERT_EQ(gateway.waitFor(2, 10s).size(), 2u) << "tried again while refused";
  gateway.answerWith(ReceiverAnswer::Ok);
  ASSERT_EQ(gateway.waitFor(3, 10s).size(), 3u);
  std::this_thread::sleep_for(2500ms);  // two more retry periods
  auto all = gateway.waitFor(3, 1s);
  EXPECT_EQ(all.size(), 3u) << "nothing after the gateway took it";
  for (const auto& request : all) EXPECT_EQ(payloadId(request), payloadId(all.front()));
}
