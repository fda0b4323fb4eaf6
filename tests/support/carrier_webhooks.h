#pragma once
// Carrier webhooks as Telnyx signs them, for tests that play the carrier: signed with the
// simulator's published key, which the local stack's API trusts.

#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/http_test_client.h"

namespace smsgw::testing {

// Content-Type, telnyx-timestamp (now, unless given) and telnyx-signature-ed25519 for `body`.
Headers telnyxSignedHeaders(const std::string& body, long long timestamp = 0);
// {"data": {event_type, id, occurred_at, payload, record_type}, "meta": {attempt}} as Telnyx
// posts it.
nlohmann::json telnyxWebhook(const std::string& event_type, const nlohmann::json& payload);

}  // namespace smsgw::testing
