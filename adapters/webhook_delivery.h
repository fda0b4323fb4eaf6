#pragma once
// One signed delivery attempt of an event to an endpoint (docs/decisions.md, "Webhooks"; spec
// "Delivery rules" 1 and 10): resolve and check the target, connect to the checked address,
// POST the envelope, classify the answer. Shared by the dispatcher and the API's replay.

#include <chrono>
#include <optional>
#include <string>

#include "domain/clock.h"

namespace smsgw {

struct WebhookEndpoint {
  std::string id;
  std::string url;
  std::string secret;
  // The secret before the last rotation, while deliveries still carry both signatures.
  std::optional<std::string> previous_secret;
};

struct DeliveryOutcome {
  bool success = false;
  std::optional<int> http_status;
  // Empty on success; otherwise HTTP_<status>, HTTP_<status>_REDIRECT_NOT_FOLLOWED, TIMEOUT,
  // NETWORK_ERROR or SSRF_BLOCKED.
  std::string reason;
  int duration_ms = 0;
  bool blocked() const { return reason == kSsrfBlocked; }

  static constexpr const char* kSsrfBlocked = "SSRF_BLOCKED";
};

struct DeliveryOptions {
  std::chrono::milliseconds timeout{10000};  // spec: 2xx within 10 seconds
  bool allow_loopback = false;               // ALLOW_PRIVATE_WEBHOOK_TARGETS (local stacks)
  // The calling thread keeps its connections to endpoints open (adapters/http_client.h): the
  // dispatcher's delivery threads do; a replay from the API makes a connection of its own.
  bool keep_alive = false;
};

struct EventToDeliver {
  std::string id;
  std::string type;
  std::string body;  // the envelope, exactly as sent
};

// `signed_at` becomes the signature timestamp.
DeliveryOutcome deliverWebhook(const WebhookEndpoint& endpoint, const EventToDeliver& event,
                               TimePoint signed_at, const DeliveryOptions& options);

}  // namespace smsgw
