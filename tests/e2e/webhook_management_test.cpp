// Webhook management over HTTP against the running stack: changing and switching off an
// endpoint, reactivation, secret rotation with both signatures, the attempt log, dead letters
// and their replay, and our signatures checked by the Standard Webhooks reference library.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <thread>

#include "domain/webhook_signature.h"
#include "tests/support/accounts.h"
#include "tests/support/numbers.h"
#include "tests/support/test_env.h"
#include "tests/support/webhook_receiver.h"
#include "tests/support/webhooks.h"

using namespace smsgw;
using namespace smsgw::testing;
using namespace std::chrono_literals;

namespace {

// Runs the reference library (tests/e2e/standardwebhooks/verify.mjs) on one delivery.
std::string verifyWithStandardWebhooks(const std::string& secret, const ReceivedRequest& request) {
  std::string input = ::testing::TempDir() + "standardwebhooks-input.json";
  std::ofstream(input)
      << nlohmann::json{{"secret", secret},
                        {"body", request.body},
                        {"headers",
                         {{"webhook-id", request.headers.at("webhook-id")},
                          {"webhook-timestamp", request.headers.at("webhook-timestamp")},
                          {"webhook-signature", request.headers.at("webhook-signature")}}}}
             .dump();
  std::string command =
      "cd '" SMSGW_STANDARDWEBHOOKS_DIR "' && node verify.mjs < '" + input + "' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return "could not run node";
  std::string output;
  char buffer[256];
  while (fgets(buffer, sizeof buffer, pipe)) output += buffer;
  int status = pclose(pipe);
  return status == 0 ? "verified" : output;
}

TEST(WebhookManagement, TheStandardWebhooksLibraryVerifiesOurDeliveries) {
  HttpTestClient api(apiUrl());
  WebhookReceiver receiver;
  TestAccount account = signUp(api);
  Endpoint endpoint = registerEndpoint(api, account, receiver.url());
  sendTestMessage(api, account);
  auto got = receiver.waitFor(1, 30s);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(verifyWithStandardWebhooks(endpoint.secret, got[0]), "verified");
  ReceivedRequest tampered = got[0];
  tampered.body.replace(tampered.body.find("message.queued"), 14, "message.failed");
  EXPECT_NE(verifyWithStandardWebhooks(endpoint.secret, tampered), "verified");
  EXPECT_NE(verifyWithStandardWebhooks(newWebhookSecret(), got[0]), "verified");
}

TEST(WebhookManagement, PatchChangesTheEndpointAndSwitchingOffIsUndoneByReactivate) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  Endpoint endpoint = registerEndpoint(api, account, "http://127.0.0.1:9/a");
  std::string path = "/v1/webhooks/" + endpoint.id;
  Reply changed = api.call("PATCH", path, bearer(account.test_key),
                           {{"url", "http://127.0.0.1:9/b"}, {"events", {"message.sent"}}});
  ASSERT_EQ(changed.status, 200) << changed.raw_body;
  EXPECT_EQ(changed.body["url"], "http://127.0.0.1:9/b");
  EXPECT_EQ(changed.body["events"], nlohmann::json({"message.sent"}));
  EXPECT_EQ(api.call("PATCH", path, bearer(account.test_key), nlohmann::json::object()).status,
            422);
  EXPECT_EQ(api.call("PATCH", path, bearer(account.test_key), {{"events", {"message.nope"}}})
                .body["details"][0]["field"],
            "events");
  EXPECT_EQ(api.call("PATCH", path, bearer(account.test_key), {{"url", "ftp://x"}}).status, 422);

  Reply off = api.call("PATCH", path, bearer(account.test_key), {{"active", false}});
  EXPECT_EQ(off.body["active"], false);
  EXPECT_EQ(off.body["deactivated_reason"], "DISABLED_BY_USER");
  EXPECT_FALSE(off.body["deactivated_at"].is_null());
  Reply on = api.call("POST", path + "/reactivate", bearer(account.test_key));
  ASSERT_EQ(on.status, 200);
  EXPECT_EQ(on.body["active"], true);
  EXPECT_TRUE(on.body["deactivated_reason"].is_null());
  EXPECT_TRUE(on.body["failing_since"].is_null());
  EXPECT_FALSE(on.body.contains("signing_secret"));

