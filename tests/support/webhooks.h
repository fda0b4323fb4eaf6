#pragma once
// Webhook helpers for end-to-end tests: endpoints registered through the API, TEST sends that
// raise events at once, and dead letters made the quickest way the rules allow.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/accounts.h"
#include "tests/support/webhook_receiver.h"

namespace smsgw::testing {

struct Endpoint {
  std::string id;
  std::string secret;
};

Endpoint registerEndpoint(HttpTestClient& api, const TestAccount& account, const std::string& url,
                          nlohmann::json events = {"message.queued"});
// A TEST send: raises message.queued at once.
void sendTestMessage(HttpTestClient& api, const TestAccount& account);
// `count` events owed to an endpoint switched off after their first attempts failed: the
// replay paths of their dead letters. The receiver must be failing them (answerWith(Status)).
std::vector<std::string> deadLetterReplayPaths(HttpTestClient& api, const TestAccount& account,
                                               WebhookReceiver& receiver, size_t count);

}  // namespace smsgw::testing
