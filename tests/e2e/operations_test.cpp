// What an operator sees of the running stack: every process answers /metrics, /health and
// /ready on its operations port; one send is followed through every worker's JSON log by its
// request id; smsgw-admin finds the catalogue's topics on the broker.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>

#include "adapters/http_client.h"
#include "domain/ids.h"
#include "tests/support/accounts.h"
#include "tests/support/numbers.h"
#include "tests/support/test_env.h"
#include "tests/support/webhook_receiver.h"
#include "tests/support/webhooks.h"

using namespace smsgw;
using namespace smsgw::testing;

namespace {

// The operations port of the API (METRICS_BASE_PORT) and of the first sender (the next one),
// as ops/lib/stack.sh gives them out.
std::string opsUrl(int offset) {
  return "http://127.0.0.1:" + std::to_string(std::stoi(requiredEnv("METRICS_BASE_PORT")) + offset);
}

HttpResponse get(const std::string& url) {
  return httpRequest("GET", url, {}, "", std::chrono::seconds(10));
}

// The lines of a process's log that name `text`.
std::vector<std::string> logLines(const std::string& process, const std::string& text) {
  std::ifstream log(std::filesystem::path(requiredEnv("SMSGW_DATA_DIR")) / "logs" /
                    (process + ".log"));
  std::vector<std::string> found;
  for (std::string line; std::getline(log, line);) {
    if (line.find(text) != std::string::npos) found.push_back(line);
  }
  return found;
}

}  // namespace

TEST(Operations, TheApiAndEveryWorkerAnswerMetricsHealthAndReadiness) {
  for (int offset = 0; offset <= 5; ++offset) {  // the API, then one of each worker
    std::string base = opsUrl(offset);
    EXPECT_EQ(get(base + "/health").status, 200) << base;
    auto ready = get(base + "/ready");
    EXPECT_EQ(ready.status, 200) << base << " " << ready.body;
    EXPECT_EQ(nlohmann::json::parse(ready.body)["status"], "ready");
    auto metrics = get(base + "/metrics");
    EXPECT_EQ(metrics.status, 200);
    EXPECT_NE(metrics.body.find("smsgw_outbox_unpublished_rows"), std::string::npos) << base;
  }
  HttpTestClient api(apiUrl());
  api.call("GET", "/v1/pricing");  // without a key: 401, counted under its route
  auto metrics = get(opsUrl(0) + "/metrics").body;
  EXPECT_NE(
      metrics.find(R"(smsgw_http_requests_total{method="GET",route="/v1/pricing",status="401"})"),
      std::string::npos);
  EXPECT_NE(metrics.find("smsgw_http_request_duration_seconds_bucket"), std::string::npos);
}

TEST(Operations, OneSendIsFollowedThroughEveryWorkerByItsRequestId) {
  HttpTestClient api(apiUrl());
  WebhookReceiver receiver;
  TestAccount account = signUp(api);
  ASSERT_FALSE(registerEndpoint(api, account, receiver.url(), {"message.delivered"}).id.empty());
  std::string request_id = "trace-" + randomBase62(12);
  Reply sent =
      api.call("POST", "/v1/messages", bearer(account.test_key, {{"X-Request-Id", request_id}}),
               {{"from", "+14165550100"},
                {"to", "+15142220123"},
                {"body", "Follow me"},
                {"skip_consent_check", true}});
  ASSERT_EQ(sent.status, 201) << sent.raw_body;
  ASSERT_EQ(receiver.waitFor(1, std::chrono::seconds(60)).size(), 1u);
  for (const char* process : {"api", "sender", "receipt", "webhook-dispatcher"}) {
    std::vector<std::string> lines;
    for (int i = 0; i < 50 && lines.empty(); ++i) {
      lines = logLines(process, request_id);
      if (lines.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ASSERT_FALSE(lines.empty()) << process << " never logged request " << request_id;
    auto line = nlohmann::json::parse(lines.front(), nullptr, false);
    ASSERT_FALSE(line.is_discarded()) << "not a JSON line: " << lines.front();
    EXPECT_EQ(line["request_id"], request_id) << process;
  }
  auto delivered = logLines("webhook-dispatcher", request_id);
  EXPECT_TRUE(std::any_of(delivered.begin(), delivered.end(), [](const std::string& line) {
    return line.find("(message.delivered) delivered to webhook") != std::string::npos;
  }));
}

TEST(Operations, TheAdminFindsTheCataloguesTopicsOnTheBroker) {
  auto check = runAdmin("topics check");
  ASSERT_EQ(check.exit_code, 0) << check.output;
  EXPECT_EQ(check.output["ok"], true);
  EXPECT_EQ(check.output["topics"].size(), 12u) << "six topics and their dead-letter topics";
  for (const auto& topic : check.output["topics"]) {
    if (topic["name"] == "sms.outbound") {
      EXPECT_EQ(topic["partitions_found"], 6);
    }
  }
  // Nothing is missing, so nothing is created (the embedded broker cannot create topics).
  auto create = runAdmin("topics create --replication-factor 1");
  EXPECT_EQ(create.exit_code, 0) << create.output;
}