  TestAccount other = signUp(api);
  EXPECT_EQ(api.call("PATCH", path, bearer(other.test_key), {{"active", false}}).status, 403);
  EXPECT_EQ(api.call("POST", path + "/reactivate", bearer(other.test_key)).status, 403);
  EXPECT_EQ(
      api.call("POST", "/v1/webhooks/wh_nothing/rotate-secret", bearer(account.test_key)).status,
      404);
}

TEST(WebhookManagement, ARotatedSecretIsShownOnceAndBothSignDeliveriesForADay) {
  HttpTestClient api(apiUrl());
  WebhookReceiver receiver;
  TestAccount account = signUp(api);
  Endpoint endpoint = registerEndpoint(api, account, receiver.url());
  Reply rotated =
      api.call("POST", "/v1/webhooks/" + endpoint.id + "/rotate-secret", bearer(account.test_key));
  ASSERT_EQ(rotated.status, 200) << rotated.raw_body;
  std::string new_secret = rotated.body["signing_secret"];
  EXPECT_NE(new_secret, endpoint.secret);
  EXPECT_FALSE(rotated.body["secret_rotated_at"].is_null());
  EXPECT_FALSE(api.call("GET", "/v1/webhooks/" + endpoint.id, bearer(account.test_key))
                   .body.contains("signing_secret"));

  sendTestMessage(api, account);
  auto got = receiver.waitFor(1, 30s);
  ASSERT_EQ(got.size(), 1u);
  const auto& request = got[0];
  std::string signature = request.headers.at("webhook-signature");
  EXPECT_NE(signature.find(' '), std::string::npos) << "two signatures: " << signature;
  long long timestamp = std::stoll(request.headers.at("webhook-timestamp"));
  EXPECT_TRUE(verifyWebhook(new_secret, request.headers.at("webhook-id"), timestamp, request.body,
                            signature));
  EXPECT_TRUE(verifyWebhook(endpoint.secret, request.headers.at("webhook-id"), timestamp,
                            request.body, signature));
  EXPECT_EQ(verifyWithStandardWebhooks(new_secret, request), "verified");
  EXPECT_EQ(verifyWithStandardWebhooks(endpoint.secret, request), "verified");
}

