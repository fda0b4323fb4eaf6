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
// A TEST send: raises message.queued at once. Returns the message id.
std::string sendTestMessage(HttpTestClient& api, const TestAccount& account);
// Every delivery the receiver got of events the account raised before this call, without
// sleeping: raises a marker (a TEST send's message.queued, which the endpoint must subscribe
// to) and waits for it. An account's events travel one partition in outbox order, so
// whatever was raised before the marker has been dispatched when the marker arrives.
std::vector<ReceivedRequest> deliveriesBeforeMarker(HttpTestClient& api, const TestAccount& account,
                                                    WebhookReceiver& receiver);
// `count` events owed to an endpoint switched off after their first attempts failed: the
// replay paths of their dead letters. The receiver must be failing them (answerWith(Status)).
std::vector<std::string> deadLetterReplayPaths(HttpTestClient& api, const TestAccount& account,
                                               WebhookReceiver& receiver, size_t count);

}  // namespace smsgw::testing
