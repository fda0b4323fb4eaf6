#include "tests/support/webhooks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

namespace smsgw::testing {

using namespace std::chrono_literals;

Endpoint registerEndpoint(HttpTestClient& api, const TestAccount& account, const std::string& url,
                          nlohmann::json events) {
  Reply created = api.call("POST", "/v1/webhooks", bearer(account.test_key),
                           {{"url", url}, {"events", events}});
  EXPECT_EQ(created.status, 201) << created.raw_body;
  return {created.body.value("id", ""), created.body.value("signing_secret", "")};
}

std::string sendTestMessage(HttpTestClient& api, const TestAccount& account) {
  Reply sent = api.call("POST", "/v1/messages", bearer(account.test_key),
                        {{"from", "+14165550100"},
                         {"to", "+14162220124"},
                         {"body", "hi"},
                         {"skip_consent_check", true}});
  EXPECT_EQ(sent.status, 201) << sent.raw_body;
  return sent.body.value("id", "");
}

std::vector<ReceivedRequest> deliveriesBeforeMarker(HttpTestClient& api, const TestAccount& account,
                                                    WebhookReceiver& receiver) {
  std::string marker = sendTestMessage(api, account);
  auto isMarker = [&marker](const ReceivedRequest& request) {
    auto event = nlohmann::json::parse(request.body, nullptr, false);
    return event.is_object() && event["data"].value("message_id", "") == marker;
  };
  for (size_t count = 1; count < 1000; ++count) {
    auto received = receiver.waitFor(count, 30s);
    if (received.size() < count) break;  // the marker never came: the caller's checks fail
    if (std::any_of(received.begin(), received.end(), isMarker)) {
      received.erase(std::remove_if(received.begin(), received.end(), isMarker), received.end());
      return received;
    }
  }
  ADD_FAILURE() << "the marker event never arrived";
  return {};
}

std::vector<std::string> deadLetterReplayPaths(HttpTestClient& api, const TestAccount& account,
                                               WebhookReceiver& receiver, size_t count) {
  Endpoint endpoint = registerEndpoint(api, account, receiver.url());
  for (size_t i = 0; i < count; ++i) sendTestMessage(api, account);
  EXPECT_GE(receiver.waitFor(count, 30s).size(), count);
  std::string path = "/v1/webhooks/" + endpoint.id;
  nlohmann::json letters = nlohmann::json::array();
  for (int i = 0; i < 100 && letters.size() < count; ++i) {
    // The failed attempts must be settled (owed) before the switch-off turns them into letters.
    if (api.call("GET", path, bearer(account.test_key)).body["failed_events"] ==
        static_cast<int>(count)) {
      api.call("PATCH", path, bearer(account.test_key), {{"active", false}});
      letters = api.call("GET", path + "/dead-letters", bearer(account.test_key)).body["data"];
    }
    if (letters.size() < count) std::this_thread::sleep_for(100ms);
  }
  EXPECT_EQ(letters.size(), count);
  std::vector<std::string> paths;
  for (const auto& letter : letters)
    paths.push_back("/v1/webhooks/dead-letters/" + letter["id"].get<std::string>() + "/replay");
  return paths;
}

}  // namespace smsgw::testing