TEST(WebhookManagement, EventsOwedToASwitchedOffEndpointAreDeadLettersToReplay) {
  HttpTestClient api(apiUrl());
  WebhookReceiver receiver;
  receiver.answerWith(ReceiverAnswer::Status, 500);
  TestAccount account = signUp(api);
  Endpoint endpoint = registerEndpoint(api, account, receiver.url());
  std::string path = "/v1/webhooks/" + endpoint.id;
  sendTestMessage(api, account);
  ASSERT_EQ(receiver.waitFor(1, 30s).size(), 1u);

  // The failed attempt is logged and the endpoint shows the streak.
  Reply deliveries;
  for (int i = 0; i < 50; ++i) {
    deliveries = api.call("GET", path + "/deliveries", bearer(account.test_key));
    if (!deliveries.body["data"].empty()) break;
    std::this_thread::sleep_for(100ms);
  }
  ASSERT_EQ(deliveries.status, 200);
  ASSERT_FALSE(deliveries.body["data"].empty());
  auto first = deliveries.body["data"].back();
  EXPECT_EQ(first["attempt"], 1);
  EXPECT_EQ(first["success"], false);
  EXPECT_EQ(first["http_status"], 500);
  EXPECT_EQ(first["error_reason"], "HTTP_500");
  EXPECT_EQ(first["event_type"], "message.queued");
  Reply failing = api.call("GET", path, bearer(account.test_key));
  EXPECT_FALSE(failing.body["failing_since"].is_null());
  EXPECT_EQ(failing.body["failed_events"], 1);
  EXPECT_EQ(failing.body["last_failure_reason"], "HTTP_500");

  ASSERT_EQ(api.call("PATCH", path, bearer(account.test_key), {{"active", false}}).status, 200);
  Reply dead = api.call("GET", path + "/dead-letters", bearer(account.test_key));
  ASSERT_EQ(dead.status, 200);
  ASSERT_EQ(dead.body["data"].size(), 1u) << dead.raw_body;
  auto letter = dead.body["data"][0];
  EXPECT_EQ(letter["failed_reason"], "ENDPOINT_DISABLED");
  EXPECT_EQ(letter["event_type"], "message.queued");
  EXPECT_TRUE(letter["replayed_at"].is_null());
  EXPECT_EQ(letter["payload"]["id"], letter["event_id"]);
  std::string replay = "/v1/webhooks/dead-letters/" + letter["id"].get<std::string>() + "/replay";

  Reply refused = api.call("POST", replay, bearer(account.test_key));
  EXPECT_EQ(refused.status, 502);
  EXPECT_EQ(refused.body["code"], "WEBHOOK_REPLAY_FAILED");
  EXPECT_EQ(refused.body["details"]["http_status"], 500);
  EXPECT_EQ(api.call("GET", path + "/dead-letters", bearer(account.test_key)).body["data"].size(),
            1u)
      << "it stays queued";

  TestAccount other = signUp(api);
  EXPECT_EQ(api.call("POST", replay, bearer(other.test_key)).status, 403);

  receiver.answerWith(ReceiverAnswer::Ok);
  size_t before = receiver.received();
  Reply replayed = api.call("POST", replay, bearer(account.test_key));
  ASSERT_EQ(replayed.status, 200) << replayed.raw_body;
  EXPECT_FALSE(replayed.body["replayed_at"].is_null());
  auto got = receiver.waitFor(before + 1, 5s);
  ASSERT_EQ(got.size(), before + 1);
  EXPECT_EQ(got.back().headers.at("webhook-id"), letter["event_id"]);
  EXPECT_EQ(nlohmann::json::parse(got.back().body)["created"], letter["payload"]["created"]);
  EXPECT_TRUE(
      api.call("GET", path + "/dead-letters", bearer(account.test_key)).body["data"].empty());
  Reply again = api.call("POST", replay, bearer(account.test_key));
  EXPECT_EQ(again.status, 409);
  EXPECT_EQ(again.body["code"], "DEAD_LETTER_ALREADY_REPLAYED");

  std::string dead_letter = "/v1/webhooks/dead-letters/" + letter["id"].get<std::string>();
  EXPECT_EQ(api.call("DELETE", dead_letter, bearer(other.test_key)).status, 403);
  EXPECT_EQ(api.call("DELETE", dead_letter, bearer(account.test_key)).status, 204);
  EXPECT_EQ(api.call("POST", replay, bearer(account.test_key)).status, 404);
}

// A switched-off endpoint's owed event as a dead letter; returns its replay path.
std::string deadLetterReplayPath(HttpTestClient& api, const TestAccount& account,
                                 WebhookReceiver& receiver) {
  auto paths = deadLetterReplayPaths(api, account, receiver, 1);
  return paths.empty() ? "" : paths[0];
}

TEST(WebhookManagement, ASuspendedAccountsDeadLettersWaitForItsReinstatement) {
  HttpTestClient api(apiUrl());
  WebhookReceiver receiver;
  receiver.answerWith(ReceiverAnswer::Status, 500);
  TestAccount account = signUpAndFund(api);  // staff suspend ACTIVE accounts
  std::string replay = deadLetterReplayPath(api, account, receiver);
  ASSERT_FALSE(replay.empty());
  ASSERT_EQ(runAdmin("account suspend " + account.id + " --reason test").exit_code, 0);
  receiver.answerWith(ReceiverAnswer::Ok);
  Reply suspended = api.call("POST", replay, bearer(account.test_key));
  EXPECT_EQ(suspended.status, 409) << suspended.raw_body;
  EXPECT_EQ(suspended.body["code"], "ACCOUNT_SUSPENDED");
  EXPECT_EQ(api.call("GET", "/v1/webhooks", bearer(account.test_key)).status, 403)
      << "everything else stays forbidden";
  ASSERT_EQ(runAdmin("account reinstate " + account.id).exit_code, 0);
  Reply replayed = api.call("POST", replay, bearer(account.test_key));
  EXPECT_EQ(replayed.status, 200) << replayed.raw_body;
}

}  // namespace

TEST(WebhookManagement, TestKeysSeeAndManageOnlyTheEndpointsTestKeysRegistered) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUpAndFund(api);
  WebhookReceiver live_receiver, test_receiver;
  live_receiver.answerWith(ReceiverAnswer::Status, 500);
  Reply live_created = api.call("POST", "/v1/webhooks", bearer(account.live_key),
                                {{"url", live_receiver.url()}, {"events", {"message.queued"}}});
  ASSERT_EQ(live_created.status, 201) << live_created.raw_body;
  EXPECT_EQ(live_created.body["mode"], "LIVE");
  Endpoint test_endpoint = registerEndpoint(api, account, test_receiver.url());
  std::string live_path = "/v1/webhooks/" + live_created.body["id"].get<std::string>();

  Reply test_list = api.call("GET", "/v1/webhooks", bearer(account.test_key));
  ASSERT_EQ(test_list.body["data"].size(), 1u);
  EXPECT_EQ(test_list.body["data"][0]["id"], test_endpoint.id);
  EXPECT_EQ(test_list.body["data"][0]["mode"], "TEST");
  EXPECT_EQ(api.call("GET", "/v1/webhooks", bearer(account.live_key)).body["data"].size(), 2u);
  for (const auto& [method, path] :
       std::vector<std::pair<std::string, std::string>>{{"GET", live_path},
                                                        {"PATCH", live_path},
                                                        {"DELETE", live_path},
                                                        {"POST", live_path + "/rotate-secret"},
                                                        {"POST", live_path + "/reactivate"},
                                                        {"GET", live_path + "/deliveries"},
                                                        {"GET", live_path + "/dead-letters"}}) {
    Reply refused = api.call(method, path, bearer(account.test_key),
                             method == "PATCH" ? nlohmann::json{{"active", false}} : nullptr);
    EXPECT_EQ(refused.status, 403) << method << " " << path;
    EXPECT_EQ(refused.body["code"], "LIVE_KEY_REQUIRED") << method << " " << path;
  }

  // A TEST send reaches both (a LIVE-created endpoint also gets TEST simulations). The LIVE
  // endpoint fails it; switched off, it owes a dead letter a TEST key may not touch.
  sendTestMessage(api, account);
  ASSERT_EQ(test_receiver.waitFor(1, 30s).size(), 1u);
  ASSERT_GE(live_receiver.waitFor(1, 30s).size(), 1u);
  nlohmann::json letters;
  for (int i = 0; i < 50 && letters.empty(); ++i) {
    if (api.call("GET", live_path, bearer(account.live_key)).body["failed_events"] == 1) {
      api.call("PATCH", live_path, bearer(account.live_key), {{"active", false}});
      letters = api.call("GET", live_path + "/dead-letters", bearer(account.live_key)).body["data"];
    }
    if (letters.empty()) std::this_thread::sleep_for(100ms);
  }
  ASSERT_EQ(letters.size(), 1u);
  std::string letter = "/v1/webhooks/dead-letters/" + letters[0]["id"].get<std::string>();
  EXPECT_EQ(api.call("POST", letter + "/replay", bearer(account.test_key)).body["code"],
            "LIVE_KEY_REQUIRED");
  EXPECT_EQ(api.call("DELETE", letter, bearer(account.test_key)).body["code"], "LIVE_KEY_REQUIRED");
  EXPECT_EQ(api.call("DELETE", letter, bearer(account.live_key)).status, 204);
}
